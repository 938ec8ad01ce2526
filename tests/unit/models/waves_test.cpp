// Wave scheduling: Ma et al. (seed 001) eq. 3 and its Fig. 1 zig-zag, eq. 4.
#include <gtest/gtest.h>

#include <cstdint>

#include "teg/models/waves.hpp"
#include "teg/support/error.hpp"

using namespace teg::models;

// Seed 001 Fig. 1: B_a = 1, P/Q = 15 SMs (GTX480), max term set to 1, so the plotted time is
// f_sched itself. Hand values of eq. 3: f = ceil(B_r/15)·15 / B_r.
TEST(Waves, Fig1ZigZagAtFifteenSms) {
  struct Case {
    long long blocks;
    long long waves;
    double fSched;
  } cases[] = {
      {1, 1, 15.0},          // one block, 15 slots paid for
      {14, 1, 15.0 / 14},    //
      {15, 1, 1.0},          // minimum: a multiple of 15
      {16, 2, 30.0 / 16},    // 1.875: the jump just after the minimum
      {29, 2, 30.0 / 29},    //
      {30, 2, 1.0},          //
      {31, 3, 45.0 / 31},    // 1.4516: the teeth shrink as B_r grows
      {46, 4, 60.0 / 46},    // 1.3043
      {150, 10, 1.0},        //
      {151, 11, 165.0 / 151} // 1.0927
  };
  for (const auto& c : cases) {
    const auto w = scheduleWaves(c.blocks, 1, 15);
    EXPECT_EQ(w.waves, c.waves) << c.blocks;
    EXPECT_DOUBLE_EQ(w.fSched, c.fSched) << c.blocks;
    EXPECT_DOUBLE_EQ(w.efficiency, 1.0 / c.fSched) << c.blocks;
  }
}

// "the runtime is minimized at regular intervals when B_r happens to be a multiple of 15" and
// "As B_r grows ... the influence of B_r on occupancy diminishes": the local maxima just after
// each multiple of 15 decrease.
TEST(Waves, Fig1MinimaAtMultiplesOfFifteenAndShrinkingTeeth) {
  double previousPeak = 1e9;
  for (long long k = 1; k <= 20; ++k) {
    EXPECT_DOUBLE_EQ(scheduleWaves(15 * k, 1, 15).fSched, 1.0);
    const double peak = scheduleWaves(15 * k + 1, 1, 15).fSched;
    EXPECT_GT(peak, 1.0);
    EXPECT_LT(peak, previousPeak);
    previousPeak = peak;
  }
}

TEST(Waves, TailOfThePartialLastWave) {
  // 100 blocks, 2 per SM on 15 SMs: 30 slots, ceil(100/30) = 4 waves, last wave 100-90 = 10.
  const auto w = scheduleWaves(100, 2, 15);
  EXPECT_EQ(w.slots, 30);
  EXPECT_EQ(w.waves, 4);
  EXPECT_EQ(w.tailBlocks, 10);
  EXPECT_DOUBLE_EQ(w.tailFill, 10.0 / 30);
  EXPECT_DOUBLE_EQ(w.fSched, 120.0 / 100);
  // Full last wave.
  EXPECT_EQ(scheduleWaves(90, 2, 15).tailBlocks, 30);
}

// Seed 001 sect. V example: n = 8192, S_D = 32 → B_r = 65536, B_a = 4 on 15 SMs:
// ceil(65536/60) = 1093 waves, f_sched = 1093·60/65536 = 65580/65536.
TEST(Waves, ApspAnomalyLaunch) {
  const auto w = scheduleWaves(65536, 4, 15);
  EXPECT_EQ(w.waves, 1093);
  EXPECT_DOUBLE_EQ(w.fSched, 65580.0 / 65536.0);
  // Coerced to B_a = 1: ceil(65536/15) = 4370 waves, 4370·15 = 65550.
  const auto one = scheduleWaves(65536, 1, 15);
  EXPECT_EQ(one.waves, 4370);
  EXPECT_DOUBLE_EQ(one.fSched, 65550.0 / 65536.0);
}

TEST(Waves, RejectsImpossibleInput) {
  EXPECT_THROW(scheduleWaves(0, 1, 15), teg::Error);
  EXPECT_THROW(scheduleWaves(10, 0, 15), teg::Error);
  EXPECT_THROW(scheduleWaves(10, 1, 0), teg::Error);
}

// Eq. 4 by hand for the GTX480 of seed 001 sect. IV (48 KB shared memory, 1536 threads per SM,
// 32768 registers, 8 blocks per SM — CUDA guide, cc 2.0).
TEST(Waves, ActiveBlocksEq4) {
  ActiveBlockInputs in;
  in.sharedMemoryPerSm = 48 * 1024;
  in.registersPerSm = 32768;
  in.maxBlocksPerSm = 8;
  in.maxThreadsPerSm = 1536;

  // 256 threads, 16 regs, 12 KB: min(48/12 = 4, 32768/4096 = 8, 8, 1536/256 = 6) = 4 (smem).
  in.threadsPerBlock = 256;
  in.registersPerThread = 16;
  in.sharedMemoryPerBlock = 12 * 1024;
  auto a = activeBlocksMa(in);
  EXPECT_EQ(a.blocks, 4);
  EXPECT_EQ(a.limiter, ActiveBlockLimit::SharedMemory);

  // 512 threads, 20 regs, no smem: min(-, 32768/10240 = 3, 8, 1536/512 = 3) = 3; registers come
  // first in the seed's order, so they are named.
  in.threadsPerBlock = 512;
  in.registersPerThread = 20;
  in.sharedMemoryPerBlock = 0;
  a = activeBlocksMa(in);
  EXPECT_EQ(a.blocks, 3);
  EXPECT_EQ(a.limiter, ActiveBlockLimit::Registers);

  // 32 threads, 10 regs: min(-, 102, 8, 48) = 8 (blocks).
  in.threadsPerBlock = 32;
  in.registersPerThread = 10;
  a = activeBlocksMa(in);
  EXPECT_EQ(a.blocks, 8);
  EXPECT_EQ(a.limiter, ActiveBlockLimit::Blocks);

  // A block needing more shared memory than the SM has.
  in.sharedMemoryPerBlock = 64 * 1024;
  EXPECT_THROW(activeBlocksMa(in), teg::Error);
}

// Issue 24: B_r near 2^63 wrapped B_r + slots - 1 and printed negative waves.
TEST(Waves, LargestBlockCountDoesNotWrap) {
  const auto w = scheduleWaves(INT64_MAX, 8, 15);
  EXPECT_EQ(w.slots, 120);
  EXPECT_EQ(w.waves, INT64_MAX / 120 + 1);  // 2^63 - 1 = 120 · 76861433640456465 + 7
  EXPECT_EQ(w.tailBlocks, 7);
}
