// Atomics' lanes on one word are serialised (CUDA guide, "Atomic Functions"): the passes a shared
// atomic takes and the operations on a global atomic's busiest word, counted by hand.
#include <gtest/gtest.h>

#include "teg/trace/memory_access.hpp"

using namespace teg::trace;

namespace {

std::array<std::uint64_t, kWarpLanes> addressesOf(std::uint64_t (*f)(int)) {
  std::array<std::uint64_t, kWarpLanes> a{};
  for (int lane = 0; lane < kWarpLanes; ++lane) a[static_cast<std::size_t>(lane)] = f(lane);
  return a;
}

constexpr std::uint32_t kAll = 0xFFFFFFFFu;

TEST(SharedAtomicPasses, OneWordTakesAPassPerLaneWhereALoadIsOneBroadcast) {
  const auto one = addressesOf([](int) { return std::uint64_t{128}; });
  EXPECT_EQ(sharedAtomicPasses(one, kAll, 4, 32, 4), 32u);
  EXPECT_EQ(sharedWavefronts(one, kAll, 4, 32, 4, false), 1u);  // the load: a broadcast
  EXPECT_EQ(sharedAtomicPasses(one, 0x0000000Fu, 4, 32, 4), 4u); // only the 4 active lanes
}

TEST(SharedAtomicPasses, DifferentBanksNeedOnePass) {
  const auto consecutive = addressesOf([](int lane) { return std::uint64_t(4 * lane); });
  EXPECT_EQ(sharedAtomicPasses(consecutive, kAll, 4, 32, 4), 1u);
  // Stride of 2 words: lanes l and l + 16 share bank 2l mod 32, so 2 passes (as a load's 2 wavefronts).
  const auto stride2 = addressesOf([](int lane) { return std::uint64_t(8 * lane); });
  EXPECT_EQ(sharedAtomicPasses(stride2, kAll, 4, 32, 4), 2u);
  EXPECT_EQ(sharedWavefronts(stride2, kAll, 4, 32, 4, false), 2u);
  // 8 bins of a histogram, lanes l -> bin l mod 8: 4 lanes per bin, 4 passes.
  const auto bins = addressesOf([](int lane) { return std::uint64_t(4 * (lane % 8)); });
  EXPECT_EQ(sharedAtomicPasses(bins, kAll, 4, 32, 4), 4u);
  EXPECT_EQ(sharedAtomicPasses(bins, kAll, 4, 32, 0), 0u);  // no banks described: nothing to count
}

TEST(SameWordLanes, TheBusiestWordCounts) {
  EXPECT_EQ(sameWordLanes(addressesOf([](int) { return std::uint64_t{4096}; }), kAll, 4), 32u);
  EXPECT_EQ(sameWordLanes(addressesOf([](int lane) { return std::uint64_t(4096 + 4 * lane); }), kAll, 4), 1u);
  // Pairs of lanes on one word: 2. Bytes 0-3 of one word by 4-byte lanes 1 byte apart are... 4
  // different addresses in one 4-byte word: the same word 4 times.
  EXPECT_EQ(sameWordLanes(addressesOf([](int lane) { return std::uint64_t(4 * (lane / 2)); }), kAll, 4), 2u);
  EXPECT_EQ(sameWordLanes(addressesOf([](int lane) { return std::uint64_t(lane % 4); }), 0x0000000Fu, 4), 4u);
  // 8-byte atomics on consecutive 4-byte offsets: lanes 2k and 2k+1 share an 8-byte word.
  EXPECT_EQ(sameWordLanes(addressesOf([](int lane) { return std::uint64_t(4 * lane); }), kAll, 8), 2u);
  EXPECT_EQ(sameWordLanes(addressesOf([](int) { return std::uint64_t{0}; }), 0u, 4), 0u);  // no lane active
}

}  // namespace
