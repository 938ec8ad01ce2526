// The last, partial wave of the busiest SM. Blocks beyond the simulated sample are extrapolated at
// the steady-state time per block (engine.cpp), which prices a wave of p < slots blocks at p/slots
// of a full wave: as if the p blocks ran at the pace of the whole SM. They do not: the p blocks of
// the last wave start as the previous wave's blocks leave their slots and then take the time p
// blocks take on their own, which for a latency-bound block (a grid-stride copy: one load in
// flight per warp) is its dependency chain, not a share of the bandwidth (Volkov, "Understanding
// Latency Hiding on GPUs", 2016, ch. 4: throughput is what is in flight over the latency). The
// RTX 5090 runs gpu-bench's 4096-block copy in 4 waves of 1020 blocks plus 16 blocks alone.
//
// Model: the last full wave's completions are the simulated sample's last `slots` completions
// moved by the extrapolated full waves; the p-th earliest of them frees the slot the last tail
// block starts in, and the tail ends its run of p blocks alone (`tailDuration`, simulated) later.
// Blocks that leave their slots spread out (no waves) start the tail early and it ends before
// the extrapolation: then the extrapolation stands.
#pragma once

#include <cstdint>
#include <vector>

namespace teg::timing::detail {

// The blocks of the last partial wave that the extrapolation prices (blocksOnSm mod slots), or 0
// where there is none: every block simulated, the wave full, or a sample shorter than one wave.
std::uint64_t tailWaveBlocks(std::uint64_t blocksOnSm, std::uint64_t slots, std::uint64_t simulated);

// When the last partial wave ends: `done` the simulated completions (sorted, at least `slots`),
// `perBlock` the steady-state time per block, `tailDuration` the time the tail's blocks take run
// alone on the SM. 0 where tailWaveBlocks is 0.
double tailWaveFinish(const std::vector<double>& done, std::uint64_t slots, std::uint64_t blocksOnSm, double perBlock,
                      double tailDuration);

}  // namespace teg::timing::detail
