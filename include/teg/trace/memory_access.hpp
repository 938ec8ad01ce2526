// How a warp's memory request maps onto the memory system: the 32-byte sectors and 128-byte lines
// a global access touches (coalescing, CUDA C++ Programming Guide "Global Memory" of each compute
// capability; Lai §3.2.3.4), the transactions of compute capability 1.x's segment rules, and
// the wavefronts a shared-memory access needs (bank conflicts: Lai §3.2.3.3, the guide's
// "Shared Memory" section of each compute capability). Pure functions, shared by the statistics
// of the emulator and by the timing engine so that both count the same way.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "teg/trace/trace.hpp"

namespace teg::trace {

struct GlobalAccessShape {
  std::uint32_t sectors = 0;         // distinct sectors touched
  std::uint32_t lines = 0;           // distinct lines touched
  std::uint32_t bytesRequested = 0;  // active lanes × bytes per lane
};

// Distinct sectors/lines of the accesses [address, address + bytesPerLane) of the active lanes.
// If `sectorsOut` is given, the distinct sector numbers (address / sectorBytes) are appended in
// first-touch order.
GlobalAccessShape globalAccessShape(const std::array<std::uint64_t, kWarpLanes>& addresses,
                                    std::uint32_t activeMask, unsigned bytesPerLane,
                                    unsigned sectorBytes, unsigned lineBytes,
                                    std::vector<std::uint64_t>* sectorsOut = nullptr);

// Of the sectors a warp's store writes, those in which it writes part of a `wordBytes`-byte word
// (an L2 ECC code word: the L2 must read the word to recompute its code). The active lanes' bytes
// are merged per sector first, so two 4-byte lanes that fill one 8-byte word write all of it and a
// coalesced float store writes no partial word; a lane of a transposed store writes 4 of a
// sector's 32 bytes. `wordBytes` must divide `sectorBytes`, which must be at most 64.
std::uint32_t sectorsWritingPartOfAWord(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask,
                                        unsigned bytesPerLane, unsigned sectorBytes, unsigned wordBytes);

// How a warp's global request becomes memory traffic (CUDA guide, "Global Memory" of each compute
// capability; Lai §3.2.3.4): the distinct 32-byte sectors it touches (cc 2.0 and later), or the
// transactions of compute capability 1.x's per-half-warp segment rules (below).
enum class Coalescing : std::uint8_t {
  Sectors,
  Cc10Segments,  // cc 1.0/1.1: coalesced only in sequence within one aligned segment
  Cc13Segments,  // cc 1.2/1.3: a 32/64/128-byte transaction per segment a half-warp touches
};
Coalescing coalescingOf(int ccMajor, int ccMinor);

// One memory transaction of compute capability 1.x: `bytes` (32, 64 or 128) from the aligned
// address `address`.
struct MemoryTransaction {
  std::uint64_t address = 0;
  std::uint32_t bytes = 0;
};

// Compute capability 1.2/1.3 coalescing: per half-warp, one transaction per segment touched (32
// bytes for 1-byte words, 64 for 2-byte words, 128 otherwise), shrunk to 64 or 32 bytes while the
// touched bytes fit in its lower or upper half (guide, "Compute Capability 1.x", global memory).
// Returns the bytes moved; `transactions` the count; `out` (if given) gets the transactions
// appended, half-warp by half-warp.
std::uint32_t segmentTransactionsCc13(const std::array<std::uint64_t, kWarpLanes>& addresses,
                                      std::uint32_t activeMask, unsigned bytesPerLane,
                                      std::uint32_t* transactions, std::vector<MemoryTransaction>* out = nullptr);

// Compute capability 1.0/1.1 coalescing (same section of the guide): a half-warp's request is
// one 64-byte (4-byte words) or 128-byte (8-byte words) transaction, or two 128-byte ones (16-byte
// words), only if its k-th active thread accesses the k-th word of one aligned segment of that
// size (inactive threads allowed); otherwise every active thread gets a 32-byte transaction of
// its own. Words of other sizes never coalesce. Returns and appends as segmentTransactionsCc13.
std::uint32_t segmentTransactionsCc10(const std::array<std::uint64_t, kWarpLanes>& addresses,
                                      std::uint32_t activeMask, unsigned bytesPerLane,
                                      std::uint32_t* transactions, std::vector<MemoryTransaction>* out = nullptr);

// segmentTransactionsCc10 or segmentTransactionsCc13 as `rules` say (0 transactions for Sectors).
std::uint32_t segmentTransactions(Coalescing rules, const std::array<std::uint64_t, kWarpLanes>& addresses,
                                  std::uint32_t activeMask, unsigned bytesPerLane, std::uint32_t* transactions,
                                  std::vector<MemoryTransaction>* out = nullptr);

// Wavefronts a shared-memory request needs: lanes are served in phases that each move at most
// banks × bankWidth bytes (a full warp for 4-byte accesses, half-warps for 8-byte, quarter-warps
// for 16-byte; always half-warps when `halfWarpPhases`, as on compute capability 1.x); within a
// phase, the number of wavefronts is the largest number of distinct bank-width words that fall
// into one bank (the same word read by several lanes is a broadcast and costs nothing extra).
// `pairedLanes`: two lanes of one address share a phase slot, so a phase serves twice as many
// lanes (at most the warp); see pairUniformAddresses.
std::uint32_t sharedWavefronts(const std::array<std::uint64_t, kWarpLanes>& addresses,
                               std::uint32_t activeMask, unsigned bytesPerLane, unsigned banks,
                               unsigned bankWidth, bool halfWarpPhases, bool pairedLanes = false);

// True when the active lanes come in pairs with one address: every active lane n has its partner
// n^1 active at the same address, or every one has n^2 (a warp-wide broadcast is both). On cc 7.0
// and later a shared load of that shape returns the pair's data once, so a wide load (LDS.64,
// LDS.128) needs half the wavefronts (NVIDIA forum, Greg Smith, "Unexpected shared memory bank
// conflict", 2019: LDS.128 4 -> 2 requests on cc 7.0-7.5; Nsight Compute on an A10 (cc 8.6) and
// an H100 (cc 9.0), forum thread 373160: an LDS.128 whose lanes 0-15 and 16-31 read one address
// each takes 2 wavefronts).
bool pairUniformAddresses(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask);

// Whether a generation pairs lanes that way: Volta and later (the sources above cover cc 7.0-7.5,
// 8.6 and 9.0; the other generations with Volta's unified L1/shared array are taken to keep it).
// One rule for the timing engine and the emulator's statistics, so `teg run` and `teg predict`
// count the same wavefronts.
constexpr bool sharedLoadsPairLanes(int computeCapabilityMajor) { return computeCapabilityMajor >= 7; }

// Passes a shared-memory atomic needs: every active lane takes its word's bank for a pass of its
// own (no broadcast: lanes on the same word are serialised), so the count is the most lanes any
// one bank serves. Phases do not apply: the pipe serialises lane by lane within a bank.
std::uint32_t sharedAtomicPasses(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask,
                                 unsigned bytesPerLane, unsigned banks, unsigned bankWidth);

// The most active lanes whose accesses fall on one word (an aligned bytesPerLane unit): a global
// atomic's operations on that address, which its L2 atomic unit performs one after another.
std::uint32_t sameWordLanes(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask,
                            unsigned bytesPerLane);

}  // namespace teg::trace
