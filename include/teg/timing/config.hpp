// The parameters of the timing model (Lai ch. 3, generalised from GT200 to every GPU of the
// device database). Every number here is derived from a device's data (data/devices/*.json, each
// figure with its source) by timingConfigFor(); none is a literal in the engine. The engine
// reads only this struct, so a what-if run is "the same config with one field changed".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "teg/device/device.hpp"
#include "teg/timing/software_sequence.hpp"
#include "teg/trace/memory_access.hpp"

namespace teg::timing {

using device::InstructionClass;
inline constexpr int kClassCount = static_cast<int>(InstructionClass::Count_);

enum class SchedulerPolicy : std::uint8_t {
  LooseRoundRobin,  // next eligible warp after the last issued one (TEG's policy, Lai §3.5)
  GreedyThenOldest, // keep issuing from the same warp while it can, else the oldest
  OldestFirst,
  GreedyThenYoungest,  // keep issuing from the same warp while it can, else the youngest (measured on
                       // Ampere: Huerta et al., MICRO 2025, arXiv:2503.20481 §5.1.2)
};
const char* schedulerPolicyName(SchedulerPolicy p);

// How global requests become traffic: sectors, or cc 1.x's segment transactions.
using trace::Coalescing;

// Where a parameter's value came from, for the report's list of assumptions.
struct Provenance {
  std::string parameter;  // "dram latency"
  std::string value;      // "466.3 cycles"
  std::string origin;     // "measured: luo2024_pchase (…)", "datasheet: …", "derived: …"
};

struct TimingConfig {
  std::string deviceName;
  int smCount = 0;
  double clockMhz = 0;                 // the clock cycles are counted in
  int warpSize = 32;

  // Issue engine (Lai §3.2.1): each of `schedulers` picks one warp instruction every
  // `issueIntervalCycles` and dispatches up to `dispatchPerIssue` of them.
  int schedulers = 0;
  double issueIntervalCycles = 1;
  SchedulerPolicy policy = SchedulerPolicy::LooseRoundRobin;

  // Per instruction class (Lai §3.2.2.1): the three latencies of TEG.
  //  executionLatency: cycles until a dependent instruction can issue;
  //  unitInterval: multiple-warp issue latency = cycles the unit of one scheduler is busy per
  //                warp instruction = warpSize / (throughput per SM / schedulers);
  //  sameWarpInterval: cycles before the same warp can issue again.
  std::array<double, kClassCount> executionLatency{};
  std::array<double, kClassCount> unitInterval{};
  std::array<double, kClassCount> sameWarpInterval{};
  // A class whose throughput per SM is below one result per clock per scheduler (fp64 on GeForce
  // and Turing parts: 2 per SM for 4 schedulers) is one unit the schedulers share, busy
  // warpSize / throughput cycles per warp instruction, rather than a copy per scheduler.
  std::array<bool, kClassCount> unitSharedBySm{};
  // Which class's unit a class issues to (-1: its own). GT200's SPs run integer, logic,
  // conversion and fp32 instructions alike (timing.unified_alu), so those classes share the
  // fp32 unit's issue slots; from Volta on each class has its own pipe here.
  std::array<int, kClassCount> pipeOf = [] {
    std::array<int, kClassCount> a{};
    a.fill(-1);
    return a;
  }();
  [[nodiscard]] int pipe(int cls) const { return pipeOf[static_cast<std::size_t>(cls)] < 0 ? cls : pipeOf[static_cast<std::size_t>(cls)]; }

