// SIMT control flow: divergence and reconvergence at immediate post-dominators (masks checked
// through the trace), loops with early exit, early ret of some lanes, calls (divergent,
// recursive), brx.idx, and block barriers (named, counted, arrive, bar.red) with deadlocks
// reported rather than hung.
#include <gtest/gtest.h>

#include "emu_test_util.hpp"

namespace teg::emu::test {
namespace {

const char* kStoreTail = R"(
  mov.u32 %r30, %tid.x;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r30, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r29;
  ret;
})";

std::string kernel(const std::string& body) {
  return ".visible .entry k(.param .u64 out)\n{\n .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<8>;\n" +
         body + kStoreTail;
}

TEST(SimtControl, NestedIfMasksAndReconvergence) {
  const std::string src = kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @!%p1 bra ELSE;
  add.u32 %r2, %r1, 100;
  setp.lt.u32 %p2, %r1, 4;
  @!%p2 bra J1;
  add.u32 %r2, %r2, 1000;
J1:
  add.u32 %r2, %r2, 7777;
  bra.uni JOIN;
ELSE:
  add.u32 %r2, %r1, 200;
  add.u32 %r2, %r2, 7777;
JOIN:
  sub.u32 %r29, %r2, 7777;
)");
  const ptx::Module m = parsePtx(src);
  Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(32)));
  RecordingListener l;
  RunOptions o;
  o.listener = &l;
  e.run(o);
  const auto out = readAs<std::uint32_t>(e.buffer("out"));
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], t < 4 ? t + 1100 : t < 16 ? t + 100 : t + 200) << t;
  // Masks: the then-part has lanes 0-15, the inner then-part lanes 0-3, the join all 32.
  EXPECT_EQ(l.masksAt(pcOf(l.kernel, "add.u32 %r2, %r1, 100")), std::vector<std::uint32_t>{0x0000ffffu});
  EXPECT_EQ(l.masksAt(pcOf(l.kernel, "add.u32 %r2, %r2, 1000")), std::vector<std::uint32_t>{0x0000000fu});
  EXPECT_EQ(l.masksAt(pcOf(l.kernel, "add.u32 %r2, %r1, 200")), std::vector<std::uint32_t>{0xffff0000u});
  // J1 is the inner if's post-dominator: lanes 0-15 reconverge there before bra.uni.
  EXPECT_EQ(l.masksAt(pcOf(l.kernel, "bra.uni")), std::vector<std::uint32_t>{0x0000ffffu});
  EXPECT_EQ(l.masksAt(pcOf(l.kernel, "sub.u32 %r29")), std::vector<std::uint32_t>{0xffffffffu});
}

TEST(SimtControl, LoopWithBreakAndEarlyReturn) {
  // Lane 31 returns at once; lane t counts k = 1, 2, ... leaving when k >= t (break) or k == 8.
  const std::string src = kernel(R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r29, 0;
  setp.eq.u32 %p3, %r1, 31;
  @%p3 ret;
LOOP:
  add.u32 %r29, %r29, 1;
  setp.ge.u32 %p1, %r29, %r1;
  @%p1 bra AFTER;
  setp.lt.u32 %p2, %r29, 8;
  @%p2 bra LOOP;
AFTER:
  add.u32 %r29, %r29, 0;
)");
  const ptx::Module m = parsePtx(src);
  Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
  e.addBuffer("out", bytesOf(std::vector<std::uint32_t>(32, 0xdeadu)));
  RecordingListener l;
  RunOptions o;
  o.listener = &l;
  e.run(o);
  const auto out = readAs<std::uint32_t>(e.buffer("out"));
  for (std::uint32_t t = 0; t < 31; ++t) EXPECT_EQ(out[t], std::clamp<std::uint32_t>(t, 1, 8)) << t;
  EXPECT_EQ(out[31], 0xdeadu);  // returned before storing
  // Iteration 1 runs lanes 0-30; iteration k >= 2 runs lanes t >= k (k - 1 < t), up to k = 8.
  std::vector<std::uint32_t> expect{0x7fffffffu};
  for (std::uint32_t k = 2; k <= 8; ++k) expect.push_back(0x7fffffffu & ~((1u << k) - 1));
  EXPECT_EQ(l.masksAt(pcOf(l.kernel, "add.u32 %r29, %r29, 1;")), expect);
  EXPECT_EQ(l.masksAt(pcOf(l.kernel, "add.u32 %r29, %r29, 0;")), std::vector<std::uint32_t>{0x7fffffffu});
}

