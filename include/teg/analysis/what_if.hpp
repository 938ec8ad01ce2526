// What-if switches (Lai §3.4: "we just set that all shared memory accesses are conflict-free"):
// each names one effect to remove or one figure to change, and is applied to the timing
// configuration before the same trace is replayed.
//
//   no-bank-conflicts      every shared-memory request takes its conflict-free wavefronts
//   perfect-coalescing     every global request touches only the sectors its bytes need
//   no-divergence          warp instructions run with partial masks are packed (see below)
//   no-partition-camping   DRAM traffic spread evenly over the partitions (no skew, Lai §3.2.3.5)
//   l2-hit=R               a fraction R (0..1) of L2 lookups hit
//   dram-bw=xF | =G        DRAM bandwidth times F, or G GB/s
//   warps=N                at most N resident warps per SM (whole blocks; N may not exceed what
//                          occupancy allows)
//   latency.<class>=C      execution latency of an instruction class, cycles
//   issue-interval=C       cycles between two issues of a scheduler
//   l1=off                 global loads bypass the L1
#pragma once

#include <string>
#include <vector>

#include "teg/timing/config.hpp"

namespace teg::analysis {

// Applies `spec` to `config` for a kernel with `warpsPerBlock` warps per block, of which
// occupancy lets `residentBlocks` share an SM (0: not known, not checked). Throws teg::Error
// naming the spec and the accepted forms when it is not one of them, or the rule it breaks.
void applyWhatIf(const std::string& spec, int warpsPerBlock, int residentBlocks, timing::TimingConfig& config);

// The accepted forms, one per line, for --help and errors.
std::string whatIfHelp();

}  // namespace teg::analysis
