// One SM running its share of a launch, cycle by cycle (skipping cycles in which nothing can
// happen). The stages, back to front each step: retire what finished (implicit in the scoreboard
// times), let each warp scheduler pick one eligible warp by its policy and issue its next
// instruction to a functional unit or the memory pipeline, start blocks in freed slots.
#pragma once

#include <vector>

#include "block_trace.hpp"
#include "write_back.hpp"
#include "teg/timing/config.hpp"
#include "teg/timing/engine.hpp"
#include "teg/timing/result.hpp"
#include "teg/trace/trace.hpp"

namespace teg::timing::detail {

// Runs `blocks` (in the order the SM starts them) and fills the simulated part of `result`
// (everything except extrapolation and the bound). Returns each block's completion time.
// `ownFetchFraction`: see MemorySystem (1: no data brought into the L2 by other SMs).
std::vector<double> simulateSm(const TimingConfig& config, const trace::KernelInfo& kernel,
                               const EngineOptions& options, const std::vector<BlockTrace>& blocks,
                               WriteBack writeBack, double ownFetchFraction, TimingResult& result);

}  // namespace teg::timing::detail
