// Data other SMs bring into the L2. The L2 is one cache for the whole GPU, but the simulated SM
// sees only its own blocks and its share of the L2, so a tile that every SM reads (a GEMM's
// panels, a lookup table, SpMV's x) would cost each SM its own DRAM fetch. The engine therefore
// also traces a few peer blocks — blocks that other SMs run alongside the simulated SM's first
// wave — and estimates from the overlap of their sectors with the SM's how many other SMs read
// the same data at about the same time. A sector that k SMs read is fetched from DRAM once: by
// this SM with probability 1/k, otherwise it is already in the L2 when this SM asks for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace teg::timing::detail {

inline constexpr std::size_t kMinPeersSharing = 2;

struct L2Sharing {
  // Of the sectors the SM's L2 share misses on a read, the fraction it fetches from DRAM itself
  // (the rest another SM has brought into the L2). 1 when nothing is shared or nothing sampled.
  double ownFetchFraction = 1.0;
  double sharedFraction = 0;  // of the SM's first-wave sectors, those other running blocks read too
  double otherBlocks = 0;     // how many other running blocks read each shared sector
  double otherSms = 0;        // on how many other SMs: min(SMs - 1, otherBlocks)
  std::size_t peers = 0;       // peer blocks traced
  std::size_t peersSharing = 0;  // of them, those that read any sector the SM's first wave reads
  std::size_t ownSectors = 0;  // distinct sectors the SM's first wave reads
  std::size_t strata = 0;          // strata with a traced peer
  std::size_t strataCounted = 0;   // of them, those whose sharing is counted
};

// A traced peer block: the distinct sectors (sorted) it reads, and its stratum.
struct TracedPeer {
  std::vector<std::uint64_t> sectors;
  std::size_t stratum = 0;
};

// `own`: distinct sectors (sorted) the simulated SM's first-wave blocks read; `peers`: the traced
// peer blocks; `strataPopulation`: per stratum, the blocks its peers were drawn from (blocks other
// SMs run alongside the first wave, grid neighbours sharing no row or column excepted:
// TimingEngine's peerBlocksOfSimulatedSm). A stratum's sharing seen by fewer than kMinPeersSharing
// of its peers is not counted unless every block of it was traced: one draw scaled up to the wave
// is mostly noise. The strata are combined per sector (each sector once, with the readers of every
// stratum that reads it: l2_sharing.cpp); `otherBlocks` is then the mean over the shared sectors.
L2Sharing estimateL2Sharing(const std::vector<std::uint64_t>& own, const std::vector<TracedPeer>& peers,
                            const std::vector<double>& strataPopulation, int smCount);

// L2 contents carried across waves. The L2 keeps what the first wave read while later waves run:
// a sector that a later-wave block of the simulated SM reads and that a first-wave block of
// another SM read before is already in the L2 (gpu-benches' gpu-l2-cache: block b reads slot
// b mod R of a buffer the L2 holds, so every wave after the first re-reads data other SMs brought
// in), as long as what the GPU read since fits in the L2 (LRU: it is evicted otherwise).
struct L2Carry {
  // Of the sectors the SM's later-wave blocks read, those a first-wave block read: of this SM
  // (its own first wave's sectors) or of another SM (estimateL2Sharing's shared fraction, the
  // first-wave peers against the later-wave sectors its first wave did not read).
  double carriedFraction = 0;
  // The fraction of a later-wave read miss this SM fetches from DRAM itself: (1 - carried) x the
  // first wave's own fetch fraction when the data fit, else the first wave's.
  double laterWaveOwnFetchFraction = 1;
  double footprintBytes = 0;  // the distinct data the GPU reads over the simulated blocks' span (estimated)
  double l2Bytes = 0;         // the whole L2
  bool fits = false;
  bool gridBound = false;        // footprintBytes is the grid's footprint (boundByGridFootprint)
  std::size_t laterSectors = 0;  // distinct sectors the SM's later-wave blocks read
};

