// The analytical models seed 000 ch. 1 surveys, as baselines beside TEG:
//
// MWP-CWP (Hong & Kim, ISCA 2009; seed 000 §1.3.1, eqs. 1.1-1.2). Per SM, N warps; each warp
// spends Comp_cycles issuing and Mem_cycles waiting on #Mem_insts memory periods of Mem_L cycles.
//   Comp_p = Comp_cycles / #Mem_insts          (one computation period)
//   CWP    = min((Mem_cycles + Comp_cycles) / Comp_cycles, N)
//   CWP >= MWP:  Exec = Mem_cycles · N / MWP + Comp_p · MWP     (eq. 1.1, memory-bound)
//   MWP >  CWP:  Exec = Mem_p + Comp_cycles · N                 (eq. 1.2, compute-bound; Mem_p = Mem_L)
// MWP (memory warp parallelism) is an input: Hong & Kim derive it from the departure delay and the
// bandwidth; the seed gives only its meaning (warps whose requests overlap in one memory period).
//
// Ryoo et al. (CGO 2008; seed 000 §1.4.1, eqs. 1.5-1.6): for each configuration of a kernel,
//   Efficiency  = 1 / (Instr · Threads)
//   Utilization = Instr / Regions · [(W_TB − 1)/2 + (B_SM − 1) · W_TB]
// and the Pareto-optimal subset: the configurations no other beats in both metrics.
#pragma once

#include <string>
#include <vector>

namespace teg::models {

struct MwpCwpInput {
  double memCycles = 0;    // Mem_cycles per warp
  double compCycles = 0;   // Comp_cycles per warp
  double memInsts = 0;     // #Mem_insts per warp
  double memLatency = 0;   // Mem_L (= Mem_p)
  double warps = 0;        // N, active warps per SM
  double mwp = 0;          // MWP
};

struct MwpCwp {
  double cwp = 0;
  double compPeriod = 0;   // Comp_p
  double cycles = 0;       // Exec_cycles per SM (per repetition)
  bool memoryBound = false;  // eq. 1.1 (CWP >= MWP) rather than eq. 1.2
};

// Throws teg::Error on non-positive inputs (memCycles may be 0: no memory) or MWP > N.
MwpCwp mwpCwp(const MwpCwpInput& in);

struct RyooConfig {
  std::string name;
  double instructions = 0;  // Instr per thread
  double threads = 0;       // total threads
  double regions = 0;       // non-blocking regions per thread (>= 1)
  double warpsPerBlock = 0; // W_TB
  double blocksPerSm = 0;   // B_SM
};

struct RyooMetrics {
  double efficiency = 0;
  double utilization = 0;
  bool pareto = false;      // in the Pareto-optimal subset
};

// Throws teg::Error on non-positive inputs.
RyooMetrics ryooMetrics(const RyooConfig& c);
// The metrics of every configuration, with the Pareto subset marked.
std::vector<RyooMetrics> ryooPareto(const std::vector<RyooConfig>& configs);

}  // namespace teg::models
