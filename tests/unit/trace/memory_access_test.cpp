// Coalescing, bank conflicts and partial ECC-word writes against hand counts (CUDA C++ Programming
// Guide examples, V100 whitepaper).
#include "teg/trace/memory_access.hpp"

#include <gtest/gtest.h>

using namespace teg::trace;

namespace {

std::array<std::uint64_t, kWarpLanes> strided(std::uint64_t base, std::uint64_t stride) {
  std::array<std::uint64_t, kWarpLanes> a{};
  for (int lane = 0; lane < kWarpLanes; ++lane) a[lane] = base + stride * static_cast<std::uint64_t>(lane);
  return a;
}

TEST(Coalescing, ConsecutiveFloatsTouchOneLineOfFourSectors) {
  const auto s = globalAccessShape(strided(0x1000, 4), 0xFFFFFFFFu, 4, 32, 128);
  EXPECT_EQ(s.sectors, 4u);  // 128 bytes / 32
  EXPECT_EQ(s.lines, 1u);
  EXPECT_EQ(s.bytesRequested, 128u);
}

TEST(Coalescing, MisalignedByOneFloatTouchesTwoLinesAndFiveSectors) {
  const auto s = globalAccessShape(strided(0x1004, 4), 0xFFFFFFFFu, 4, 32, 128);
  EXPECT_EQ(s.sectors, 5u);
  EXPECT_EQ(s.lines, 2u);
}

TEST(Coalescing, StrideTwoDoublesTheSectors) {
  const auto s = globalAccessShape(strided(0, 8), 0xFFFFFFFFu, 4, 32, 128);
  EXPECT_EQ(s.sectors, 8u);
  EXPECT_EQ(s.lines, 2u);
}

TEST(Coalescing, ScatteredLanesEachTakeASector) {
  std::vector<std::uint64_t> sectors;
  const auto s = globalAccessShape(strided(0, 4096), 0x0000FFFFu, 4, 32, 128, &sectors);
  EXPECT_EQ(s.sectors, 16u);  // only the 16 active lanes
  EXPECT_EQ(sectors.size(), 16u);
  EXPECT_EQ(sectors[1], 4096u / 32u);
}

TEST(Coalescing, Cc13HalfWarpSegments) {
  std::uint32_t transactions = 0;
  // 4-byte words, consecutive: each half-warp touches 64 bytes of one 128-byte segment -> one
  // 64-byte transaction per half-warp.
  EXPECT_EQ(segmentTransactionsCc13(strided(0, 4), 0xFFFFFFFFu, 4, &transactions), 128u);
  EXPECT_EQ(transactions, 2u);
  // Worst case of Lai §3.2.3.4: every lane in its own segment -> 16 transactions of 32 bytes per
  // half-warp.
  EXPECT_EQ(segmentTransactionsCc13(strided(0, 256), 0xFFFFFFFFu, 4, &transactions), 32u * 32u);
  EXPECT_EQ(transactions, 32u);
}

TEST(Coalescing, Cc13TransactionsShrinkToTheHalfOrQuarterTouched) {
  // Floats from byte 4: half-warp 0 reads bytes 4-67 (both halves of segment 0: 128 bytes at 0);
  // half-warp 1 reads 68-131: 68-127 is the upper half of segment 0 (64 bytes at 64), 128-131 the
  // first quarter of segment 128 (32 bytes at 128).
  std::uint32_t transactions = 0;
  std::vector<MemoryTransaction> out;
  EXPECT_EQ(segmentTransactionsCc13(strided(4, 4), 0xFFFFFFFFu, 4, &transactions, &out), 128u + 64u + 32u);
  EXPECT_EQ(transactions, 3u);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].address, 0u);
  EXPECT_EQ(out[0].bytes, 128u);
  EXPECT_EQ(out[1].address, 64u);
  EXPECT_EQ(out[1].bytes, 64u);
  EXPECT_EQ(out[2].address, 128u);
  EXPECT_EQ(out[2].bytes, 32u);
}

