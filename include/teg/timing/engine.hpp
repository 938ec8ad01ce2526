// The TEG timing engine (Lai ch. 3): replays the warp instruction streams of one SM's share of a
// launch through a model of that SM — warp schedulers with their issue rate and policy, in-order
// issue per warp with a register scoreboard, functional units with per-class latencies and issue
// intervals, barriers, blocks arriving as slots free (N_slot from the occupancy code), and a
// memory pipeline (coalesced sectors, shared-memory wavefronts, L1, this SM's share of L2 and of
// the DRAM bandwidth, a concurrency limit; the data other SMs bring into the L2, estimated from a
// few traced peer blocks). The GPU is the simulated SM times the waves (Kim
// eq. 3.2): the busiest SM receives blocks smId, smId + S, smId + 2S, ... (round-robin), and for
// long launches the first blocks are simulated and the rest extrapolated from the steady state.
//
// The engine is a trace::TraceListener: feed it the emulator's events (live or from a trace
// file) and call finish(). It never includes ptx or emu; the trace record is the whole contract.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"
#include "teg/trace/trace.hpp"

namespace teg::timing {

struct EngineOptions {
  int residentBlocks = 1;          // N_slot: blocks the SM holds at once (from occupancy)
  std::uint64_t maxSampledBlocks = 0;  // 0: simulate every block of the SM's share
  int timelineWarps = 4;           // warps whose first instructions go into the timeline
  int timelineInstructions = 40;
  int loadBuckets = 64;            // resolution of the load-over-time series
  // Peer blocks: blocks other SMs run alongside the first wave, traced (their global reads only)
  // to estimate the data other SMs bring into the shared L2 (l2_sharing.hpp). 0: none.
  int peerBlocks = 0;
  // Loop-iteration sampling (loop_extrapolation.hpp): 0 = off; else q, the first try's smallest
  // count of a steady loop's iterations kept (runs at q, 2q and 3q back-edges; q doubles while
  // the error estimate exceeds loopTolerance, and sampling applies only to loops of >= 12q).
  int loopSampleIterations = 0;
  double loopTolerance = 0.01;
};

// The blocks the SM holds at once: the occupancy's N_slot (options.residentBlocks), capped by a
// config that limits it (the warps=N what-if).
int residentSlots(const TimingConfig& config, const EngineOptions& options);

// Which blocks the simulated SM runs, in the order it starts them (for asking the emulator to
// run only those): blocks 0, S, 2S, ... of a grid of `gridBlocks`, at most `limit` (0 = all).
std::vector<std::uint64_t> blocksOfSimulatedSm(std::uint64_t gridBlocks, int smCount, std::uint64_t limit);

// The peer blocks the engine traces besides the simulated SM's (for asking the emulator to run
// them too), drawn from the population of blocks other SMs run alongside SM 0's first wave —
// blocks [0, min(grid, smCount x residentBlocks)) that SM 0 does not run, less the grid
// neighbours (diagonals too) of one it runs in that wave that share no grid row or column (no
// coordinate of a dimension longer than 1) with any of its blocks — in increasing order; all of
// them when there are no more than `count`. Those neighbours are left out because all they share
// (a stencil's halo) is local: scaled up to the wave as a random sample would be, one neighbour
// drawn reads as sharing everywhere. A neighbour in a shared row or column stays in its stratum:
// it reads that row's or column's panel like the others, and may be the only block of the wave
// that does (a GEMM on a small GPU); a halo it shares is counted only when two of the stratum's
// peers show sharing or the whole stratum is traced (l2_sharing.hpp). In a 1-D grid every
// neighbour is left out.
// The population is split into strata by which grid coordinates a block shares with some block of
// SM 0's first wave (its row, its column, both, neither), and the peers are spread evenly over the
// strata (extras to the largest), drawn at random (fixed seed) within each. A GEMM block shares
// its A panel with the blocks of its row and its B panel with those of its column: a few percent
// of the wave, which a simple random sample of 8 mostly misses (the estimate swung 20x with the
// sample size). A 1-D grid has one stratum.
struct PeerStratum {
  unsigned sharedCoordinates = 0;  // bit d: coordinate d (x, y, z) equals that of one of SM 0's blocks
  std::uint64_t population = 0;    // the blocks of the stratum
  std::size_t drawn = 0;           // of them, peers
};
struct PeerSample {
  std::vector<std::uint64_t> blocks;
  std::vector<std::size_t> stratumOf;  // per block: its index in `strata`
  std::vector<PeerStratum> strata;     // the non-empty strata
  std::uint64_t population = 0;        // the blocks they were drawn from
};
PeerSample peerBlocksOfSimulatedSm(const trace::Dim3& grid, int smCount, int residentBlocks, int count);

class TimingEngine final : public trace::TraceListener {
 public:
  TimingEngine(TimingConfig config, EngineOptions options);
  ~TimingEngine() override;

  void beginKernel(const trace::KernelInfo& kernel) override;
  void beginBlock(std::uint32_t block) override;
  void instruction(const trace::WarpInstruction& record) override;
  void endBlock(std::uint32_t block) override;
  void endKernel() override {}

  // Runs the model over the recorded blocks. Throws teg::Error if no block of the simulated
  // SM's share was recorded.
  TimingResult finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace teg::timing
