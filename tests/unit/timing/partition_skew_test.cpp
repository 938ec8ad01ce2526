// DRAM partition skew (Lai §3.2.3.5): the partition of a sector, the skew of a histogram, the
// chance test against blocks placed at random, and its effect on a DRAM-bound run, by hand.
#include <gtest/gtest.h>

#include "block_trace.hpp"
#include "partition_skew.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::detail;
using namespace teg::timing::test;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

TEST(PartitionSkew, SectorsMapToPartitionsByTheInterleave) {
  // GT200: 8 partitions of 256 B; 32-byte sectors, so 8 sectors per partition before the next.
  EXPECT_EQ(partitionOfSector(0, 32, 256, 8), 0u);
  EXPECT_EQ(partitionOfSector(7, 32, 256, 8), 0u);
  EXPECT_EQ(partitionOfSector(8, 32, 256, 8), 1u);   // byte 256
  EXPECT_EQ(partitionOfSector(63, 32, 256, 8), 7u);  // byte 2016
  EXPECT_EQ(partitionOfSector(64, 32, 256, 8), 0u);  // byte 2048 = 8 x 256: round again
  EXPECT_EQ(partitionOfSector(8 | kLocalSectorTag, 32, 256, 8), 1u);  // the local tag is not address
  EXPECT_EQ(partitionOfSector(123, 32, 256, 1), 0u);                   // one pipe
}

TEST(PartitionSkew, SkewIsPartitionsTimesTheBusiestShare) {
  EXPECT_DOUBLE_EQ(partitionSkew({3, 1, 0, 0}), 4.0 * 3 / 4);
  EXPECT_DOUBLE_EQ(partitionSkew({2, 2, 2, 2}), 1.0);
  EXPECT_DOUBLE_EQ(partitionSkew({0, 0, 5, 0}), 4.0);
  EXPECT_DOUBLE_EQ(partitionSkew({0, 0, 0, 0}), 1.0);
}

std::vector<std::uint64_t> onPartition(std::size_t p, std::uint64_t sectors = 100) {
  std::vector<std::uint64_t> h(8, 0);
  h[p] = sectors;
  return h;
}

TEST(PartitionSkew, BlocksLinedUpOnOnePartitionAreSkewed) {
  // Eight blocks that all use partition 3: x8. Placed at random, all eight coincide with
  // probability 8^-7, so chance stays far below.
  const auto e = estimatePartitionSkew(std::vector<std::vector<std::uint64_t>>(8, onPartition(3)));
  EXPECT_DOUBLE_EQ(e.observed, 8.0);
  EXPECT_LT(e.chance, 8.0);
  EXPECT_DOUBLE_EQ(e.applied, 8.0);
  EXPECT_EQ(e.blocks, 8u);
}

TEST(PartitionSkew, UnevenByChanceIsNotApplied) {
  // Three blocks on partitions 0, 0 and 5: x5.33 observed, but three blocks at random land on the
  // same partition with probability 1/64 and on two (x5.33) with 21/64, so it is not significant.
  const auto e = estimatePartitionSkew({onPartition(0), onPartition(0), onPartition(5)});
  EXPECT_NEAR(e.observed, 8.0 * 2 / 3, 1e-12);
  EXPECT_GE(e.chance, e.observed);
  EXPECT_DOUBLE_EQ(e.applied, 1.0);
  // One block: rotating it changes nothing, so its own unevenness is never significant.
  EXPECT_DOUBLE_EQ(estimatePartitionSkew({onPartition(2)}).applied, 1.0);
  // Blocks without DRAM sectors do not count.
  EXPECT_EQ(estimatePartitionSkew({std::vector<std::uint64_t>(8, 0)}).blocks, 0u);
}

// 8 resident blocks of 2 warps; each warp loads 64 lines of 128 B through a 16 B/cycle DRAM share
// on 8 partitions of 256 B, `lineStride` bytes apart.
TimingResult partitionedStream(std::uint64_t lineStride) {
  auto config = simpleConfig(4, 1, 1);
  config.dramBytesPerCycle = 16;
  config.l2BytesShare = 0;
  config.dramPartitions = 8;
  config.dramPartitionBytes = 256;
  EngineOptions options;
  options.residentBlocks = 8;
  const auto all = everyPc(64);
  return runSynthetic(
      config, options, kernelOf(independentGlobalLoads(64), 8, 64), [&](auto, auto) { return all; },
      [lineStride](std::uint32_t block, std::uint32_t warp, std::size_t i, int lane) {
        const std::uint64_t line = (std::uint64_t{block} * 2 + warp) * 64 + i;
        return 0x10000000ull + line * lineStride + 4ull * static_cast<std::uint64_t>(lane);
      });
}

TEST(PartitionSkew, CampingOnOnePartitionDividesTheDramShare) {
  // Consecutive lines: two per partition in turn, an even spread, so the 8 x 2 x 64 x 128 B =
  // 128 KiB move at the whole share: 8192 cycles, plus one latency (400) at the end.
  const auto spread = partitionedStream(128);
  EXPECT_DOUBLE_EQ(spread.dramPartitionSkew, 1.0);
  EXPECT_NEAR(spread.cycles, 8192 + 400, 8);
  // Lines 2048 B (8 partitions x 256 B) apart: every sector of every block on partition 0, whose
  // channel carries 1/8 of the share: 8 x 8192 cycles.
  const auto camped = partitionedStream(2048);
  EXPECT_DOUBLE_EQ(camped.dramPartitionSkew, 8.0);
  EXPECT_NEAR(camped.cycles, 8 * 8192 + 400, 8 * 8);
  EXPECT_EQ(camped.bound, "DRAM bandwidth");
  EXPECT_NE(camped.boundExplanation.find("partition camping"), std::string::npos) << camped.boundExplanation;
  EXPECT_EQ(spread.boundExplanation.find("partition camping"), std::string::npos) << spread.boundExplanation;
}

}  // namespace
