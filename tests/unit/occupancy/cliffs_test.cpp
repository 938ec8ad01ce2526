#include <gtest/gtest.h>

#include "teg/occupancy/cliffs.hpp"
#include "teg/occupancy/sweep.hpp"
#include "test_devices.hpp"

namespace teg::occupancy {
namespace {

using test::gpu;

Launch launch(long long threads, long long regs, long long smem = 0) {
  Launch l;
  l.threadsPerBlock = threads;
  l.registersPerThread = regs;
  l.staticSharedBytes = smem;
  return l;
}

const Lever& lever(const CliffReport& r, Knob k) { return r.levers[static_cast<int>(k)]; }

bool hasSentence(const CliffReport& r, const std::string& s) {
  for (const auto& x : r.sentences)
    if (x == s) return true;
  return false;
}

// cc 3.5, 512 threads (16 warps), 48 registers: 1536 per warp, 16384 / 1536 = 10 warps per
// sub-partition, 40 per SM -> 2 blocks (32 warps). At 40 registers: 1280 per warp, 12 per
// sub-partition, 48 per SM -> 3 blocks (48 warps, +50 %); 41 registers rounds to 1536 again.
// Upward: 65 registers -> 2304 per warp, 7 x 4 = 28 warps -> 1 block.
TEST(Cliffs, RegisterLeverInTheUsersTerms) {
  const Launch l = launch(512, 48);
  const Occupancy base = computeOccupancy(gpu("sm_35"), l);
  ASSERT_EQ(base.blocksPerSm, 2);
  const CliffReport r = findCliffs(gpu("sm_35"), l, base);
  const Lever& regs = lever(r, Knob::Registers);
  ASSERT_TRUE(regs.reduceTo.has_value());
  EXPECT_EQ(*regs.reduceTo, 40);
  EXPECT_EQ(regs.blocksAfterReduce, 3);
  EXPECT_EQ(regs.warpsAfterReduce, 48);
  ASSERT_TRUE(regs.cliffAt.has_value());
  EXPECT_EQ(*regs.cliffAt, 65);
  EXPECT_EQ(regs.blocksAfterCliff, 1);
  EXPECT_TRUE(hasSentence(r, "limited by registers: at most 40 registers per thread gives 3 blocks, +50 % warps"))
      << ::testing::PrintToString(r.sentences);
}

// The calculator example (cc 3.5, 256 threads, 32 registers, 4 KB) sits right at a cliff:
// 33 registers -> 1056 rounded to 1280 per warp, 12 x 4 = 48 warps -> 6 blocks.
TEST(Cliffs, OneMoreRegisterCostsBlocks) {
  const Launch l = launch(256, 32, 4096);
  const Occupancy base = computeOccupancy(gpu("sm_35"), l);
  const CliffReport r = findCliffs(gpu("sm_35"), l, base);
  EXPECT_EQ(*lever(r, Knob::Registers).cliffAt, 33);
  EXPECT_EQ(lever(r, Knob::Registers).blocksAfterCliff, 6);
  EXPECT_FALSE(lever(r, Knob::Registers).reduceTo.has_value());  // the SM is already full
  EXPECT_TRUE(hasSentence(r, "one more register per thread here costs 2 blocks (at 33: 8 -> 6 blocks)"))
      << ::testing::PrintToString(r.sentences);
}

// Shared memory on cc 3.5 (256-byte unit, 48 KB): 128 threads, 10000 B -> 10240 allocated,
// 49152 / 10240 = 4 blocks. Five blocks need <= 9830 B allocated -> 9728 B (38 units).
// Upward, 4 blocks hold while the allocation is <= 12288 B: 12289 B costs a block (3 left).
TEST(Cliffs, SharedMemoryLever) {
  const Launch l = launch(128, 0, 10000);
  const Occupancy base = computeOccupancy(gpu("sm_35"), l);
  ASSERT_EQ(base.blocksPerSm, 4);
  const CliffReport r = findCliffs(gpu("sm_35"), l, base);
  const Lever& smem = lever(r, Knob::SharedMemory);
  EXPECT_EQ(*smem.reduceTo, 9728);
  EXPECT_EQ(smem.blocksAfterReduce, 5);
  EXPECT_EQ(*smem.cliffAt, 12289);
  EXPECT_EQ(smem.blocksAfterCliff, 3);
}

// When two resources bind at once, lowering one alone gains nothing, and the explanation says so.
TEST(Cliffs, TiedLimitersAreNamed) {
  // sm_20 (48 warps, 32768 registers): 256 threads, 20 registers -> 6 blocks by warps (48 / 8)
  // and 6 by registers (640 per warp, 51 warps -> 6 blocks) -- 100 %.
  // At 1024 threads, 20 registers: warps 48 / 32 = 1, registers 51 / 32 = 1 -> 1 block, 67 %.
  const Launch l = launch(1024, 20);
  const Occupancy base = computeOccupancy(gpu("sm_20"), l);
  ASSERT_EQ(base.blocksPerSm, 1);
  ASSERT_TRUE(base.limitedBy(Resource::Warps));
  ASSERT_TRUE(base.limitedBy(Resource::Registers));
  const CliffReport r = findCliffs(gpu("sm_20"), l, base);
  EXPECT_FALSE(lever(r, Knob::Registers).reduceTo.has_value());
  // Threads: 2 blocks need <= 24 warps -> 768 threads (registers: 51 / 24 = 2).
  EXPECT_EQ(*lever(r, Knob::Threads).reduceTo, 768);
  EXPECT_EQ(lever(r, Knob::Threads).blocksAfterReduce, 2);
  EXPECT_TRUE(hasSentence(
      r, "limited by registers (lowering it alone fits no more blocks: also limited by warps per SM)"))
      << ::testing::PrintToString(r.sentences);
}

// Every cliff the levers report is a real step of the sweep, and vice versa (cross-check of the
// bisection against the exhaustive curve).
TEST(Cliffs, AgreeWithTheSweep) {
  for (const char* name : {"sm_20", "sm_35", "sm_61", "sm_75", "sm_80", "sm_90"}) {
    const auto& d = gpu(name);
    const Launch l = launch(256, 40, 2048);
    const Occupancy base = computeOccupancy(d, l);
    ASSERT_TRUE(base.ok()) << name;
    const CliffReport r = findCliffs(d, l, base);
    const auto points = sweep(d, l, Knob::Registers);
    long long firstDrop = -1;
    for (const auto& p : points)
      if (p.value > 40 && p.result.blocksPerSm < base.blocksPerSm) { firstDrop = p.value; break; }
    const Lever& regs = lever(r, Knob::Registers);
    if (firstDrop < 0) EXPECT_FALSE(regs.cliffAt.has_value()) << name;
    else EXPECT_EQ(regs.cliffAt.value_or(-1), firstDrop) << name;
  }
}

}  // namespace
}  // namespace teg::occupancy
