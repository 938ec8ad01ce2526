// The worked examples of the seed documents, computed by hand in each comment.
#include <gtest/gtest.h>

#include "teg/occupancy/cliffs.hpp"
#include "teg/occupancy/occupancy.hpp"
#include "test_devices.hpp"

namespace teg::occupancy {
namespace {

using test::gpu;

Launch launch(long long threads, long long regs, long long smem, long long dyn = 0) {
  Launch l;
  l.threadsPerBlock = threads;
  l.registersPerThread = regs;
  l.staticSharedBytes = smem;
  l.dynamicSharedBytes = dyn;
  return l;
}

// Verschelde, lecture 33, "CUDA GPU Occupancy Calculator" screenshot: cc 3.5, 256 threads,
// 32 registers, 4096 B -> 2048 threads, 64 warps, 8 blocks, 100 %. Its table: warps 8 blocks
// (64 / 8 warps), registers 8 blocks (32 x 32 = 1024 registers per warp; 65536 / 1024 = 64 warps),
// shared memory 12 blocks (49152 / 4096), physical limit 16 blocks.
TEST(SeedExamples, OccupancyCalculatorCc35) {
  const Occupancy r = computeOccupancy(gpu("sm_35"), launch(256, 32, 4096));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.blocksPerSm, 8);
  EXPECT_EQ(r.warpsPerSm, 64);
  EXPECT_EQ(r.threadsPerSm, 2048);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limit(Resource::Warps), 8);
  EXPECT_EQ(r.limit(Resource::Registers), 8);
  EXPECT_EQ(r.limit(Resource::SharedMemory), 12);
  EXPECT_EQ(r.limit(Resource::Blocks), 16);
  EXPECT_TRUE(r.limitedBy(Resource::Warps));
  EXPECT_TRUE(r.limitedBy(Resource::Registers));
  EXPECT_FALSE(r.limitedBy(Resource::SharedMemory));
  EXPECT_EQ(r.registersPerBlock, 8 * 1024);
  EXPECT_EQ(r.sharedMemoryPerBlock, 4096);
}

// Verschelde, lecture 33, Compute Visual Profiler on matrixMul, Tesla C2050 (cc 2.0): block
// 32x32, 25 registers, 8192 B -> "Register Ratio 0.8125 (26624 / 32768)", "Shared Memory Ratio
// 0.166667 (8192 / 49152)", 1 active block, 1024 threads, "Potential Occupancy 0.666667 (32 / 48)",
// "limiting factor: Block-Size". By hand: 25 x 32 = 800 registers per warp, rounded to the
// 64-register unit = 832, x 32 warps = 26624; 48 warps / 32 = 1 block.
TEST(SeedExamples, ProfilerMatrixMulOnC2050) {
  const Occupancy r = computeOccupancy(gpu("tesla-c2050"), launch(32 * 32, 25, 8192));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.blocksPerSm, 1);
  EXPECT_EQ(r.threadsPerSm, 1024);
  EXPECT_NEAR(r.occupancy, 0.666667, 1e-6);
  EXPECT_EQ(r.registersPerBlock, 26624);
  EXPECT_EQ(r.sharedMemoryPerBlock, 8192);
  EXPECT_EQ(r.limit(Resource::Warps), 1);
  EXPECT_TRUE(r.limitedBy(Resource::Warps));  // the profiler's "Block-Size"
  // A second block would need 2 x 26624 > 32768 registers, so registers also allow just one
  // (the profiler names one factor; teg names every resource at the limit).
  EXPECT_EQ(r.limit(Resource::Registers), 1);
  EXPECT_EQ(r.limit(Resource::SharedMemory), 6);  // 49152 / 8192
}

// Verschelde, lecture 33, "a performance cliff": 16x16 blocks on a C2050, 21 registers ->
// 32768 / (256 x 21 = 5376) = 6 blocks, 1536 threads; 22 registers -> 32768 / 5632 = 5 blocks,
// 1280 threads (-17 %). The lecture divides the register file by threads x registers, i.e. a
// register file with no allocation unit: a device with register_allocation_unit 1 reproduces it.
TEST(SeedExamples, RegisterCliffAsTheLectureCountsIt) {
  device::Device lecture = gpu("tesla-c2050");
  lecture.limits.registerAllocationUnit = 1;  // the lecture's simplification
  const Occupancy r21 = computeOccupancy(lecture, launch(256, 21, 0));
  const Occupancy r22 = computeOccupancy(lecture, launch(256, 22, 0));
  ASSERT_TRUE(r21.ok());
  ASSERT_TRUE(r22.ok());
  EXPECT_EQ(r21.blocksPerSm, 6);
  EXPECT_EQ(r21.threadsPerSm, 1536);
  EXPECT_EQ(r22.blocksPerSm, 5);
  EXPECT_EQ(r22.threadsPerSm, 1280);
  EXPECT_TRUE(r22.limitedBy(Resource::Registers));
  EXPECT_NEAR(1.0 - double(r22.threadsPerSm) / r21.threadsPerSm, 0.17, 0.005);
}

