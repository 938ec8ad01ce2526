// How the achieved figures of a prediction (analysis/achieved.hpp) look: speed of light per unit
// and memory level, the roofline, waves and the tail. Sample of the text:
//
//   Speed of light (% of peak: SM = the simulated SM, GPU = every SM, idle ones included)
//   unit or level  % peak SM  % peak GPU  GB/s SM  GB/s GPU  peak GB/s GPU
//   DRAM              91.2 %      91.2 %    13.14   1,419.1        1,555.0
//   ...
//   roofline     fp32: 0.083 FLOP/B (ridge 12.5): attainable 129 of 19,492 GFLOP/s, achieved 118: DRAM bandwidth roof binds
//   tail         2000 blocks, 864 per wave (108 SMs x 8): 2.31 waves; the last has 272 blocks ...
//
// JSON: numeric fields end in `_sm` (the simulated SM's sampled blocks) or `_gpu` (the whole GPU).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "teg/analysis/achieved.hpp"

namespace teg::report {

std::string renderAchievedText(const analysis::Achieved& achieved);

// {"speed_of_light": ..., "roofline": ..., "tail": ...}
nlohmann::json achievedJson(const analysis::Achieved& achieved);

}  // namespace teg::report
