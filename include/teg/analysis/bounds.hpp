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

#include <cstdint>
#include <optional>
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

// What the kernel's SASS says per CUDA source line, for what the PTX trace cannot show: the
// physical registers (register banks) and the loads ptxas left scalar. cli/bound_sass.cpp fills it
// from teg::sass; the bounds below weight each line by how often its PTX ran (sassBoundsOf).
struct SassLineFacts {
  std::string file;                       // as nvdisasm prints it (matched by file name)
  int line = 0;
  std::uint32_t instructions = 0;         // SASS instructions attributed to the line
  std::uint32_t bankConflictCycles = 0;   // their extra register-read cycles (sass/register_banks.hpp)
  std::uint32_t vectorisableLoads = 0;    // scalar LDS a vector load could replace (sass/vector_loads.hpp)
  std::uint32_t vectorLoads = 0;          // the LDS.128/LDS.64 that would replace them
};

struct SassFacts {
  std::string arch;                       // "sm_70"
  bool bankLayoutKnown = false;
  double bankPenaltyCycles = 0;           // issue delay per extra read cycle (the layout's)
  std::string bankLayout;                 // the layout and its source, or why there is none
  std::vector<SassLineFacts> lines;
};

// "The bound rises with LDS.128": the same bounds with the SASS's vectorisable scalar LDS
// replaced by vector loads (fewer warp instructions to issue; the same shared wavefronts, since
// the same bytes cross the same banks).
struct VectorLoadSuggestion {
  double scalarLoads = 0;        // warp instructions of the vectorisable LDS (launch, estimated)
  double vectorLoads = 0;        // the vector loads replacing them
  double issueCyclesBefore = 0, issueCyclesAfter = 0;
  std::string bindingAfter;
  double boundCyclesBefore = 0, boundCyclesAfter = 0;
  double boundMsAfter = 0;
};

// A named remedy and what the bounds would be with it: the resource it relieves, that resource's
// bound before and after, and the binding bound after (every other bound unchanged). Only remedies
// the counters can evaluate without a new simulation: a conflict-free shared-memory layout (each
// shared access at a full warp's bytes over the banks' width, at least one wavefront: what a
// conflict-free access of 32 distinct lanes takes, so the layout reaches at most that — a
// broadcast takes fewer) and, with the SASS, a register allocation without bank conflicts.
// --remove-binding simulates the others.
struct Remedy {
  std::string name;      // "conflict-free shared memory (padding or a swizzle)"
  std::string resource;  // the bound it lowers
  double cyclesBefore = 0, cyclesAfter = 0;
  std::string bindingAfter;
  double boundCyclesAfter = 0, boundMsAfter = 0;
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
  // With the SASS (sassBoundsOf): the extra register-read cycles of bank conflicts (launch), and the
  // vector-load suggestion when the SASS has scalar LDS a vector load could replace.
  double bankConflictCycles = 0;
  std::optional<VectorLoadSuggestion> vectorLoads;
  std::vector<Remedy> remedies;  // those that lower a bound (remedies.hpp rules above)
};

// Bounds of a prediction made with analysis::predict.
BoundReport boundsOf(const Prediction& prediction);

// The bounds of `prediction` with what its SASS adds: an "issue + register banks" bound (issue
// slots plus the extra register-read cycles of bank conflicts times the layout's penalty, per
// line: the line's SASS conflict cycles times how many times a warp ran the line, its PTX
// instructions' mean executions) where
// the architecture's bank layout is published, and the vector-load suggestion.
BoundReport sassBoundsOf(const Prediction& prediction, const SassFacts& sass);

// The what-if switch that removes `resource`'s excess work, if the prediction shows some: bank
// conflicts (shared wavefronts beyond one per request) → "no-bank-conflicts"; sectors beyond what
// the bytes need → "perfect-coalescing". "" when none applies.
std::string whatIfRemoving(const std::string& resource, const Prediction& prediction);

}  // namespace teg::analysis
