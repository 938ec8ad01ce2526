// How a timing prediction looks to a person (text) and to a tool (JSON). Sample of the text:
//
//   predicted    1 234 567 cycles = 0.876 ms at 1410 MHz (sampled 24 of 19 blocks per SM ...)
//   bound        DRAM bandwidth: DRAM bandwidth alone needs 95 % of the simulated cycles
//   stall reasons (share of warp-cycles)
//     long_scoreboard  61.2 %  waiting for a global or local memory result
//   ...
// The views compute nothing: every number comes from timing::TimingResult and the kernel's static
// description (for source lines and instruction text).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "teg/timing/result.hpp"
#include "teg/trace/trace.hpp"

namespace teg::report {

using WhatIfOutcome = timing::WhatIfOutcome;

struct TimingViewOptions {
  int topLines = 12;          // source lines in the per-line cost table
  int timelineRows = 40;
  bool showTimeline = true;
  bool showLoad = true;
  std::string afterMemory;    // a section printed after the memory counters (e.g. renderAchievedText)
};

std::string renderTimingText(const timing::TimingResult& result, const trace::KernelInfo& kernel,
                             const std::vector<WhatIfOutcome>& whatIfs, const TimingViewOptions& options = {});

nlohmann::json timingJson(const timing::TimingResult& result, const trace::KernelInfo& kernel,
                          const std::vector<WhatIfOutcome>& whatIfs);

// What each top-level field of timingJson counts ({"cycles": "gpu", "stalls": "sm_sampled", ...}):
// timingJson carries it as "scope"; docs/predict-json.md explains the values.
nlohmann::json timingJsonScopes();

// "▁▂▃▅▇" for a series, scaled to its maximum (empty input -> "").
std::string sparkline(const std::vector<double>& values, std::size_t width);

}  // namespace teg::report
