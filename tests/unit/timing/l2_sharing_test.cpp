// Data other SMs bring into the shared L2 (src/timing/l2_sharing.hpp), worked by hand: a launch
// of 8 one-warp blocks on 4 SMs with 2 resident blocks each. SM 0 runs blocks 0 and 4 in the
// first wave; blocks 1, 3 and 5 are their grid neighbours, so the peers are blocks 2, 6 and 7
// (all of the population of 3).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "l2_sharing.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

constexpr std::uint64_t kTable = 0x10000000ull;    // lines every block reads
constexpr std::uint64_t kPrivate = 0x20000000ull;  // lines of one block

// Each block loads `tableLines` lines of the table, then `privateLines` lines of its own (of
// global memory, or of each thread's local memory with `localPrivate`); a load is one coalesced
// line (4 sectors). A block for which `readsTable` says no loads lines of its own instead.
TimingResult runTableKernel(int tableLines, int privateLines, int peerBlocks, bool localPrivate = false,
                            const std::function<bool(std::uint32_t)>& readsTable = nullptr,
                            long long l2Share = 64 * 1024, int tablePasses = 1) {
  auto config = simpleConfig(4, 1, 1);
  config.smCount = 4;
  config.l2BytesShare = l2Share;  // by default everything the SM reads fits in its share
  EngineOptions options;
  options.residentBlocks = 2;
  options.peerBlocks = peerBlocks;
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {2}, {1}),
                                memory(InstrKind::Load, MemorySpace::Local, {3}, {1})},
                               8, 32);
  return runSynthetic(config, options, kernel,
                      [&](auto, auto) {
                        auto pcs = repeat(0, static_cast<std::size_t>(tableLines * tablePasses));
                        const auto own = repeat(localPrivate ? 1 : 0, static_cast<std::size_t>(privateLines));
                        pcs.insert(pcs.end(), own.begin(), own.end());
                        return pcs;
                      },
                      [&](std::uint32_t block, auto, std::size_t i, int lane) {
                        const auto l = static_cast<std::uint64_t>(lane) * 4;
                        const auto table = static_cast<std::size_t>(tableLines * tablePasses);
                        return i < table && (!readsTable || readsTable(block))
                                   ? kTable + (i % static_cast<std::size_t>(tableLines)) * 128 + l
                                   : kPrivate + (block * 1000ull + i) * 128 + l;
                      });
}

std::string sharingValue(const TimingResult& r) {
  for (const auto& a : r.assumptions)
    if (a.parameter == "L2 shared with other SMs") return a.value;
  return "(none)";
}

TEST(L2Sharing, ATableEveryRunningBlockReadsIsFetchedOncePerGpu) {
  // 32 table lines (128 sectors). Each of the 3 peers reads all 128 of the SM's sectors: mean
  // other readers D = 3/3 x 384/128 = 3, every sector touched (q = 1), so a = 1 and d = 3 (the
  // fit's D/d (1 - (1 - d/3)^3) = q holds at d = 3). Three other SMs: this SM fetches 1/4.
  const auto shared = runTableKernel(32, 0, 8);
  EXPECT_NE(sharingValue(shared).find("100.0 % of the 128 sectors"), std::string::npos) << sharingValue(shared);
  EXPECT_NE(sharingValue(shared).find("read by 3.0 other running blocks"), std::string::npos) << sharingValue(shared);
  EXPECT_NE(sharingValue(shared).find("fetches 25.0 %"), std::string::npos) << sharingValue(shared);
  // Block 0 misses on all 128 sectors; block 4 then hits in the SM's share. A line is fetched
  // from DRAM by this SM or found in the L2 whole: 32 lines at 1/4 each, 8 expected (binomial sd
  // 2.4), and every miss is one or the other.
  EXPECT_EQ(shared.memory.dramSectors % 4, 0u);
  EXPECT_GE(shared.memory.dramSectors, 4u * 2);
  EXPECT_LE(shared.memory.dramSectors, 4u * 14);
  EXPECT_EQ(shared.memory.dramSectors + shared.memory.l2PeerHits, 128u);
  EXPECT_EQ(shared.memory.l2Hits, 128u + shared.memory.l2PeerHits);
  // Without peers the SM fetches all 128 itself, and says so.
  const auto alone = runTableKernel(32, 0, 0);
  EXPECT_EQ(alone.memory.dramSectors, 128u);
  EXPECT_EQ(alone.memory.l2PeerHits, 0u);
  EXPECT_EQ(sharingValue(alone), "not estimated");
  // L2 hits instead of DRAM fetches: block 0's loads complete sooner.
  EXPECT_LT(shared.cycles, alone.cycles);
}