  // Memory (Lai §3.2.2.4, §3.2.3.3-5).
  double sharedLatency = 0;          // conflict-free shared-memory load
  double sharedWavefrontCycles = 0;  // cycles the shared-memory pipe is busy per wavefront
  double sharedReplayLatency = 0;    // latency added per extra wavefront (bank-conflict replay);
                                     // 0 = sharedWavefrontCycles
  int sharedBanks = 32;
  int sharedBankWidth = 4;
  bool halfWarpShared = false;       // cc 1.x: conflicts are counted per half-warp
  // cc >= 7.0: a shared load whose lanes pair up on one address returns each pair's data once
  // (trace::pairUniformAddresses), halving the wavefronts of a wide load.
  bool sharedPairedLoads = false;
  // cc 1.x: an ALU instruction can take one operand from shared memory (seed 002 §1.1.2, "MAD
  // dest, [smem], src2, src3"), so a shared load feeding the next instruction is fused into it:
  // one instruction with this execution latency (conflict-free) instead of a load and an ALU op.
  // 0 = no fusion (cc 2.0 and later load shared memory into registers first).
  double sharedOperandLatency = 0;
  double l1HitLatency = 0;
  double l2HitLatency = 0;
  double dramLatency = 0;
  bool l1CachesGlobalLoads = true;
  long long l1Bytes = 0;             // L1 data cache per SM (after the shared-memory carve-out)
  long long l2BytesShare = 0;        // this SM's share of the L2
  // The whole L2 (memory.l2_bytes): what the grid's footprint is measured against (write_back.hpp).
  // 0 in a config built by hand: wholeL2Bytes takes l2BytesShare x smCount.
  long long l2Bytes = 0;
  // A split L2 (memory.l2_partitions > 1 with a latency.l2_far figure: A100): the SM's own
  // partition holds a copy of the lines it reads, l2BytesShare / l2Partitions of them; a read the
  // L2 holds but that partition does not costs l2FarLatency. 1 / 0: one L2, one latency.
  int l2Partitions = 1;
  double l2FarLatency = 0;
  int lineBytes = 128;
  int sectorBytes = 32;
  Coalescing coalescing = Coalescing::Sectors;
  int l1Ways = 4;    // assumption (not published); listed in the provenance
  int l2Ways = 16;   // assumption (not published); listed in the provenance
  double dramBytesPerCycle = 0;      // this SM's share of the DRAM bandwidth, bytes per SM cycle
  // This SM's share of the DRAM bandwidth when reads and writes are evenly mixed (a copy stream:
  // the bus turns round between them); 0 = no turnaround cost. memory_system.cpp interpolates
  // between the two by the traffic's mix.
  double dramMixedBytesPerCycle = 0;
  // DRAM channels (Lai §3.2.3.5): a sector goes to partition (address / dramPartitionBytes) mod
  // dramPartitions, each carrying 1/dramPartitions of the share. 1: one pipe (no skew).
  int dramPartitions = 1;
  int dramPartitionBytes = 0;
  double l2BytesPerCycle = 0;        // this SM's share of the L2 bandwidth
  // This SM's share of the L2 bandwidth for stores (timing.l2_write_bytes_per_clk; the read
  // share where the device gives none). A stored sector holds the L2 pipe sectorBytes / this.
  double l2WriteBytesPerCycle = 0;
  // memory.l2_ecc_word_bytes: a store that writes part of an ECC word of a sector costs the L2
  // a read-modify-write, twice a whole sector's write time (MemorySystem::store). 0: no ECC.
  int l2EccWordBytes = 0;
  double lsuBytesPerCycle = 0;       // L1/LSU data path of one SM, bytes per cycle
  // L1TEX tag stage (timing.l1_tag_lookups_per_cycle): cache lines a global request's tags are
  // looked up for per cycle, one in each of that many L1 sets; a request takes a cycle per line of
  // its busiest set. 0 = not modelled.
  int l1TagLookupsPerCycle = 0;
  int maxOutstandingSectors = 0;     // memory-pipeline concurrency C_mem (Lai eq. 3.1-3.2)
  double barrierLatency = 0;         // cycles from the last arrival to the release
  double blockLaunchCycles = 0;      // block scheduler cost of starting a block on an SM
  // Kernel launch overhead, microseconds (0 = not given): what a kernel launched back to back
  // behind another in a stream, inside a CUDA graph, or followed by a synchronisation adds to its
  // own time. Reported apart from the kernel's time (TimingResult::launch).
  double launchStreamUs = 0, launchGraphUs = 0, launchSyncUs = 0;
  // Atomics to one address are serialised (0 = not modelled): at the L2's atomic unit for global
  // memory (cycles per operation), in the shared-memory pipe for shared memory (cycles per pass;
  // lanes on the same word take a pass each).
  double l2AtomicCycles = 0;
  double sharedAtomicCycles = 0;

  // SASS path only (KernelInfo::isa == Sass): the register banks of the generation where
  // published (0 = no bank conflicts modelled): bank = R index mod registerBanks, each bank
  // reading registerBankReads operands a cycle (timing.register_banks, timing.register_bank_reads).
  int registerBanks = 0;
  int registerBankReads = 0;

  // Replay order: hoist global loads above independent arithmetic of their straight-line run, as
  // ptxas schedules them (src/timing/load_hoisting.hpp). timingConfigFor turns it on; a config
  // built by hand replays the trace exactly in order.
  bool hoistLoads = false;
  // With hoistLoads, shared loads move up too (past arithmetic only): where shared memory is read
  // into registers by a load of its own (sharedOperandLatency == 0), ptxas issues those loads
  // ahead of their uses as it does global ones.
  bool hoistSharedLoads = false;
  // Replay a multiply ptxas fuses into its add (StaticInstruction::fusedInto, from
  // ptx/contraction.hpp) as part of that add: one FFMA/DFMA issue instead of two instructions.
  bool fuseMultiplyAdds = false;
  // PTX instructions issued as their SASS sequence (software_sequence.hpp), by mnemonic; one
  // issue per PTX instruction for any other. Empty in a config built by hand; analysis::predict
  // fills it for the GPU's architecture.
  SequenceShapes sequences;

  // What-if overrides (Lai §3.4: remove a bottleneck and re-run).
  bool noBankConflicts = false;
  bool perfectCoalescing = false;
  bool noDivergence = false;         // pack partial-mask instructions (see TimingEngine::record)
  double forcedL2HitRate = -1;       // 0..1, or -1 = simulate the cache
  // Back-to-back launches (analysis/predict.cpp, timing::l2RetainedBetweenLaunches): the share of
  // the L2 misses of this launch's reads that find the line the previous launch left there. 0 = a
  // cold L2 (one launch, or the first).
  double l2WarmFraction = 0;
  int maxResidentBlocks = 0;         // 0 = occupancy decides

  std::vector<Provenance> provenance;
};

// The whole L2: TimingConfig::l2Bytes, or the shares of all SMs where it is not set. Not the shares'
// sum where it is: L2 / SMs is rounded down (the A100's 40 MiB over 108 SMs lose 52 bytes, and
// mt4g's L2 programs use an array of exactly the L2's size), and a small grid's SMs get larger
// shares (analysis::predict).
inline long long wholeL2Bytes(const TimingConfig& c) {
  return c.l2Bytes > 0 ? c.l2Bytes : c.l2BytesShare * static_cast<long long>(c.smCount > 0 ? c.smCount : 1);
}

// Builds the configuration for `device` from its figures; `sharedBytesPerSm` is the carve-out
// the launch runs with (the rest of the unified array is L1). Throws teg::Error naming the figure
// when the device lacks one the model needs.
TimingConfig timingConfigFor(const device::Device& device, long long sharedBytesPerSm);

}  // namespace teg::timing
