#include "atomic_contention.hpp"

#include <algorithm>

namespace teg::timing::detail {

AtomicContention estimateAtomicContention(const std::vector<std::uint64_t>& ownAtomicSectors,
                                          const std::vector<TracedPeer>& peers, double otherRunningBlocks,
                                          double ownRunningBlocks) {
  AtomicContention contention;
  if (peers.empty() || otherRunningBlocks <= 0 || ownRunningBlocks <= 0) return contention;
  const auto traced = static_cast<double>(peers.size());
  const bool allTraced = traced >= otherRunningBlocks;
  for (const std::uint64_t sector : ownAtomicSectors) {
    std::size_t touching = 0;
    for (const TracedPeer& peer : peers)
      if (std::binary_search(peer.sectors.begin(), peer.sectors.end(), sector)) ++touching;
    if (touching == 0 || (touching < kMinPeersSharing && !allTraced)) continue;
    const double otherBlocks = static_cast<double>(touching) / traced * otherRunningBlocks;
    contention[sector] = 1.0 + otherBlocks / ownRunningBlocks;
  }
  return contention;
}

}  // namespace teg::timing::detail
