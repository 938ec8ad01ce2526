// Warp-wide instructions (shfl.sync, vote, match, redux, activemask) and atomics (global across
// blocks running in parallel, shared, generic; add/min/max/inc/dec/cas/exch/and/or/xor, f32 add).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "emu_test_util.hpp"

namespace teg::emu::test {
namespace {

// Stores %r29 at out[k * 32 + tid] for the k-th STORE(k) in the body.
std::string storeAt(int k) {
  return "  mov.u32 %r30, %tid.x;\n  add.u32 %r30, %r30, " + std::to_string(32 * k) +
         ";\n  mul.wide.u32 %rd2, %r30, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r29;\n";
}

std::string warpKernel(const std::string& body) {
  return ".visible .entry k(.param .u64 out)\n{\n .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<8>;\n"
         "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.lo.u32 %r2, %r1, 10;\n" +
         body + "  ret;\n}\n";
}

TEST(WarpOps, ShuffleModesWithClampAndSegments) {
  const std::string src = warpKernel(
      "  shfl.sync.down.b32 %r29|%p1, %r2, 3, 31, -1;\n" + storeAt(0) +
      "  selp.u32 %r29, 1, 0, %p1;\n" + storeAt(1) +
      "  shfl.sync.up.b32 %r29, %r2, 3, 0, -1;\n" + storeAt(2) +
      "  shfl.sync.bfly.b32 %r29, %r2, 5, 31, -1;\n" + storeAt(3) +
      "  sub.u32 %r3, 31, %r1;\n  shfl.sync.idx.b32 %r29, %r2, %r3, 31, -1;\n" + storeAt(4) +
      // width 8: c = ((32 - 8) << 8) | 31; lane reads lane 2 of its 8-lane segment
      "  shfl.sync.idx.b32 %r29, %r2, 2, 6175, -1;\n" + storeAt(5));
  const auto out = runOut<std::uint32_t>(src, 6 * 32, {1, 1, 1}, {32, 1, 1});
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(out[l], (l + 3 <= 31 ? l + 3 : l) * 10) << "down " << l;
    EXPECT_EQ(out[32 + l], l + 3 <= 31 ? 1u : 0u) << "down predicate " << l;
    EXPECT_EQ(out[64 + l], (l >= 3 ? l - 3 : l) * 10) << "up " << l;
    EXPECT_EQ(out[96 + l], (l ^ 5u) * 10) << "bfly " << l;
    EXPECT_EQ(out[128 + l], (31 - l) * 10) << "idx " << l;
    EXPECT_EQ(out[160 + l], ((l & ~7u) + 2) * 10) << "idx width 8 " << l;
  }
}

TEST(WarpOps, VotesMatchReduxAndActivemaskUnderDivergence) {
  const std::string src = warpKernel(
      "  and.b32 %r3, %r1, 1;\n  setp.eq.u32 %p1, %r3, 1;\n"
      "  vote.sync.ballot.b32 %r29, %p1, -1;\n" + storeAt(0) +
      "  vote.sync.any.pred %p2, %p1, -1;\n  selp.u32 %r29, 1, 0, %p2;\n" + storeAt(1) +
      "  vote.sync.all.pred %p2, %p1, -1;\n  selp.u32 %r29, 1, 0, %p2;\n" + storeAt(2) +
      "  shr.u32 %r4, %r1, 2;\n  match.any.sync.b32 %r29, %r4, -1;\n" + storeAt(3) +
      "  redux.sync.add.u32 %r29, %r1, -1;\n" + storeAt(4) +
      "  sub.s32 %r5, %r1, 10;\n  redux.sync.min.s32 %r29, %r5, -1;\n" + storeAt(5) +
      "  redux.sync.xor.b32 %r29, %r1, -1;\n" + storeAt(6) +
      // only lanes 0-7 active from here on
      "  mov.u32 %r29, 0;\n  setp.ge.u32 %p3, %r1, 8;\n  @%p3 bra SKIP;\n"
      "  activemask.b32 %r29;\n" + storeAt(7) +
      "  vote.ballot.b32 %r29, %p1;\n" + storeAt(8) +
      "  setp.lt.u32 %p4, %r1, 8;\n  vote.all.pred %p5, %p4;\n  selp.u32 %r29, 1, 0, %p5;\n" + storeAt(9) +
      "  vote.uni.pred %p5, %p1;\n  selp.u32 %r29, 1, 0, %p5;\n" + storeAt(10) +
      "  match.all.sync.b32 %r29|%p6, 42, 255;\n" + storeAt(11) +
      "SKIP:\n");
  const auto out = runOut<std::uint32_t>(src, 12 * 32, {1, 1, 1}, {32, 1, 1});
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(out[l], 0xaaaaaaaau);
    EXPECT_EQ(out[32 + l], 1u);
    EXPECT_EQ(out[64 + l], 0u);
    EXPECT_EQ(out[96 + l], 0xfu << (4 * (l / 4))) << l;
    EXPECT_EQ(out[128 + l], 496u);                         // 0 + 1 + ... + 31
    EXPECT_EQ(out[160 + l], static_cast<std::uint32_t>(-10));
    EXPECT_EQ(out[192 + l], 0u);                           // xor of 0..31
    const bool active = l < 8;
    EXPECT_EQ(out[224 + l], active ? 0xffu : 0u) << l;
    EXPECT_EQ(out[256 + l], active ? 0xaau : 0u) << l;      // odd lanes among 0-7
    EXPECT_EQ(out[288 + l], active ? 1u : 0u) << l;
    EXPECT_EQ(out[320 + l], 0u) << l;                       // odd/even differ: not uniform
    EXPECT_EQ(out[352 + l], active ? 0xffu : 0u) << l;
  }
}

