// The store side of the L2 (src/timing/write_back.hpp, l2_footprint.hpp), worked by hand: the grid's
// footprint against the whole L2 decides whether dirty lines must leave the L2 within the kernel.
// The engine cases run one-warp blocks on 4 SMs, each SM's L2 share 1 KiB (8 lines of 128 B), the
// whole L2 4 KiB (32 lines); a store is one coalesced line (4 sectors of 32 B).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "l2_footprint.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::timing::detail::estimateGpuFootprint;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

std::vector<std::uint64_t> range(std::uint64_t first, std::uint64_t count) {
  std::vector<std::uint64_t> v(count);
  std::iota(v.begin(), v.end(), first);
  return v;
}

using teg::timing::detail::PcSector;

std::vector<PcSector> at(std::uint32_t pc, const std::vector<std::uint64_t>& sectors) {
  std::vector<PcSector> v;
  for (const auto s : sectors) v.emplace_back(pc, s);
  return v;
}

std::vector<std::uint64_t> sectorsOf(const std::vector<PcSector>& pairs) {
  std::vector<std::uint64_t> v;
  for (const auto& p : pairs) v.push_back(p.second);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// F = |S| + per pc min(private, capture-recapture) (l2_footprint.hpp), in sectors of 1 byte here.
TEST(GpuFootprint, DataEveryBlockRewritesIsCountedOnce) {
  // The SM's 2 blocks touch sectors 0..99; every peer touches a part of them: nothing beyond S.
  const auto sm = at(0, range(0, 100));
  const auto f = estimateGpuFootprint(sectorsOf(sm), sm, 2, 1000, {at(0, range(0, 50)), at(0, range(30, 70)), sm}, 1);
  EXPECT_DOUBLE_EQ(f.bytes, 100);
  EXPECT_DOUBLE_EQ(f.beyondBytes, 0);
}

TEST(GpuFootprint, PrivateDataScalesWithTheBlocks) {
  // 2 simulated blocks of 10 sectors each, 3 peers of 10 sectors of their own (none recaptured):
  // the 8 blocks not simulated add 30 / 3 each: 20 + 80.
  const auto sm = at(0, range(0, 20));
  const auto f = estimateGpuFootprint(sectorsOf(sm), sm, 2, 10,
                                      {at(0, range(100, 10)), at(0, range(200, 10)), at(0, range(300, 10))}, 32);
  EXPECT_DOUBLE_EQ(f.bytes, 100 * 32);
  EXPECT_EQ(f.otherBlocks, 8u);
  EXPECT_EQ(f.peers, 3u);
}

TEST(GpuFootprint, HolesTheSmLeavesInSharedDataAreCountedOnce) {
  // An array of 100 sectors; the SM's blocks cover all but every tenth (9, 19, ..., 99): n1 = 90.
  // Two peers cover 0..19 and 50..69 (each with two of the holes): n2 = 40, m = 36 recaptured,
  // so the array is 90 x 40 / 36 = 100 sectors, 10 beyond S. As private data, the 48 other
  // blocks would add 4 / 2 each (96).
  std::vector<std::uint64_t> covered;
  for (std::uint64_t s = 0; s < 100; ++s)
    if (s % 10 != 9) covered.push_back(s);
  const auto sm = at(0, covered);
  const auto f = estimateGpuFootprint(sectorsOf(sm), sm, 2, 50, {at(0, range(0, 20)), at(0, range(50, 20))}, 1);
  EXPECT_DOUBLE_EQ(f.bytes, 100);
}

TEST(GpuFootprint, EachInstructionsDataIsEstimatedOnItsOwn) {
  // pc 0 reads a table of 10 sectors every block reads; pc 1 writes 10 sectors of each block's own.
  // 2 blocks simulated of 10, 2 peers: the table adds nothing, the outputs 8 x 20 / 2: F = 10 + 10
  // x 10. Taken together, a third of the peers' sectors would be recaptured and the outputs read as
  // shared: 30 x 30 / 10 = 90.
  auto sm = at(0, range(0, 10));
  for (const auto& p : at(1, range(100, 10))) sm.push_back(p);
  for (const auto& p : at(1, range(200, 10))) sm.push_back(p);
  auto peer = [](std::uint64_t first) {
    auto v = at(0, range(0, 10));
    for (const auto& p : at(1, range(first, 10))) v.push_back(p);
    return v;
  };
  const auto f = estimateGpuFootprint(sectorsOf(sm), sm, 2, 10, {peer(300), peer(400)}, 1);
  EXPECT_DOUBLE_EQ(f.bytes, 110);
}

TEST(GpuFootprint, DataThePeersShareIsCountedOnceAmongThem) {
  // Two peers add the same 10 sectors beyond S and a third 15 of its own: 25 distinct over 3 peers,
  // none recaptured; the 3 other blocks add 25 / 3 each.
  const auto sm = at(0, range(0, 20));
  const auto f = estimateGpuFootprint(sectorsOf(sm), sm, 2, 5,
                                      {at(0, range(100, 10)), at(0, range(100, 10)), at(0, range(200, 15))}, 1);
  EXPECT_DOUBLE_EQ(f.bytes, 20 + 25);
}

TEST(GpuFootprint, WithoutPeersAnUnsimulatedBlockTouchesAsMuchAsASimulatedOne) {
  const auto sm = at(0, range(0, 30));
  EXPECT_DOUBLE_EQ(estimateGpuFootprint(sectorsOf(sm), sm, 3, 12, {}, 1).bytes, 30.0 / 3 * 12);
  // Every block simulated: the SM's data are the grid's.
  EXPECT_DOUBLE_EQ(estimateGpuFootprint(sectorsOf(sm), sm, 3, 3, {}, 1).bytes, 30);
}

// `gridBlocks` one-warp blocks on 4 SMs, one resident block each; the SM runs blocks 0, 4, 8, ...,
// of which `sampled` are simulated (0: all), and `peers` peer blocks are traced. Block b stores
// the lines `linesOf(b)`, in order, one coalesced store each.
TimingResult runStores(std::uint32_t gridBlocks, std::uint64_t sampled, int peers,
                       const std::function<std::vector<std::uint64_t>(std::uint32_t)>& linesOf,
                       double l2BytesPerCycle = 32) {
  auto config = simpleConfig(4, 1, 1);
  config.smCount = 4;
  config.l2BytesShare = 1024;  // 8 lines; the whole L2 (share x SMs) 32
  config.l2BytesPerCycle = l2BytesPerCycle;
  config.dramBytesPerCycle = 8;
  EngineOptions options;
  options.residentBlocks = 1;
  options.maxSampledBlocks = sampled;
  options.peerBlocks = peers;
  const auto kernel = kernelOf({memory(InstrKind::Store, MemorySpace::Global, {}, {1, 2})}, gridBlocks, 32);
  return runSynthetic(
      config, options, kernel, [&](std::uint32_t block, auto) { return repeat(0, linesOf(block).size()); },
      [&](std::uint32_t block, auto, std::size_t i, int lane) {
        return 0x10000000ull + linesOf(block)[i] * 128 + 4ull * static_cast<std::uint64_t>(lane);
      });
}

std::string writeBackOrigin(const TimingResult& r) {
  for (const auto& a : r.assumptions)
    if (a.parameter == "L2 write-back") return a.origin;
  return "(none)";
}

std::string writeBackValue(const TimingResult& r) {
  for (const auto& a : r.assumptions)
    if (a.parameter == "L2 write-back") return a.value;
  return "(none)";
}

TEST(WriteBack, StoresOfEverySmToOneArrayThatFitsTheL2CostNoDramWrite) {
  // 16 blocks (4 per SM) all rewrite the same 32 lines: 4 KiB, the whole L2, though 4 times the
  // SM's share. Blocks 0 and 4 simulated of the SM's 4, peers 2 and 3 (1 is block 0's neighbour):
  // F = 128 sectors = 4 KiB fits, so the lines stay dirty in the L2: no DRAM traffic at all.
  const auto all32 = [](std::uint32_t) { return range(0, 32); };
  const auto fits = runStores(16, 2, 2, all32);
  EXPECT_EQ(fits.memory.dramWriteSectors, 0u);
  EXPECT_EQ(fits.memory.dramSectors, 0u);
  EXPECT_NE(writeBackOrigin(fits).find("fit in the whole L2"), std::string::npos) << writeBackOrigin(fits);
  // 33 lines (4.125 KiB) outgrow it: each dirtied sector is charged at once (the blocks are a
  // sample and the SM's data outgrow its share), and the 8-line share evicts every line before its
  // next store (33 in a cycle through LRU): 33 lines x 4 sectors x 2 blocks.
  const auto outgrows = runStores(16, 2, 2, [](std::uint32_t) { return range(0, 33); });
  EXPECT_EQ(outgrows.memory.dramWriteSectors, 2u * 33 * 4);
  EXPECT_NE(writeBackOrigin(outgrows).find("outgrow"), std::string::npos) << writeBackOrigin(outgrows);
  // The simulated blocks' own 33 lines already outgrow the whole L2's 32: the rest of the grid is
  // not estimated (write_back.cpp), and the report says the footprint is a lower bound. With 32
  // lines it is estimated (the peers' lines are all recaptured: nothing beyond S).
  EXPECT_NE(writeBackValue(outgrows).find("more than"), std::string::npos) << writeBackValue(outgrows);
  EXPECT_NE(writeBackOrigin(outgrows).find("not estimated"), std::string::npos) << writeBackOrigin(outgrows);
  EXPECT_EQ(writeBackValue(fits).find("more than"), std::string::npos) << writeBackValue(fits);
  EXPECT_NE(writeBackOrigin(fits).find("estimated per instruction from 2 traced peer blocks"), std::string::npos)
      << writeBackOrigin(fits);
}

TEST(WriteBack, ASlidingWindowOfColumnsAsMt4gWritesStaysInTheL2) {
  // mt4g's L2-write program in small: 16 columns of 2 lines (32 lines, the whole L2), block b
  // stores the columns b .. b+3 (mod 16). The SM's blocks 0, 4, 8, 12 (all simulated) cover every
  // column, the peers' columns are among them: F = 4 KiB. Each block's 8 lines fill the SM's
  // share, so with the share as the capacity (the rule before) blocks 4, 8 and 12 evicted the
  // previous block's 8 dirty lines: 96 write-backs. The whole L2 holds them: none.
  const auto window = [](std::uint32_t b) {
    std::vector<std::uint64_t> lines;
    for (std::uint32_t c = b; c < b + 4; ++c) lines.push_back(2 * (c % 16)), lines.push_back(2 * (c % 16) + 1);
    return lines;
  };
  const auto r = runStores(16, 0, 2, window);
  EXPECT_EQ(r.memory.dramWriteSectors, 0u);
  EXPECT_EQ(r.memory.globalStores, 4u * 8);
}

TEST(WriteBack, HolesTheSmsBlocksLeaveAreFilledByOthersNotAddedPerBlock) {
  // mt4g's program on a GPU of more SMs (132) than the columns a block writes (128), in small: 32
  // blocks, 32 one-line columns (4 KiB, the whole L2), block b stores the columns b .. b+2. The SM's
  // blocks 0, 4, ..., 28 (all simulated) leave every fourth column (3, 7, ..., 31) to the others:
  // S = 24 lines. Peers 2 and 3 store columns 2-4 and 3-5: n2 = 4 lines, 3 of them recaptured, so
  // the array is 24 x 4 / 3 = 32 lines, which fit. As private data the 24 other blocks would add
  // half a line each (36 lines, too many). With the SM's 8-line share as the capacity (the rule
  // before) its 24 lines cost 16 evictions: 64 write-backs.
  const auto r = runStores(32, 0, 2, [](std::uint32_t b) {
    return std::vector<std::uint64_t>{b % 32, (b + 1) % 32, (b + 2) % 32};
  });
  EXPECT_EQ(r.memory.dramWriteSectors, 0u);
  EXPECT_NE(writeBackOrigin(r).find("fit in the whole L2"), std::string::npos) << writeBackOrigin(r);
}

TEST(WriteBack, StoresTheL2KeepsStillTakeItsBandwidth) {
  // The sliding window again with an L2 share of 1 B per cycle: 32 cycles per sector. Nothing
  // waits for a store the L2 keeps, so the warps issue their 8 stores in a few cycles; the launch
  // still cannot end before the L2 share has taken its 4 blocks x 8 lines x 4 sectors: 4096 cycles.
  const auto window = [](std::uint32_t b) {
    std::vector<std::uint64_t> lines;
    for (std::uint32_t c = b; c < b + 4; ++c) lines.push_back(2 * (c % 16)), lines.push_back(2 * (c % 16) + 1);
    return lines;
  };
  const auto r = runStores(16, 0, 2, window, 1);
  EXPECT_EQ(r.memory.dramWriteSectors, 0u);
  EXPECT_GE(r.cycles, 4096.0);
  EXPECT_LE(r.cycles, 4096.0 + 400);  // the floor, not a second charge
  EXPECT_EQ(r.bound, "L2 bandwidth");
}

TEST(WriteBack, AStreamingWriteLargerThanTheL2PaysOneWriteBackPerSector) {
  // Every block stores 32 lines of its own: 16 x 4 KiB = 64 KiB of the grid (F = 2 simulated x 128
  // + 14 x 128 sectors, the peers' lines all new). Each sector the 2 simulated blocks store costs
  // one DRAM write: 2 x 32 x 4.
  const auto r = runStores(16, 2, 2, [](std::uint32_t b) { return range(1000ull * b, 32); });
  EXPECT_EQ(r.memory.dramWriteSectors, 2u * 32 * 4);
  EXPECT_EQ(r.memory.dramSectors, 2u * 32 * 4);
}

TEST(WriteBack, PrivateDataLargerThanTheShareWhoseGridTotalFitsStays) {
  // A grid of 2 blocks on the 4 SMs, each storing 12 lines of its own (1.5 KiB, more than the
  // 1 KiB share): the GPU's 3 KiB fit the 4 KiB L2. Block 1 is block 0's neighbour, so no peer
  // is traced and it counts as much data of its own as block 0: F = 2 x 48 sectors = 3 KiB.
  const auto own12 = [](std::uint32_t b) { return range(1000ull * b, 12); };
  const auto fits = runStores(2, 0, 2, own12);
  EXPECT_EQ(fits.memory.dramWriteSectors, 0u);
  // Three such blocks (block 2 a traced peer, 48 sectors of its own): F = 48 + 2 x 48 sectors =
  // 4.5 KiB outgrow the L2. Block 0 is the SM's only block, simulated whole, so its share evicts
  // lines 1-4 for lines 9-12: 4 lines x 4 dirty sectors written back.
  const auto outgrows = runStores(3, 0, 2, own12);
  EXPECT_EQ(outgrows.memory.dramWriteSectors, 16u);
  EXPECT_NE(writeBackOrigin(outgrows).find("every block simulated"), std::string::npos) << writeBackOrigin(outgrows);
}

}  // namespace
