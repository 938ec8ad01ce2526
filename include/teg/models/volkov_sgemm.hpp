// Chien's cost model of Volkov's SGEMM (seed 002 sect. 3.1, Figure 19, Example 1): only the
// leading terms of the critical path, each element cost in cycles per thread (Table 5's cycles
// per warp / 32; a global access costs its latency shared by the N_T active threads):
//   Ā_load = g_L/N_T + MOV/32,   B̄_load = g_L/N_T + 2·MOV/32,   T̄_C=A·B = MAD[smem]/32
//   time   = (mnk/b_N·Ā_load + mnk/b_M·B̄_load + mnk·T̄) / N_SM / f
//   Gflop/s = 2·N_SM·f / (Ā_load/b_N + B̄_load/b_M + T̄)
// Example 1 (C1060, N_T = 512, b_M = 64, b_N = 16) prints 278.57 Gflop/s; Table 6 measures
// 342.651 at N = 4096.
#pragma once

#include <string>

namespace teg::models {

struct VolkovSgemmParameters {
  double globalLatency = 0;      // g_L, cycles
  double movCyclesPerWarp = 0;   // MOV reg,[gmem] / MOV [smem],reg throughput
  double madSmemCyclesPerWarp = 0;
  double warpSize = 32;
  int smCount = 0;               // N_SM
  double clockGhz = 0;           // f
  double activeThreads = 0;      // N_T
  double blockM = 0, blockN = 0; // b_M, b_N
};

struct VolkovSgemmCost {
  double aLoad = 0, bLoad = 0, mad = 0;  // cycles per thread per element
  double cyclesPerMad = 0;               // Ā/b_N + B̄/b_M + T̄
  double gflops = 0;
  // The same with the per-element terms rounded to two decimals as Example 1 prints them
  // (Ā_load = 1.16, B̄_load/b_M = 0.02, T̄ = 0.1875 → 278.57).
  double gflopsAsPrinted = 0;
};

// Throws teg::Error on non-positive parameters.
VolkovSgemmCost volkovSgemmCost(const VolkovSgemmParameters& p);

// data/models/volkov_sgemm.json: the parameters of Example 1 (read from `file`).
VolkovSgemmParameters volkovSgemmExample1(const std::string& file);
std::string volkovSgemmDataFile();

}  // namespace teg::models
