#include "l2_footprint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace teg::timing::detail {

namespace {

bool contains(const std::vector<std::uint64_t>& sorted, std::uint64_t x) {
  return std::binary_search(sorted.begin(), sorted.end(), x);
}

}  // namespace

GpuFootprint estimateGpuFootprint(const std::vector<std::uint64_t>& sm, const std::vector<PcSector>& smByPc,
                                  std::uint64_t simulatedBlocks, std::uint64_t gridBlocks,
                                  const std::vector<std::vector<PcSector>>& peers, double sectorBytes) {
  GpuFootprint f;
  const auto own = static_cast<double>(sm.size());
  f.smBytes = own * sectorBytes;
  f.otherBlocks = gridBlocks > simulatedBlocks ? gridBlocks - simulatedBlocks : 0;
  f.peers = peers.size();
  double beyond = 0;  // sectors
  if (f.otherBlocks == 0) {
    beyond = 0;
  } else if (peers.empty()) {
    beyond = simulatedBlocks > 0 ? own / static_cast<double>(simulatedBlocks) * static_cast<double>(f.otherBlocks) : 0;
  } else {
    // The peers' pairs, each once (Q per pc), in pc order.
    std::vector<PcSector> q;
    for (const auto& peer : peers) q.insert(q.end(), peer.begin(), peer.end());
    std::sort(q.begin(), q.end());
    q.erase(std::unique(q.begin(), q.end()), q.end());
    const double perPeer = static_cast<double>(f.otherBlocks) / static_cast<double>(peers.size());
    auto smPc = smByPc.begin();
    for (auto i = q.begin(); i != q.end();) {
      const std::uint32_t pc = i->first;
      auto end = i;
      while (end != q.end() && end->first == pc) ++end;
      // S_pc: the SM's pairs of this pc.
      smPc = std::lower_bound(smPc, smByPc.end(), PcSector{pc, 0});
      auto smPcEnd = smPc;
      while (smPcEnd != smByPc.end() && smPcEnd->first == pc) ++smPcEnd;
      double n2 = 0, recaptured = 0, outsideS = 0;
      for (auto j = i; j != end; ++j) {
        n2 += 1;
        if (std::binary_search(smPc, smPcEnd, *j)) recaptured += 1;
        if (!contains(sm, j->second)) outsideS += 1;
      }
      const auto n1 = static_cast<double>(smPcEnd - smPc);
      const double priv = perPeer * outsideS;
      const double lincolnPetersen =
          recaptured > 0 ? n1 * (n2 - recaptured) / recaptured : std::numeric_limits<double>::infinity();
      beyond += std::min(priv, lincolnPetersen);
      i = end;
      smPc = smPcEnd;
    }
  }
  f.beyondBytes = beyond * sectorBytes;
  f.bytes = f.smBytes + f.beyondBytes;
  return f;
}

}  // namespace teg::timing::detail