TEST(SimtControl, DivergentAndRecursiveCalls) {
  const std::string src = R"(
.func (.param .b32 r) fact(.param .b32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  ld.param.b32 %r1, [n];
  setp.le.s32 %p1, %r1, 1;
  mov.u32 %r2, 1;
  @%p1 bra DONE;
  sub.s32 %r3, %r1, 1;
  {
  .param .b32 a;
  .param .b32 b;
  st.param.b32 [a], %r3;
  call.uni (b), fact, (a);
  ld.param.b32 %r4, [b];
  }
  mul.lo.s32 %r2, %r4, %r1;
DONE:
  st.param.b32 [r], %r2;
  ret;
}
)" + kernel(R"(
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  mov.u32 %r29, 0;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra SKIP;
  rem.u32 %r3, %r1, 7;
  {
  .param .b32 x;
  .param .b32 y;
  st.param.b32 [x], %r3;
  call (y), fact, (x);
  ld.param.b32 %r29, [y];
  }
SKIP:
  add.u32 %r29, %r29, 0;
)");
  const auto out = runOut<std::uint32_t>(src, 32, {1, 1, 1}, {32, 1, 1});
  const std::uint32_t fact[7] = {1, 1, 2, 6, 24, 120, 720};
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], (t & 1) ? fact[t % 7] : 0) << t;
  RunOptions shallow;
  shallow.maxCallDepth = 3;  // 6! needs 6 nested calls
  const std::string msg = runError(src, 128, {1, 1, 1}, {32, 1, 1}, shallow);
  EXPECT_NE(msg.find("call depth exceeds 3"), std::string::npos) << msg;
}

TEST(SimtControl, BrxIdxJumpsPerLane) {
  const std::string src = kernel(R"(
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  TS: .branchtargets L0, L1, L2;
  brx.idx %r2, TS;
L0:
  mov.u32 %r29, 100;
  bra.uni END;
L1:
  mov.u32 %r29, 200;
  bra.uni END;
L2:
  mov.u32 %r29, 300;
END:
  add.u32 %r29, %r29, %r1;
)");
  const auto out = runOut<std::uint32_t>(src, 32, {1, 1, 1}, {32, 1, 1});
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], 100 * (t % 3 + 1) + t) << t;
}

TEST(SimtControl, BarrierExchangesSharedMemoryBetweenWarps) {
  // out[t] = tid of the next thread (mod 96), read from shared memory after bar.sync.
  const std::string src = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[384];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  add.u32 %r5, %r1, 1;
  rem.u32 %r5, %r5, 96;
  shl.b32 %r6, %r5, 2;
  add.u32 %r7, %r2, %r6;
  ld.shared.u32 %r29, [%r7];
  and.b32 %r8, %r1, 1;
  setp.eq.u32 %p1, %r8, 1;
  bar.red.popc.u32 %r9, 0, %p1;
  shl.b32 %r9, %r9, 16;
  add.u32 %r29, %r29, %r9;
)" + std::string(kStoreTail);
  const auto out = runOut<std::uint32_t>(src, 96, {1, 1, 1}, {96, 1, 1});
  // bar.red.popc counts the 48 odd threads of 96.
  for (std::uint32_t t = 0; t < 96; ++t) EXPECT_EQ(out[t], ((t + 1) % 96) + (48u << 16)) << t;
}

TEST(SimtControl, ArriveAndCountedNamedBarrier) {
  // Warp 0 produces and arrives on barrier 1 (64 threads); warp 1 syncs on it and consumes.
  const std::string src = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  and.b32 %r3, %r1, 31;
  shl.b32 %r4, %r3, 2;
  add.u32 %r5, %r2, %r4;
  setp.lt.u32 %p1, %r1, 32;
  mov.u32 %r29, 0;
  @!%p1 bra CONSUMER;
  mul.lo.u32 %r6, %r1, 3;
  st.shared.u32 [%r5], %r6;
  bar.arrive 1, 64;
  bra.uni END;
CONSUMER:
  bar.sync 1, 64;
  ld.shared.u32 %r29, [%r5];
END:
  add.u32 %r29, %r29, 0;
)" + std::string(kStoreTail);
  const auto out = runOut<std::uint32_t>(src, 64, {1, 1, 1}, {64, 1, 1});
  for (std::uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], t < 32 ? 0 : (t - 32) * 3) << t;
}

TEST(SimtControl, BarrierDeadlocksAreReported) {
  // Warp 0 exits; warp 1 waits for 64 threads forever.
  const std::string exited = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra END;
  bar.sync 0;
END:
  ret;
})";
  std::string msg = runError(exited, 4, {1, 1, 1}, {64, 1, 1});
  EXPECT_NE(msg.find("barrier deadlock in block (0,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warps 1 wait at barrier 0 (32 of 64 threads arrived)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warps 0 have exited"), std::string::npos) << msg;
  // A divergent bar.sync inside one warp: half the lanes can never arrive.
  const std::string divergent = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra END;
  bar.sync 0;
END:
  bar.sync 0;
  ret;
})";
  msg = runError(divergent, 4, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(msg.find("barrier deadlock"), std::string::npos) << msg;
  EXPECT_NE(msg.find("divergent at the barrier (lanes 0xffff0000"), std::string::npos) << msg;
}

TEST(SimtControl, MaxInstructionsStopsAnEndlessKernel) {
  const std::string endless = R"(
.visible .entry k(.param .u64 out)
{
L:
  bra.uni L;
})";
  RunOptions o;
  o.maxInstructions = 5000;
  const std::string msg = runError(endless, 4, {1, 1, 1}, {32, 1, 1}, o);
  EXPECT_NE(msg.find("did not finish within 5000 warp instructions"), std::string::npos) << msg;
}

}  // namespace
}  // namespace teg::emu::test
