// One SM running its share of a launch, event by event. Each warp scheduler has its own next
// decision time (the earliest any of its warps could issue); at each such time the schedulers due
// pick one eligible warp by their policy and issue its next instruction to a functional unit or
// the memory pipeline; retiring is implicit in the scoreboard times, and blocks start in freed
// slots. A warp's wait for its next instruction is charged to stall reasons by interval: its own
// reason (same-warp interval, scoreboard) until its own ready time, then its ready group's.
#pragma once

#include <vector>

#include "atomic_contention.hpp"
#include "block_trace.hpp"
#include "l2_sharing.hpp"
#include "write_back.hpp"
#include "teg/timing/config.hpp"
#include "teg/timing/engine.hpp"
#include "teg/timing/result.hpp"
#include "teg/trace/trace.hpp"

namespace teg::timing::detail {

// Runs `blocks` (in the order the SM starts them) and fills the simulated part of `result`
// (everything except extrapolation and the bound). Returns each block's completion time.
// `fetch`: see MemorySystem and L2Fetch (fractions 1: no data brought into the L2 by other SMs);
// `contention`: the GPU's operations on each atomic sector per operation of this SM
// (atomic_contention.hpp).
std::vector<double> simulateSm(const TimingConfig& config, const trace::KernelInfo& kernel,
                               const EngineOptions& options, const std::vector<BlockTrace>& blocks,
                               WriteBack writeBack, const L2Fetch& fetch, const AtomicContention& contention,
                               TimingResult& result);

}  // namespace teg::timing::detail
