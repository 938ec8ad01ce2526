// Ryoo's efficiency and utilization (seed 000 §1.4.1, eqs. 1.5-1.6) of a launch configuration,
// read from its simulated trace rather than given by hand (`teg model ryoo --launch`):
//   Instr    the dynamic instructions a warp runs (the simulated warps' mean: SIMT, so a thread's
//            count where the warp does not diverge), as the timed instruction stream counts them
//   Threads  grid blocks x threads per block
//   Regions  1 + the blocking instructions a warp runs: block barriers and loads from global or
//            local memory (Ryoo et al. CGO 2008: regions are delimited by synchronisation and
//            long-latency loads), the simulated warps' mean
//   W_TB     warps per block;  B_SM  the blocks the SM holds at once (the occupancy's N_slot)
#pragma once

#include <string>

#include "teg/analysis/predict.hpp"
#include "teg/models/survey_models.hpp"

namespace teg::analysis {

// Throws teg::Error when the prediction simulated no warp.
models::RyooConfig ryooConfigOf(const Prediction& prediction, std::string name);

}  // namespace teg::analysis
