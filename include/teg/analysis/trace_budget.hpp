#pragma once
// How many blocks the default sample may simulate so the traced run stays within its record limit.
//
// The default sample (three waves of resident blocks, at least 16) is chosen for the steady state;
// with long blocks it traces more warp instructions than emu::RunOptions::maxTraceRecords allows
// (a 4096^3 register-blocked SGEMM: ~3 M per block, so 16 blocks and 8 peers exceed the 67 M
// default) and `teg predict` stopped with "the trace would exceed ...". predict measures one
// block in a pilot run and asks this function for a sample that fits.

#include <cstdint>

namespace teg::analysis {

struct TraceBudget {
  std::uint64_t sampledBlocks = 0;  // blocks of the simulated SM to trace
  std::uint64_t peerBlocks = 0;     // blocks of other SMs traced for the L2 estimate
  bool reduced = false;             // fewer than asked for
};

// `defaultSample` blocks of the SM plus `peerBlocks` peers, each about `warpInstructionsPerBlock`
// records, within `maxRecords` (0 = no limit) with a quarter of it kept for blocks longer than the
// pilot (edge blocks, data-dependent loops). The SM's own blocks go first (they are the
// prediction); peers give way when not even one block and the peers fit. Never below one block: a
// kernel whose single block exceeds the limit still stops with the emulator's error, which names
// the option to raise it.
TraceBudget fitSampleToTraceBudget(std::uint64_t defaultSample, std::uint64_t peerBlocks,
                                   std::uint64_t warpInstructionsPerBlock, std::uint64_t maxRecords);

}  // namespace teg::analysis
