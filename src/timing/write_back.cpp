#include "write_back.hpp"

#include <algorithm>

namespace teg::timing::detail {

WriteBackChoice chooseWriteBack(const TimingConfig& config, const std::vector<BlockTrace>& blocks,
                                std::uint64_t blocksOnSm) {
  WriteBackChoice choice;
  choice.l2Bytes = static_cast<double>(config.l2BytesShare);
  if (blocks.empty()) return choice;
  std::vector<std::uint64_t> sectors;
  for (const BlockTrace& block : blocks) sectors.insert(sectors.end(), block.sectors.begin(), block.sectors.end());
  std::sort(sectors.begin(), sectors.end());
  const auto distinct = static_cast<double>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
  const double blocksRun = static_cast<double>(std::max<std::uint64_t>(blocksOnSm, blocks.size()));
  choice.projectedBytes = distinct * config.sectorBytes * blocksRun / static_cast<double>(blocks.size());
  // With every block simulated the evictions happen inside the simulated time: charge them there.
  const bool sampled = blocksOnSm > blocks.size();
  choice.policy = sampled && choice.projectedBytes > choice.l2Bytes ? WriteBack::WhenDirtied : WriteBack::WhenEvicted;
  return choice;
}

}  // namespace teg::timing::detail