TEST(Atomics, GlobalAtomicsAcrossParallelBlocksAreExact) {
  // 8 blocks x 64 threads = 512 threads, blocks on 2 worker threads.
  // out[0] += 1 (old values kept in out[16 + gid]); out[1] = max(gid - 3*ctaid); out[2] inc wraps at 9;
  // out[3] f32 += 0.5; out[4] |= 1 << (gid % 32); out[5] xor= gid; out[6] min(1000 - gid);
  // out[7] dec from 0 with limit 1000; out[8] cas 0->1 once (counted in out[9]).
  const std::string src = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  atom.global.add.u32 %r5, [%rd1], 1;
  add.u32 %r6, %r4, 16;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  mul.lo.u32 %r7, %r2, 3;
  sub.s32 %r8, %r4, %r7;
  atom.global.max.s32 %r9, [%rd1+4], %r8;
  atom.global.inc.u32 %r9, [%rd1+8], 9;
  mov.f32 %f1, 0f3F000000;
  red.global.add.f32 [%rd1+12], %f1;
  and.b32 %r10, %r4, 31;
  shl.b32 %r11, 1, %r10;
  atom.global.or.b32 %r9, [%rd1+16], %r11;
  red.global.xor.b32 [%rd1+20], %r4;
  sub.s32 %r12, 1000, %r4;
  atom.global.min.s32 %r9, [%rd1+24], %r12;
  atom.global.dec.u32 %r9, [%rd1+28], 1000;
  atom.global.cas.b32 %r13, [%rd1+32], 0, 1;
  setp.eq.u32 %p1, %r13, 0;
  @%p1 red.global.add.u32 [%rd1+36], 1;
  ret;
})";
  RunOptions o;
  o.threads = 2;
  const ptx::Module m = parsePtx(src);
  Emulator e(m, "k", {8, 1, 1}, {64, 1, 1});
  std::vector<std::uint32_t> init(16 + 512, 0);
  init[6] = 5000;
  e.addBuffer("out", bytesOf(init));
  e.run(o);
  const auto out = readAs<std::uint32_t>(e.buffer("out"));
  EXPECT_EQ(out[0], 512u);
  std::vector<std::uint32_t> olds(out.begin() + 16, out.end());
  std::sort(olds.begin(), olds.end());
  for (std::uint32_t i = 0; i < 512; ++i) ASSERT_EQ(olds[i], i);  // every old value exactly once
  // max over blocks b of (64 b + 63) - 3 b = 61 b + 63, at b = 7: 490.
  EXPECT_EQ(static_cast<std::int32_t>(out[1]), 490);
  EXPECT_EQ(out[2], 512u % 10u);                      // inc: 0..9 then wraps to 0
  float f;
  std::memcpy(&f, &out[3], 4);
  EXPECT_EQ(f, 256.0f);
  EXPECT_EQ(out[4], 0xffffffffu);
  std::uint32_t x = 0;
  for (std::uint32_t g = 0; g < 512; ++g) x ^= g;
  EXPECT_EQ(out[5], x);
  EXPECT_EQ(static_cast<std::int32_t>(out[6]), 1000 - 511);
  // dec: 0 -> 1000 (wraps to the limit), then 511 decrements: 1000 - 511.
  EXPECT_EQ(out[7], 1000u - 511u);
  EXPECT_EQ(out[8], 1u);
  EXPECT_EQ(out[9], 1u);  // exactly one thread saw 0
}

TEST(Atomics, SharedAndGenericAtomicsAndExch) {
  // Each of 64 threads adds tid to a shared counter (shared atom) and a generic one (cvta.shared);
  // thread 0 writes both after the barrier. exch leaves the last writer's value.
  const std::string src = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  .shared .align 8 .b8 s[16];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, s;
  atom.shared.add.u32 %r3, [%r2], %r1;
  mov.u64 %rd2, s;
  cvta.shared.u64 %rd3, %rd2;
  atom.add.u32 %r4, [%rd3+4], %r1;
  cvt.u64.u32 %rd4, %r1;
  atom.shared.add.u64 %rd5, [s+8], %rd4;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra END;
  ld.shared.u32 %r5, [s];
  st.global.u32 [%rd1], %r5;
  ld.u32 %r6, [%rd3+4];
  st.global.u32 [%rd1+4], %r6;
  ld.shared.u64 %rd6, [s+8];
  st.global.u64 [%rd1+8], %rd6;
  atom.global.exch.b32 %r7, [%rd1+16], 77;
  st.global.u32 [%rd1+20], %r7;
END:
  mov.b32 %r8, {0x3800, 0x3C00};
  red.global.add.noftz.f16x2 [%rd1+24], %r8;
  ret;
})";
  const ptx::Module m = parsePtx(src);
  Emulator e(m, "k", {1, 1, 1}, {64, 1, 1});
  std::vector<std::uint32_t> init(7, 0);
  init[4] = 5;
  e.addBuffer("out", bytesOf(init));
  e.run();
  const auto out = readAs<std::uint32_t>(e.buffer("out"));
  EXPECT_EQ(out[0], 2016u);  // 0 + ... + 63
  EXPECT_EQ(out[1], 2016u);
  EXPECT_EQ(out[2], 2016u);
  EXPECT_EQ(out[3], 0u);
  EXPECT_EQ(out[4], 77u);
  EXPECT_EQ(out[5], 5u);
  // 64 threads add {0.5 (low), 1.0 (high)} in binary16: 32 = 0x5000 and 64 = 0x5400, exact.
  EXPECT_EQ(out[6], 0x54005000u);
}

}  // namespace
}  // namespace teg::emu::test