TEST(L2Sharing, SharedDataIsHeldOnceInTheL2ForAllItsReaders) {
  // The capacity rule by hand: a 76 KiB share on 80 SMs (V100: 6 MiB / 80) holds private data
  // only; data all 80 SMs read (own fetch 1/80) may take 76 KiB x 80 = the whole 6 MiB; a third
  // of it shared by 3 others (2/3 + 1/3 x 1/4 = 3/4 fetched here) 76 / 0.75 = 101.3 KiB.
  using teg::timing::detail::l2CapacityOfSharedData;
  EXPECT_EQ(l2CapacityOfSharedData(77824, 80, 1.0), 77824);
  EXPECT_EQ(l2CapacityOfSharedData(77824, 80, 1.0 / 80), 77824LL * 80);
  EXPECT_EQ(l2CapacityOfSharedData(77824, 80, 0.75), 103765);
  EXPECT_EQ(l2CapacityOfSharedData(77824, 1, 0.5), 77824);  // one SM: nothing to share with
  EXPECT_EQ(l2CapacityOfSharedData(77824, 4, 0.01), 77824LL * 4);  // never more than the whole L2
  // In the engine: a 32-line (4 KiB) table every block reads twice, a 2 KiB share on 4 SMs. Each
  // of the 3 peers reads the whole table, so this SM fetches 1/4 of it and the four SMs hold it
  // once: 4 KiB <= 2 KiB / (1/4) = 8 KiB. The first pass's misses are DRAM fetches or lines
  // another SM brought in (128 sectors in all); the second pass then hits in the L2 the SM sees
  // (2 blocks x 128 sectors). Held in 2 KiB (16 lines), the second pass would miss on every line
  // (LRU over a 32-line cycle) and fetch about a quarter of them from DRAM again.
  const auto r = runTableKernel(32, 0, 8, false, nullptr, 2 * 1024, 2);
  EXPECT_NE(sharingValue(r).find("fetches 25.0 %"), std::string::npos) << sharingValue(r);
  EXPECT_EQ(r.memory.dramSectors + r.memory.l2PeerHits, 128u);
  EXPECT_EQ(r.memory.l2Hits, 4 * 128u - r.memory.dramSectors);
}

TEST(L2Sharing, ATableBesidePrivateDataIsSharedOnlyInPart) {
  // 16 table lines + 16 private lines per block: the SM's first wave reads 64 table sectors and
  // 2 x 64 private ones (192). Each peer overlaps the 64 table sectors: D = 192/192 = 1,
  // q = 64/192 = 1/3. The fit: at d = 1, (1 - (2/3)^3) = 19/27 > 1/3; at d = 3 (all), 1/3 = q.
  // So a third of the sectors are read by all 3 others: 2/3 + 1/3 x 1/4 = 75 % fetched here.
  const auto r = runTableKernel(16, 16, 8);
  EXPECT_NE(sharingValue(r).find("33.3 % of the 192 sectors"), std::string::npos) << sharingValue(r);
  EXPECT_NE(sharingValue(r).find("read by 3.0 other running blocks"), std::string::npos) << sharingValue(r);
  EXPECT_NE(sharingValue(r).find("fetches 75.0 %"), std::string::npos) << sharingValue(r);
}

TEST(L2Sharing, PrivateDataIsNotShared) {
  // No peer reads what the SM reads: each SM fetches everything (2 blocks x 32 lines x 4).
  const auto r = runTableKernel(0, 32, 8);
  EXPECT_EQ(sharingValue(r), "not counted");
  EXPECT_EQ(r.memory.dramSectors, 256u);
  EXPECT_EQ(r.memory.l2PeerHits, 0u);
}