TEST(Coalescing, Cc13SegmentsAreSmallerForSmallWords) {
  // 2-byte words from byte 48: each half-warp reads 32 bytes across a 64-byte segment boundary
  // (48-79): 32 bytes at 32 and 32 bytes at 64, where a 128-byte segment would be one 128-byte
  // transaction.
  std::uint32_t transactions = 0;
  std::vector<MemoryTransaction> out;
  EXPECT_EQ(segmentTransactionsCc13(strided(48, 2), 0x0000FFFFu, 2, &transactions, &out), 64u);
  EXPECT_EQ(transactions, 2u);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].address, 32u);
  EXPECT_EQ(out[1].address, 64u);
  // Bytes: a 32-byte segment per half-warp.
  EXPECT_EQ(segmentTransactionsCc13(strided(0, 1), 0xFFFFFFFFu, 1, &transactions), 64u);
  EXPECT_EQ(transactions, 2u);
}

TEST(Coalescing, Cc10CoalescesOnlyWordsInSequenceInOneAlignedSegment) {
  std::uint32_t transactions = 0;
  std::vector<MemoryTransaction> out;
  // Floats in sequence from a 64-byte boundary: one 64-byte transaction per half-warp.
  EXPECT_EQ(segmentTransactionsCc10(strided(0x1000, 4), 0xFFFFFFFFu, 4, &transactions, &out), 128u);
  EXPECT_EQ(transactions, 2u);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].address, 0x1040u);
  EXPECT_EQ(out[1].bytes, 64u);
  // Inactive threads do not break it (every other lane).
  EXPECT_EQ(segmentTransactionsCc10(strided(0x1000, 4), 0x55555555u, 4, &transactions), 128u);
  EXPECT_EQ(transactions, 2u);
  // Misaligned by one float: a 32-byte transaction per thread, where cc 1.2/1.3 needs 3.
  EXPECT_EQ(segmentTransactionsCc10(strided(0x1004, 4), 0xFFFFFFFFu, 4, &transactions), 32u * 32u);
  EXPECT_EQ(transactions, 32u);
  // Two threads swapped: out of sequence, not coalesced.
  auto swapped = strided(0x1000, 4);
  std::swap(swapped[0], swapped[1]);
  EXPECT_EQ(segmentTransactionsCc10(swapped, 0x0000FFFFu, 4, &transactions), 16u * 32u);
  EXPECT_EQ(transactions, 16u);
  // 16-byte words from a 128-byte (not 256-byte) boundary: two 128-byte transactions per half-warp.
  EXPECT_EQ(segmentTransactionsCc10(strided(0x1080, 16), 0xFFFFFFFFu, 16, &transactions), 4u * 128u);
  EXPECT_EQ(transactions, 4u);
  // 2-byte words never coalesce.
  EXPECT_EQ(segmentTransactionsCc10(strided(0x1000, 2), 0xFFFFFFFFu, 2, &transactions), 32u * 32u);
}

TEST(BankConflicts, RowAccessIsConflictFree) {
  EXPECT_EQ(sharedWavefronts(strided(0, 4), 0xFFFFFFFFu, 4, 32, 4, false), 1u);
}

TEST(BankConflicts, ColumnOfA32x32FloatTileIs32Way) {
  // tile[lane][0] of float tile[32][32]: stride 128 bytes -> every lane in bank 0.
  EXPECT_EQ(sharedWavefronts(strided(0, 128), 0xFFFFFFFFu, 4, 32, 4, false), 32u);
}

TEST(BankConflicts, PaddedColumnIsConflictFree) {
  // tile[lane][0] of float tile[32][33]: stride 132 bytes -> banks 0, 1, 2, ...
  EXPECT_EQ(sharedWavefronts(strided(0, 132), 0xFFFFFFFFu, 4, 32, 4, false), 1u);
}

TEST(BankConflicts, BroadcastIsFree) {
  EXPECT_EQ(sharedWavefronts(strided(64, 0), 0xFFFFFFFFu, 4, 32, 4, false), 1u);
}

