// The seed's case study: all-pairs shortest paths by repeated min-plus squaring of the adjacency
// matrix, blocked into sub-blocks of dimension S_D (Ma et al., ASAP 2014 — seed 001, sect. III).
//
//   T1  = n³ lg n                              (work, sect. III)
//   M   = n³ lg n / (S_D · C)                   (eq. 10)
//   B_r = (n / S_D)²                            (one thread block per sub-block)
//   Time ∝ max(T1, M·L/𝒯) · f_sched              (eq. 11 = eq. 8 with T1 and M substituted)
//
// With S_D = n/√B_r the memory term is n² lg n · L · √B_r / (C·𝒯). The extracted text prints n³
// in eq. 12 but n² in eq. 14; substituting S_D into eq. 11 gives n², so eq. 12's n³ is a
// transcription error and we use n² (eq. 14).
//
// Transition (sect. III, cases 1-2): compute bound when 𝒯 > L/(S_D·C), memory bound below.
// We compute through tmmBound/combinedModel (eq. 7, i.e. divided by P), so values are time steps.
#pragma once

#include <cstdint>

#include "teg/models/tmm.hpp"

namespace teg::models {

struct ApspInputs {
  std::int64_t vertices = 0;  // n
  std::int64_t subBlock = 0;  // S_D: must divide n
  double chunkSize = 0;       // C
  double latency = 0;         // L
  double threadsPerCore = 0;  // 𝒯
  int activeBlocksPerSm = 0;  // B_a (eq. 4 / the occupancy module)
  int smCount = 0;            // P/Q in the seed
  double coresPerSm = 0;      // P = smCount × coresPerSm
};

struct ApspEstimate {
  double work = 0;                   // T1 = n³ lg n
  double transactions = 0;           // M, eq. 10
  std::int64_t requestedBlocks = 0;  // B_r = (n/S_D)²
  double fitAbscissa = 0;            // √B_r / 𝒯: the x of eq. 15
  CombinedEstimate combined;         // eqs. 11-14 through eq. 7
  // Transition points (sect. III cases 1-2): the value of one parameter, the others fixed, at
  // which the compute and memory terms are equal.
  double threadsPerCoreAtTransition = 0;  // 𝒯* = L/(S_D·C)
  double subBlockAtTransition = 0;        // S_D* = L/(C·𝒯)
  double blocksAtTransition = 0;          // B_r* = (n·C·𝒯/L)²
};

// Throws teg::Error if S_D does not divide n, or for non-positive inputs.
ApspEstimate apspModel(const ApspInputs& in);

}  // namespace teg::models