TEST(L2Sharing, OneSharingPeerCountsWhenItsWholeStratumWasTraced) {
  // Blocks 0, 4 (the SM's first wave) and 6 read 8 table lines; every other block reads its own
  // lines instead, and each block 8 private lines. The SM's first wave reads 32 table sectors and
  // 2 x 32 private ones (96). Of the peers 2, 6 and 7 (all of the population of 3) only 6 shares:
  // D = 3/3 x 32/96 = 1/3, q = 1/3. The fit: at d = 1, 1/3 x (1 - (2/3)^3) = 0.235 < q, so d = 1
  // and a = 1/3: a third of the sectors read by one other block, 2/3 + 1/3 x 1/2 = 83.3 % fetched
  // here. One sharing peer out of a sample would not be counted; out of the whole stratum it is
  // no extrapolation.
  const auto r = runTableKernel(8, 8, 8, false, [](std::uint32_t block) { return block == 0 || block == 4 || block == 6; });
  EXPECT_NE(sharingValue(r).find("33.3 % of the 96 sectors"), std::string::npos) << sharingValue(r);
  EXPECT_NE(sharingValue(r).find("read by 1.0 other running blocks"), std::string::npos) << sharingValue(r);
  EXPECT_NE(sharingValue(r).find("fetches 83.3 %"), std::string::npos) << sharingValue(r);
}

TEST(L2Sharing, LocalMemoryIsNeverBroughtInByAnotherSm) {
  // The shared table of the first test, then 8 loads of each thread's local memory (private:
  // 2 blocks x 8 x 4 sectors, all from DRAM). The table's lines are decided as before, so the
  // hits brought in by other SMs are the table's alone.
  const auto tableOnly = runTableKernel(32, 0, 8);
  const auto withLocal = runTableKernel(32, 8, 8, true);
  EXPECT_EQ(withLocal.memory.l2PeerHits, tableOnly.memory.l2PeerHits);
  EXPECT_EQ(withLocal.memory.dramSectors, tableOnly.memory.dramSectors + 64u);
}

TEST(L2Sharing, PeersAreRunningBlocksOfOtherSmsAwayFromTheSmsOwn) {
  // A 32 x 32 grid on 108 SMs with 8 resident blocks: the first wave is blocks 0-863 (rows 0-26).
  // SM 0 runs 0, 108, ..., 756: (0,0) in a corner (1 diagonal neighbour) and 7 blocks inside the
  // grid (4 diagonals each). The diagonals share no row or column with SM 0's blocks (columns
  // 0, 4, ..., 28; rows 3 or more apart) and are left out; the neighbours above, below and beside
  // share a column or a row and stay in. The population is 864 - 8 - 1 - 7 x 4 = 827.
  const teg::trace::Dim3 grid{32, 32, 1};
  const PeerSample sample = peerBlocksOfSimulatedSm(grid, 108, 8, 8);
  EXPECT_EQ(sample.population, 827u);
  ASSERT_EQ(sample.blocks.size(), 8u);
  EXPECT_TRUE(std::is_sorted(sample.blocks.begin(), sample.blocks.end()));
  EXPECT_EQ(std::set<std::uint64_t>(sample.blocks.begin(), sample.blocks.end()).size(), 8u);
  for (const std::uint64_t b : sample.blocks) {
    EXPECT_LT(b, 864u);
    EXPECT_NE(b % 108, 0u) << b;
    for (std::uint64_t own = 0; own < 864; own += 108) {
      const auto dx = static_cast<long>(b % 32) - static_cast<long>(own % 32);
      const auto dy = static_cast<long>(b / 32) - static_cast<long>(own / 32);
      EXPECT_FALSE(std::labs(dx) == 1 && std::labs(dy) == 1) << b << " is a diagonal neighbour of " << own;
    }
  }
  // The same launch gets the same peers; fewer candidates than asked for: all of them.
  EXPECT_EQ(peerBlocksOfSimulatedSm(grid, 108, 8, 8).blocks, sample.blocks);
  const PeerSample small = peerBlocksOfSimulatedSm(teg::trace::Dim3{8, 1, 1}, 4, 2, 8);
  EXPECT_EQ(small.blocks, (std::vector<std::uint64_t>{2, 6, 7}));
  EXPECT_TRUE(peerBlocksOfSimulatedSm(grid, 1, 8, 8).blocks.empty());  // one SM: no other SMs
}

