// The limit checker's rules and the allocation rules, each case computed by hand in its comment
// from the CUDA C++ Programming Guide's limits (as in data/devices/generic).
#include <gtest/gtest.h>

#include "teg/occupancy/occupancy.hpp"
#include "teg/support/error.hpp"
#include "test_devices.hpp"

namespace teg::occupancy {
namespace {

using test::gpu;

Launch launch(long long threads, long long regs, long long smem = 0, long long dyn = 0) {
  Launch l;
  l.threadsPerBlock = threads;
  l.registersPerThread = regs;
  l.staticSharedBytes = smem;
  l.dynamicSharedBytes = dyn;
  return l;
}

std::string errorOf(const char* device, const Launch& l) {
  try {
    computeOccupancyOrThrow(gpu(device), l);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(LimitChecker, ThreadsPerBlock) {
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), launch(1025, 32)).violation, Violation::ThreadsPerBlock);
  EXPECT_EQ(computeOccupancy(gpu("sm_13"), launch(513, 8)).violation, Violation::ThreadsPerBlock);  // 512 on cc 1.x
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), launch(0, 32)).violation, Violation::ThreadsNotPositive);
  const std::string msg = errorOf("sm_80", launch(1025, 32));
  EXPECT_NE(msg.find("1025"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1024"), std::string::npos) << msg;
}

TEST(LimitChecker, RegistersPerThread) {
  // cc 2.0 and 3.0 allow 63 registers per thread, 3.5 and later 255.
  EXPECT_EQ(computeOccupancy(gpu("sm_20"), launch(128, 64)).violation, Violation::RegistersPerThread);
  EXPECT_EQ(computeOccupancy(gpu("sm_30"), launch(128, 64)).violation, Violation::RegistersPerThread);
  EXPECT_TRUE(computeOccupancy(gpu("sm_35"), launch(128, 64)).ok());
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), launch(128, 256)).violation, Violation::RegistersPerThread);
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), launch(128, -1)).violation, Violation::RegistersNegative);
  EXPECT_NE(errorOf("sm_20", launch(128, 64)).find("63"), std::string::npos);
}

TEST(LimitChecker, RegistersPerBlock) {
  // sm_80: 1024 threads x 72 registers: 72 x 32 = 2304 per warp x 32 warps = 73728 > 65536.
  const Occupancy r = computeOccupancy(gpu("sm_80"), launch(1024, 72));
  EXPECT_EQ(r.violation, Violation::RegistersPerBlock);
  EXPECT_EQ(r.registersPerBlock, 73728);
  // 800 threads (25 warps) x 80 registers: 2560 x 25 = 64000 <= 65536, but the hardware check
  // rounds 25 warps up to 28 (4 sub-partitions): 71680 > 65536 -> cannot launch.
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), launch(800, 80)).violation, Violation::RegistersPerBlock);
  // 768 threads (24 warps) x 80: 61440, a multiple of 4 warps -> runs, 1 block.
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), launch(768, 80)).blocksPerSm, 1);
}

TEST(LimitChecker, PascalLaunchMustFitGp10x) {
  // GP100 has 2 register sub-partitions, GP10x 4. 704 threads (22 warps) x 88 registers
  // (2816 per warp): GP100 alone fits 32768 / 2816 = 11 warps per half = 22 warps = 1 block,
  // but on GP10x 16384 / 2816 = 5 per quarter = 20 warps < 22: the driver refuses it on all of
  // Pascal (cuda_occupancy.h). One fewer warp of registers (80 registers, 2560) fits both.
  EXPECT_EQ(computeOccupancy(gpu("sm_60"), launch(704, 88)).violation, Violation::RegistersPerBlock);
  EXPECT_EQ(computeOccupancy(gpu("sm_60"), launch(704, 80)).blocksPerSm, 1);
}

