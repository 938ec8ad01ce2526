#include "l2_sharing.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

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

// One stratum's sharing: a fraction `shared` of the SM's first-wave sectors that `blocks` of the
// stratum's other running blocks read too.
struct StratumSharing {
  double shared = 0, blocks = 0;
  std::size_t peersSharing = 0;
  std::vector<bool> seen;  // per own sector: some peer of the stratum read it
  double touched = 0;      // the fraction seen
};

// Within a stratum the SM's first-wave sectors are taken as two kinds: a fraction `a` that d of
// the stratum's N blocks also read, the rest read by none of them. The stratum's peers are P of
// its N blocks, drawn at random, so
//   mean readers per sector     D = a d            = (N / P) x (sum of the peers' overlaps) / |own|
//   sectors some peer read      q = a (1 - (1 - d/N)^P)
// Two observables, two unknowns: d solves D/d (1 - (1 - d/N)^P) = q, whose left side falls as d
// grows, with a = D / d <= 1. A single mean (a = 1, d = D) would call a table every block reads
// plus private data "everything shared by a few"; a per-sector count would need most of the
// blocks traced.
StratumSharing fitStratum(const std::vector<std::uint64_t>& own, const std::vector<const TracedPeer*>& peers, double n) {
  StratumSharing s;
  const auto p = static_cast<double>(peers.size());
  std::vector<bool>& seen = s.seen;
  seen.assign(own.size(), false);
  double overlaps = 0;
  for (const TracedPeer* peer : peers) {
    const auto overlap = intersect(own, peer->sectors, seen);
    overlaps += static_cast<double>(overlap);
    if (overlap > 0) ++s.peersSharing;
  }
  const bool allTraced = p >= n;
  if (s.peersSharing == 0 || (s.peersSharing < kMinPeersSharing && !allTraced)) return s;
  const auto size = static_cast<double>(own.size());
  const double meanReaders = n / p * overlaps / size;
  const double touched = static_cast<double>(std::count(seen.begin(), seen.end(), true)) / size;
  s.touched = touched;
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
  s.blocks = d;
  s.shared = std::min(1.0, meanReaders / d);
  return s;
}

}  // namespace

// The strata are combined sector by sector, so that a sector several strata read is counted once
// with all of its readers (a union, not a sum of the strata's shared fractions). Of stratum c's
// fit, a fraction a_c of the SM's sectors is read by d_c of its blocks; its peers saw q_c of them,
// which are of that kind, and of the sectors they did not see a fraction u_c = (a_c - q_c) /
// (1 - q_c) is. A sector's other readers r are then the sum of d_c over the strata that saw it,
// plus d_c with probability u_c for each that did not; k = 1 + min(S - 1, r) SMs read it and this
// SM fetches it with probability 1/k. A GEMM block shares its A panel with its row's stratum and
// its B panel with its column's: summing a_c and averaging d_c (the rule before) made the two
// panels one kind read by the mean of the two counts, and a panel several strata read (row 0's A
// panel by the row's blocks and by its neighbours) shared twice. With one stratum (a 1-D grid)
// this is that stratum's fit: (1 - a) + a/k.
L2Sharing estimateL2Sharing(const std::vector<std::uint64_t>& own, const std::vector<TracedPeer>& peers,
                            const std::vector<double>& strataPopulation, int smCount) {
  L2Sharing s;
  s.peers = peers.size();
  s.ownSectors = own.size();
  if (own.empty() || peers.empty() || smCount < 2) return s;
  std::vector<StratumSharing> counted;
  for (std::size_t c = 0; c < strataPopulation.size(); ++c) {
    std::vector<const TracedPeer*> members;
    for (const TracedPeer& peer : peers)
      if (peer.stratum == c) members.push_back(&peer);
    if (members.empty() || strataPopulation[c] < 1) continue;
    ++s.strata;
    StratumSharing fit = fitStratum(own, members, strataPopulation[c]);
    s.peersSharing += fit.peersSharing;
    if (fit.shared <= 0) continue;
    ++s.strataCounted;
    counted.push_back(std::move(fit));
  }
  if (counted.empty()) return s;
  // The sectors grouped by which counted strata saw them (at most one stratum per peer, so few).
  std::map<std::vector<bool>, double> groups;
  {
    std::vector<bool> key(counted.size());
    for (std::size_t i = 0; i < own.size(); ++i) {
      for (std::size_t c = 0; c < counted.size(); ++c) key[c] = counted[c].seen[i];
      groups[key] += 1;
    }
  }
  const double otherSms = static_cast<double>(smCount - 1);
  double fetched = 0, shared = 0, reads = 0;
  for (const auto& [sawIt, sectors] : groups) {
    // The distribution of r over the strata that did not see these sectors.
    std::vector<std::pair<double, double>> readers{{0.0, 1.0}};  // (r, probability)
    for (std::size_t c = 0; c < counted.size(); ++c) {
      const StratumSharing& f = counted[c];
      if (sawIt[c]) {
        for (auto& [r, p] : readers) r += f.blocks;
        continue;
      }
      const double u = f.touched < 1 ? std::clamp((f.shared - f.touched) / (1 - f.touched), 0.0, 1.0) : 0.0;
      if (u <= 0) continue;
      const std::size_t n = readers.size();
      for (std::size_t j = 0; j < n; ++j) {
        readers.push_back({readers[j].first + f.blocks, readers[j].second * u});
        readers[j].second *= 1 - u;
      }
    }
    for (const auto& [r, p] : readers) {
      fetched += sectors * p / (1 + std::min(otherSms, r));
      if (r > 0) shared += sectors * p, reads += sectors * p * r;
    }
  }
  const auto size = static_cast<double>(own.size());
  s.sharedFraction = std::min(1.0, shared / size);
  s.otherBlocks = shared > 0 ? reads / shared : 0;
  s.otherSms = std::min(otherSms, s.otherBlocks);
  s.ownFetchFraction = std::min(1.0, fetched / size);
  return s;
}