TEST(BankConflicts, StrideTwoIsTwoWay) {
  EXPECT_EQ(sharedWavefronts(strided(0, 8), 0xFFFFFFFFu, 4, 32, 4, false), 2u);
}

TEST(BankConflicts, DoublesAreServedInTwoHalfWarpPhases) {
  // Consecutive doubles: 256 bytes, two phases of 16 lanes x 8 bytes, each conflict-free.
  EXPECT_EQ(sharedWavefronts(strided(0, 8), 0xFFFFFFFFu, 8, 32, 4, false), 2u);
}

// Lanes paired on one address (cc >= 7.0). NVIDIA (forum, Greg Smith, 2019): an LDS.128 whose
// lanes pair up on one address needs 2 requests instead of 4. Nsight Compute on an A10 and an
// H100 (forum thread 373160): pattern 2 (lanes 0-15 read +0, lanes 16-31 read +32, 16 B each)
// 2 wavefronts; pattern 1 (lanes n and n+16 read +32n) 8 wavefronts, as the unpaired count says.
std::array<std::uint64_t, kWarpLanes> forumPattern1() {
  std::array<std::uint64_t, kWarpLanes> a{};
  for (int lane = 0; lane < kWarpLanes; ++lane) a[lane] = 32u * static_cast<std::uint64_t>(lane % 16);
  return a;
}

std::array<std::uint64_t, kWarpLanes> forumPattern2() {
  std::array<std::uint64_t, kWarpLanes> a{};
  for (int lane = 0; lane < kWarpLanes; ++lane) a[lane] = lane < 16 ? 0u : 32u;
  return a;
}

TEST(BankConflicts, PairUniformAddressesNeedEveryLanesPartnerAtItsAddress) {
  EXPECT_TRUE(pairUniformAddresses(strided(64, 0), 0xFFFFFFFFu));  // a broadcast
  EXPECT_TRUE(pairUniformAddresses(forumPattern2(), 0xFFFFFFFFu));
  EXPECT_FALSE(pairUniformAddresses(forumPattern1(), 0xFFFFFFFFu));  // partners 16 apart
  EXPECT_FALSE(pairUniformAddresses(strided(0, 16), 0xFFFFFFFFu));
  std::array<std::uint64_t, kWarpLanes> byTwo{};  // lanes n and n^2 share: 0,1,0,1, 2,3,2,3, ...
  for (int lane = 0; lane < kWarpLanes; ++lane) byTwo[lane] = 16u * static_cast<std::uint64_t>((lane / 4) * 2 + lane % 2);
  EXPECT_TRUE(pairUniformAddresses(byTwo, 0xFFFFFFFFu));
  EXPECT_FALSE(pairUniformAddresses(strided(64, 0), 0x1u));  // lane 0's partners are inactive
  EXPECT_FALSE(pairUniformAddresses(strided(64, 0), 0u));
}

TEST(BankConflicts, PairedLanesHalveTheWavefrontsOfAWideLoad) {
  EXPECT_EQ(sharedWavefronts(strided(64, 0), 0xFFFFFFFFu, 16, 32, 4, false), 4u);
  EXPECT_EQ(sharedWavefronts(strided(64, 0), 0xFFFFFFFFu, 16, 32, 4, false, true), 2u);
  EXPECT_EQ(sharedWavefronts(forumPattern2(), 0xFFFFFFFFu, 16, 32, 4, false, true), 2u);
  EXPECT_EQ(sharedWavefronts(forumPattern1(), 0xFFFFFFFFu, 16, 32, 4, false), 8u);
  // A 4-byte load already serves the whole warp in one phase.
  EXPECT_EQ(sharedWavefronts(strided(64, 0), 0xFFFFFFFFu, 4, 32, 4, false, true), 1u);
}

