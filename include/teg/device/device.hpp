// A GPU as the models see it: limits, clocks, memory system, per-class arithmetic throughput and
// measured latencies. Every figure is loaded from data/devices/ (one JSON file per GPU; generic
// per-compute-capability files under data/devices/generic/ that specific GPUs inherit from),
// where each figure carries its source. Nothing in this struct is a literal in code: the
// defaults below only mean "not given" (0 / empty) and the loader rejects a device whose
// required figures are missing.
//
// JSON key of each figure in a device file's "figures" object is given as [key] on the field.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace teg::device {

struct ComputeCapability {
  int major = 0;
  int minor = 0;

  [[nodiscard]] int code() const { return major * 10 + minor; }  // 8.6 -> 86
  [[nodiscard]] std::string str() const;                          // "8.6"
  [[nodiscard]] std::string smName() const;                       // "sm_86"
  friend bool operator==(const ComputeCapability&, const ComputeCapability&) = default;
  friend auto operator<=>(const ComputeCapability&, const ComputeCapability&) = default;
};

// How registers are handed out: per warp (cc >= 2.0) or per block (cc 1.x).
enum class RegisterGranularity { Warp, Block };

// Launch and residency limits: CUDA C++ Programming Guide, "Technical Specifications per Compute
// Capability", and the allocation rules of the CUDA Occupancy Calculator.
struct Limits {
  int warpSize = 0;                      // [warp_size]
  int maxThreadsPerBlock = 0;            // [max_threads_per_block]
  std::array<int, 3> maxBlockDim{};      // [max_block_dim] (x, y, z)
  std::array<long long, 3> maxGridDim{}; // [max_grid_dim]
  int maxThreadsPerSm = 0;               // [max_threads_per_sm]
  int maxWarpsPerSm = 0;                 // [max_warps_per_sm]
  int maxBlocksPerSm = 0;                // [max_blocks_per_sm]
  int registersPerSm = 0;                // [registers_per_sm] 32-bit registers
  int maxRegistersPerBlock = 0;          // [max_registers_per_block]
  int maxRegistersPerThread = 0;         // [max_registers_per_thread]
  int registerAllocationUnit = 0;        // [register_allocation_unit] registers
  RegisterGranularity registerAllocationGranularity = RegisterGranularity::Warp;
                                         // [register_allocation_granularity] "warp" | "block"
  int warpAllocationGranularity = 0;     // [warp_allocation_granularity] with "block"
                                         //   granularity (cc 1.x), warps are counted in
                                         //   groups of this many (2); 1 elsewhere
  int sharedMemoryPerSm = 0;             // [shared_memory_per_sm] bytes, largest carve-out
  std::vector<int> sharedMemoryCarveouts;// [shared_memory_carveouts] bytes per SM, ascending;
                                         //   a single entry when it is not configurable
  int sharedMemoryPerBlock = 0;          // [shared_memory_per_block] static/default limit, bytes
  int sharedMemoryPerBlockOptin = 0;     // [shared_memory_per_block_optin] bytes
  int reservedSharedMemoryPerBlock = 0;  // [reserved_shared_memory_per_block] bytes (1 KB, cc>=8.0)
  int sharedMemoryAllocationUnit = 0;    // [shared_memory_allocation_unit] bytes
  int barriersPerSm = 0;                 // [barriers_per_sm] named barriers are 16 per block
  int sharedMemoryBanks = 0;             // [shared_memory_banks]
  int sharedMemoryBankWidth = 0;         // [shared_memory_bank_width] bytes
  int constantMemory = 0;                // [constant_memory] bytes
};

// The SM's issue machinery.
struct Issue {
  int subPartitions = 0;             // [sub_partitions] register-file partitions the occupancy
                                     //   rules divide the register file into (cuda_occupancy.h:
                                     //   4 from Kepler on, 2 on GP100; 1 before Kepler)
  int schedulersPerSm = 0;           // [warp_schedulers_per_sm]
  int dispatchUnitsPerScheduler = 0; // [dispatch_units_per_scheduler]
};

struct Clocks {
  double coreMhz = 0;    // [clocks.core_mhz] boost (graphics) clock that cycles are counted in
  double baseMhz = 0;    // [clocks.base_mhz]
  double shaderMhz = 0;  // [clocks.shader_mhz] pre-Kepler shader (hot) clock; 0 if none
  double memoryMhz = 0;  // [clocks.memory_mhz] memory clock as the vendor quotes it
};

