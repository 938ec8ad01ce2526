// `teg bound`: how much faster could a kernel run, and what stops it (seed 000 ch. 4's question,
// asked of any kernel). From the dynamic instruction mix and memory traffic of the simulated SM's
// trace and the device's limits, each resource gives a time the launch cannot beat:
//   issue slots        warp instructions × issue interval / schedulers
//   each unit          its warp instructions × its multiple-warp issue interval / its copies
//   shared memory      wavefronts (bank conflicts included) × cycles per wavefront
//   L1/LSU, L2, DRAM   bytes at the SM's share of each level's bandwidth
//   latency            each warp's dependent chain at the most optimistic latencies, with the
//                      kernel's resident blocks running side by side (critical_path.hpp)
// All are per SM over the simulated blocks, scaled to the blocks the busiest SM runs; the
// prediction is the timing engine's. The largest bound binds; the prediction can never be below
// it (tests/unit/analysis/bounds_test.cpp checks that on every corpus kernel).
#pragma once

#include <string>
#include <vector>

#include "teg/analysis/predict.hpp"

namespace teg::analysis {

struct ResourceBound {
  std::string resource;  // "issue", "fp32_fma unit", "shared memory", "L2 bandwidth", "latency", ...
  double cycles = 0;     // SM cycles for the whole launch
  double timeMs = 0;
  std::string why;       // "5.2e6 warp instructions at 1 per cycle on 4 schedulers"
};

struct BoundReport {
  std::vector<ResourceBound> bounds;  // largest first
  std::string binding;                // bounds.front().resource
  double predictedCycles = 0, predictedMs = 0;
  double fractionOfBound = 0;         // binding time / predicted time (1 = at the bound)
  double scale = 1;                   // blocks the SM runs / blocks simulated
  std::vector<std::string> notEvaluated;  // resources the trace cannot tell (and why)
  // The what-if that removes the binding resource, when one applies ("" otherwise).
  std::string removingWhatIf;
};

// Bounds of a prediction made with analysis::predict.
BoundReport boundsOf(const Prediction& prediction);

// The what-if switch that removes `resource`'s excess work, if the prediction shows some: bank
// conflicts (shared wavefronts beyond one per request) → "no-bank-conflicts"; sectors beyond what
// the bytes need → "perfect-coalescing". "" when none applies.
std::string whatIfRemoving(const std::string& resource, const Prediction& prediction);

}  // namespace teg::analysis