TEST(BankConflicts, GT200HalfWarpWithSixteenBanks) {
  // Lai §3.2.3.3 / §3.4.1: B[16][16] floats read down a column by a half-warp: all 16 lanes in
  // one bank -> 16 wavefronts per half-warp, 32 for the warp.
  EXPECT_EQ(sharedWavefronts(strided(0, 64), 0xFFFFFFFFu, 4, 16, 4, true), 32u);
  EXPECT_EQ(sharedWavefronts(strided(0, 4), 0xFFFFFFFFu, 4, 16, 4, true), 2u);
}

// Which sectors of a warp's store are written in part of an ECC code word (8 bytes on the
// data-centre dies, V100 whitepaper): counted by hand for the store shapes kernels use.
constexpr std::uint32_t kAll = 0xFFFFFFFFu;

TEST(PartialWordWrite, ACoalescedFloatStoreWritesWholeWords) {
  // 32 floats side by side: four sectors, every 8-byte word filled by two lanes.
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), kAll, 4, 32, 8), 0u);
}

TEST(PartialWordWrite, ATransposedFloatStoreWritesPartOfAWordInEverySector) {
  // out[x * n + y]: the lanes are a matrix row apart (32 KiB), 4 bytes in 32 sectors.
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x100000, 32768), kAll, 4, 32, 8), 32u);
}

TEST(PartialWordWrite, HalfTheLanesOfACoalescedStoreLeaveHalfOfEachWord) {
  // Even lanes only: bytes 0-3 of each word in the four sectors.
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), 0x55555555u, 4, 32, 8), 4u);
  // The first 16 lanes: sectors 0 and 1 whole, sectors 2 and 3 untouched.
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), 0x0000FFFFu, 4, 32, 8), 0u);
}

TEST(PartialWordWrite, EightAndSixteenByteLanesWriteWholeWordsWhereverTheyGo) {
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4096), kAll, 8, 32, 8), 0u);   // doubles, scattered
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 16), kAll, 16, 32, 8), 0u);    // float4, coalesced
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4096), kAll, 16, 32, 8), 0u);  // float4, scattered
}

TEST(PartialWordWrite, BytesAndHalvesFillAWordOnlyTogether) {
  // 32 chars side by side fill one sector's four words; one char alone leaves 7 bytes of its word.
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 1), kAll, 1, 32, 8), 0u);
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 1), 0x1u, 1, 32, 8), 1u);
  // 2-byte lanes 4 bytes apart: bytes 0-1 and 4-5 of each word of two sectors.
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), kAll, 2, 32, 8), 4u);
}

TEST(PartialWordWrite, LanesOnTheSameWordCountItOnce) {
  // Every lane stores the same float: one sector, one word written in half.
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 0), kAll, 4, 32, 8), 1u);
}

TEST(PartialWordWrite, AWordAsLargeAsTheSectorNeedsTheWholeSector) {
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), kAll, 4, 32, 32), 0u);
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), 0x7FFFFFFFu, 4, 32, 32), 1u);  // the last sector lacks a lane
}

TEST(PartialWordWrite, SizesItCannotSplitAreNotCounted) {
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), 0x1u, 4, 32, 0), 0u);   // no ECC
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), 0x1u, 4, 32, 12), 0u);  // 12 does not divide 32
  EXPECT_EQ(sectorsWritingPartOfAWord(strided(0x1000, 4), 0x1u, 4, 128, 8), 0u);  // sectors above 64 bytes
}

TEST(PartialWordWrite, AnAccessAtTheTopOfTheAddressSpaceDoesNotWrap) {
  std::array<std::uint64_t, kWarpLanes> top{};
  top.fill(~std::uint64_t{0} - 3);  // the last 4 bytes below 2^64
  EXPECT_EQ(sectorsWritingPartOfAWord(top, 0x1u, 4, 32, 8), 1u);
  top.fill(~std::uint64_t{0} - 1);  // would run past 2^64: only the bytes below it count
  EXPECT_EQ(sectorsWritingPartOfAWord(top, 0x1u, 4, 32, 8), 1u);
}

}  // namespace
