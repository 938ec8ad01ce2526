// Wave scheduling of thread blocks over the SMs (Ma, Chamberlain, Agrawal, ASAP 2014 — seed 001):
// the scheduling factor f_sched (eq. 3), the number of waves (passes), the tail efficiency, and
// the active-block count B_a of eq. 4.
//
// Notation. The seed writes the number of multiprocessors as P/Q in eq. 3 ("P/Q is the number
// of multiprocessors") although its Table I defines Q as the number of core groups (SMs) and P
// as the total number of cores, so that P/Q would be cores per SM. Fig. 1 (P/Q = 15 "as in a
// GTX480", which has 15 SMs) settles it: the quantity is the SM count. We call it smCount.
//
// Not modelled: blocks of unequal length, the order in which the hardware hands out blocks,
// concurrent kernels. Every block is assumed to take the same time, so the run lasts `waves`
// block-times (the busiest SM sets it — the ceiling of eq. 3).
#pragma once

#include <cstdint>

namespace teg::models {

struct WaveSchedule {
  std::int64_t requestedBlocks = 0;  // B_r
  int activeBlocksPerSm = 0;         // B_a
  int smCount = 0;                   // P/Q in the seed's eq. 3
  std::int64_t slots = 0;            // B_a × SMs: blocks resident at once on the whole GPU
  std::int64_t waves = 0;            // ceil(B_r / slots)
  std::int64_t tailBlocks = 0;       // blocks in the last wave (== slots when it is full)
  double tailFill = 0;               // tailBlocks / slots: how full the last wave is
  double fSched = 0;                 // eq. 3: waves × slots / B_r  (>= 1, 1 = no quantisation loss)
  double efficiency = 0;             // 1 / fSched = B_r / (waves × slots): useful share of slot-time
};

// Ma et al. eq. 3. Throws teg::Error unless requestedBlocks >= 1, activeBlocksPerSm >= 1 and
// smCount >= 1.
WaveSchedule scheduleWaves(std::int64_t requestedBlocks, int activeBlocksPerSm, int smCount);

// Inputs of Ma et al. eq. 4 (the seed's symbols in brackets).
struct ActiveBlockInputs {
  double sharedMemoryPerBlock = 0;  // S_B, bytes (0: the block uses none — no limit)
  double sharedMemoryPerSm = 0;     // Z, bytes
  int threadsPerBlock = 0;          // T_r
  int registersPerThread = 0;       // R_T (0: no register limit)
  int registersPerSm = 0;           // R
  int maxBlocksPerSm = 0;           // B_max / (P/Q): see below
  int maxThreadsPerSm = 0;          // T_maxMP
};

// What bounds B_a in eq. 4.
enum class ActiveBlockLimit { SharedMemory, Registers, Blocks, Threads };
const char* activeBlockLimitName(ActiveBlockLimit limit);  // "shared_memory", ...

struct ActiveBlocks {
  int blocks = 0;  // B_a
  ActiveBlockLimit limiter = ActiveBlockLimit::Blocks;
};

// Ma et al. eq. 4: B_a = min(floor(Z/S_B), floor(R/(R_T T_r)), floor(B_max/(P/Q)), floor(T_maxMP/T_r)).
// The third term in the seed divides a device-wide block limit by the SM count; we take the
// per-SM block limit directly, which is what that quotient is. Eq. 4 ignores allocation
// granularities (register and shared-memory rounding), so it can be above the real residency
// computed by the occupancy module: use it to reproduce the seed, the occupancy module for a
// real launch. Throws teg::Error on non-positive limits or a block that fits zero times.
ActiveBlocks activeBlocksMa(const ActiveBlockInputs& in);

}  // namespace teg::models