L2Carry estimateL2Carry(const std::vector<std::uint64_t>& firstOwn, const std::vector<std::uint64_t>& laterOwn,
                        const std::vector<TracedPeer>& peers, const std::vector<double>& strataPopulation, int smCount,
                        double firstWaveOwnFetch, double sectorBytes, double l2Bytes) {
  L2Carry c;
  c.laterWaveOwnFetchFraction = firstWaveOwnFetch;
  c.laterSectors = laterOwn.size();
  c.l2Bytes = l2Bytes;
  if (laterOwn.empty() || l2Bytes <= 0) return c;
  // What the SM's own first wave read (its L2 share may have let it go; the L2 has not), and the
  // rest, of which the first-wave peers show the fraction other SMs read.
  std::vector<std::uint64_t> newLater;
  std::set_difference(laterOwn.begin(), laterOwn.end(), firstOwn.begin(), firstOwn.end(), std::back_inserter(newLater));
  const auto reread = static_cast<double>(laterOwn.size() - newLater.size());
  double newCarried = 0;
  if (!newLater.empty() && !peers.empty() && smCount >= 2) {
    const L2Sharing seen = estimateL2Sharing(newLater, peers, strataPopulation, smCount);
    if (seen.strataCounted > 0) newCarried = seen.sharedFraction;
  }
  const auto fresh = static_cast<double>(newLater.size());
  c.carriedFraction = (reread + newCarried * fresh) / static_cast<double>(laterOwn.size());
  // The GPU's reads over the span: the SM's distinct sectors, each read by k SMs counted 1/k
  // times (the same fit of its sectors against the peers: its fetch fraction).
  std::vector<std::uint64_t> all;
  std::set_union(firstOwn.begin(), firstOwn.end(), laterOwn.begin(), laterOwn.end(), std::back_inserter(all));
  const double perSm = peers.empty() || smCount < 2
                           ? 1.0
                           : estimateL2Sharing(all, peers, strataPopulation, smCount).ownFetchFraction;
  c.footprintBytes = std::max(1, smCount) * sectorBytes * static_cast<double>(all.size()) * perSm;
  c.fits = c.footprintBytes <= l2Bytes;
  if (c.fits) c.laterWaveOwnFetchFraction = (1 - c.carriedFraction) * firstWaveOwnFetch;
  return c;
}

void boundByGridFootprint(L2Carry& carry, double gridFootprintBytes, double firstWaveOwnFetch,
                          double gridLaterReadBytes) {
  if (carry.laterSectors == 0 || !(gridFootprintBytes < carry.footprintBytes)) return;
  carry.footprintBytes = gridFootprintBytes;
  carry.gridBound = true;
  carry.fits = carry.footprintBytes <= carry.l2Bytes;
  if (!carry.fits) {
    carry.laterWaveOwnFetchFraction = firstWaveOwnFetch;
    return;
  }
  double fetched = (1 - carry.carriedFraction) * firstWaveOwnFetch;
  if (gridLaterReadBytes > 0) {
    const double firstReads = std::min(1.0, gridFootprintBytes / gridLaterReadBytes);
    if (firstReads < fetched) {
      fetched = firstReads;
      carry.carriedFraction = std::max(carry.carriedFraction, 1 - firstReads);
    }
  }
  carry.laterWaveOwnFetchFraction = fetched;
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

long long l2CapacityOfSharedData(long long share, int smCount, double ownFetchFraction) {
  if (share <= 0 || smCount < 2 || !(ownFetchFraction > 0) || ownFetchFraction >= 1) return share;
  const double whole = static_cast<double>(share) * smCount;
  return static_cast<long long>(std::min(whole, static_cast<double>(share) / ownFetchFraction));
}

}  // namespace teg::timing::detail
