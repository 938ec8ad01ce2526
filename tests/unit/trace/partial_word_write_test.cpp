// Which sectors of a warp's store are written in part of an ECC code word (8 bytes on the
// data-centre dies, V100 whitepaper): counted by hand for the store shapes kernels use.
#include <gtest/gtest.h>

#include "teg/trace/memory_access.hpp"

using namespace teg::trace;

namespace {

std::array<std::uint64_t, kWarpLanes> strided(std::uint64_t base, std::uint64_t stride) {
  std::array<std::uint64_t, kWarpLanes> a{};
  for (int lane = 0; lane < kWarpLanes; ++lane) a[lane] = base + stride * static_cast<std::uint64_t>(lane);
  return a;
}

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