TEST(LimitChecker, SharedMemoryPerBlockAndOptIn) {
  // sm_75: static limit 48 KB; dynamic may opt in up to 64 KB.
  EXPECT_EQ(computeOccupancy(gpu("sm_75"), launch(128, 32, 49153)).violation,
            Violation::StaticSharedMemoryPerBlock);
  EXPECT_TRUE(computeOccupancy(gpu("sm_75"), launch(128, 32, 0, 65536)).ok());
  EXPECT_EQ(computeOccupancy(gpu("sm_75"), launch(128, 32, 0, 65537)).violation,
            Violation::SharedMemoryPerBlock);
  const std::string msg = errorOf("sm_75", launch(128, 32, 0, 70000));
  EXPECT_NE(msg.find("opt-in"), std::string::npos) << msg;
  EXPECT_NE(msg.find("65536"), std::string::npos) << msg;
  EXPECT_NE(msg.find("49152"), std::string::npos) << msg;
  // sm_35 has no opt-in: 48 KB is the limit.
  EXPECT_EQ(computeOccupancy(gpu("sm_35"), launch(128, 32, 0, 49153)).violation,
            Violation::SharedMemoryPerBlock);
}

TEST(Residency, ReservedSharedMemoryFromAmpere) {
  // sm_80: 1 KB reserved per block. 4096 B asked -> 5120 allocated; 167936 / 5120 = 32 blocks
  // (and the per-block limit is 163 KB + the reserved 1 KB).
  const Occupancy r = computeOccupancy(gpu("sm_80"), launch(32, 16, 4096));
  EXPECT_EQ(r.sharedMemoryPerBlock, 5120);
  EXPECT_EQ(r.limit(Resource::SharedMemory), 32);
  EXPECT_TRUE(computeOccupancy(gpu("sm_80"), launch(32, 16, 0, 166912)).ok());
  // Even an empty block takes the reserved 1 KB: 167936 / 1024 = 164 blocks by shared memory.
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), launch(32, 16)).limit(Resource::SharedMemory), 164);
}

TEST(Residency, DefaultCarveoutIsTheDriversSmallestThatHoldsTheBlocks) {
  // sm_70, no shared memory and no reserved bytes: carve-out 0, the whole 128 KB array is L1.
  Occupancy r = computeOccupancy(gpu("sm_70"), launch(64, 32));
  EXPECT_TRUE(r.carveoutChosenByDriver);
  EXPECT_EQ(r.sharedMemoryPerSm, 0);
  EXPECT_EQ(r.blocksPerSm, 32);  // 64 warps / 2, and 32 blocks per SM
  // sm_80, 64 threads: 32 blocks (warps 64 / 2, block slots 32) of the reserved 1 KB each = 32 KB,
  // a carve-out sm_80 has: L1 keeps 192 - 32 = 160 KB (gpu-benches' A100 chase leaves L1 past
  // 144 KB).
  r = computeOccupancy(gpu("sm_80"), launch(64, 32));
  EXPECT_EQ(r.sharedMemoryPerSm, 32768);
  // sm_80, 256 threads x 32 registers, 8 KB static: warps allow 64 / 8 = 8 blocks, registers
  // 16384 per partition / 1024 per warp x 4 / 8 = 8 blocks, shared memory 167936 / 9216 = 18:
  // 8 blocks x 9216 B = 73728 B -> the 100 KB carve-out (64 KB would hold 7). Residency as with
  // the largest carve-out.
  r = computeOccupancy(gpu("sm_80"), launch(256, 32, 8192));
  EXPECT_EQ(r.blocksPerSm, 8);
  EXPECT_EQ(r.limit(Resource::SharedMemory), 18);
  EXPECT_EQ(r.sharedMemoryPerSm, 102400);
  // sm_75 has 32 and 64 KB only: the smallest, 32 KB.
  EXPECT_EQ(computeOccupancy(gpu("sm_75"), launch(64, 32)).sharedMemoryPerSm, 32768);
  // Before Volta the default stays the largest configuration (Kepler: 48 KB shared).
  r = computeOccupancy(gpu("sm_35"), launch(64, 32));
  EXPECT_FALSE(r.carveoutChosenByDriver);
  EXPECT_EQ(r.sharedMemoryPerSm, 49152);
  // A carve-out in the launch overrides the driver's choice.
  Launch l = launch(64, 32);
  l.carveoutPercent = 100;
  r = computeOccupancy(gpu("sm_80"), l);
  EXPECT_FALSE(r.carveoutChosenByDriver);
  EXPECT_EQ(r.sharedMemoryPerSm, 167936);
}

