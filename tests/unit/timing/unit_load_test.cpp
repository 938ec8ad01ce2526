// The load of a unit over time (Lai Figs. 3.9-3.15): in-flight cycles per bucket, worked by hand,
// including intervals that cover buckets whole and the merging of buckets as the run grows.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "unit_load.hpp"

using teg::timing::detail::UnitLoad;

namespace {

void expectSeries(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t b = 0; b < want.size(); ++b) EXPECT_DOUBLE_EQ(got[b], want[b]) << "bucket " << b;
}

TEST(UnitLoad, AnIntervalIsSplitOverTheBucketsItCovers) {
  UnitLoad load(2, 8);  // buckets of 16 cycles until more than 16 are needed
  load.add(0, 4, 40);   // 12 cycles in bucket 0, all 16 of bucket 1, 8 of bucket 2
  load.add(0, 2, 6);    // 4 more in bucket 0
  EXPECT_EQ(load.bucketCycles(), 16);
  expectSeries(load.series(0, 48), {16.0 / 16, 1.0, 0.5});
  expectSeries(load.series(1, 48), {0, 0, 0});  // the other unit saw nothing
}

TEST(UnitLoad, OverlappingIntervalsAddUp) {
  UnitLoad load(1, 8);
  load.add(0, 0, 64);   // buckets 0-3 whole
  load.add(0, 16, 48);  // buckets 1-2 whole again
  load.add(0, 24, 24);  // empty: nothing
  expectSeries(load.series(0, 64), {1, 2, 2, 1});
}

TEST(UnitLoad, BucketsMergeInPairsWhenTheRunOutgrowsThem) {
  UnitLoad load(1, 2);  // at most 4 buckets
  load.add(0, 0, 40);   // width 16: 16 + 16 + 8
  load.add(0, 60, 70);  // needs 6 buckets of 16: merged to width 32 (32, 8), then 4 + 6
  EXPECT_EQ(load.bucketCycles(), 32);
  expectSeries(load.series(0, 96), {32.0 / 32, 12.0 / 32, 6.0 / 32});
}

TEST(UnitLoad, ALongIntervalMergesUntilItsBucketsFit) {
  UnitLoad load(1, 2);
  // ceil(100 / 16) + 1 = 8 buckets of 16 needed, more than 4: merged once, (8 + 1) / 2 = 4 of 32.
  load.add(0, 0, 100);
  EXPECT_EQ(load.bucketCycles(), 32);
  expectSeries(load.series(0, 128), {1, 1, 1, 4.0 / 32});
  // 300 cycles: ceil(300 / 32) + 1 = 11 -> 6 -> 3 buckets, of 128 cycles.
  load.add(0, 250, 300);
  EXPECT_EQ(load.bucketCycles(), 128);
  expectSeries(load.series(0, 384), {100.0 / 128, 6.0 / 128, 44.0 / 128});
}

}  // namespace

namespace {

// Issue 24: a device figure of 1e18 cycles made add() cast ~1e17 buckets to size_t and series()
// allocate one double per bucket. Far times widen the buckets instead (the bounded device
// figures keep every time finite), and a total beyond the last interval is not allocated.
TEST(UnitLoad, FarTimesWidenTheBucketsInsteadOfOverflowing) {
  UnitLoad load(1, 8);
  load.add(0, 0, 16);
  load.add(0, 1e18, 1e18 + 1e17);
  EXPECT_GE(load.bucketCycles(), 1e18 / 16);
  const auto s = load.series(0, 1.1e18);
  EXPECT_LE(s.size(), 16u);
  EXPECT_GT(s.back(), 0);
  EXPECT_THROW(load.add(0, 0, std::numeric_limits<double>::infinity()), std::logic_error);
}

TEST(UnitLoad, ATotalFarBeyondTheLastIntervalIsCapped) {
  UnitLoad load(1, 8);
  load.add(0, 0, 32);
  const auto s = load.series(0, 1e18);  // 6e16 buckets of 16 cycles, all but two of them 0
  EXPECT_EQ(s.size(), 16u);
  EXPECT_DOUBLE_EQ(s[0], 1);
  EXPECT_DOUBLE_EQ(s[1], 1);
  EXPECT_DOUBLE_EQ(s[15], 0);
}

}  // namespace
