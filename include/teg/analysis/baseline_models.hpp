// The analytical models a user would compare TEG with (seed 000 ch. 1-2), each evaluated on the
// same trace as a prediction, so that `teg validate --models` shows what the simulation buys:
//   roofline   max(the FP units' time at their peak, DRAM bytes at the SM's bandwidth share)
//              (Williams et al.; seed 000 eq. 1.7, as time)
//   data-flow  the bottleneck component: the largest of the issue, unit and data-path bounds
//              of `teg bound` without the latency bound (seed 000 ch. 2, Zhang & Owens §1.3.3)
//   mwp-cwp    Hong & Kim's eqs. 1.1-1.2 with the trace's per-warp Comp_cycles and #Mem_insts,
//              Mem_L = the DRAM latency, N = resident warps and MWP = min(N, Mem_L / departure
//              delay) where the departure delay is one request's bytes at the DRAM share;
//              times the rounds of resident blocks the SM runs
// All in cycles of the busiest SM for the whole launch.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "teg/analysis/predict.hpp"

namespace teg::analysis {

// (model, cycles) for each model that applies to the prediction.
std::vector<std::pair<std::string, double>> baselineModelCycles(const Prediction& prediction);

}  // namespace teg::analysis