struct Memory {
  std::string dramType;        // [memory.dram_type] "GDDR6", "HBM2e", ...
  double dramGiB = 0;          // [memory.dram_gib]
  double dramBandwidthGBs = 0; // [memory.dram_bandwidth_gbs] theoretical peak, 1e9 B/s
  // [memory.dram_sustained_gbs] the bandwidth a streaming kernel reaches (DRAM refresh, page
  // misses, bus turnaround take the rest of the peak); 0 = not known, the peak is used.
  double dramSustainedGBs = 0;
  int busWidthBits = 0;        // [memory.bus_width_bits]
  long long l2Bytes = 0;       // [memory.l2_bytes]
  long long l1BytesPerSm = 0;  // [memory.l1_bytes_per_sm] unified L1/shared total per SM
  int l1LineBytes = 0;         // [memory.l1_line_bytes]
  int l2LineBytes = 0;         // [memory.l2_line_bytes]
  int sectorBytes = 0;         // [memory.sector_bytes] 32 on cc >= 2.0
  // DRAM partitions (channels) and the bytes each takes before the next one does (Lai §3.2.3.5:
  // GT200 has 8 of 256 bytes). 0 where the interleave is not published: the DRAM is then one
  // pipe.
  int dramPartitions = 0;      // [memory.dram_partitions]
  int dramPartitionBytes = 0;  // [memory.dram_partition_bytes]
  // L2 partitions an SM sees at different latencies (A100: 2, each caching for the GPCs wired to
  // it); 0 or 1: one L2. The far latency is the measured figure latency.l2_far.
  int l2Partitions = 0;        // [memory.l2_partitions]
  // Bytes one ECC code word of the L2 covers (SECDED over 8-byte words on the data-centre dies:
  // V100 whitepaper, "ECC Memory Resiliency"); 0 = no ECC in the L2. A store that writes part of
  // a word makes the L2 read the word to recompute its code: a read-modify-write.
  int l2EccWordBytes = 0;      // [memory.l2_ecc_word_bytes]
};

// Rows of the CUDA C++ Programming Guide's arithmetic throughput table ("results per clock cycle
// per multiprocessor"), plus the load/store and tensor units the timing model needs.
// JSON key: throughput.<name> with <name> as returned by instructionClassName().
enum class InstructionClass {
  Fp16Fma,          // 16-bit floating-point add, multiply, multiply-add (per half, not half2)
  Fp32Fma,          // 32-bit floating-point add, multiply, multiply-add
  Fp64Fma,          // 64-bit floating-point add, multiply, multiply-add
  Special,          // 32-bit reciprocal, rsqrt, log2, exp2, sine, cosine (SFU)
  IntAdd,           // 32-bit integer add, extended add, subtract, extended subtract
  IntMul,           // 32-bit integer multiply, multiply-add, extended multiply-add
  IntMul24,         // 24-bit integer multiply (__[u]mul24)
  IntShift,         // 32-bit integer shift
  IntCompare,       // compare, minimum, maximum
  IntLogic,         // 32-bit bitwise AND, OR, XOR
  IntClz,           // count of leading zeros, most significant non-sign bit
  IntPopc,          // population count
  WarpShuffle,      // warp shuffle
  WarpReduce,       // warp reduce
  Sad,              // sum of absolute difference
  SimdVideo,        // SIMD video instructions
  ConvertNarrowInt, // conversions from 8/16-bit integer to 32-bit integer types
  Convert64,        // conversions from and to 64-bit types
  ConvertOther,     // all other type conversions
  Dp4a,             // 8-bit dot product (dp4a/dp2a)
  LoadStore,        // load/store unit lanes: memory instructions' threads per clock per SM
  Branch,           // branch/control instructions' threads per clock per SM
  Count_
};
const char* instructionClassName(InstructionClass c);  // "fp32_fma", ...
std::optional<InstructionClass> instructionClassFromName(const std::string& name);

// A figure measured on real hardware (microbenchmark papers, teg's own microbenchmarks).
struct MeasuredFigure {
  double value = 0;
  std::string unit;    // "cycles", "GB/s", ...
  std::string method;  // e.g. "luo2024_pchase" (see data/validation/README.md)
  std::string source;
};

