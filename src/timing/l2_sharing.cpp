#include "l2_sharing.hpp"

#include <algorithm>
#include <cmath>

namespace teg::timing::detail {

namespace {

// |a ∩ b| of two sorted vectors, marking the elements of `a` that are in b.
std::size_t intersect(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b, std::vector<bool>& seen) {
  std::size_t count = 0;
  auto j = b.begin();
  for (std::size_t i = 0; i < a.size() && j != b.end(); ++i) {
    j = std::lower_bound(j, b.end(), a[i]);
    if (j != b.end() && *j == a[i]) {
      ++count;
      seen[i] = true;
    }
  }
  return count;
}

}  // namespace

// The SM's first-wave sectors are taken as two kinds: a fraction `a` that d other running blocks
// also read, the rest read by no other. The peers are P of the N other blocks, so
//   mean other readers per sector  D = a d            = (N / P) x (sum of the peers' overlaps) / |own|
//   sectors some peer read          q = a (1 - (1 - d/N)^P)
// Two observables, two unknowns: d solves D/d (1 - (1 - d/N)^P) = q, whose left side falls as d
// grows, with a = D / d <= 1. A single mean (a = 1, d = D) would call a table every block reads
// plus private data "everything shared by a few"; a per-sector count would need most of the
// blocks traced.
L2Sharing estimateL2Sharing(const std::vector<std::uint64_t>& own, const std::vector<std::vector<std::uint64_t>>& peers,
                            double otherBlocksInWave, int smCount) {
  L2Sharing s;
  s.peers = peers.size();
  s.ownSectors = own.size();
  const double n = otherBlocksInWave;
  const auto p = static_cast<double>(peers.size());
  if (own.empty() || peers.empty() || n < 1 || smCount < 2) return s;
  std::vector<bool> seen(own.size(), false);
  double overlaps = 0;
  for (const auto& peer : peers) {
    const auto overlap = intersect(own, peer, seen);
    overlaps += static_cast<double>(overlap);
    if (overlap > 0) ++s.peersSharing;
  }
  if (s.peersSharing < kMinPeersSharing) return s;
  const auto size = static_cast<double>(own.size());
  const double meanReaders = n / p * overlaps / size;
  const double touched = static_cast<double>(std::count(seen.begin(), seen.end(), true)) / size;
  auto excess = [&](double d) { return meanReaders / d * (1 - std::pow(1 - std::min(1.0, d / n), p)) - touched; };
  double lo = std::max(1.0, meanReaders), hi = std::max(lo, n);
  double d = lo;
  if (excess(lo) > 0) {
    if (excess(hi) >= 0) {
      d = hi;
    } else {
      for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        (excess(mid) > 0 ? lo : hi) = mid;
      }
      d = 0.5 * (lo + hi);
    }
  }
  s.otherBlocks = d;
  s.sharedFraction = std::min(1.0, meanReaders / d);
  s.otherSms = std::min(static_cast<double>(smCount - 1), d);
  s.ownFetchFraction = (1 - s.sharedFraction) + s.sharedFraction / (1 + s.otherSms);
  return s;
}

bool fetchedByAnotherSm(std::uint64_t line, double ownFetchFraction) {
  if (ownFetchFraction >= 1) return false;
  // splitmix64's finaliser: consecutive lines map to unrelated values.
  std::uint64_t z = line + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  const double u = static_cast<double>(z >> 11) * 0x1.0p-53;
  return u >= ownFetchFraction;
}

}  // namespace teg::timing::detail
