#include "l2_footprint.hpp"

#include <algorithm>
#include <iterator>

namespace teg::timing::detail {

GpuFootprint estimateGpuFootprint(const std::vector<std::uint64_t>& sm, std::uint64_t simulatedBlocks,
                                  std::uint64_t gridBlocks, const std::vector<std::vector<std::uint64_t>>& peers,
                                  double sectorBytes) {
  GpuFootprint f;
  const auto own = static_cast<double>(sm.size());
  f.smBytes = own * sectorBytes;
  f.otherBlocks = gridBlocks > simulatedBlocks ? gridBlocks - simulatedBlocks : 0;
  f.peers = peers.size();
  double newPerPeer = 0;  // sectors
  if (f.otherBlocks == 0) {
    newPerPeer = 0;
  } else if (peers.empty()) {
    newPerPeer = simulatedBlocks > 0 ? own / static_cast<double>(simulatedBlocks) : 0;
  } else {
    // The peers' sectors outside S, each counted once however many peers have it.
    std::vector<std::uint64_t> outside;
    for (const auto& peer : peers)
      std::set_difference(peer.begin(), peer.end(), sm.begin(), sm.end(), std::back_inserter(outside));
    std::sort(outside.begin(), outside.end());
    const auto distinct = std::unique(outside.begin(), outside.end()) - outside.begin();
    newPerPeer = static_cast<double>(distinct) / static_cast<double>(peers.size());
  }
  f.newPerPeerBytes = newPerPeer * sectorBytes;
  f.bytes = f.smBytes + static_cast<double>(f.otherBlocks) * f.newPerPeerBytes;
  return f;
}

}  // namespace teg::timing::detail