// The strata of the 32 x 32 grid above, by hand. SM 0's first wave is (0,0), (12,3), (24,6),
// (4,10), (16,13), (28,16), (8,20), (20,23): columns X = {0, 4, ..., 28} and rows
// Y = {0, 3, 6, 10, 13, 16, 20, 23}; the wave is rows 0-26. Before exclusions: X and Y 8 x 8 = 64,
// X only 8 x 19 = 152, Y only 24 x 8 = 192, neither 24 x 19 = 456. Excluded: the 8 own blocks
// (X and Y) and the diagonal neighbours, which share neither: (1,1) of (0,0) and 4 of each of the 7
// inside, 29. The neighbours beside (Y only) and above or below (X only) stay in their stratum.
// So X and Y 56, X only 152, Y only 192, neither 456 - 29 = 427; 2 peers each.
TEST(L2Sharing, PeersAreSpreadOverTheRowsAndColumnsTheSmShares) {
  const teg::trace::Dim3 grid{32, 32, 1};
  const PeerSample sample = peerBlocksOfSimulatedSm(grid, 108, 8, 8);
  ASSERT_EQ(sample.strata.size(), 4u);
  const std::vector<std::pair<unsigned, std::uint64_t>> expected = {{0u, 427}, {2u, 192}, {1u, 152}, {3u, 56}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(sample.strata[i].sharedCoordinates, expected[i].first) << i;
    EXPECT_EQ(sample.strata[i].population, expected[i].second) << i;
    EXPECT_EQ(sample.strata[i].drawn, 2u) << i;
  }
  const std::set<std::uint64_t> columns = {0, 4, 8, 12, 16, 20, 24, 28}, rows = {0, 3, 6, 10, 13, 16, 20, 23};
  ASSERT_EQ(sample.stratumOf.size(), sample.blocks.size());
  for (std::size_t i = 0; i < sample.blocks.size(); ++i) {
    const std::uint64_t b = sample.blocks[i];
    const unsigned key = (columns.count(b % 32) ? 1u : 0u) | (rows.count(b / 32) ? 2u : 0u);
    EXPECT_EQ(sample.strata[sample.stratumOf[i]].sharedCoordinates, key) << b;
  }
  // 3 peers: one each for the three largest strata; 10: the two largest get a third.
  const PeerSample three = peerBlocksOfSimulatedSm(grid, 108, 8, 3);
  ASSERT_EQ(three.strata.size(), 4u);
  EXPECT_EQ(three.strata[3].drawn, 0u);
  const PeerSample ten = peerBlocksOfSimulatedSm(grid, 108, 8, 10);
  EXPECT_EQ(ten.strata[0].drawn + ten.strata[1].drawn, 6u);
}

// A GEMM-like launch on that grid: block (x, y) reads a table of 4 lines (16 sectors) of its grid
// column x and one of its row y, nothing else. The SM's first wave reads 16 tables: 256 sectors.
// Each peer of "X only" or "Y only" shares one table with it (16 sectors), of "X and Y" two, of
// "neither" none. Mean other readers per sector, stratum by stratum, N / P x overlaps / 256:
// Y only 192 / 2 x 32 / 256 = 12, X only 152 / 2 x 32 / 256 = 9.5, X and Y 56 / 2 x 64 / 256 = 7.
// Two peers of a stratum that read different tables (a fraction 32 / 256 touched) are explained
// by the fit only as every sector shared (a = 1), so each stratum counts every sector, seen or
// not (u = 1): 28.5 other readers of each, and the SM fetches 1 / (1 + 28.5) = 3.4 % of its
// misses (by hand: each column table is read by 26 other blocks of the wave, each row table by
// 31; (1/27 + 1/32) / 2 = 3.4 %).
// A simple random sample of 8 would have drawn about 2 sharing peers and scaled them up to the
// whole wave.
TEST(L2Sharing, AGemmsRowAndColumnPanelsAreSharedAsTheGridSays) {
  auto config = simpleConfig(4, 1, 1);
  config.smCount = 108;
  config.l2BytesShare = 64 * 1024;
  EngineOptions options;
  options.residentBlocks = 8;
  options.peerBlocks = 8;
  auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {2}, {1})}, 1024, 32);
  kernel.grid = {32, 32, 1};
  const auto r = runSynthetic(
      config, options, kernel, [](auto, auto) { return repeat(0, 8); },
      [](std::uint32_t block, auto, std::size_t i, int lane) {
        const std::uint64_t table = i < 4 ? 0x10000000ull + (block % 32) * 0x10000 : 0x20000000ull + (block / 32) * 0x10000;
        return table + (i % 4) * 128 + static_cast<std::uint64_t>(lane) * 4;
      });
  const std::string value = sharingValue(r);
  EXPECT_NE(value.find("100.0 % of the 256 sectors"), std::string::npos) << value;
  EXPECT_NE(value.find("read by 28.5 other running blocks"), std::string::npos) << value;
  EXPECT_NE(value.find("fetches 3.4 %"), std::string::npos) << value;
}

