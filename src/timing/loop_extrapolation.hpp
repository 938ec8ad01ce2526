// Loop-iteration sampling: the SM simulation of blocks whose warps spend nearly all their
// instructions in one loop (a GEMM's k loop: 256-512 identical iterations a block) runs the
// blocks with only a few iterations of the loop kept, at three counts, and extrapolates the
// simulated cycles and counters linearly in the iteration count to the traced one.
//
// Why it is valid: when every iteration of every warp issues the same instruction stream (same
// pcs, masks and memory-instruction positions; only addresses differ), the SM settles into a
// steady state in which each further iteration adds the same cycles and counts, so the
// simulated quantities are affine in the iteration count once past the first few iterations.
// The runs at m2 and m3 iterations give the line; the run at m1 checks it: the change of the
// per-iteration slope between [m1, m2] and [m2, m3], times the iterations extrapolated, is the
// stated error estimate. When it exceeds the tolerance, the counts double and the check is
// repeated; when too few iterations would be left out to pay off, every iteration is simulated.
// Not captured: effects that build up over many iterations (an L1/L2 share filling with the
// loop's own data and evicting what a later block would reuse): the data the loop streams are
// new each iteration in the kernels this applies to, and the L2-sharing, write-back and DRAM
// partition estimates are computed from the full trace before the sampling.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "block_trace.hpp"
#include "teg/timing/result.hpp"

namespace teg::timing::detail {

// A loop that every non-empty warp of every block runs with the same number of taken back-edges,
// every iteration between two of them the same stream of (pc, mask, memory or not).
struct SteadyLoop {
  std::uint32_t branchPc = 0;   // the backward branch closing an iteration
  std::uint32_t targetPc = 0;   // the pc it jumps back to
  std::uint64_t backEdges = 0;  // times each warp takes it (the loop body runs backEdges + 1 times)
};

// The steady loop of `blocks` with at least `minBackEdges` taken back-edges per warp, if any
// (of several, the one taken most often whose iterations all look alike: a loop nested in
// another has iterations that differ where the outer loop's code comes between them).
std::optional<SteadyLoop> findSteadyLoop(const std::vector<BlockTrace>& blocks, std::uint64_t minBackEdges);

// Whether no global sector is touched in two different iterations of the loop (prologue = the
// first iteration, epilogue = after the last), in any of the blocks: the condition under which
// cutting iterations out leaves every kept access's cache outcome as it was (each iteration
// brings new data; reuse inside one iteration, by the warps of a block or by blocks at the same
// iteration, is kept). A loop that re-reads its data (a cache benchmark sweeping one array again
// and again, a pointer chase, an atomic counter) would hit in the cache in the full run where the
// shortened runs see only the first, cold pass. Local-memory sectors (per warp, spills) are not
// counted.
bool loopStreamsNewData(const std::vector<BlockTrace>& blocks, const SteadyLoop& loop);

// A copy of `blocks` whose warps keep their ops up to the `kept`-th taken back-edge, then the ops
// after the last one (the final iteration and the epilogue): the same blocks with `kept` instead
// of loop.backEdges back-edges. Memory requests and sectors are copied for the kept ops only.
std::vector<BlockTrace> keepIterations(const std::vector<BlockTrace>& blocks, const SteadyLoop& loop, std::uint64_t kept);

// X(target) = X(b) + (target - b) / (b - a) * (X(b) - X(a)) for every counter simulateSm fills
// (cycles, instructions, stalls, unit issue and busy cycles, memory counters, per-instruction
// costs); utilisations are recomputed from the extrapolated busy cycles. The timeline, load
// series and clock reads stay those of `atB`.
TimingResult extrapolateIterations(const TimingResult& atA, const TimingResult& atB, double a, double b, double target);

// The same line through two runs' block completion times, a wave at a time: the completions of
// each run sorted and cut into waves of `slots` (the k-th wave = the k-th `slots` completions),
// every completion of a wave moved by the line through the wave's last completion. The wave ends
// are what the error estimate checked (engine.cpp projects the launch from the last completion
// and the first wave's end); the spread inside a wave is set by how its blocks started and were
// arbitrated, not by the iteration count, and a line through each block's own completion would
// stretch it by (target - b) / (b - a): x60 for 9 and 13 of 256 iterations, so a wave that ends
// within 3,000 cycles in the full run was spread over 220,000, and the last partial wave, which
// starts as the earliest of them frees its slot (tail_wave.hpp), started that much too early.
// `slots` 0 is taken as one wave.
std::vector<double> extrapolateCompletion(const std::vector<double>& atA, const std::vector<double>& atB, double a,
                                          double b, double target, std::size_t slots);

}  // namespace teg::timing::detail
