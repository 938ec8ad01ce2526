// GPUDIAG model (seed 004 ch. 3.1): N_slot (eq. 3.3), fu(c) (eq. 3.6), T(g, b) (eq. 3.2),
// bottleneck throughput (eq. 3.7).
#include <gtest/gtest.h>

#include <cmath>

#include "teg/models/gpudiag.hpp"
#include "teg/support/error.hpp"

using namespace teg::models;

namespace {

// Turing-like buffers (CUDA guide, cc 7.5): 16 blocks, 32 warps, 64 KB shared memory in 256 B
// units, 65536 registers in 256-register (per warp) units.
StateBuffers turingLike() {
  StateBuffers b;
  b.barrierSlots = 16;
  b.warpSlots = 32;
  b.sharedMemory = 65536;
  b.sharedMemoryGranularity = 256;
  b.registerFiles = {{65536, 256}};
  return b;
}

}  // namespace

TEST(Gpudiag, RoundUpFootnote1) {
  EXPECT_EQ(roundUpTo(0, 256), 0);
  EXPECT_EQ(roundUpTo(1, 256), 256);
  EXPECT_EQ(roundUpTo(256, 256), 256);
  EXPECT_EQ(roundUpTo(257, 256), 512);
  EXPECT_THROW(roundUpTo(5, 0), teg::Error);
}

TEST(Gpudiag, NslotEq33ByHand) {
  const auto buf = turingLike();
  // 8 warps, no smem, 32 regs/thread = 1024/warp: min(16, 32/8 = 4, -, 65536/8192 = 8) = 4.
  auto n = slotCount(buf, {8, 0, {1024}});
  EXPECT_EQ(n.slots, 4);
  EXPECT_EQ(n.limiter, SlotLimit::WarpSlots);
  EXPECT_EQ(n.byRegisters.at(0), 8);
  // 2 warps, 10000 B → 10240: 65536/10240 = 6.4 → 6; regs 2048/warp: 65536/4096 = 16.
  n = slotCount(buf, {2, 10000, {2048}});
  EXPECT_EQ(n.slots, 6);
  EXPECT_EQ(n.limiter, SlotLimit::SharedMemory);
  // 1 warp, 5000 regs/warp → 5120: 65536/5120 = 12.8 → 12 (unrounded 13.1 would give 13: the
  // granularity matters).
  n = slotCount(buf, {1, 0, {5000}});
  EXPECT_EQ(n.slots, 12);
  EXPECT_EQ(n.limiter, SlotLimit::Registers);
  EXPECT_EQ(n.registerFile, 0);
  // Tiny blocks: the barrier buffer (N1) binds.
  n = slotCount(buf, {1, 0, {256}});
  EXPECT_EQ(n.slots, 16);
  EXPECT_EQ(n.limiter, SlotLimit::Barriers);
  // A block larger than the shared memory does not fit at all.
  EXPECT_EQ(slotCount(buf, {1, 70000, {}}).slots, 0);
}

TEST(Gpudiag, NslotWithTwoRegisterFiles) {
  // AMD-style scalar + vector files (seed 004 sect. 3.1.1): the tighter one binds.
  auto buf = turingLike();
  buf.registerFiles = {{800, 16}, {65536, 256}};
  // 2 warps; scalar 100 → 112: 800/(2·112) = 3.57 → 3; vector 1024: 65536/2048 = 32.
  const auto n = slotCount(buf, {2, 0, {100, 1024}});
  EXPECT_EQ(n.slots, 3);
  EXPECT_EQ(n.limiter, SlotLimit::Registers);
  EXPECT_EQ(n.registerFile, 0);
}

TEST(Gpudiag, NslotRejectsBadInput) {
  EXPECT_THROW(slotCount(turingLike(), {0, 0, {}}), teg::Error);
  EXPECT_THROW(slotCount(turingLike(), {1, -1, {}}), teg::Error);
  EXPECT_THROW(slotCount(turingLike(), {1, 0, {1, 2}}), teg::Error);  // 2 files, SM has 1
}

namespace {

// Seed 004 Fig. 3.2: two dependent units, t1 = 1, t2 = 3, m1 = 1, m2 = ∞. "At c = 3 ... P does
// not increase. At c = 5, P increased to t1·c/m1": so P(c) = max(P_1, c) with 3 <= P_1 < 5;
// the dependent chain takes t1 + t2 = 4 = P_1.
FunctionalUnitModel fig32() {
  FunctionalUnitModel m;
  m.units = {{"u1", 1, 1, 1}, {"u2", 3, INFINITY, 1}};
  m.singleWarpPeriod = 4;
  return m;
}

}  // namespace