// A GEMM's first wave on a small GPU, counted by hand (the shape of the SGEMM worklog's s10 on an
// RTX 4060: 24 SMs x 2 blocks, a 32 x 32 grid, block (x, y) reads A's row panel y and B's column
// panel x). Here an 8 x 8 grid on 6 SMs with 2 resident blocks: the wave is blocks 0-11, rows 0
// (x 0-7) and 1 (x 0-3); SM 0 runs blocks 0 = (0,0) and 6 = (6,0). Each block reads its row
// table (4 lines, 16 sectors) and its column table (16 sectors): the SM reads A0, B0 and B6, 48
// sectors. Who else reads them in the wave: A0 blocks 1-5 and 7 (on SMs 1-5 and 1: all 5 other
// SMs, so it is fetched by 1 of 6); B0 block 8 = (0,1) on SM 2 (1 of 2); B6 nobody ((6,1) is block
// 14, in the next wave). This SM fetches (1/6 + 1/2 + 1) / 3 = 55.6 % of its misses.
// Blocks 1, 7 and 8 are grid neighbours of the SM's blocks; 8 is the only block of the wave that
// shares B0. Left out, the estimate saw A0 shared by 3 blocks and B0 by none (75.0 %); the
// strata's shares added (A0 and B0 one shared kind read by (6 + 1) / 2 others) give 48.1 %.
// Block 9 = (1,1) is a diagonal neighbour sharing no row or column: still left out.
TEST(L2Sharing, AGemmsPanelsAreCountedForTheBlocksThatShareThemInTheWave) {
  auto config = simpleConfig(4, 1, 1);
  config.smCount = 6;
  config.l2BytesShare = 64 * 1024;
  EngineOptions options;
  options.residentBlocks = 2;
  auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {2}, {1})}, 64, 32);
  kernel.grid = {8, 8, 1};
  const auto gemm = [](std::uint32_t block, auto, std::size_t i, int lane) {
    const std::uint64_t table = i < 4 ? 0x20000000ull + (block / 8) * 0x10000 : 0x10000000ull + (block % 8) * 0x10000;
    return table + (i % 4) * 128 + static_cast<std::uint64_t>(lane) * 4;
  };
  // The peers: row 0's other blocks 1-5 and 7, block 8 of column 0, and 10, 11 sharing neither.
  const PeerSample all = peerBlocksOfSimulatedSm(kernel.grid, 6, 2, 16);
  EXPECT_EQ(all.blocks, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 7, 8, 10, 11}));
  for (const int peers : {16, 8}) {  // every candidate traced; 8 of the 9 (row 0's stratum sampled)
    options.peerBlocks = peers;
    const auto r = runSynthetic(config, options, kernel, [](auto, auto) { return repeat(0, 8); }, gemm);
    const std::string value = sharingValue(r);
    EXPECT_NE(value.find("66.7 % of the 48 sectors"), std::string::npos) << peers << ": " << value;
    EXPECT_NE(value.find("read by 3.5 other running blocks"), std::string::npos) << peers << ": " << value;
    EXPECT_NE(value.find("fetches 55.6 %"), std::string::npos) << peers << ": " << value;
  }
}

