// The Threaded Many-core Memory (TMM) model and its combination with wave scheduling
// (Ma, Chamberlain, Agrawal, ASAP 2014 — seed 001, sect. II).
//
//   TMM bound, eq. 1:     T_P = max(T1/P, T_inf, M·L/(𝒯·P))
//   combined, eqs. 6-7:   Time ∝ T_P × f_sched
//                            = max(T1/P, T_inf, M·L/(𝒯·P)) × ceil(B_r/(B_a·SMs))·B_a·SMs / B_r
//
// Eq. 8 is eq. 7 rearranged (the common factor 1/P moved out of the max); it is proportional to
// eq. 7, so we compute eq. 7, whose value is in the model's time steps. Eqs. 7-8 drop the span
// term (footnote 5: the seed's algorithms have T_inf << T1/P); we keep it, as eq. 6 does through
// T_P, so a user who gives a span sees when it binds. Everything is in TMM time steps: a unit
// operation or a fast-memory access takes 1 step, a global-memory transaction L steps. The
// result is proportional to run time (seed eq. 5: the constant is calibrated, e.g. by the fit
// of eq. 15), not a time in seconds.
#pragma once

#include <optional>

#include "teg/models/waves.hpp"

namespace teg::models {

struct TmmInputs {
  double work = 0;            // T1: total operations
  double span = 0;            // T_inf: operations on the critical path (0: ignore)
  double transactions = 0;    // M: global-memory transactions (up to C accesses grouped = 1)
  double latency = 0;         // L: time steps of one global-memory transaction
  double cores = 0;           // P: total cores (SMs × cores per SM)
  double threadsPerCore = 0;  // 𝒯: threads per core the algorithm runs with
};

// Which term of eq. 1 is the largest.
enum class TmmLimit { Compute, Span, Memory };
const char* tmmLimitName(TmmLimit limit);  // "compute", "span", "memory"

struct TmmBound {
  double computeTerm = 0;  // T1 / P
  double spanTerm = 0;     // T_inf
  double memoryTerm = 0;   // M·L / (𝒯·P)
  double time = 0;         // T_P: the max of the three (time steps)
  TmmLimit limiter = TmmLimit::Compute;
  // 𝒯 at which the memory term equals the compute term, M·L/T1: with more threads per core the
  // latency is hidden (seed sect. III, case 1 with general T1 and M). Empty when T1 = 0.
  std::optional<double> threadsPerCoreToHideLatency;
  // L at which the memory term equals the compute term, T1·𝒯/M: above it the run is memory
  // bound. Empty when M = 0.
  std::optional<double> latencyAtTransition;
};

// Seed 001 eq. 1. Throws teg::Error for negative inputs, P <= 0, or 𝒯 <= 0 with M > 0.
TmmBound tmmBound(const TmmInputs& in);

// M from raw accesses: up to C accesses are grouped into one transaction (seed 001 sect. II-A,
// footnote 6), so M = accesses / C when they are fully coalesced. Throws unless C >= 1.
double transactionsFromAccesses(double accesses, double chunkSize);

// 𝒯 of a launch: the threads resident on an SM spread over its cores,
// B_a × threads per block / cores per SM. Throws on non-positive inputs.
double threadsPerCoreOfLaunch(int activeBlocksPerSm, int threadsPerBlock, double coresPerSm);

struct CombinedEstimate {
  TmmBound tmm;        // T_P (eq. 1)
  WaveSchedule waves;  // f_sched (eq. 3)
  double time = 0;     // eq. 6/7: T_P × f_sched, time steps
};

// Seed 001 eqs. 6-7.
CombinedEstimate combinedModel(const TmmInputs& in, std::int64_t requestedBlocks,
                               int activeBlocksPerSm, int smCount);

}  // namespace teg::models