TEST(Gpudiag, FuOfFigure32) {
  const auto m = fig32();
  EXPECT_DOUBLE_EQ(m.fu(1), 1);
  EXPECT_DOUBLE_EQ(m.fu(3), 1);     // pipelined: P does not increase
  EXPECT_DOUBLE_EQ(m.fu(4), 1);
  EXPECT_DOUBLE_EQ(m.fu(5), 1.25);  // P(5) = t1·5/m1 = 5 = 1.25 P_1
  EXPECT_DOUBLE_EQ(m.period(5), 5);
  EXPECT_DOUBLE_EQ(m.fu(8), 2);
  EXPECT_EQ(m.bottleneckAt(8), "u1");
  EXPECT_EQ(m.bottleneckAt(2), "");  // latency bound, no unit saturated
  EXPECT_DOUBLE_EQ(m.fu(0), 0);
}

TEST(Gpudiag, FuWithGroupsRoundsWarpsPerGroupUp) {
  // One unit, t = 4, m = 1 per group, s = 4 groups, P_1 = 8: fu(c) = max(1, ⌈c/4⌉/2).
  FunctionalUnitModel m;
  m.units = {{"alu", 4, 1, 4}};
  m.singleWarpPeriod = 8;
  EXPECT_DOUBLE_EQ(m.fu(4), 1);
  EXPECT_DOUBLE_EQ(m.fu(8), 1);
  EXPECT_DOUBLE_EQ(m.fu(9), 1.5);  // a 9th warp lands on one group alone
  EXPECT_DOUBLE_EQ(m.fu(12), 1.5);
  EXPECT_DOUBLE_EQ(m.fu(16), 2);
}

// Eq. 3.7: the throughput recovered from fu(c) data equals m·s/t of the bottleneck unit.
TEST(Gpudiag, BottleneckThroughputEq37) {
  const auto a = fig32();
  std::vector<double> fuA;
  for (int c = 1; c <= 64; ++c) fuA.push_back(a.fu(c));
  EXPECT_DOUBLE_EQ(a.bottleneckThroughput(), 1.0);  // m1·s1/t1 = 1
  EXPECT_DOUBLE_EQ(bottleneckThroughputFromFu(fuA, 4), 1.0);

  FunctionalUnitModel b;
  b.units = {{"alu", 4, 1, 4}, {"sfu", 16, 1, 4}};
  b.singleWarpPeriod = 8;
  std::vector<double> fuB;
  for (int c = 1; c <= 64; ++c) fuB.push_back(b.fu(c));
  EXPECT_DOUBLE_EQ(b.bottleneckThroughput(), 4.0 / 16);  // sfu: 1·4/16
  EXPECT_DOUBLE_EQ(bottleneckThroughputFromFu(fuB, 8), 0.25);
  EXPECT_EQ(b.bottleneckAt(64), "sfu");
}

TEST(Gpudiag, KernelTimeEq32ByHand) {
  const auto m = fig32();
  // N_slot = 3, b = 2, g = 7: ⌊7/3⌋ fu(6) + fu(2·1) = 2·1.5 + 1 = 4.
  EXPECT_DOUBLE_EQ(kernelTime(7, 2, 3, m), 4.0);
  // g = 6: no remainder — the second term is fu(0) = 0.
  EXPECT_DOUBLE_EQ(kernelTime(6, 2, 3, m), 3.0);
  EXPECT_DOUBLE_EQ(kernelTime(1, 2, 3, m), 1.0);
  EXPECT_THROW(kernelTime(1, 2, 0, m), teg::Error);
}

// Eq. 3.8: T(2, b)/T(1, b) = fu(2b)/fu(b) when N_slot >= 2, and 2 when N_slot = 1.
TEST(Gpudiag, DoublingRatioEq38) {
  const auto m = fig32();
  for (int b : {1, 2, 4, 8}) {
    EXPECT_DOUBLE_EQ(kernelTime(2, b, 4, m) / kernelTime(1, b, 4, m), m.fu(2 * b) / m.fu(b)) << b;
    EXPECT_DOUBLE_EQ(kernelTime(2, b, 1, m) / kernelTime(1, b, 1, m), 2.0) << b;
  }
}

TEST(Gpudiag, BlocksPerMultiprocessor) {
  EXPECT_EQ(blocksPerMultiprocessor(100, 15), 7);  // ⌈100/15⌉
  EXPECT_EQ(blocksPerMultiprocessor(15, 15), 1);
  EXPECT_EQ(blocksPerMultiprocessor(16, 15), 2);
  EXPECT_THROW(blocksPerMultiprocessor(10, 0), teg::Error);
}