TEST(Residency, CarveoutPreference) {
  // sm_80 carve-outs 0, 8, 16, 32, 64, 100, 132, 164 KB. 25 % of 164 KB = 41984 B -> 64 KB.
  // 8 KB blocks (8192 + 1024 reserved = 9216 B): 65536 / 9216 = 7 blocks.
  Launch l = launch(64, 16, 8192);
  l.carveoutPercent = 25;
  const Occupancy r = computeOccupancy(gpu("sm_80"), l);
  EXPECT_EQ(r.sharedMemoryPerSm, 65536);
  EXPECT_EQ(r.limit(Resource::SharedMemory), 7);
  // 0 %: the preference holds no block, so the driver takes the smallest carve-out that does:
  // 16 KB for one 9216-byte block.
  l.carveoutPercent = 0;
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), l).sharedMemoryPerSm, 16384);
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), l).blocksPerSm, 1);
  l.carveoutPercent = 101;
  EXPECT_EQ(computeOccupancy(gpu("sm_80"), l).violation, Violation::CarveoutPercent);
}

TEST(Residency, Cc1xAllocatesRegistersPerBlockForEvenWarps) {
  // sm_13: 16384 registers, 512-register unit, per block for an even number of warps.
  // 96 threads = 3 warps -> counted as 4: 4 x 32 x 10 = 1280 -> 1536 (unit 512);
  // 16384 / 1536 = 10 blocks by registers, capped at 8 blocks per SM; warps: 32 / 3 = 10.
  const Occupancy r = computeOccupancy(gpu("sm_13"), launch(96, 10));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.registersPerBlock, 1536);
  EXPECT_EQ(r.limit(Resource::Registers), 10);
  EXPECT_EQ(r.blocksPerSm, 8);
  EXPECT_TRUE(r.limitedBy(Resource::Blocks));
  // Shared memory goes in 512-byte units on cc 1.x: 1000 B -> 1024, 16384 / 1024 = 16.
  EXPECT_EQ(computeOccupancy(gpu("sm_13"), launch(96, 10, 1000)).sharedMemoryPerBlock, 1024);
}

TEST(Residency, ZeroRegistersAndZeroSharedMemoryDoNotLimit) {
  const Occupancy r = computeOccupancy(gpu("sm_75"), launch(64, 0));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.limit(Resource::Registers), kUnlimited);
  EXPECT_EQ(r.limit(Resource::SharedMemory), kUnlimited);
  EXPECT_EQ(r.blocksPerSm, 16);  // sm_75: 16 blocks per SM, 32 warps / 2 = 16 as well
}

TEST(Residency, LaunchesOnEveryDeviceOfTheDatabase) {
  // A plain 128-thread, 16-register block runs everywhere, and never beyond the SM's warps.
  for (const auto& d : test::database().all()) {
    const Occupancy r = computeOccupancy(d, launch(128, 16));
    ASSERT_TRUE(r.ok()) << d.id << ": " << violationMessage(d, launch(128, 16), r);
    EXPECT_LE(r.warpsPerSm, r.maxWarpsPerSm) << d.id;
    EXPECT_GT(r.occupancy, 0) << d.id;
  }
}

}  // namespace
}  // namespace teg::occupancy

#include "teg/occupancy/small_divide.hpp"

namespace teg::occupancy {
namespace {

// smallDivide against the divide instruction: every divisor of the table, numerators on both
// sides of every multiple up to the table's numerator bound (and beyond, where it divides).
TEST(SmallDivide, EqualsIntegerDivision) {
  long long checked = 0;
  for (unsigned d = 1; d <= kSmallDivideMaxDivisor; ++d) {
    for (unsigned k = 0; k * d < kSmallDivideMaxNumerator + 2 * d; k += 1 + k / 64) {
      for (unsigned x : {k * d, k * d + d - 1}) {
        ASSERT_EQ(smallDivide(x, d), x / d) << x << " / " << d;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100000);
  EXPECT_EQ(smallDivide(4000000000u, 3), 4000000000u / 3);
}

}  // namespace
}  // namespace teg::occupancy
