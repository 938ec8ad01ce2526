#include <gtest/gtest.h>

#include "teg/occupancy/sweep.hpp"
#include "test_devices.hpp"

namespace teg::occupancy {
namespace {

using test::gpu;

// The C2050 register curve for 16x16 blocks (cc 2.0, 64-register units, 32768 registers,
// 48 warps): blocks = min(6, floor(floor(32768 / roundup(32 r, 64)) / 8)).
// r <= 20 -> 6 (640 -> 51 warps); 21..24 -> 5 (768 -> 42); 25..32 -> 4 (1024 -> 32);
// 33..42 -> 3 (1344 -> 24); 43..63 -> 2 (2016 -> 16). Cliffs at 21, 25, 33, 43.
TEST(Sweep, RegisterCurveOfTheC2050) {
  Launch l;
  l.threadsPerBlock = 256;
  l.registersPerThread = 21;
  const auto points = sweep(gpu("sm_20"), l, Knob::Registers);
  ASSERT_EQ(points.size(), 64u);  // 0..63
  std::vector<long long> cliffs;
  for (const auto& p : points)
    if (p.cliff) cliffs.push_back(p.value);
  EXPECT_EQ(cliffs, (std::vector<long long>{21, 25, 33, 43}));
  EXPECT_EQ(points[20].result.blocksPerSm, 6);
  EXPECT_EQ(points[24].result.blocksPerSm, 5);
  EXPECT_EQ(points[63].result.blocksPerSm, 2);
}

TEST(Sweep, ThreadsAreMultiplesOfTheWarpPlusTheLaunchsOwn) {
  Launch l;
  l.threadsPerBlock = 100;
  l.registersPerThread = 16;
  const auto points = sweep(gpu("sm_80"), l, Knob::Threads);
  ASSERT_EQ(points.size(), 33u);  // 32, 64, ..., 1024 and 100
  EXPECT_EQ(points.front().value, 32);
  EXPECT_EQ(points.back().value, 1024);
  EXPECT_EQ(points[3].value, 100);
}

TEST(Sweep, SharedMemoryRunsToTheOptInLimitAndMarksLaunchFailuresAsZero) {
  Launch l;
  l.threadsPerBlock = 128;
  l.registersPerThread = 16;
  const auto points = sweep(gpu("sm_75"), l, Knob::SharedMemory);
  // 0..65536 in 256-byte steps.
  EXPECT_EQ(points.size(), 65536u / 256 + 1);
  EXPECT_EQ(points.back().value, 65536);
  EXPECT_EQ(points.back().result.blocksPerSm, 1);
}

// cudaOccMaxPotentialOccupancyBlockSize's rule, by hand. sm_80, 64 registers: 2048 per warp,
// 16384 / 2048 = 8 warps per sub-partition = 32 warps per SM. The first size from 1024 down with
// the most resident threads: 1024 (1 block, 1024 threads) -- nothing holds more than 32 warps.
// min grid = 1 block x 108 SMs on an A100.
TEST(Suggest, LargestBlockOfHighestOccupancy) {
  Launch l;
  l.registersPerThread = 64;
  const Suggestion s = suggestBlockSize(gpu("a100"), l);
  EXPECT_EQ(s.blockSize, 1024);
  EXPECT_EQ(s.blocksPerSm, 1);
  EXPECT_EQ(s.minGridSize, 108);
  // 32 registers: 1024 per warp -> 64 warps: 1024 threads x 2 blocks = 2048 = full at once.
  l.registersPerThread = 32;
  const Suggestion full = suggestBlockSize(gpu("a100"), l);
  EXPECT_EQ(full.blockSize, 1024);
  EXPECT_DOUBLE_EQ(full.occupancy, 1.0);
  EXPECT_EQ(full.minGridSize, 216);
}

}  // namespace
}  // namespace teg::occupancy