// `firstOwn` / `laterOwn`: distinct sectors (sorted) the simulated SM's first-wave and later-wave
// blocks read; `peers`, `strataPopulation`, `smCount`: as estimateL2Sharing; `firstWaveOwnFetch`:
// its ownFetchFraction. The GPU's reads over the span are estimated as smCount x sectorBytes x
// |firstOwn u laterOwn| x the fetch fraction estimateL2Sharing gives those sectors against the
// peers (a sector k SMs read counts 1/k on each).
L2Carry estimateL2Carry(const std::vector<std::uint64_t>& firstOwn, const std::vector<std::uint64_t>& laterOwn,
                        const std::vector<TracedPeer>& peers, const std::vector<double>& strataPopulation, int smCount,
                        double firstWaveOwnFetch, double sectorBytes, double l2Bytes);

// The distinct data the GPU reads over the span is at most the whole grid's (l2_footprint.hpp:
// the simulated blocks and the peers as two samples of the grid's data). The span's estimate above
// counts each SM's distinct sectors divided by how many SMs read them at once in the first wave,
// which misses data that different SMs read at different times: gpu-benches' gpu-l2-cache (block b
// reads slot b mod R of R 512 KiB slots; the L40's 142 SMs read all R = 20 slots, 10 MiB, over
// and over) came out at 113.6 MiB against the L40's 96 MiB L2, and every later wave's read went
// to DRAM. Where the grid's footprint is the smaller, it bounds the span's, and the carry is
// re-decided against the L2 with it. Where it then fits, a sector leaves DRAM once for the whole
// launch: of what the later waves read (`gridLaterReadBytes`, the grid's blocks after the first
// wave times the simulated later blocks' data per block), at most the footprint is a first read,
// so at most footprint / gridLaterReadBytes of it comes from DRAM. That bounds the peers' estimate,
// which sees too few peers share data when the blocks' data is spread over many slots (gpu-l2-cache
// with R = 100 slots: one or two of 8 peers read one of the SM's, "not counted", all to DRAM).
void boundByGridFootprint(L2Carry& carry, double gridFootprintBytes, double firstWaveOwnFetch,
                          double gridLaterReadBytes);

// What the simulated SM's memory system is told of the L2 other SMs fill: the first wave's own
// fetch fraction (L2Sharing), the later waves' (L2Carry), and which blocks are the first wave (the
// first `firstWaveBlocks` of those simulated, in their order; 0 for the last partial wave run alone).
struct L2Fetch {
  double ownFetchFraction = 1.0;
  double laterWaveOwnFetchFraction = -1;  // -1: as the first wave
  std::size_t firstWaveBlocks = static_cast<std::size_t>(-1);
};

// Whether another SM fetched `line` (a cache line's index; the caller decides per line) before
// this one asked for it, given the SM's own fetch fraction: a fixed hash of the line against the
// fraction, so the same fraction of a large set of lines is fetched by this SM, deterministically
// and independently of access order.
bool fetchedByAnotherSm(std::uint64_t line, double ownFetchFraction);

// The L2 capacity the simulated SM's data can stay in: its share of the L2 (L2 / SMs) when it
// reads private data, but a line k SMs read is held once for all k, so the GPU's SMs together
// need SMs x own x ownFetchFraction bytes for what each of them reads: the SM's data fits when it
// is at most share / ownFetchFraction, never more than the whole L2 (share x SMs). gpu-benches'
// gpu-cache (every SM sums the same buffer) reads a 384 KiB buffer from the L2 on V100 with no
// DRAM traffic (cache_bandwidth_curves.csv, DRAM read 0 GB/s up to 5540 KiB, ~29 GB/s = 1/80 of
// the L2 traffic above the 6 MiB L2); with the 76 KiB share as its capacity every pass re-fetched
// 1/80 of it from DRAM.
long long l2CapacityOfSharedData(long long share, int smCount, double ownFetchFraction);

}  // namespace teg::timing::detail