// The strata combined sector by sector (estimateL2Sharing), by hand on 100 SMs. The SM reads
// sectors 0-99. Stratum 0: 2 peers of 10 blocks, both reading 0-49: D = 10/2 x 100/100 = 5,
// q = 1/2; the fit gives d = 10 (5/10 x (1 - 0^2) = q) and a = 1/2, every shared sector seen.
// Stratum 1: its one block (traced whole) reads 0-49 too: D = q = 1/2, d = 1, a = 1/2. Sectors
// 0-49 are read by 10 + 1 others, 12 SMs in all: (50/12 + 50) / 100 = 54.2 % fetched here. Adding
// the strata's shares (the rule before) called every sector shared by (5 + 1/2) / 1 others and
// fetched 1 / 6.5 = 15.4 %. When stratum 1's block reads 50-59 instead (a = 1/10, d = 1), the
// panels are apart: (50/11 + 10/2 + 40) / 100 = 49.5 %, 60 % shared by (50 x 10 + 10) / 60 = 8.5.
TEST(L2Sharing, AStratumsSectorsAreCountedOnceWithAllTheirReaders) {
  using teg::timing::detail::estimateL2Sharing;
  using teg::timing::detail::TracedPeer;
  std::vector<std::uint64_t> own, firstHalf, tenMore;
  for (std::uint64_t s = 0; s < 100; ++s) own.push_back(s);
  for (std::uint64_t s = 0; s < 50; ++s) firstHalf.push_back(s);
  for (std::uint64_t s = 50; s < 60; ++s) tenMore.push_back(s);
  const auto same = estimateL2Sharing(own, {{firstHalf, 0}, {firstHalf, 0}, {firstHalf, 1}}, {10.0, 1.0}, 100);
  EXPECT_EQ(same.strataCounted, 2u);
  EXPECT_NEAR(same.ownFetchFraction, (50.0 / 12 + 50) / 100, 1e-12);
  EXPECT_NEAR(same.sharedFraction, 0.5, 1e-12);
  EXPECT_NEAR(same.otherBlocks, 11, 1e-12);
  const auto apart = estimateL2Sharing(own, {{firstHalf, 0}, {firstHalf, 0}, {tenMore, 1}}, {10.0, 1.0}, 100);
  EXPECT_NEAR(apart.ownFetchFraction, (50.0 / 11 + 5 + 40) / 100, 1e-12);
  EXPECT_NEAR(apart.sharedFraction, 0.6, 1e-12);
  EXPECT_NEAR(apart.otherBlocks, 8.5, 1e-12);
}

}  // namespace

// L2 contents carried across waves (L2Carry), worked by hand: 8 one-warp blocks on 4 SMs with one
// resident block each, so SM 0 runs block 0 in the first wave and block 4 in the second. Each
// block loads the 32 lines (128 sectors) of one slot of a buffer, as gpu-benches' gpu-l2-cache
// has block b read slot b mod R: here block b < 4 reads slot b and a later block slot `laterSlot`
// of b. The first wave's other blocks are 1, 2 and 3; 1 is block 0's grid neighbour, so the
// peers are 2 and 3 (all of their stratum).
namespace {

constexpr std::uint64_t kSlots = 0x30000000ull;

TimingResult runSlotKernel(std::int64_t l2ShareBytes, const std::function<std::uint64_t(std::uint32_t)>& laterSlot) {
  auto config = simpleConfig(4, 1, 1);
  config.smCount = 4;
  config.l2BytesShare = l2ShareBytes;
  EngineOptions options;
  options.residentBlocks = 1;
  options.peerBlocks = 8;
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {2}, {1})}, 8, 32);
  return runSynthetic(config, options, kernel, [](auto, auto) { return repeat(0, 32); },
                      [&](std::uint32_t block, auto, std::size_t i, int lane) {
                        const std::uint64_t slot = block < 4 ? block : laterSlot(block);
                        return kSlots + (slot * 32 + i) * 128 + static_cast<std::uint64_t>(lane) * 4;
                      });
}

std::string carryValue(const TimingResult& r) {
  for (const auto& a : r.assumptions)
    if (a.parameter == "L2 carried across waves") return a.value;
  return "(none)";
}

}  // namespace

