// The recorded instruction streams of one thread block, preprocessed for the timing model: per
// warp, the executed pcs and masks in order; for each memory instruction, what it asks of the
// memory system (distinct sectors for global/local accesses, wavefronts for shared memory).
#pragma once

#include <cstdint>
#include <vector>

#include "teg/trace/trace.hpp"

namespace teg::timing::detail {

inline constexpr std::uint32_t kNoMemory = 0xffffffffu;
// Set in the sector id of a local-memory access (per thread, never shared; kept apart from
// global sectors, which are byte addresses / sector size and never reach bit 62).
inline constexpr std::uint64_t kLocalSectorTag = std::uint64_t{1} << 62;

struct WarpOp {
  std::uint32_t pc = 0;
  std::uint32_t activeMask = 0;
  std::uint32_t memory = kNoMemory;  // index into BlockTrace::memory
};

struct MemoryRequest {
  std::uint32_t firstSector = 0;  // into BlockTrace::sectors (global/local)
  std::uint16_t sectorCount = 0;
  std::uint16_t minimalSectors = 0;  // sectors a perfectly coalesced request would touch
  std::uint16_t wavefronts = 0;      // shared memory
  std::uint16_t idealWavefronts = 0; // without bank conflicts (1 per phase)
  std::uint16_t sameWordLanes = 0;   // global atomics: the most lanes on one word (trace::sameWordLanes)
  // Global stores on a GPU with L2 ECC: sectors written in part of a code word
  // (trace::sectorsWritingPartOfAWord), each a read-modify-write in the L2.
  std::uint16_t partialWordSectors = 0;
};

struct BlockTrace {
  std::uint32_t block = 0;
  std::vector<std::vector<WarpOp>> warps;
  std::vector<MemoryRequest> memory;
  std::vector<std::uint64_t> sectors;  // sector numbers (address / sector bytes)
};

// cc 1.x shared-memory operands (TimingConfig::sharedOperandLatency): instruction `pc` is an ALU
// instruction that reads the register the shared load just before it (pc - 1) wrote, so GT200
// executes the pair as one instruction with a shared-memory operand. The engine merges such a
// pair into one op (the ALU pc carrying the load's memory request) when a warp executes both.
bool takesSharedOperand(const trace::KernelInfo& kernel, std::uint32_t pc);

// FMA contraction (TimingConfig::fuseMultiplyAdds): the add that multiply `mulPc` fuses into
// (StaticInstruction::fusedInto) reads the multiply's sources instead of its product, so the
// pair replays as one instruction; the engine drops the multiply from every warp's stream.
void fuseMultiplyAdd(trace::KernelInfo& kernel, std::uint32_t mulPc);

}  // namespace teg::timing::detail
