// TimingConfig from a device's figures. Every parameter records where it came from (measured on
// this product, the generation's figure in data/devices/generic, or derived by an equation), and
// the report lists them as the assumptions of the prediction.
#include <fmt/format.h>

#include <cmath>

#include "teg/support/error.hpp"
#include "teg/timing/config.hpp"
#include "teg/trace/memory_access.hpp"

namespace teg::timing {

namespace {

using device::Device;

std::string cycles(double v) { return fmt::format("{:g} cycles", v); }

// memory.l1_sets (kept in the provenance list only; the loader has checked it is a positive
// integer), 0 where the device has none.
int l1SetsOf(const Device& d) {
  for (const auto& f : d.figures)
    if (f.key == "memory.l1_sets") return std::stoi(f.value);
  return 0;
}

// timing.l1_tag_lookups_per_cycle (kept in the provenance list only, as memory.l1_sets), 0 where
// the device has none.
int l1TagLookupsOf(const Device& d) {
  for (const auto& f : d.figures)
    if (f.key == "timing.l1_tag_lookups_per_cycle") return std::stoi(f.value);
  return 0;
}

// A measured memory latency of this product (plain key, e.g. "latency.l2"), else the generation's
// default (timing.<level>_latency), else an error naming both keys.
double memoryLatency(const Device& d, const std::string& level, double generic, const std::string& label,
                     TimingConfig& c) {
  if (auto it = d.measured.find(level); it != d.measured.end() && it->second.unit == "cycles") {
    c.provenance.push_back({label, cycles(it->second.value),
                            fmt::format("measured ({}): {}", it->second.method, it->second.source)});
    return it->second.value;
  }
  if (generic > 0) {
    c.provenance.push_back({label, cycles(generic),
                            fmt::format("generation default timing.{}_latency ({})", level, d.cc.smName())});
    return generic;
  }
  throw Error(fmt::format("device '{}' has no {} (figure latency.{} or timing.{}_latency); add it to its device "
                          "file or pass --device-file",
                          d.name, label, level, level));
}

SchedulerPolicy policyFromName(const std::string& name, const Device& d) {
  if (name.empty() || name == "loose-round-robin") return SchedulerPolicy::LooseRoundRobin;
  if (name == "greedy-then-oldest") return SchedulerPolicy::GreedyThenOldest;
  if (name == "oldest-first") return SchedulerPolicy::OldestFirst;
  if (name == "greedy-then-youngest") return SchedulerPolicy::GreedyThenYoungest;
  throw Error(fmt::format("device '{}': timing.scheduler_policy '{}' is not one of loose-round-robin, "
                          "greedy-then-oldest, oldest-first, greedy-then-youngest",
                          d.name, name));
}

}  // namespace

TimingConfig timingConfigFor(const Device& d, long long sharedBytesPerSm) {
  TimingConfig c;
  c.deviceName = d.name;
  c.smCount = d.smCount;
  if (d.smCount <= 0) throw Error(fmt::format("device '{}' has no SM count: the timing model needs a product, not a generic entry", d.name));
  // Pre-Kepler parts count instruction cycles in the shader (hot) clock (Lai §3.2.2.1).
  c.clockMhz = d.clocks.shaderMhz > 0 ? d.clocks.shaderMhz : d.clocks.coreMhz;
  c.provenance.push_back({"clock", fmt::format("{:g} MHz", c.clockMhz),
                          d.clocks.shaderMhz > 0 ? "clocks.shader_mhz (cycles are shader cycles)" : "clocks.core_mhz (boost)"});
  c.warpSize = d.limits.warpSize;
  c.schedulers = std::max(1, d.issue.schedulersPerSm);
  if (d.timing.issueInterval <= 0)
    throw Error(fmt::format("device '{}' ({}) has no timing.issue_interval", d.name, d.cc.smName()));
  c.issueIntervalCycles = d.timing.issueInterval;
  c.policy = policyFromName(d.timing.schedulerPolicy, d);
  c.provenance.push_back({"issue", fmt::format("{} schedulers, one warp instruction each every {:g} cycles, {}",
                                               c.schedulers, c.issueIntervalCycles, schedulerPolicyName(c.policy)),
                          "warp_schedulers_per_sm, timing.issue_interval, timing.scheduler_policy"});

  const int fp32 = static_cast<int>(InstructionClass::Fp32Fma);
  if (d.timing.latency[fp32] <= 0)
    throw Error(fmt::format("device '{}' ({}) has no timing.latency.fp32_fma", d.name, d.cc.smName()));
  std::vector<std::string> assumedLatency, assumedThroughput;
  for (int i = 0; i < kClassCount; ++i) {
    const auto cls = static_cast<InstructionClass>(i);
    double latency = d.timing.latency[static_cast<std::size_t>(i)];
    // The LD/ST class's latency is never read (decoded_program.cpp: a memory instruction's
    // result time comes from its port), so it is not listed as assumed.
    if (latency <= 0) {
      latency = d.timing.latency[fp32];
      if (cls != InstructionClass::LoadStore) assumedLatency.push_back(device::instructionClassName(cls));
    }
    c.executionLatency[static_cast<std::size_t>(i)] = latency;
    // Multiple-warp issue latency = warp size / results per clock of one scheduler's share of the
    // units (Lai §3.2.2.1: "throughput for integer add is 8 ops/clock, so the issue latency is
    // 32/8 = 4 cycles"). The LD/ST path is one unit per SM.
    double throughput = d.throughputOf(cls);
    if (throughput <= 0) {
      throughput = d.throughputOf(InstructionClass::Fp32Fma);
      assumedThroughput.push_back(device::instructionClassName(cls));
    }
    const bool shared = cls != InstructionClass::LoadStore && throughput < c.schedulers;
    c.unitSharedBySm[static_cast<std::size_t>(i)] = shared;
    const double copies = cls == InstructionClass::LoadStore || shared ? 1.0 : c.schedulers;
    c.unitInterval[static_cast<std::size_t>(i)] = c.warpSize / (throughput / copies);
    const double sameWarp = d.timing.sameWarp[static_cast<std::size_t>(i)];
    c.sameWarpInterval[static_cast<std::size_t>(i)] = sameWarp > 0 ? sameWarp : c.issueIntervalCycles;
  }
  if (d.timing.unifiedAlu == 1) {
    using IC = InstructionClass;
    for (IC cls : {IC::Fp16Fma, IC::IntAdd, IC::IntMul, IC::IntMul24, IC::IntShift, IC::IntCompare, IC::IntLogic,
                   IC::IntClz, IC::IntPopc, IC::Sad, IC::SimdVideo, IC::ConvertNarrowInt, IC::Convert64,
                   IC::ConvertOther})
      c.pipeOf[static_cast<std::size_t>(cls)] = static_cast<int>(IC::Fp32Fma);
    c.provenance.push_back({"ALU pipes", "integer, logic, conversion and fp32 instructions share one pipe per scheduler",
                            "timing.unified_alu"});
  }
  // A dependent-chain measurement of this product's FMA/MAD (latency.mad) beats the generation's.
  if (auto it = d.measured.find("mad"); it != d.measured.end() && it->second.unit == "cycles") {
    c.executionLatency[fp32] = it->second.value;
    c.provenance.push_back({"execution latency (fp32 fma)", cycles(c.executionLatency[fp32]),
                            fmt::format("measured ({}): {}", it->second.method, it->second.source)});
  } else {
    c.provenance.push_back({"execution latency (fp32 fma)", cycles(c.executionLatency[fp32]),
                            fmt::format("timing.latency.fp32_fma of {}", d.cc.smName())});
  }
  if (!assumedLatency.empty())
    c.provenance.push_back({"execution latency, other classes", fmt::format("{} without a figure", assumedLatency.size()),
                            "assumed equal to fp32_fma: " + fmt::format("{}", fmt::join(assumedLatency, ", "))});
  if (!assumedThroughput.empty())
    c.provenance.push_back({"unit throughput, absent classes", fmt::format("{} classes", assumedThroughput.size()),
                            "not in the throughput table of this generation; assumed fp32_fma's: " +
                                fmt::format("{}", fmt::join(assumedThroughput, ", "))});
  c.provenance.push_back({"multiple-warp issue interval", "warp size / (throughput per SM / schedulers)",
                          "derived (Lai §3.2.2.1) from throughput.* (CUDA guide throughput table)"});

  c.sharedLatency = memoryLatency(d, "shared", d.timing.sharedLatency, "shared-memory latency", c);
  c.l1HitLatency = memoryLatency(d, "l1", d.timing.l1Latency, "L1 hit latency", c);
  c.l2HitLatency = memoryLatency(d, "l2", d.timing.l2Latency, "L2 hit latency", c);
  c.dramLatency = memoryLatency(d, "dram", d.timing.dramLatency, "DRAM latency", c);
  if (d.timing.sharedWavefrontCycles <= 0)
    throw Error(fmt::format("device '{}' ({}) has no timing.shared_wavefront_cycles", d.name, d.cc.smName()));
  c.sharedWavefrontCycles = d.timing.sharedWavefrontCycles;
  c.sharedReplayLatency = d.timing.sharedReplayLatency > 0 ? d.timing.sharedReplayLatency : c.sharedWavefrontCycles;
  c.provenance.push_back({"shared-memory wavefront", cycles(c.sharedWavefrontCycles) + " of the pipe per wavefront",
                          "timing.shared_wavefront_cycles"});
  c.provenance.push_back({"bank-conflict replay latency", cycles(c.sharedReplayLatency) + " per extra wavefront",
                          d.timing.sharedReplayLatency > 0 ? "timing.shared_replay_latency"
                                                           : "timing.shared_wavefront_cycles (no separate replay latency given)"});
  c.sharedBanks = d.limits.sharedMemoryBanks;
  c.sharedBankWidth = d.limits.sharedMemoryBankWidth;
  c.halfWarpShared = d.cc.major == 1;  // cc 1.x: a warp's request is two half-warp requests
  // Volta and later: lanes paired on one address share the return data (trace/memory_access.hpp).
  c.sharedPairedLoads = trace::sharedLoadsPairLanes(d.cc.major);
  if (c.sharedPairedLoads)
    c.provenance.push_back({"shared loads of paired lanes", "half the wavefronts of a wide load",
                            "NVIDIA forum (Greg Smith, 2019, cc 7.0-7.5: LDS.128 of uniform pairs 4 -> 2 requests); "
                            "Nsight Compute on cc 8.6 and 9.0 (forum thread 373160); later generations assumed alike"});
  if (auto it = d.measured.find("mad_smem"); it != d.measured.end() && it->second.unit == "cycles") {
    c.sharedOperandLatency = it->second.value;
    c.provenance.push_back({"shared-operand instruction latency", cycles(c.sharedOperandLatency),
                            fmt::format("measured ({}): {}; a ld.shared feeding the next ALU instruction is fused into it",
                                        it->second.method, it->second.source)});
  } else if (d.timing.sharedOperandLatency > 0) {
    c.sharedOperandLatency = d.timing.sharedOperandLatency;
    c.provenance.push_back({"shared-operand instruction latency", cycles(c.sharedOperandLatency),
                            fmt::format("timing.shared_operand_latency of {}; a ld.shared feeding the next ALU "
                                        "instruction is fused into it", d.cc.smName())});
  }

  c.lineBytes = d.memory.l1LineBytes > 0 ? d.memory.l1LineBytes : 128;
  c.sectorBytes = d.memory.sectorBytes > 0 ? d.memory.sectorBytes : 32;
  c.l1CachesGlobalLoads = d.timing.l1CachesGlobalLoads == 1;
  c.coalescing = trace::coalescingOf(d.cc.major, d.cc.minor);
  if (c.coalescing != Coalescing::Sectors) {
    c.provenance.push_back(
        {"coalescing",
         d.cc.minor >= 2 ? "per half-warp, a transaction per segment touched (32, 64 or 128 bytes by word size), "
                           "shrunk to the half or quarter it uses"
                         : "per half-warp, one transaction if threads access an aligned segment in sequence, else "
                           "a 32-byte transaction per thread",
         fmt::format("CUDA C Programming Guide (3.x-4.x), appendix 'Compute Capability 1.x', global memory, rules of "
                     "cc {}; each transaction moves all of its 32-byte sectors",
                     d.cc.minor >= 2 ? "1.2/1.3" : "1.0/1.1")});
  }
  // Maxwell and Pascal (cc 5.x, 6.x) have an L1/texture cache apart from shared memory (GM204 and
  // GP100 whitepapers); elsewhere L1 and shared memory split one array (the carve-out).
  const bool l1SeparateFromShared = d.cc.major == 5 || d.cc.major == 6;
  c.l1Bytes = l1SeparateFromShared ? d.memory.l1BytesPerSm : std::max<long long>(0, d.memory.l1BytesPerSm - sharedBytesPerSm);
  c.provenance.push_back(
      {"L1 data cache",
       fmt::format("{} KiB per SM; plain global loads {}", c.l1Bytes / 1024,
                   c.l1CachesGlobalLoads ? "cached in it" : "not cached in it (only .ca/.nc loads are)"),
       l1SeparateFromShared ? "memory.l1_bytes_per_sm (separate from shared memory on cc 5.x/6.x); timing.l1_caches_global"
                            : "memory.l1_bytes_per_sm minus the shared-memory carve-out; timing.l1_caches_global"});
  // The unified L1 is a few sets of many ways (Accel-Sim's validated configurations: 4 sets whose
  // ways grow with the L1 the carve-out leaves). Its associativity shapes the capacity step of a
  // pointer chase: with LRU over 4 sets of 256 ways, a random cycle just over the L1's size still
  // hits on most lines (each 128-byte line holds two 64-byte-apart pointers visited at random
  // times, so a line survives when both gaps between its visits are short), as gpu-benches
  // measures on V100 and A100 (pchase-curve suites); 4-way sets miss at once.
  const int l1Sets = l1SetsOf(d);
  const bool l1SetsKnown = !l1SeparateFromShared && l1Sets > 0 && c.l1Bytes > 0;
  if (l1SetsKnown) c.l1Ways = static_cast<int>(std::max<long long>(1, c.l1Bytes / c.lineBytes / l1Sets));
  c.provenance.push_back(
      {"cache associativity",
       fmt::format("L1 {}-way{}, L2 {}-way, LRU; set index hashed", c.l1Ways,
                   l1SetsKnown ? fmt::format(" ({} sets)", l1Sets) : std::string(), c.l2Ways),
       fmt::format("{}; L2 ways: assumption (NVIDIA does not publish it), TimingConfig's default. The index folds "
                   "higher line bits in, as power-of-two strides do not thrash the GPU's caches (Accel-Sim: an "
                   "IPOLY-hashed L2)",
                   l1SetsKnown ? "L1: memory.l1_sets, ways = L1 lines / sets" : "L1 ways: assumption, TimingConfig's default")});
  c.l2BytesShare = d.smCount > 0 ? d.memory.l2Bytes / d.smCount : 0;
  c.l2Bytes = d.memory.l2Bytes;
  c.provenance.push_back({"L2 share", fmt::format("{} KiB (L2 / SMs)", c.l2BytesShare / 1024),
                          "model: the simulated SM holds its share of memory.l2_bytes; what other SMs bring in: see 'L2 shared with other SMs'"});
  if (d.memory.l2Partitions > 1) {
    if (auto it = d.measured.find("l2_far"); it != d.measured.end() && it->second.unit == "cycles") {
      c.l2Partitions = d.memory.l2Partitions;
      c.l2FarLatency = it->second.value;
      c.provenance.push_back(
          {"split L2",
           fmt::format("{} partitions; the SM's own holds a copy of what it reads (1/{} of its L2 share), a line "
                       "only another holds costs {}",
                       c.l2Partitions, c.l2Partitions, cycles(c.l2FarLatency)),
           fmt::format("memory.l2_partitions; far latency measured ({}): {}; model: the near partition is an LRU copy "
                       "of the lines the SM reads (A100 whitepaper: each partition caches data for the SMs directly "
                       "connected to it), the whole L2 holds them once",
                       it->second.method, it->second.source)});
    } else {
      c.provenance.push_back({"split L2", fmt::format("{} partitions, timed as one (no far latency)", d.memory.l2Partitions),
                              "memory.l2_partitions without a latency.l2_far figure"});
    }
  }
  c.dramBytesPerCycle = d.memory.dramBandwidthGBs * 1e9 / (d.smCount * c.clockMhz * 1e6);
  c.provenance.push_back({"DRAM bandwidth share", fmt::format("{:.2f} B per cycle per SM", c.dramBytesPerCycle),
                          fmt::format("memory.dram_bandwidth_gbs {:g} GB/s (datasheet peak) / SMs / clock", d.memory.dramBandwidthGBs)});
  // Read/write turnaround: a one-way stream (reads only, or writes only) runs at the peak; where
  // reads and writes mix, the bus turns round between them and the pipe slows down to the
  // sustained bandwidth the device's copy-stream measurement gives (memory.dram_sustained_gbs).
  if (d.memory.dramSustainedGBs > 0) {
    if (d.memory.dramSustainedGBs > d.memory.dramBandwidthGBs)
      throw Error(fmt::format("device '{}': memory.dram_sustained_gbs {:g} is above the peak memory.dram_bandwidth_gbs {:g}",
                              d.name, d.memory.dramSustainedGBs, d.memory.dramBandwidthGBs));
    c.dramMixedBytesPerCycle = d.memory.dramSustainedGBs * 1e9 / (d.smCount * c.clockMhz * 1e6);
    c.provenance.push_back(
        {"DRAM read/write turnaround",
         fmt::format("{:.2f} B per cycle per SM with reads and writes evenly mixed ({:g} GB/s, {:.1f} % of the peak)",
                     c.dramMixedBytesPerCycle, d.memory.dramSustainedGBs,
                     100 * d.memory.dramSustainedGBs / d.memory.dramBandwidthGBs),
         "memory.dram_sustained_gbs (its source: teg devices show); model: each sector costs sector / peak, plus "
         "the turnaround (sector / sustained - sector / peak) times 2 min(w, 1 - w), the direction changes per "
         "sector when a write share w of the DRAM traffic alternates with the reads"});
  } else {
    c.provenance.push_back({"DRAM read/write turnaround", "not modelled",
                            "no memory.dram_sustained_gbs for this device: mixed read/write traffic runs at the peak"});
  }
  if (d.memory.dramPartitions > 1 && d.memory.dramPartitionBytes > 0) {
    c.dramPartitions = d.memory.dramPartitions;
    c.dramPartitionBytes = d.memory.dramPartitionBytes;
    c.provenance.push_back({"DRAM partitions",
                            fmt::format("{} channels, {} B each before the next (each carries 1/{} of the peak)",
                                        c.dramPartitions, c.dramPartitionBytes, c.dramPartitions),
                            "memory.dram_partitions, memory.dram_partition_bytes (Lai §3.2.3.5); see 'DRAM "
                            "partition skew'"});
  } else {
    c.provenance.push_back({"DRAM partitions", "one pipe (no partition skew)",
                            "no memory.dram_partitions for this device (its channel interleave is not published)"});
  }
  if (d.timing.l2BytesPerClock > 0) {
    c.l2BytesPerCycle = d.timing.l2BytesPerClock / d.smCount;
    c.provenance.push_back({"L2 bandwidth share", fmt::format("{:.2f} B per cycle per SM", c.l2BytesPerCycle), "timing.l2_bytes_per_clk / SMs"});
    // Stores hold the same pipe at their own rate where it was measured (mt4g's L2 write program
    // reaches 42-86 % of the read figure: docs/timing.md, "L2 writes").
    if (d.timing.l2WriteBytesPerClock > 0) {
      c.l2WriteBytesPerCycle = d.timing.l2WriteBytesPerClock / d.smCount;
      c.provenance.push_back({"L2 write bandwidth share", fmt::format("{:.2f} B per cycle per SM", c.l2WriteBytesPerCycle),
                              "timing.l2_write_bytes_per_clk / SMs"});
    } else {
      c.l2WriteBytesPerCycle = c.l2BytesPerCycle;
      c.provenance.push_back({"L2 write bandwidth share", "the read share",
                              "no timing.l2_write_bytes_per_clk for this device: a stored sector costs the L2 what a "
                              "read one does"});
    }
  } else {
    c.provenance.push_back({"L2 bandwidth", "not limited", "no timing.l2_bytes_per_clk for this device"});
  }
  if (d.memory.l2EccWordBytes > 0) {
    if (c.sectorBytes > 64 || c.sectorBytes % d.memory.l2EccWordBytes != 0)
      throw Error(fmt::format("device '{}': memory.l2_ecc_word_bytes {} must divide the sector size ({} bytes, at most 64)", d.name,
                              d.memory.l2EccWordBytes, c.sectorBytes));
    c.l2EccWordBytes = d.memory.l2EccWordBytes;
    c.provenance.push_back({"L2 ECC", fmt::format("{}-byte code words: a store writing part of one is a read-modify-write "
                                                  "(two L2 sector times)",
                                                  c.l2EccWordBytes),
                            "memory.l2_ecc_word_bytes"});
  }
  // The L1 data path: where measured (timing.l1_bytes_per_clk), wide loads move that many bytes a
  // clock; a warp instruction still takes warp size / lanes per scheduler to issue its addresses
  // (the load_store unit interval), which bounds 4-byte loads at lanes x 4 bytes (RTX 4090: Luo
  // 2024 Table V, 63.7 B/clk/SM for fp32, 121.2 for fp32.v4 on 16 LD/ST lanes).
  if (d.timing.l1BytesPerClock > 0) {
    c.lsuBytesPerCycle = d.timing.l1BytesPerClock;
    c.provenance.push_back({"LD/ST data path", fmt::format("{:g} B per cycle per SM", c.lsuBytesPerCycle),
                            "timing.l1_bytes_per_clk (its source: teg devices show); the LD/ST lanes bound the "
                            "addresses (warp size / lanes per scheduler per instruction)"});
  } else {
    c.lsuBytesPerCycle = d.throughputOf(InstructionClass::LoadStore) * 4;
    if (c.lsuBytesPerCycle > 0)
      c.provenance.push_back({"LD/ST data path", fmt::format("{:g} B per cycle per SM", c.lsuBytesPerCycle),
                              "derived: throughput.load_store lanes x 4 bytes"});
  }
  // The L1TEX tag stage (Volta and later): one line's tag per L1 set per cycle.
  c.l1TagLookupsPerCycle = l1TagLookupsOf(d);
  if (c.l1TagLookupsPerCycle > 0)
    c.provenance.push_back({"L1 tag stage", fmt::format("{} lines per cycle{}", c.l1TagLookupsPerCycle,
                                                        c.l1TagLookupsPerCycle == l1SetsOf(d) ? ", one in each L1 set" : ""),
                            "timing.l1_tag_lookups_per_cycle (its source: teg devices show); a global request "
                            "takes a cycle per wavefront of lines it needs beyond that"});
  // Lai eq. 3.2: C_mem = B_peak · mem_latency / (N_SM · ele_size · Clk), here per SM in sectors.
  c.maxOutstandingSectors = static_cast<int>(std::ceil(c.dramBytesPerCycle * c.dramLatency / c.sectorBytes));
  c.provenance.push_back({"memory concurrency C_mem", fmt::format("{} sectors in flight per SM", c.maxOutstandingSectors),
                          "derived: Lai eq. 3.2 (DRAM bandwidth share x DRAM latency / sector)"});
  c.hoistLoads = true;
  c.hoistSharedLoads = c.sharedOperandLatency == 0;
  c.provenance.push_back(
      {"instruction order",
       c.hoistSharedLoads ? "nvcc's PTX, global and shared loads hoisted within straight-line code"
                          : "nvcc's PTX, global loads hoisted within straight-line code",
       c.hoistSharedLoads
           ? "model: ptxas schedules loads early; teg moves each global/local load above the independent arithmetic "
             "before it (not past other global accesses, barriers or branches) and each shared load above the "
             "independent arithmetic before it (not past any memory access); register pressure not modelled"
           : "model: ptxas schedules loads early; teg moves each global/local load above the independent "
             "arithmetic before it (not past other memory instructions, barriers or branches; register "
             "pressure not modelled); shared loads stay (fused into their consumer on this generation)"});
  c.fuseMultiplyAdds = true;
  c.provenance.push_back({"fma contraction", "an unrounded mul.f32/.f64 feeding one add/sub of its block issues as part of it",
                          "model: the PTX ISA lets ptxas fuse mul and add without rounding modifiers into fma "
                          "(ptx/contraction.hpp states the conservative rule applied)"});
  c.barrierLatency = d.timing.barrierLatency;
  c.blockLaunchCycles = d.timing.blockLaunchCycles;
  c.provenance.push_back({"barrier / block launch", fmt::format("{:g} / {:g} cycles", c.barrierLatency, c.blockLaunchCycles),
                          "timing.barrier_latency, timing.block_launch_cycles (0 = not modelled)"});
  c.launchStreamUs = d.timing.launchStreamUs;
  c.launchGraphUs = d.timing.launchGraphUs;
  c.launchSyncUs = d.timing.launchSyncUs;
  c.provenance.push_back(
      {"kernel launch overhead",
       c.launchStreamUs > 0 || c.launchGraphUs > 0 || c.launchSyncUs > 0
           ? fmt::format("{:g} us in a stream, {:g} us in a CUDA graph, {:g} us launched then synchronised",
                         c.launchStreamUs, c.launchGraphUs, c.launchSyncUs)
           : "not given",
       "timing.launch_stream_us, timing.launch_graph_us, timing.launch_sync_us; added to the kernel's time in the "
       "launch views of the report, not to its cycles"});
  c.l2AtomicCycles = d.timing.l2AtomicCycles;
  c.sharedAtomicCycles = d.timing.sharedAtomicCycles > 0 ? d.timing.sharedAtomicCycles : c.sharedWavefrontCycles;
  c.provenance.push_back(
      {"same-address atomics",
       fmt::format("global: {}; shared: {:g} cycles per pass, one pass per lane on the same word",
                   c.l2AtomicCycles > 0 ? fmt::format("{:g} cycles per operation at the L2 atomic unit of the address",
                                                      c.l2AtomicCycles)
                                        : std::string("not serialised (no timing.l2_atomic_cycles)"),
                   c.sharedAtomicCycles),
       d.timing.sharedAtomicCycles > 0 ? "timing.l2_atomic_cycles, timing.shared_atomic_cycles"
                                       : "timing.l2_atomic_cycles; shared: timing.shared_wavefront_cycles (no "
                                         "timing.shared_atomic_cycles)"});
  c.registerBanks = static_cast<int>(d.timing.registerBanks);
  c.registerBankReads = static_cast<int>(d.timing.registerBankReads);
  if (c.registerBanks > 0 && c.registerBankReads <= 0)
    throw Error(fmt::format("{}: timing.register_banks is given without timing.register_bank_reads", d.name));
  c.provenance.push_back(
      {"register banks (SASS path)",
       c.registerBanks > 0 ? fmt::format("{} banks (R index mod {}), {} operand reads per bank per cycle; a reuse-cache "
                                         "hit reads no bank", c.registerBanks, c.registerBanks, c.registerBankReads)
                           : std::string("not modelled (no published bank mapping for this generation)"),
       "timing.register_banks, timing.register_bank_reads"});
  return c;
}

}  // namespace teg::timing