TEST(L2Carry, ASlotAnotherSmReadInTheFirstWaveIsAnL2HitForALaterWave) {
  // Later block b reads slot (b + 2) mod 4: block 4 reads slot 2, which peer block 2 (SM 2) read in
  // the first wave. Block 0's slot 0 no peer reads: the first wave shares nothing (fetch 100 %).
  // Block 4's 128 sectors: peer 2 reads all, peer 3 none; N = P = 2, D = 2/2 x 128/128 = 1,
  // q = 1, so d = 1 and a = 1: every later-wave sector was read before. The GPU's reads over the
  // span: the SM's 256 sectors (slots 0 and 2) against the peers: D = q = 128/256 = 1/2, d = 1, so
  // half of them read by one other SM: 4 SMs x 32 B x 256 x (1/2 + 1/2 x 1/2) = 24 KiB <= the L2
  // (4 x 64 KiB): carried, this SM fetches (1 - 1) x 1 = 0 of block 4's misses. DRAM: block 0's
  // 128 sectors only.
  const auto carried = runSlotKernel(64 * 1024, [](std::uint32_t b) { return (b + 2) % 4; });
  EXPECT_EQ(carryValue(carried).rfind("100.0 % of the 128 sectors", 0), 0u) << carryValue(carried);
  EXPECT_NE(carryValue(carried).find("fetches 0.0 %"), std::string::npos) << carryValue(carried);
  EXPECT_EQ(carried.memory.dramSectors, 128u);
  EXPECT_EQ(carried.memory.l2PeerHits, 128u);
  // Later block b reads slot b (4 for block 4), which no block read before: all 256 from DRAM.
  const auto fresh = runSlotKernel(64 * 1024, [](std::uint32_t b) { return b; });
  EXPECT_EQ(carryValue(fresh).rfind("0.0 % of the 128 sectors", 0), 0u) << carryValue(fresh);
  EXPECT_EQ(fresh.memory.dramSectors, 256u);
  EXPECT_EQ(fresh.memory.l2PeerHits, 0u);
  EXPECT_LT(carried.cycles, fresh.cycles);
}

TEST(L2Carry, NotCarriedWhenTheGpusReadsOutgrowTheL2) {
  // The first test's launch with a 2 KiB share per SM: the L2 (8 KiB) is smaller than the 24 KiB
  // the GPU reads over the span, so slot 2 is gone by the second wave: 256 sectors from DRAM.
  const auto r = runSlotKernel(2 * 1024, [](std::uint32_t b) { return (b + 2) % 4; });
  EXPECT_NE(carryValue(r).find("not carried"), std::string::npos) << carryValue(r);
  EXPECT_NE(carryValue(r).find("(0.02 MiB) outgrows the L2 (0.01 MiB)"), std::string::npos) << carryValue(r);
  EXPECT_EQ(r.memory.dramSectors, 256u);
  EXPECT_EQ(r.memory.l2PeerHits, 0u);
}

// The SM's first wave read sectors 0-127; its later waves read 0-31, 200-231 and 300-363; one
// peer (its stratum of 1, all traced) read 200-231.
struct HandWorkedCarry {
  std::vector<std::uint64_t> first, later;
  std::vector<teg::timing::detail::TracedPeer> peers;
};
HandWorkedCarry handWorkedCarry() {
  HandWorkedCarry c;
  std::vector<std::uint64_t> peer;
  for (std::uint64_t s = 0; s < 128; ++s) c.first.push_back(s);
  for (std::uint64_t s = 0; s < 32; ++s) c.later.push_back(s);
  for (std::uint64_t s = 200; s < 232; ++s) c.later.push_back(s), peer.push_back(s);
  for (std::uint64_t s = 300; s < 364; ++s) c.later.push_back(s);
  c.peers.push_back({peer, 0});
  return c;
}

