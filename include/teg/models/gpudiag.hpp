// GPUDIAG's analytical model of instruction scheduling (H. Kim, SNU 2023 — seed 004, ch. 3.1):
// the state buffers that bound how many blocks an SM holds (N_slot, eq. 3.3), the block
// scheduler's kernel time T(g, b) (eq. 3.2), the functional-unit model fu(c) (eqs. 3.5-3.6) and
// the bottleneck throughput (eq. 3.7).
//
// Notation (seed 004 sect. 3.1.1): a block has b warps, uses s bytes of shared memory and r_i
// type-i registers per warp; ⌈a, u⌉ rounds a up to a multiple of u (footnote 1).
//
// Not modelled (as in the seed): per-sub-partition register allocation, the reserved shared
// memory per block of cc >= 8.0, cache effects on fu(c) (the seed notes a real warp scheduler
// may do worse than the round-robin this assumes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace teg::models {

// ⌈a, unit⌉ = ⌈a/unit⌉·unit (seed 004 footnote 1). unit must be >= 1.
std::int64_t roundUpTo(std::int64_t a, std::int64_t unit);

struct RegisterFile {
  std::int64_t size = 0;         // R_i registers per SM
  std::int64_t granularity = 1;  // r_i,min registers (allocation unit per warp)
};

// The SM's state buffers (seed 004 Fig. 3.1, sect. 3.1.2).
struct StateBuffers {
  int barrierSlots = 0;                    // N1: blocks whose barrier state fits
  int warpSlots = 0;                       // N2: warp contexts
  std::int64_t sharedMemory = 0;           // S bytes
  std::int64_t sharedMemoryGranularity = 1;// s_min bytes
  std::vector<RegisterFile> registerFiles; // R_i, r_i,min (one on NVIDIA; scalar+vector on AMD)
};

struct BlockUsage {
  int warps = 0;                              // b = ⌈B/w⌉
  std::int64_t sharedMemory = 0;              // s bytes per block
  std::vector<std::int64_t> registersPerWarp; // r_i, one per register file (missing = 0)
};

enum class SlotLimit { Barriers, WarpSlots, SharedMemory, Registers };
const char* slotLimitName(SlotLimit limit);  // "barriers", "warp_slots", ...

struct SlotCount {
  int slots = 0;                  // N_slot
  SlotLimit limiter = SlotLimit::Barriers;
  int registerFile = -1;          // which file binds when limiter == Registers
  // Each term of eq. 3.3 (a resource the block does not use gives INT_MAX).
  std::int64_t byBarriers = 0, byWarpSlots = 0, bySharedMemory = 0;
  std::vector<std::int64_t> byRegisters;
};

// Seed 004 eq. 3.3:
//   N_slot = min(N1, ⌊N2/b⌋, ⌊S/⌈s, s_min⌉⌋, ⌊R_i/(b·⌈r_i, r_i,min⌉)⌋).
// The extracted eq. 3.3 prints the register term without the factor b; eqs. 3.1 (b⌈r_i⌉ <=
// L(R_i/B)) and 3.11 (⌊R_i/(⌈r_i, r_i,min⌉ b)⌋) both have it, and r_i is per warp, so a block
// needs b·⌈r_i⌉ registers: we include b. Throws teg::Error for b < 1, negative usage, or
// buffers that are not positive. N_slot may be 0 (the block does not fit).
SlotCount slotCount(const StateBuffers& buffers, const BlockUsage& usage);

// A functional unit (seed 004 sect. 3.1.3): t_u is its inverse throughput per {insts} period
// for one warp, m_u·s_u the replicas in an SM, split into s_u groups each serving its own warps.
struct FunctionalUnit {
  std::string name;
  double inverseThroughput = 0;  // t_u (cycles), > 0
  double replicas = 1;           // m_u per group, > 0 (may be +infinity: never a bottleneck)
  int groups = 1;                // s_u >= 1
};

struct FunctionalUnitModel {
  std::vector<FunctionalUnit> units;
  double singleWarpPeriod = 0;  // P_1 = P(1): one period of {insts} with a single warp, > 0

  // Eq. 3.6: fu(c) = max_u {1, t_u/(m_u P_1) · ⌈c/s_u⌉}; fu(0) = 0 (no warps, no time — eq.
  // 3.2 needs it when g mod N_slot = 0). Throws on c < 0 or an invalid unit.
  [[nodiscard]] double fu(int c) const;
  // Eq. 3.5 with groups: P(c) = P_1 · fu(c).
  [[nodiscard]] double period(int c) const { return singleWarpPeriod * fu(c); }
  // The unit that sets fu(c) (empty when fu(c) = 1: latency bound, no unit saturated).
  [[nodiscard]] std::string bottleneckAt(int c) const;
  // Eq. 3.7 from the parameters: min_u m_u·s_u/t_u warp-periods per cycle.
  [[nodiscard]] double bottleneckThroughput() const;
};

// Eq. 3.7 from fu(c) data: max_c (c / fu(c)) / P_1. fuValues[k] is fu(k + 1).
double bottleneckThroughputFromFu(const std::vector<double>& fuValues, double singleWarpPeriod);

// g = ⌈G / n_mp⌉: blocks the busiest SM executes (seed 004 sect. 3.1.2).
std::int64_t blocksPerMultiprocessor(std::int64_t gridBlocks, int multiprocessors);

// Eq. 3.2: T(g, b) = ⌊g/N_slot⌋·fu(b·N_slot) + fu(b·(g mod N_slot)), relative to one period of
// one warp. Throws if N_slot < 1 (the block does not fit), g < 0 or b < 1.
double kernelTime(std::int64_t g, int b, int nSlot, const FunctionalUnitModel& fu);

}  // namespace teg::models