// On the real C2050 registers go out per warp in units of 64 (the profiler's 26624 above proves
// it), so the cliff sits one register earlier: 20 registers -> 640 per warp, 32768 / 640 = 51
// warps -> 6 blocks of 8 warps; 21 -> 672 rounded to 704, 32768 / 704 = 46 warps -> 5 blocks.
TEST(SeedExamples, RegisterCliffOnTheRealC2050) {
  const device::Device& c2050 = gpu("tesla-c2050");
  const Occupancy r20 = computeOccupancy(c2050, launch(256, 20, 0));
  const Occupancy r21 = computeOccupancy(c2050, launch(256, 21, 0));
  EXPECT_EQ(r20.blocksPerSm, 6);
  EXPECT_EQ(r20.threadsPerSm, 1536);
  EXPECT_EQ(r21.blocksPerSm, 5);
  EXPECT_EQ(r21.threadsPerSm, 1280);
  EXPECT_EQ(r21.registersPerBlock, 8 * 704);
  const CliffReport cliffs = findCliffs(c2050, launch(256, 20, 0), r20);
  const Lever& regs = cliffs.levers[static_cast<int>(Knob::Registers)];
  ASSERT_TRUE(regs.cliffAt.has_value());
  EXPECT_EQ(*regs.cliffAt, 21);
  EXPECT_EQ(regs.blocksAfterCliff, 5);
}

// Verschelde, lecture 33, exercise 1: a GPU with 2048 threads/SM, 32 blocks/SM, 64K registers/SM
// and 96 KB shared memory/SM — cc 6.1's figures.
// Kernel A: 64 threads (2 warps), 27 registers, 4 KB. Registers: 27 x 32 = 864 -> 1024 per warp,
// 65536 / 1024 = 64 warps = 32 blocks; warps: 64 / 2 = 32 blocks; shared memory: 96 KB / 4 KB =
// 24 blocks -> 24 blocks, 48 warps, 75 %, limited by shared memory.
// Kernel B: 256 threads (8 warps), 31 registers, 8 KB. Registers: 992 -> 1024 per warp, 64 warps
// = 8 blocks; warps 64 / 8 = 8; shared memory 96 / 8 = 12 -> 8 blocks, 64 warps, 100 %.
TEST(SeedExamples, ExerciseKernelsAAndB) {
  const device::Device& d = gpu("sm_61");
  ASSERT_EQ(d.limits.maxThreadsPerSm, 2048);
  ASSERT_EQ(d.limits.maxBlocksPerSm, 32);
  ASSERT_EQ(d.limits.registersPerSm, 65536);
  ASSERT_EQ(d.limits.sharedMemoryPerSm, 96 * 1024);
  const Occupancy a = computeOccupancy(d, launch(64, 27, 4096));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.blocksPerSm, 24);
  EXPECT_EQ(a.warpsPerSm, 48);
  EXPECT_DOUBLE_EQ(a.occupancy, 0.75);
  EXPECT_TRUE(a.limitedBy(Resource::SharedMemory));
  EXPECT_FALSE(a.limitedBy(Resource::Registers));
  const Occupancy b = computeOccupancy(d, launch(256, 31, 8192));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.blocksPerSm, 8);
  EXPECT_DOUBLE_EQ(b.occupancy, 1.0);
  EXPECT_EQ(b.limit(Resource::SharedMemory), 12);
}

// Ma et al. eq. 4 on their GTX480 (cc 2.0, 1536 threads, 48 KB, 32768 registers, 8 blocks/SM):
// B_a = min(floor(Z / S_B), floor(R / (R_T x T_r)), B_max, floor(T_maxMP / T_r)). With T_r = 256,
// R_T = 16, S_B = 8192: min(6, 8, 8, 6) = 6 (16 x 32 = 512 registers per warp is already a
// multiple of 64, so the allocation unit changes nothing).
TEST(SeedExamples, MaActiveBlocksEq4OnGtx480) {
  const device::Device& gtx480 = gpu("gtx480");
  ASSERT_EQ(gtx480.smCount, 15);  // Ma et al. §IV: "15 multiprocessors"
  const Occupancy r = computeOccupancy(gtx480, launch(256, 16, 8192));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.blocksPerSm, 6);
  EXPECT_EQ(r.limit(Resource::SharedMemory), 6);
  EXPECT_EQ(r.limit(Resource::Registers), 8);
  EXPECT_EQ(r.limit(Resource::Warps), 6);
  // Ma et al. §IV: requesting more shared memory than needed coerces B_a down to 1: any S_B above
  // 24 KB leaves room for one block (49152 / 24704 = 1 after the 128-byte unit).
  const Occupancy coerced = computeOccupancy(gtx480, launch(256, 16, 24577));
  ASSERT_TRUE(coerced.ok());
  EXPECT_EQ(coerced.blocksPerSm, 1);
  EXPECT_TRUE(coerced.limitedBy(Resource::SharedMemory));
}

// Exercise 3 of the lecture: the first example with cc 1.1's figures (8192 registers per block
// allocation, 768 threads, 8 blocks): 16x16 blocks, 10 registers -> 8 warps x 32 x 10 = 2560
// registers (a multiple of the 256 unit), 8192 / 2560 = 3 blocks = 768 threads (all of them);
// 11 registers -> 2816, 8192 / 2816 = 2 blocks = 512 threads.
TEST(SeedExamples, Cc11RegisterCliff) {
  const Occupancy r10 = computeOccupancy(gpu("sm_11"), launch(256, 10, 0));
  const Occupancy r11 = computeOccupancy(gpu("sm_11"), launch(256, 11, 0));
  ASSERT_TRUE(r10.ok());
  ASSERT_TRUE(r11.ok());
  EXPECT_EQ(r10.blocksPerSm, 3);
  EXPECT_EQ(r10.threadsPerSm, 768);
  EXPECT_EQ(r10.registersPerBlock, 2560);
  EXPECT_EQ(r11.blocksPerSm, 2);
  EXPECT_EQ(r11.threadsPerSm, 512);
  EXPECT_TRUE(r11.limitedBy(Resource::Registers));
}

}  // namespace
}  // namespace teg::occupancy
