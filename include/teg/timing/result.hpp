// What a timing run reports: cycles and time, where the cycles went (stall reasons per
// warp-cycle, named as Nsight Compute names them), how busy each unit was and its load over time
// (Lai Figs. 3.9-3.15), the cost of each instruction, a timeline of the first instructions of a
// few warps, and how much of the launch was simulated.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "teg/timing/config.hpp"

namespace teg::timing {

enum class StallReason : std::uint8_t {
  Selected,          // issued this cycle
  NotSelected,       // eligible, but its scheduler issued another warp
  Wait,              // fixed-latency dependency or the same-warp issue interval (Lai §3.2.2.1)
  ShortScoreboard,   // waiting for a shared-memory / MIO result
  LongScoreboard,    // waiting for a global/local memory result
  MathPipeThrottle,  // its functional unit is busy with other warps' instructions
  MioThrottle,       // the shared-memory pipeline is busy (bank-conflict replays included)
  LgThrottle,        // the global-memory pipeline is busy or its request queue is full (C_mem)
  Barrier,           // waiting at bar.sync for the rest of its block
  Count_
};
inline constexpr int kStallReasonCount = static_cast<int>(StallReason::Count_);
const char* stallReasonName(StallReason r);         // "long_scoreboard"
const char* stallReasonDescription(StallReason r);  // one line for people

// Per static instruction (pc).
struct InstructionCost {
  std::uint64_t issued = 0;          // warp instructions issued (each SASS of a software sequence)
  std::uint64_t executions = 0;      // times a warp executed it (issued, for one not a sequence)
  double stallCycles = 0;            // warp-cycles spent waiting with this pc next
  std::array<double, kStallReasonCount> stalls{};
};

struct UnitUsage {
  InstructionClass unit = InstructionClass::Fp32Fma;
  std::uint64_t issued = 0;
  double busyCycles = 0;       // cycles the unit (all schedulers' copies) was accepting work
  double utilisation = 0;      // busyCycles / (cycles × copies)
  std::vector<double> load;    // mean warp instructions in flight per time bucket (Lai Fig. 3.9)
};

struct MemoryCounters {
  std::uint64_t globalLoads = 0, globalStores = 0, atomics = 0;
  std::uint64_t sectorsRequested = 0;  // 32-B sectors the accesses touched
  std::uint64_t l1Hits = 0, l2Hits = 0, dramSectors = 0;
  std::uint64_t l2PeerHits = 0;        // of l2Hits: sectors other SMs had brought into the L2 (l2_sharing.hpp)
  std::uint64_t dramWriteSectors = 0;  // of dramSectors: write-backs of sectors stores dirtied (write_back.hpp)
  std::uint64_t l2SlotSectors = 0;     // L2-served sectors that held a C_mem slot (no L2 bandwidth figure)
  std::uint64_t l2WriteSectors = 0;    // of sectorsRequested: sectors stores wrote to the L2
  std::uint64_t l2PartialWordWrites = 0;  // of l2WriteSectors: written in part of an ECC word (read-modify-write)
  std::uint64_t sharedRequests = 0, sharedWavefronts = 0;
  double dramBytes = 0;
  double lsuBusyCycles = 0;  // cycles the LD/ST data path was held by global accesses (its lanes or its bytes)
  // The busiest L2 atomic unit's serialised time over the run: the most, on any one sector, of its
  // requests' same-word operations x timing.l2_atomic_cycles x the GPU's operations per own one
  // (MemorySystem::atomic). A lower bound on the run: the unit performs them one after another.
  double atomicUnitBusyCycles = 0;
};

struct TimelineEntry {
  std::uint32_t block = 0, warp = 0, pc = 0;
  double issue = 0, complete = 0;
};

// A read of %clock / %clock64 by a simulated warp: the microbenchmark's own timer, so a
// prediction can be compared with (end - start) / iterations exactly as the paper measured it.
struct ClockRead {
  std::uint32_t block = 0, warp = 0;
  double issue = 0;  // cycle the reading instruction issued
};

// The kernel's time as the program around it sees it: the kernel alone (what a profiler shows),
// and with the launch overhead of three ways to launch it (TimingConfig::launch*Us). A field is
// the kernel's time when its overhead is not given (`*OverheadUs` 0).
struct LaunchViews {
  double kernelMs = 0;        // the kernel alone (TimingResult::timeMs)
  double streamMs = 0;        // one of many kernels launched back to back in a stream
  double graphMs = 0;         // one kernel of a CUDA graph
  double synchronousMs = 0;   // launched, then synchronised: a host timer around one launch
  double streamOverheadUs = 0, graphOverheadUs = 0, synchronousOverheadUs = 0;
  // Back-to-back launches of the same kernel find part of the previous launch's data in the L2
  // (l2RetainedBetweenLaunches of the launch's buffers, analysis/predict.cpp): the stream and graph
  // views are then a run at that L2 hit rate plus their overheads; kernelMs and synchronousMs stay
  // cold (one launch, or the first).
  bool l2Warm = false;
  double l2Retained = 0;  // the fraction of the buffers' lines the next launch finds in the L2
  double warmKernelMs = 0;
  std::uint64_t bufferBytes = 0;  // the launch's buffers, against the L2's bytes
  std::uint64_t l2Bytes = 0;
};

// Loop-iteration sampling (src/timing/loop_extrapolation.hpp): the simulated blocks ran with a
// few iterations of their steady loop kept, and cycles and counters were extrapolated linearly to
// the traced iteration count.
struct LoopSampling {
  bool applied = false;
  std::uint32_t branchPc = 0, targetPc = 0;  // the loop's back-edge
  std::uint64_t backEdges = 0;               // taken per warp in the trace (the body runs one more time)
  std::array<std::uint64_t, 3> simulatedBackEdges{};  // the three runs: a check, then the two the line goes through
  double cyclesPerIteration = 0;  // the slope between the last two runs (cycles of the sampled blocks)
  double errorEstimate = 0;       // |change of slope between the runs| x iterations extrapolated / cycles
  std::vector<double> rejectedEstimates;  // the error estimates of smaller counts tried first (above the tolerance)
  std::string note;               // why it was not applied (empty when no steady loop was found)
};

struct TimingResult {
  std::string kernel;
  std::string device;
  double cycles = 0;            // predicted cycles of the whole launch (the busiest SM)
  double simulatedCycles = 0;   // cycles actually simulated (before extrapolation)
  double timeMs = 0;
  LaunchViews launch;           // timeMs with the launch overhead of a stream, a graph, a host timer
  double ipc = 0;               // warp instructions per cycle per SM
  std::uint64_t warpInstructions = 0;  // simulated
  std::uint64_t blocksOnSm = 0;        // blocks the simulated SM runs in the whole launch
  std::uint64_t blocksSimulated = 0;
  int residentBlocks = 0;              // N_slot used
  int waves = 0;
  bool extrapolated = false;
  LoopSampling loopSampling;
  std::array<double, kStallReasonCount> stalls{};  // warp-cycles per reason
  std::vector<UnitUsage> units;                    // only units that were used
  double bucketCycles = 0;                         // width of a load-over-time bucket
  MemoryCounters memory;
  // SASS path: the ISA the trace described, and the cycles the simulated SM's instructions lost
  // to register-bank conflicts (TimingConfig::registerBanks; 0 where not modelled).
  trace::Isa isa = trace::Isa::Ptx;
  std::string isaReason;  // why that ISA (analysis::chooseIsa); empty when the engine was fed directly
  double registerBankConflictCycles = 0;
  // DRAM partitions (TimingConfig::dramPartitions > 1): the sampled first wave's global sectors
  // per partition and the skew they give (partition_skew.hpp); empty and 1 otherwise.
  std::vector<std::uint64_t> dramSectorsByPartition;
  double dramPartitionSkew = 1;
  std::vector<InstructionCost> perInstruction;     // indexed by pc
  std::vector<TimelineEntry> timeline;
  std::vector<ClockRead> clockReads;  // in issue order per warp
  std::string bound;            // "issue", "fp32_fma unit", "shared memory", "dram bandwidth", "latency"...
  std::string boundExplanation;
  std::vector<Provenance> assumptions;
};

// The same trace re-run with one effect removed or changed (Lai §3.4).
struct WhatIfOutcome {
  std::string name;  // "no-bank-conflicts"
  TimingResult result;
};

}  // namespace teg::timing
