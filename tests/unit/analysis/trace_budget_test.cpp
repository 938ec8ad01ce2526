// fitSampleToTraceBudget against hand-worked cases: three quarters of the record limit, divided by
// the records of one block, shared by the SM's blocks and the peers (the SM's first).
#include "teg/analysis/trace_budget.hpp"

#include <gtest/gtest.h>

namespace teg::analysis {
namespace {

constexpr std::uint64_t kLimit = std::uint64_t{1} << 26;  // emu::kDefaultMaxTraceRecords, 67,108,864

TEST(TraceBudget, ShortBlocksKeepTheDefaultSample) {
  // 24 blocks of 1,000 records: 24,000, far below 50,331,648.
  const TraceBudget b = fitSampleToTraceBudget(16, 8, 1000, kLimit);
  EXPECT_EQ(b.sampledBlocks, 16u);
  EXPECT_EQ(b.peerBlocks, 8u);
  EXPECT_FALSE(b.reduced);
}

TEST(TraceBudget, ARegisterBlockedSgemmKeepsWhatFitsAfterThePeers) {
  // 2.9 M records a block: 50,331,648 / 2,900,000 = 17.4 -> 17 blocks, 8 of them peers -> 9.
  const TraceBudget b = fitSampleToTraceBudget(16, 8, 2'900'000, kLimit);
  EXPECT_EQ(b.sampledBlocks, 9u);
  EXPECT_EQ(b.peerBlocks, 8u);
  EXPECT_TRUE(b.reduced);
}

TEST(TraceBudget, PeersGiveWayWhenFewerBlocksFitThanThereArePeers) {
  // 10 M a block: 5 fit -> one of the SM's blocks and 4 peers.
  const TraceBudget b = fitSampleToTraceBudget(16, 8, 10'000'000, kLimit);
  EXPECT_EQ(b.sampledBlocks, 1u);
  EXPECT_EQ(b.peerBlocks, 4u);
  EXPECT_TRUE(b.reduced);
}

TEST(TraceBudget, NeverBelowOneBlock) {
  // 60 M a block: not even one fits in three quarters of the limit; one block, no peers (the
  // emulator's own error then names the option that raises the limit).
  const TraceBudget b = fitSampleToTraceBudget(16, 8, 60'000'000, kLimit);
  EXPECT_EQ(b.sampledBlocks, 1u);
  EXPECT_EQ(b.peerBlocks, 0u);
}

TEST(TraceBudget, NoLimitOrNoMeasurementChangesNothing) {
  EXPECT_FALSE(fitSampleToTraceBudget(16, 8, 2'900'000, 0).reduced);
  EXPECT_FALSE(fitSampleToTraceBudget(16, 8, 0, kLimit).reduced);
}

}  // namespace
}  // namespace teg::analysis
