#include "teg/analysis/trace_budget.hpp"

namespace teg::analysis {

TraceBudget fitSampleToTraceBudget(std::uint64_t defaultSample, std::uint64_t peerBlocks,
                                   std::uint64_t warpInstructionsPerBlock, std::uint64_t maxRecords) {
  TraceBudget budget{defaultSample, peerBlocks, false};
  if (maxRecords == 0 || warpInstructionsPerBlock == 0) return budget;
  const std::uint64_t usable = maxRecords - maxRecords / 4;
  const std::uint64_t blocksThatFit = usable / warpInstructionsPerBlock;  // the SM's blocks and the peers
  if (defaultSample + peerBlocks <= blocksThatFit) return budget;
  budget.reduced = true;
  if (blocksThatFit > peerBlocks) {
    budget.sampledBlocks = blocksThatFit - peerBlocks;
  } else {
    budget.sampledBlocks = 1;
    budget.peerBlocks = blocksThatFit > 1 ? blocksThatFit - 1 : 0;
  }
  return budget;
}

}  // namespace teg::analysis