TEST(L2Carry, OwnFirstWaveDataAndWhatPeersReadAreCarriedInProportion) {
  using teg::timing::detail::estimateL2Carry;
  using teg::timing::detail::L2Carry;
  using teg::timing::detail::TracedPeer;
  // estimateL2Carry by hand, 2 SMs. The SM's first wave read sectors 0-127; its later waves read
  // 0-31 (its own first wave's: carried), 200-231 and 300-363 (96 new). One peer (its stratum
  // of 1, all traced) read 200-231: D = 1/1 x 32/96 = 1/3, q = 1/3, so d = 1 and a = 1/3 of the
  // new sectors. Carried: (32 + 96/3) / 128 = 50 %; fetched here (1 - 1/2) x 1 = 50 %. The GPU's
  // reads over the span: the SM's 224 distinct sectors against the peer: D = q = 32/224 = 1/7,
  // d = 1, so 1/7 of them read by one other SM: 2 x 32 B x 224 x (6/7 + 1/7 x 1/2) = 13312 B.
  const auto [first, later, peers] = handWorkedCarry();
  const L2Carry fits = estimateL2Carry(first, later, peers, {1.0}, 2, 1.0, 32, 13312);
  EXPECT_DOUBLE_EQ(fits.carriedFraction, 0.5);
  EXPECT_DOUBLE_EQ(fits.footprintBytes, 13312);
  EXPECT_TRUE(fits.fits);
  EXPECT_DOUBLE_EQ(fits.laterWaveOwnFetchFraction, 0.5);
  EXPECT_EQ(fits.laterSectors, 128u);
  // One byte less of L2: not carried, the later waves fetch as the first (its fraction, 0.8 here,
  // scales what is fetched, not the footprint).
  const L2Carry tooBig = estimateL2Carry(first, later, peers, {1.0}, 2, 1.0, 32, 13311);
  EXPECT_FALSE(tooBig.fits);
  EXPECT_DOUBLE_EQ(tooBig.laterWaveOwnFetchFraction, 1.0);
  EXPECT_DOUBLE_EQ(estimateL2Carry(first, later, peers, {1.0}, 2, 0.8, 32, 13311).laterWaveOwnFetchFraction, 0.8);
  EXPECT_DOUBLE_EQ(estimateL2Carry(first, later, peers, {1.0}, 2, 0.8, 32, 13312).laterWaveOwnFetchFraction, 0.4);
  // Without peers only the own re-read counts: 32 / 128.
  EXPECT_DOUBLE_EQ(estimateL2Carry(first, later, {}, {1.0}, 2, 1.0, 32, 1e9).carriedFraction, 0.25);
}

TEST(L2Carry, TheGridsFootprintBoundsTheSpansAndItsFirstReads) {
  using teg::timing::detail::boundByGridFootprint;
  using teg::timing::detail::estimateL2Carry;
  using teg::timing::detail::L2Carry;
  using teg::timing::detail::TracedPeer;
  // The previous test's launch with a 13311-byte L2: the span's estimate (13312 B) does not fit.
  const auto [first, later, peers] = handWorkedCarry();
  const L2Carry tooBig = estimateL2Carry(first, later, peers, {1.0}, 2, 1.0, 32, 13311);
  ASSERT_FALSE(tooBig.fits);
  struct Case {
    const char* what;
    double gridBytes, firstWaveFetch, laterReads;
    bool gridBound, fits;
    double footprint, fetched, carried;
  };
  const Case cases[] = {
      // A grid footprint above the span's estimate changes nothing.
      {"larger", 20000, 1.0, 1e6, false, false, 13312, 1.0, 0.5},
      // Smaller but still above the L2: not carried, fetched as the first wave (0.8).
      {"still too big", 13311.5, 0.8, 1e6, true, false, 13311.5, 0.8, 0.5},
      // 8 KiB: fits. The later waves read 32 KiB in all, of which at most 8 KiB are first reads
      // (1/4), fewer than the peers' estimate leaves to DRAM ((1 - 1/2) x 1): 1/4 fetched.
      {"fits", 8192, 1.0, 32768, true, true, 8192, 0.25, 0.75},
      // Later reads of 12 KiB: the bound (8/12) is above the peers' 1/2, which stands.
      {"peers tighter", 8192, 1.0, 12288, true, true, 8192, 0.5, 0.5},
  };
  for (const Case& c : cases) {
    L2Carry carry = tooBig;
    boundByGridFootprint(carry, c.gridBytes, c.firstWaveFetch, c.laterReads);
    EXPECT_EQ(carry.gridBound, c.gridBound) << c.what;
    EXPECT_EQ(carry.fits, c.fits) << c.what;
    EXPECT_DOUBLE_EQ(carry.footprintBytes, c.footprint) << c.what;
    EXPECT_DOUBLE_EQ(carry.laterWaveOwnFetchFraction, c.fetched) << c.what;
    EXPECT_DOUBLE_EQ(carry.carriedFraction, c.carried) << c.what;
  }
}
