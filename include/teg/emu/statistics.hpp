// Execution statistics of a kernel, from its warp trace: what `teg run` prints. A TraceListener
// that counts, per kernel and per source line,
//   - the dynamic instruction mix (warp instructions by kind and by throughput class),
//   - SIMD efficiency: idle lanes per executed warp instruction, and divergent branches,
//   - global memory requests and the sectors / cache lines each touches (coalescing),
//   - shared memory requests and the wavefronts each needs (bank conflicts),
//   - local and constant memory traffic, atomics, barriers.
// It knows nothing about time: these are the counts a profiler (nvprof / Nsight Compute) reports
// for the same launch, computed from addresses, not measured.
//
// Not thread-safe: the emulator delivers a kernel's events one block at a time (trace.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "teg/device/device.hpp"
#include "teg/trace/memory_access.hpp"
#include "teg/trace/trace.hpp"

namespace teg::emu {

constexpr int kMaxBanks = 64;  // array bound for the per-bank tally (GPUs have 16 or 32)

// The memory geometry the counts depend on, from the target GPU's device file.
struct MemoryGeometry {
  int sharedBanks = 0;        // limits.shared_memory_banks (16 on cc 1.x, 32 since)
  int sharedBankWidth = 0;    // limits.shared_memory_bank_width, bytes (4; 8 on cc 3.x)
  bool halfWarpShared = false;  // cc 1.x: a warp's shared request is two half-warp requests
  int sectorBytes = 0;        // memory.sector_bytes (32)
  int lineBytes = 0;          // memory.l1_line_bytes (128)
  // cc 1.x: global requests also count the transactions of the half-warp segment rules, which
  // are what such a GPU moves (trace/memory_access.hpp).
  trace::Coalescing coalescing = trace::Coalescing::Sectors;
  bool pairedSharedLoads = false;  // trace::sharedLoadsPairLanes: paired lanes halve a wide load's wavefronts

  static MemoryGeometry forDevice(const device::Device& gpu);  // throws teg::Error if incomplete
};

// Sectors, lines and wavefronts are counted by teg/trace/memory_access.hpp (shared with the
// timing engine). The bank rules it implements: CUDA C++ Programming Guide, "Compute
// Capabilities", Shared Memory: successive bank-width words map to successive banks; lanes that
// access the same word do not conflict (broadcast); a request needs as many passes as the most
// distinct words asked of one bank. Requests wider than one pass (banks x width = 128 B) are
// served in phases of 128 / bytes-per-lane lanes (half-warps for 64-bit, quarter-warps for
// 128-bit accesses) that never conflict with each other; cc 1.x: half-warp requests, 16 banks.

// The wavefronts a shared request would need without any bank conflict: its number of phases
// (with `pairedLanes`, as trace::sharedWavefronts counts a paired wide load: twice the lanes each).
std::uint32_t sharedIdealWavefronts(const MemoryGeometry& geometry, std::uint32_t activeMask,
                                    std::uint32_t bytesPerLane, bool pairedLanes = false);

// Global memory (loads, stores or atomics): requests = warp instructions with an active lane.
struct GlobalCounters {
  std::uint64_t requests = 0;
  std::uint64_t threadAccesses = 0;
  std::uint64_t bytesRequested = 0;  // active lanes x bytes per lane
  std::uint64_t sectors = 0;         // distinct sectors touched, summed over requests
  std::uint64_t lines = 0;           // distinct cache lines touched, summed over requests
  std::uint64_t transactions = 0;      // cc 1.x only: segment-rule transactions, summed
  std::uint64_t transactionBytes = 0;  // cc 1.x only: the bytes they move
  // What the requests move: the transactions' bytes on cc 1.x, else the sectors'.
  [[nodiscard]] std::uint64_t bytesMoved(int sectorBytes) const;
  // Bytes requested / bytes moved (1 = perfectly coalesced; can exceed 1 when lanes read the same
  // address, as nvprof's gld_efficiency can). 0 when nothing was moved.
  [[nodiscard]] double efficiency(int sectorBytes) const;
  GlobalCounters& operator+=(const GlobalCounters& o);
};

struct SharedCounters {
  std::uint64_t requests = 0;
  std::uint64_t threadAccesses = 0;
  std::uint64_t bytesRequested = 0;
  std::uint64_t wavefronts = 0;       // passes needed
  std::uint64_t idealWavefronts = 0;  // passes without conflicts
  [[nodiscard]] std::uint64_t conflictWavefronts() const { return wavefronts - idealWavefronts; }
  SharedCounters& operator+=(const SharedCounters& o);
};

// Local, constant and parameter traffic: requests, lane accesses and, for the constant cache
// (which serialises a warp's distinct addresses), the distinct addresses per request.
struct SimpleMemoryCounters {
  std::uint64_t requests = 0;
  std::uint64_t threadAccesses = 0;
  std::uint64_t bytesRequested = 0;
  std::uint64_t distinctAddresses = 0;
  SimpleMemoryCounters& operator+=(const SimpleMemoryCounters& o);
};

constexpr int kInstrKinds = static_cast<int>(trace::InstrKind::Unmodelled) + 1;
constexpr int kInstructionClasses = static_cast<int>(device::InstructionClass::Count_);

struct ExecutionCounters {
  std::uint64_t warpInstructions = 0;
  // Lanes per warp instruction: 32 = active + idle; active = executed + predicated off.
  // Active lanes are the SIMT mask (threads of the warp on this path, before the guard
  // predicate); idle lanes are diverged or exited threads and the missing threads of a partial
  // warp; predicated-off lanes were on the path but their guard (@p) was false.
  std::uint64_t activeLanes = 0;
  std::uint64_t threadInstructions = 0;  // executed lanes (guard true): thread-instructions
  std::uint64_t idleLanes = 0;
  std::uint64_t predicatedOffLanes = 0;
  std::array<std::uint64_t, kInstrKinds> byKind{};                // warp instructions
  std::array<std::uint64_t, kInstructionClasses> aluByClass{};    // Alu warp instructions
  std::uint64_t branches = 0;          // executed warp branch instructions
  std::uint64_t divergentBranches = 0; // some lanes that reached it took it and some did not
  GlobalCounters globalLoads, globalStores, globalAtomics;
  SharedCounters sharedLoads, sharedStores, sharedAtomics;
  SimpleMemoryCounters local, constant, param;