struct Device {
  std::string id;                   // file stem, e.g. "a100-sxm4-40gb"
  std::string name;                 // marketing name, e.g. "NVIDIA A100-SXM4-40GB"
  std::vector<std::string> aliases; // case-insensitive names that find it
  bool generic = false;             // a per-compute-capability entry (sm_XY), not a product
  std::string architecture;         // [architecture] "Ampere"
  std::string chip;                 // [chip] the die, e.g. "GA100" (products; "" if not given):
                                    //   GPUs of one chip are siblings, whose measurements
                                    //   `teg devices audit` counts as measurements of the chip
  ComputeCapability cc;             // [compute_capability] "8.0"
  int smCount = 0;                  // [sm_count] (generic entries: 0)
  Limits limits;
  Issue issue;
  Clocks clocks;
  Memory memory;
  // Results per clock per SM; absent (0) when the class does not exist on this generation.
  std::array<double, static_cast<int>(InstructionClass::Count_)> throughput{};
  // Measured latencies by level or instruction ("dram", "l2", "l1", "shared", "FFMA", ...):
  // [latency.<what>] = {"value", "unit", "method", "source"}.
  std::map<std::string, MeasuredFigure> measured;
  // Parameters of the timing model (Lai ch. 3) for this generation; 0 / empty = not given.
  struct Timing {
    double issueInterval = 0;  // [timing.issue_interval] cycles between two issues of a scheduler
    std::string schedulerPolicy;  // [timing.scheduler_policy] loose-round-robin | greedy-then-oldest | oldest-first
    // Dependent-issue (execution) latency and same-warp issue interval per class, cycles:
    // [timing.latency.<class>], [timing.same_warp.<class>] (class names as in throughput.*).
    std::array<double, static_cast<int>(InstructionClass::Count_)> latency{};
    std::array<double, static_cast<int>(InstructionClass::Count_)> sameWarp{};
    // Generation defaults for memory latencies, used when the product has no measured figure:
    // [timing.shared_latency], [timing.l1_latency], [timing.l2_latency], [timing.dram_latency].
    double sharedLatency = 0, l1Latency = 0, l2Latency = 0, dramLatency = 0;
    double sharedWavefrontCycles = 0;  // [timing.shared_wavefront_cycles] pipe cycles per wavefront
    // [timing.shared_replay_latency] latency added per extra wavefront; 0 = shared_wavefront_cycles
    double sharedReplayLatency = 0;
    // [timing.shared_operand_latency] cc 1.x: execution latency of an ALU instruction that takes
    // one operand straight from shared memory (MAD dest, [smem], src2, src3); 0 = no such operands.
    double sharedOperandLatency = 0;
    double barrierLatency = 0;         // [timing.barrier_latency]
    double blockLaunchCycles = 0;      // [timing.block_launch_cycles] block scheduler cost per block
    // Kernel launch overhead, microseconds, as three ways of launching see it (0 = not given):
    // [timing.launch_stream_us] the gap a kernel launched back to back behind another in a stream
    // adds; [timing.launch_graph_us] the same inside a CUDA graph; [timing.launch_sync_us] launch
    // then synchronise (cudaStreamSynchronize after each kernel): what a host timer adds.
    double launchStreamUs = 0, launchGraphUs = 0, launchSyncUs = 0;
    // [timing.l2_atomic_cycles] cycles the L2's atomic unit takes per operation on one address:
    // atomics to the same address are serialised there (0 = not modelled).
    double l2AtomicCycles = 0;
    // [timing.shared_atomic_cycles] cycles the shared-memory pipe takes per serialised pass of a
    // shared atomic (lanes on the same word take one pass each); 0 = timing.shared_wavefront_cycles.
    double sharedAtomicCycles = 0;
    // General-register file banks as published for the generation (SASS timing only): an
    // instruction's source registers map to bank (R index mod [timing.register_banks]); each bank
    // delivers [timing.register_bank_reads] 32-bit operands per cycle, a source beyond that costs
    // a cycle (0 = not modelled: no published mapping).
    double registerBanks = 0, registerBankReads = 0;
    double l2BytesPerClock = 0;        // [timing.l2_bytes_per_clk] whole-GPU L2 bandwidth
    // [timing.l2_write_bytes_per_clk] whole-GPU L2 bandwidth of stores (sectors written x 32 B per
    // clock); 0 = the same as l2BytesPerClock.
    double l2WriteBytesPerClock = 0;
    // [timing.l1_bytes_per_clk] bytes the L1 data path moves per clock per SM (wide loads); 0 =
    // the LD/ST lanes x 4 bytes. The lanes still bound a warp instruction's addresses.
    double l1BytesPerClock = 0;
    int l1CachesGlobalLoads = -1;      // [timing.l1_caches_global] 1 | 0; -1 = not given
    // [timing.unified_alu] 1: integer, logic, conversion and fp32 instructions run on the same
    // cores (one pipe per scheduler, e.g. GT200's 8 SPs); 0 or -1: a pipe per throughput class.
    int unifiedAlu = -1;
  } timing;

  // Provenance: for each figure key (e.g. "memory.l2_bytes"), its value as text and its source.
  struct Figure {
    std::string key;
    std::string value;
    std::string source;
    std::string definedIn;  // the file that set it (a generic entry, the device, a user override)
    std::string note;       // the figure's optional "note" (a caveat, how it was derived)
    std::string definedById;  // id of the device whose file set it ("sm_80", "a100-pcie-40gb")
    // What kind of figure it is (optional "basis": "measured", "documented", "derived",
    // "assumed"; "" = not recorded) and, for a measurement, the id of the GPU it was measured on
    // ("measured_on"; a product file's measured figure defaults to that product).
    std::string basis;
    std::string measuredOn;
  };
  std::vector<Figure> figures;

  [[nodiscard]] double throughputOf(InstructionClass c) const {
    return throughput[static_cast<int>(c)];
  }
};

}  // namespace teg::device
