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
//
// The extended MWP-CWP of Sim et al. (PPoPP 2012, "A performance analysis framework for
// identifying potential benefits in GPGPU applications"; seed 000 §1.3.1, eq. 1.3). The seed gives
// eq. 1.3 and what its terms mean, not their formulas; the paper's text was not reachable here, and
// its equations are taken as numbered in a public transcription of the model,
// Imajie/thesis@e1bddafa030354bdab0397d5a26dd68ddb6d890f:gpu_model/model_2012.java (eqs. 1-17):
//   T_exec    = T_comp + T_mem − T_overlap                                  (1, seed eq. 1.3)
//   T_comp    = W_parallel + W_serial                                       (2)
//   W_parallel= #insts · #total_warps / #active_SMs · avg_inst_lat / ITILP  (3)
//   ITILP     = min(ILP · N, ITILP_max),  ITILP_max = avg_inst_lat / (warp_size / SIMD_width)  (4, 5)
//   W_serial  = O_sync + O_SFU + O_CFdiv + O_bank                           (6; O_bank: bank conflicts)
//   T_mem     = #mem_insts · #total_warps / (#active_SMs · ITMLP) · AMAT    (11)
//   AMAT      = avg_DRAM_lat · miss_ratio + hit_lat                         (12; the cache term)
//   ITMLP     = min(MLP · MWP_cp, MWP_peak_bw),  MWP_cp = min(max(1, CWP − 1), MWP)   (14, 15)
//   T_overlap = min(T_comp · F_overlap, T_mem),  F_overlap = (N − ζ) / N, ζ = [CWP ≤ MWP]  (16, 17)
//   CWP       = min((mem_cycles + comp_cycles) / comp_cycles, N), mem_cycles = #mem_insts · AMAT / MLP,
//               comp_cycles = #insts · avg_inst_lat / ITILP                 (appendix A.1-A.4)
// The overheads O_sync, O_SFU, O_CFdiv and O_bank are inputs (the paper takes the bank conflicts
// from profiler counters; its formulas for O_sync and O_SFU need a machine constant γ fitted per GPU).
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

struct MwpCwpExtendedInput {
  double insts = 0;          // #insts per warp
  double memInsts = 0;       // #mem_insts per warp
  double totalWarps = 0;     // #total_warps of the launch
  double activeSms = 0;      // #active_SMs
  double warps = 0;          // N, active warps per SM
  double avgInstLatency = 0; // avg_inst_lat, cycles
  double ilp = 1, mlp = 1;   // ILP, MLP of one warp
  double warpSize = 32, simdWidth = 32;
  double mwp = 0;            // MWP (as in mwpCwp, an input)
  double mwpPeakBw = 0;      // MWP_peak_bw: warps the peak DRAM bandwidth sustains per SM
  double dramLatency = 0;    // avg_DRAM_lat
  double missRatio = 1;      // of the caches, 0..1
  double hitLatency = 0;     // hit_lat
  double oSync = 0, oSfu = 0, oCfDiv = 0, oBank = 0;  // W_serial's overheads, cycles
};

struct MwpCwpExtended {
  double itilp = 0, wParallel = 0, wSerial = 0, tComp = 0;
  double amat = 0, cwp = 0, mwpCp = 0, itmlp = 0, tMem = 0;
  double fOverlap = 0, tOverlap = 0, tExec = 0;
};

// Throws teg::Error on non-positive counts or a miss ratio outside [0, 1].
MwpCwpExtended mwpCwpExtended(const MwpCwpExtendedInput& in);

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
