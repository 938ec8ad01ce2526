// GPUDIAG's state-buffer estimators (seed 004 sect. 3.2.3, eqs. 3.9-3.13): recover the buffer
// sizes N1, N2, S, R_i and the allocation granularities s_min, r_i,min from N_slot measurements
// (the largest grid that does not deadlock on a global semaphore, for a given b, s, r_i).
//
// The seed's estimators on clean data:
//   N1 = N_slot,wsb(1),  N2 = max_b b·N_slot,wsb(b)                        (eq. 3.12)
//   S  = max_s s·N_slot,shm(s),  R_i = max_{b,r_i} r_i·b·N_slot,rf,i(b, r_i) (eq. 3.13)
//   x_min = the first candidate granularity that makes eqs. 3.10/3.11 match the data.
//
// Real measurements can be off by one (a timeout that fires early or late), so we implement the
// same estimators as a consistency search that tolerates a few wrong samples: for each candidate
// parameter value, count the samples whose eq. 3.9/3.10/3.11 prediction differs from the
// measurement; keep the value with the fewest mismatches, the smallest on a tie (the seed's
// "first value that makes both sides consistent"). Candidate sizes are the boundaries the
// measurements imply (u·N and u·cap, u the rounded per-block usage), so on clean data the result
// equals eq. 3.12/3.13 with the usage rounded up to the granularity — the smallest size
// consistent with every sample.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace teg::models {

// Eq. 3.9 test: s = 0, few registers, b warps per block.
struct WarpSlotSample {
  int warps = 0;  // b
  int slots = 0;  // measured N_slot,wsb(b)
};
// Eq. 3.10 test: b = 1, s bytes of shared memory.
struct SharedMemorySample {
  std::int64_t bytes = 0;  // s
  int slots = 0;           // measured N_slot,shm(s)
};
// Eq. 3.11 test: s = 0, b warps with r registers per warp.
struct RegisterSample {
  int warps = 0;                      // b
  std::int64_t registersPerWarp = 0;  // r_i
  int slots = 0;                      // measured N_slot,rf,i(b, r_i)
};

struct WarpSlotEstimate {
  int barrierSlots = 0;  // N1
  int warpSlots = 0;     // N2
  int mismatches = 0;    // samples the estimate does not reproduce
  // N_slot,wsb(b) = min(N1, ⌊N2/b⌋) (eq. 3.9).
  [[nodiscard]] int slotsFor(int warps) const;
};

struct BufferEstimate {
  std::int64_t size = 0;         // S or R_i
  std::int64_t granularity = 0;  // s_min or r_i,min
  int mismatches = 0;
};

// Eq. 3.12. Throws teg::Error on no samples or b < 1 / slots < 0.
WarpSlotEstimate estimateWarpSlots(const std::vector<WarpSlotSample>& samples);

// Powers of two 1, 2, 4, ... up to and including the first >= maxValue: the default candidate
// granularities (hardware allocation units are powers of two).
std::vector<std::int64_t> powerOfTwoCandidates(std::int64_t maxValue);

// Eq. 3.13 for S (with eq. 3.10, cap = N_slot,wsb(1)). Empty candidates: powers of two up to
// the largest s. Throws teg::Error on no samples or bad values.
BufferEstimate estimateSharedMemory(const std::vector<SharedMemorySample>& samples,
                                    const WarpSlotEstimate& warpSlots,
                                    std::vector<std::int64_t> candidates = {});

// Eq. 3.13 for R_i (with eq. 3.11, cap = N_slot,wsb(b)).
BufferEstimate estimateRegisterFile(const std::vector<RegisterSample>& samples,
                                    const WarpSlotEstimate& warpSlots,
                                    std::vector<std::int64_t> candidates = {});

// The three tests' measurements from one CSV file with the header
//   test,warps,smem,regs,nslot
// where test is warp_slots (uses warps), shared_memory (uses smem; b = 1) or registers (uses
// warps and regs = registers per warp). Throws teg::Error with file:line:col on bad input.
struct SlotMeasurements {
  std::vector<WarpSlotSample> warpSlots;
  std::vector<SharedMemorySample> sharedMemory;
  std::vector<RegisterSample> registers;
};
SlotMeasurements parseSlotMeasurements(const std::string& csvText, const std::string& file);
SlotMeasurements readSlotMeasurementsCsv(const std::string& path);

}  // namespace teg::models
