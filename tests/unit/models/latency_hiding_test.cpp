// Little's law (seed 002) and the roofline bound.
#include <gtest/gtest.h>

#include "teg/models/latency_hiding.hpp"
#include "teg/support/error.hpp"

using namespace teg::models;

// Seed 002 sect. 1.1.2: "Six active warps per SM are required to hide pipeline latency of
// MAD dest, [smem], src2, src3 under throughput is 6 cycle/warp" (latency 34.6 cycles, Table 2).
TEST(LatencyHiding, SixWarpsForTheSharedMemoryMad) {
  EXPECT_EQ(warpsToHideLatency(34.6, 6).warpsNeeded, 6);
}

// Seed 002 sect. 6 ("method 4"): MAD dest, src1, src2, src3 has latency 31.5 cycles at
// 4 cycles/warp (Table 3) — "we need 8 warps at least".
TEST(LatencyHiding, EightWarpsForTheRegisterMad) {
  EXPECT_EQ(warpsToHideLatency(31.5, 4).warpsNeeded, 8);
}

// Seed 002 Table 2, fourth row ("Total time for one a = a*b_smem + c", TeslaC1060): threads
// 1, 64, 128, 192, 224, 256, 288, 320, 384, 512 → 34.6, 34.6, 34.6, 36, 42, 48, 54, 60, 72, 96.
TEST(LatencyHiding, Table2FourthRow) {
  const struct {
    int threads;
    double cycles;
  } rows[] = {{1, 34.6},  {64, 34.6},  {128, 34.6}, {192, 36},  {224, 42},
              {256, 48},  {288, 54},   {320, 60},   {384, 72},  {512, 96}};
  for (const auto& row : rows) {
    const int warps = (row.threads + 31) / 32;
    EXPECT_NEAR(roundTime(warps, 34.6, 6).cycles, row.cycles, 1e-9) << row.threads;
  }
  EXPECT_TRUE(roundTime(4, 34.6, 6).latencyBound);
  EXPECT_FALSE(roundTime(6, 34.6, 6).latencyBound);
  EXPECT_DOUBLE_EQ(roundTime(16, 34.6, 6).utilization, 1.0);
  EXPECT_NEAR(roundTime(2, 34.6, 6).utilization, 12 / 34.6, 1e-12);
}

TEST(LatencyHiding, RejectsBadInput) {
  EXPECT_THROW(warpsToHideLatency(0, 6), teg::Error);
  EXPECT_THROW(warpsToHideLatency(34.6, -1), teg::Error);
  EXPECT_THROW(roundTime(0, 34.6, 6), teg::Error);
}

// A100 (NVIDIA A100 datasheet: 19.5 TFLOP/s FP32, 1555 GB/s HBM2 for the 40 GB part): 108 SMs
// × 64 FP32 FMA/clock × 2 flops × 1410 MHz = 19491.8 GFLOP/s; ridge = 19491.8/1555 = 12.53.
TEST(Roofline, A100ByHand) {
  const double peak = peakGflops(108, 64, 2, 1410);
  EXPECT_NEAR(peak, 19491.84, 1e-6);
  const auto r = roofline(peak, 1555, 4);
  EXPECT_NEAR(r.attainable, 4 * 1555.0, 1e-9);  // memory bound: 6220 GFLOP/s
  EXPECT_TRUE(r.memoryBound);
  EXPECT_NEAR(r.ridge, 19491.84 / 1555, 1e-9);
  const auto flat = roofline(peak, 1555, 100);
  EXPECT_DOUBLE_EQ(flat.attainable, peak);
  EXPECT_FALSE(flat.memoryBound);
  // At the ridge both roofs meet.
  EXPECT_NEAR(roofline(peak, 1555, r.ridge).attainable, peak, 1e-9);
}

TEST(Roofline, RejectsBadInput) {
  EXPECT_THROW(roofline(0, 1555, 4), teg::Error);
  EXPECT_THROW(roofline(100, 0, 4), teg::Error);
  EXPECT_THROW(roofline(100, 10, -1), teg::Error);
  EXPECT_THROW(peakGflops(0, 64, 2, 1410), teg::Error);
}