  // Active lanes / (32 x warp instructions): nvprof's warp_execution_efficiency.
  [[nodiscard]] double simdEfficiency() const;
  // Executed lanes / (32 x warp instructions): nvprof's warp_nonpred_execution_efficiency.
  [[nodiscard]] double nonPredicatedEfficiency() const;
  ExecutionCounters& operator+=(const ExecutionCounters& o);
};

// Where a counter row comes from: a source line, or (sourceFile = -1) instructions without one.
struct SourceLineKey {
  std::int32_t file = -1;
  std::int32_t line = 0;
  friend auto operator<=>(const SourceLineKey&, const SourceLineKey&) = default;
};

struct KernelStatistics {
  trace::KernelInfo kernel;       // static information as the emulator described it
  std::uint64_t blocksObserved = 0;
  ExecutionCounters total;
  std::map<SourceLineKey, ExecutionCounters> byLine;
  std::vector<ExecutionCounters> byPc;  // indexed by pc
};

class StatisticsCollector final : public trace::TraceListener {
 public:
  explicit StatisticsCollector(MemoryGeometry geometry);

  void beginKernel(const trace::KernelInfo& kernel) override;
  void beginBlock(std::uint32_t block) override;
  void instruction(const trace::WarpInstruction& record) override;
  void endBlock(std::uint32_t block) override;
  void endKernel() override;

  // One entry per kernel seen, in launch order (complete after its endKernel).
  [[nodiscard]] const std::vector<KernelStatistics>& kernels() const { return kernels_; }
  [[nodiscard]] const MemoryGeometry& geometry() const { return geometry_; }

 private:
  void countMemory(const trace::StaticInstruction& si, const trace::WarpInstruction& record,
                   ExecutionCounters& c) const;
  MemoryGeometry geometry_;
  std::vector<KernelStatistics> kernels_;
  std::vector<bool> guarded_;  // per pc of the current kernel: has a guard predicate (@p)
  // The SIMT mask of each warp as last seen on an unguarded instruction, keyed by
  // (block << 32 | warp): the lanes that reach a guarded instruction (the trace gives only the
  // lanes whose guard is true), to tell predicated-off from idle lanes and whether a guarded
  // branch split the lanes that reached it.
  std::unordered_map<std::uint64_t, std::uint32_t> warpMask_;
  bool inKernel_ = false;
};

// Machine-readable form (`teg run --json`): every count, plus derived ratios (simd_efficiency,
// coalescing efficiency, conflict wavefronts). Keys are snake_case and stable.
nlohmann::json countersToJson(const ExecutionCounters& counters, const MemoryGeometry& geometry);
nlohmann::json geometryToJson(const MemoryGeometry& geometry);

}  // namespace teg::emu
