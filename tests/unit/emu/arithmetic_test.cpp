// Integer, bit, floating-point (rounding modes, ftz, sat, NaN rules, approximations), conversion
// and half-precision semantics, each result checked against a value worked out by hand (written
// in the comment) or by the host's IEEE arithmetic in long double.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "emu_test_util.hpp"

namespace teg::emu::test {
namespace {

// A one-thread kernel; STORE32(k, reg) / STORE64(k, reg) write out[k] (8-byte slots).
std::vector<std::uint64_t> runScalar(const std::string& body, int slots) {
  std::string src =
      ".visible .entry k(.param .u64 out)\n{\n .reg .pred %p<8>;\n .reg .b16 %h<16>;\n .reg .b32 %r<64>;\n"
      " .reg .f32 %f<32>;\n .reg .f64 %fd<16>;\n .reg .b64 %rd<32>;\n  ld.param.u64 %rd0, [out];\n";
  // Expand S32 k %reg / S64 k %reg lines.
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t end = body.find('\n', pos);
    if (end == std::string::npos) end = body.size();
    std::string line = body.substr(pos, end - pos);
    pos = end + 1;
    const auto first = line.find_first_not_of(' ');
    if (first != std::string::npos && (line.compare(first, 4, "S32 ") == 0 || line.compare(first, 4, "S64 ") == 0)) {
      const bool wide = line.compare(first, 4, "S64 ") == 0;
      const auto sp = line.find(' ', first + 4);
      const int k = std::stoi(line.substr(first + 4, sp - first - 4));
      const std::string reg = line.substr(sp + 1);
      if (wide) src += "  st.global.u64 [%rd0+" + std::to_string(8 * k) + "], " + reg + ";\n";
      else src += "  st.global.u32 [%rd0+" + std::to_string(8 * k) + "], " + reg + ";\n";
    } else {
      src += line + "\n";
    }
  }
  src += "  ret;\n}\n";
  return runOut<std::uint64_t>(src, static_cast<std::size_t>(slots));
}

std::uint32_t fbits(float f) { return std::bit_cast<std::uint32_t>(f); }

TEST(Arithmetic, IntegerAndBitOperations) {
  const auto r = runScalar(R"(
  mul.hi.u32 %r1, -1, -1;
  S32 0 %r1
  mov.u32 %r2, -3;
  mul.wide.s32 %rd1, %r2, 5;
  S64 1 %rd1
  div.u32 %r3, 7, 0;
  S32 2 %r3
  rem.u32 %r4, 7, 0;
  S32 3 %r4
  div.s32 %r5, -7, 2;
  S32 4 %r5
  rem.s32 %r6, -7, 2;
  S32 5 %r6
  add.cc.u32 %r7, -1, 1;
  addc.u32 %r8, 0, 0;
  S32 6 %r7
  S32 7 %r8
  sub.cc.u32 %r9, 0, 1;
  subc.u32 %r10, 5, 1;
  S32 8 %r9
  S32 9 %r10
  bfe.u32 %r11, 0x12345678, 4, 8;
  S32 10 %r11
  bfe.s32 %r12, 0xF0, 4, 4;
  S32 11 %r12
  bfi.b32 %r13, 0xF, 0x12345678, 8, 4;
  S32 12 %r13
  prmt.b32 %r14, 0x33221100, 0x77665544, 0x5140;
  S32 13 %r14
  lop3.b32 %r15, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0x96;
  S32 14 %r15
  shf.l.wrap.b32 %r16, 0x80000001, 1, 4;
  S32 15 %r16
  shf.r.clamp.b32 %r17, 0x80000001, 1, 40;
  S32 16 %r17
  popc.b32 %r18, 0xF0F0;
  S32 17 %r18
  clz.b32 %r19, 0x10000;
  S32 18 %r19
  bfind.u32 %r20, 0x10000;
  S32 19 %r20
  bfind.u32 %r21, 0;
  S32 20 %r21
  brev.b32 %r22, 1;
  S32 21 %r22
  min.s32 %r23, -5, 3;
  S32 22 %r23
  max.u32 %r24, -1, 3;
  S32 23 %r24
  mul24.lo.u32 %r25, 0x01000003, 2;
  S32 24 %r25
  sad.u32 %r26, 3, 10, 100;
  S32 25 %r26
  shr.s32 %r27, -16, 2;
  S32 26 %r27
  shr.u32 %r28, 0x80000000, 33;
  S32 27 %r28
  shl.b32 %r29, 1, 32;
  S32 28 %r29
  mov.b64 %rd2, {0x11111111, 0x22222222};
  S64 29 %rd2
  mov.b64 {%r30, %r31}, %rd2;
  S32 30 %r31
  cnot.b32 %r32, 0;
  S32 31 %r32
  not.b32 %r33, 0;
  S32 32 %r33
  setp.lt.s32 %p1, -1, 1;
  setp.lt.u32 %p2, -1, 1;
  setp.gt.and.s32 %p3|%p4, 5, 3, %p2;
  selp.u32 %r34, 1, 0, %p1;
  selp.u32 %r35, 1, 0, %p2;
  selp.u32 %r36, 1, 0, %p3;
  selp.u32 %r37, 1, 0, %p4;
  S32 33 %r34
  S32 34 %r35
  S32 35 %r36
  S32 36 %r37
  slct.u32.s32 %r38, 10, 20, -1;
  S32 37 %r38
  div.s32 %r39, 0x80000000, -1;
  S32 38 %r39
  mad.lo.s32 %r40, 7, 6, -2;
  S32 39 %r40
  mad.hi.u32 %r41, 0x80000000, 4, 1;
  S32 40 %r41
  abs.s32 %r42, -9;
  S32 41 %r42
  neg.s32 %r43, 9;
  S32 42 %r43
  add.sat.s32 %r44, 0x7FFFFFFF, 1;
  S32 43 %r44
)", 44);
  EXPECT_EQ(r[0], 0xFFFFFFFEu);                            // (2^32-1)^2 >> 32
  EXPECT_EQ(static_cast<std::int64_t>(r[1]), -15);
  EXPECT_EQ(r[2], 0xFFFFFFFFu);                            // division by zero: all ones
  EXPECT_EQ(r[3], 7u);                                     // remainder by zero: the dividend
  EXPECT_EQ(static_cast<std::int32_t>(r[4]), -3);          // truncating division
  EXPECT_EQ(static_cast<std::int32_t>(r[5]), -1);
  EXPECT_EQ(r[6], 0u);                                     // 0xFFFFFFFF + 1 = 0 carry 1
  EXPECT_EQ(r[7], 1u);                                     // 0 + 0 + carry
  EXPECT_EQ(r[8], 0xFFFFFFFFu);                            // 0 - 1, borrow 1
  EXPECT_EQ(r[9], 3u);                                     // 5 - 1 - borrow
  EXPECT_EQ(r[10], 0x67u);
  EXPECT_EQ(r[11], 0xFFFFFFFFu);                           // field 0xF sign-extended
  EXPECT_EQ(r[12], 0x12345F78u);
  EXPECT_EQ(r[13], 0x55114400u);                           // selectors 0,4,1,5
  EXPECT_EQ(r[14], 0x96969696u);                           // a ^ b ^ c
  EXPECT_EQ(r[15], 0x18u);                                 // high word of 0x1_80000001 << 4
  EXPECT_EQ(r[16], 1u);                                    // clamp 40 -> 32: the high word
  EXPECT_EQ(r[17], 8u);
  EXPECT_EQ(r[18], 15u);
  EXPECT_EQ(r[19], 16u);
  EXPECT_EQ(r[20], 0xFFFFFFFFu);
  EXPECT_EQ(r[21], 0x80000000u);
  EXPECT_EQ(static_cast<std::int32_t>(r[22]), -5);
  EXPECT_EQ(r[23], 0xFFFFFFFFu);
  EXPECT_EQ(r[24], 6u);                                    // low 24 bits of a: 3 * 2
  EXPECT_EQ(r[25], 107u);                                  // 100 + |3 - 10|
  EXPECT_EQ(static_cast<std::int32_t>(r[26]), -4);
  EXPECT_EQ(r[27], 0u);
  EXPECT_EQ(r[28], 0u);
  EXPECT_EQ(r[29], 0x2222222211111111u);
  EXPECT_EQ(r[30], 0x22222222u);
  EXPECT_EQ(r[31], 1u);
  EXPECT_EQ(r[32], 0xFFFFFFFFu);
  EXPECT_EQ(r[33], 1u);                                    // -1 < 1 signed
  EXPECT_EQ(r[34], 0u);                                    // 0xFFFFFFFF < 1 unsigned: no
  EXPECT_EQ(r[35], 0u);                                    // (5 > 3) and false
  EXPECT_EQ(r[36], 0u);                                    // !(5 > 3) and false
  EXPECT_EQ(r[37], 20u);                                   // c < 0 selects b
  EXPECT_EQ(r[38], 0x80000000u);                           // INT_MIN / -1 wraps
  EXPECT_EQ(static_cast<std::int32_t>(r[39]), 40);
  EXPECT_EQ(r[40], 3u);                                    // (2^31 * 4) >> 32 = 2, + 1
  EXPECT_EQ(r[41], 9u);
  EXPECT_EQ(static_cast<std::int32_t>(r[42]), -9);
  EXPECT_EQ(r[43], 0x7FFFFFFFu);
}

// The SIMD video instructions behind CUDA's __vabsdiffu4, __vabsdiffs4, __vsadu4, __vabsdiffu2 and
// friends (HeCBench intrinsics-simd stopped at vabsdiff4 before these ran). Expected values worked
// out by hand from the per-element definitions in the CUDA Math API: a = 0x01FF7F00 has the bytes
// (low first) 00 7F FF 01, b = 0xFF01807F has 7F 80 01 FF.
TEST(Arithmetic, SimdVideoInstructions) {
  const auto r = runScalar(R"(
  vabsdiff4.u32.u32.u32 %r1, 0x01FF7F00, 0xFF01807F, 0;
  S32 0 %r1
  vabsdiff4.s32.s32.s32 %r2, 0x01FF7F00, 0xFF01807F, 0;
  S32 1 %r2
  vabsdiff4.u32.u32.u32.add %r3, 0x01FF7F00, 0xFF01807F, 5;
  S32 2 %r3
  vabsdiff2.u32.u32.u32 %r4, 0x0001FFFF, 0xFFFF0001, 0;
  S32 3 %r4
  vabsdiff2.s32.s32.s32.add %r5, 0x0001FFFF, 0xFFFF0001, 10;
  S32 4 %r5
  vadd4.u32.u32.u32 %r6, 0x01FF7F00, 0xFF01807F, 0;
  S32 5 %r6
  vadd4.u32.u32.u32.sat %r7, 0x01FF7F00, 0xFF01807F, 0;
  S32 6 %r7
  vadd4.s32.s32.s32.sat %r8, 0x01FF7F00, 0xFF01807F, 0;
  S32 7 %r8
  vsub2.s32.s32.s32.sat %r9, 0x80007FFF, 0x0001FFFF, 0;
  S32 8 %r9
  vavrg4.u32.u32.u32 %r10, 0x01FF7F00, 0xFF01807F, 0;
  S32 9 %r10
  vmin4.s32.s32.s32 %r11, 0x01FF7F00, 0xFF01807F, 0;
  S32 10 %r11
  vmax4.u32.u32.u32 %r12, 0x01FF7F00, 0xFF01807F, 0;
  S32 11 %r12
)", 12);
  EXPECT_EQ(r[0], 0xFEFE017Fu);  // |0-127|, |127-128|, |255-1|, |1-255|
  EXPECT_EQ(r[1], 0x0202FF7Fu);  // signed bytes 0,127,-1,1 vs 127,-128,1,-1: 127, 255, 2, 2
  EXPECT_EQ(r[2], 641u);         // __vsadu4 + 5: 127 + 1 + 254 + 254 + 5
  EXPECT_EQ(r[3], 0xFFFEFFFEu);  // |0xFFFF-1|, |1-0xFFFF| unsigned
  EXPECT_EQ(r[4], 14u);          // signed halves -1,1 vs 1,-1: 2 + 2, + 10
  EXPECT_EQ(r[5], 0x0000FF7Fu);  // byte-wise wrap: 7F, FF, 00 (0x100), 00 (0x100)
  EXPECT_EQ(r[6], 0xFFFFFF7Fu);  // unsigned saturation at 255
  EXPECT_EQ(r[7], 0x0000FF7Fu);  // signed, saturating: 127, 127 + -128 = -1, -1 + 1, 1 + -1
  EXPECT_EQ(r[8], 0x80007FFFu);  // halves 32767 - -1 and -32768 - 1 clamp to 0x7FFF and 0x8000
  EXPECT_EQ(r[9], 0x80808040u);  // __vavgu4: (x + y + 1) / 2: 64, 128, 128, 128
  EXPECT_EQ(r[10], 0xFFFF8000u); // signed minima 0, -128, -1, -1
  EXPECT_EQ(r[11], 0xFFFF807Fu); // unsigned maxima 7F, 80, FF, FF
}

TEST(Arithmetic, FloatRoundingModes) {
  // a = 1, b = 1.5 * 2^-24 (0x33C00000): the exact sum 1 + 1.5 * 2^-24 lies between 1 and
  // 1 + 2^-23, above the midpoint: rn and rp give 1 + 2^-23 (0x3F800001), rz and rm give 1.
  const auto r = runScalar(R"(
  add.rn.f32 %f1, 0f3F800000, 0f33C00000;
  add.rz.f32 %f2, 0f3F800000, 0f33C00000;
  add.rm.f32 %f3, 0f3F800000, 0f33C00000;
  add.rp.f32 %f4, 0f3F800000, 0f33C00000;
  add.rz.f32 %f5, 0fBF800000, 0fB3C00000;
  add.rm.f32 %f6, 0fBF800000, 0fB3C00000;
  fma.rz.f32 %f7, 0f3F800001, 0f3F800001, 0f00000000;
  fma.rp.f32 %f8, 0f3F800001, 0f3F800001, 0f00000000;
  div.rn.f32 %f9, 0f3F800000, 0f40400000;
  div.rz.f32 %f10, 0f3F800000, 0f40400000;
  mul.rp.f32 %f11, 0f3F800001, 0f3F800001;
  add.rn.f64 %fd1, 0d3FF0000000000000, 0d3CA8000000000000;
  add.rz.f64 %fd2, 0d3FF0000000000000, 0d3CA8000000000000;
  sqrt.rn.f32 %f12, 0f40000000;
  add.f32 %f13, 0f3F800000, 0f33C00000;
  S32 0 %f1
  S32 1 %f2
  S32 2 %f3
  S32 3 %f4
  S32 4 %f5
  S32 5 %f6
  S32 6 %f7
  S32 7 %f8
  S32 8 %f9
  S32 9 %f10
  S32 10 %f11
  S64 11 %fd1
  S64 12 %fd2
  S32 13 %f12
  S32 14 %f13
)", 15);
  EXPECT_EQ(r[0], 0x3F800001u);
  EXPECT_EQ(r[1], 0x3F800000u);
  EXPECT_EQ(r[2], 0x3F800000u);
  EXPECT_EQ(r[3], 0x3F800001u);
  EXPECT_EQ(r[4], 0xBF800000u);  // toward zero: -1
  EXPECT_EQ(r[5], 0xBF800001u);  // toward -inf: -(1 + 2^-23)
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rz drops 2^-46 (0x3F800002), rp rounds up (0x3F800003).
  EXPECT_EQ(r[6], 0x3F800002u);
  EXPECT_EQ(r[7], 0x3F800003u);
  EXPECT_EQ(r[8], 0x3EAAAAABu);  // 1/3 rounded to nearest
  EXPECT_EQ(r[9], 0x3EAAAAAAu);  // 1/3 truncated
  EXPECT_EQ(r[10], 0x3F800003u);
  EXPECT_EQ(r[11], 0x3FF0000000000001u);  // 1 + 1.5 * 2^-53 -> 1 + 2^-52 (nearest)
  EXPECT_EQ(r[12], 0x3FF0000000000000u);
  EXPECT_EQ(r[13], fbits(std::sqrt(2.0f)));
  EXPECT_EQ(r[14], 0x3F800001u);  // no modifier: round to nearest
}

// fma.rn.f32 rounds once (PTX ISA: "computes the product of a and b to infinite precision and
// then adds c"), on every lane, whichever code path runs it: the full-warp loop has a clone for
// FMA hardware and a libm fallback (exec_float.cpp, fmaLanes). a = b = 1 + 2^-12 (0x3F800800),
// c = -(1 + 2^-11) (0xBF801000): a * b = 1 + 2^-11 + 2^-24 exactly, so the fused result is
// 2^-24 (0x33800000); rounding the product first (a tie, to even: 1 + 2^-11) would give 0.
TEST(Arithmetic, FusedMultiplyAddRoundsOnceOnEveryLane) {
  const std::string body = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  mov.f32 %f0, 0f3F800800;
  mov.f32 %f1, 0fBF801000;
  fma.rn.f32 %f2, %f0, 0f3F800800, %f1;
  st.global.f32 [%rd2], %f2;
  ret;
}
)";
  for (const std::uint32_t threads : {32u, 20u, 1u}) {  // a full warp, a partial one, one lane
    const auto r = runOut<std::uint32_t>(body, 32, {1, 1, 1}, {threads, 1, 1});
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      EXPECT_EQ(r[lane], lane < threads ? 0x33800000u : 0u) << threads << " threads, lane " << lane;
  }
}

TEST(Arithmetic, FtzSatNanAndSpecialFunctions) {
  const auto r = runScalar(R"(
  add.ftz.f32 %f1, 0f00400000, 0f00000000;
  add.f32 %f2, 0f00400000, 0f00000000;
  add.sat.f32 %f3, 0f3FC00000, 0f00000000;
  mul.sat.f32 %f4, 0fBF800000, 0f3F000000;
  min.f32 %f5, 0f7FC00000, 0f3F800000;
  min.NaN.f32 %f6, 0f7FC00000, 0f3F800000;
  max.f32 %f7, 0f80000000, 0f00000000;
  copysign.f32 %f8, 0fBF800000, 0f40000000;
  testp.notanumber.f32 %p1, 0f7FC00000;
  selp.u32 %r1, 1, 0, %p1;
  testp.subnormal.f32 %p2, 0f00400000;
  selp.u32 %r2, 1, 0, %p2;
  abs.f32 %f9, 0fC0000000;
  neg.f32 %f10, 0f40000000;
  S32 0 %f1
  S32 1 %f2
  S32 2 %f3
  S32 3 %f4
  S32 4 %f5
  S32 5 %f6
  S32 6 %f7
  S32 7 %f8
  S32 8 %r1
  S32 9 %r2
  S32 10 %f9
  S32 11 %f10
  rcp.approx.f32 %f11, 0f40400000;
  sin.approx.f32 %f12, 0f3F800000;
  cos.approx.f32 %f13, 0f3F800000;
  ex2.approx.f32 %f14, 0f40600000;
  lg2.approx.f32 %f15, 0f41200000;
  rsqrt.approx.f32 %f16, 0f40800000;
  div.approx.f32 %f17, 0f3F800000, 0f40E00000;
  tanh.approx.f32 %f18, 0f3F000000;
  S32 12 %f11
  S32 13 %f12
  S32 14 %f13
  S32 15 %f14
  S32 16 %f15
  S32 17 %f16
  S32 18 %f17
  S32 19 %f18
)", 20);
  EXPECT_EQ(r[0], 0u);           // subnormal input flushed
  EXPECT_EQ(r[1], 0x00400000u);  // kept without .ftz
  EXPECT_EQ(r[2], 0x3F800000u);  // 1.5 saturates to 1
  EXPECT_EQ(r[3], 0u);           // -0.5 saturates to +0
  EXPECT_EQ(r[4], 0x3F800000u);  // min(NaN, 1) = 1
  EXPECT_EQ(r[5], 0x7FFFFFFFu);  // .NaN: canonical NaN
  EXPECT_EQ(r[6], 0u);           // max(-0, +0) = +0
  EXPECT_EQ(r[7], 0xC0000000u);  // |2| with the sign of -1
  EXPECT_EQ(r[8], 1u);
  EXPECT_EQ(r[9], 1u);
  EXPECT_EQ(r[10], 0x40000000u);
  EXPECT_EQ(r[11], 0xC0000000u);
  auto f = [&](int k) { return std::bit_cast<float>(static_cast<std::uint32_t>(r[k])); };
  // PTX ISA max errors: rcp.approx 1 ulp; sin/cos.approx 2^-20.5 absolute in [-pi, pi];
  // ex2.approx 2 ulp; lg2.approx 2^-22 absolute; rsqrt.approx 2^-22.9 relative;
  // div.approx 2 ulp; tanh.approx 2^-10.987 relative.
  EXPECT_NEAR(f(12), 1.0 / 3.0, std::ldexp(1.0, -24));
  EXPECT_NEAR(f(13), std::sin(1.0), std::ldexp(1.0, -20.5));
  EXPECT_NEAR(f(14), std::cos(1.0), std::ldexp(1.0, -20.5));
  EXPECT_NEAR(f(15), std::exp2(3.5), 2 * std::ldexp(1.0, 2 - 23));
  EXPECT_NEAR(f(16), std::log2(10.0), std::ldexp(1.0, -22));
  EXPECT_NEAR(f(17), 0.5, 0.5 * std::ldexp(1.0, -22.9));
  EXPECT_NEAR(f(18), 1.0 / 7.0, 2 * std::ldexp(1.0, -3 - 23));
  EXPECT_NEAR(f(19), std::tanh(0.5), std::tanh(0.5) * std::ldexp(1.0, -10.987));
}

TEST(Arithmetic, ConversionsWithRoundingAndSaturation) {
  const auto r = runScalar(R"(
  cvt.rni.s32.f32 %r1, 0f40200000;
  cvt.rni.s32.f32 %r2, 0fC0200000;
  cvt.rzi.s32.f32 %r3, 0fC02CCCCD;
  cvt.rmi.s32.f32 %r4, 0fC02CCCCD;
  cvt.rpi.s32.f32 %r5, 0f40066666;
  cvt.rzi.s32.f32 %r6, 0f4F32D05E;
  cvt.rzi.s32.f32 %r7, 0fCF32D05E;
  cvt.rzi.s32.f32 %r8, 0f7FC00000;
  cvt.rzi.u8.f32 %h1, 0f43960000;
  cvt.u32.u16 %r9, %h1;
  cvt.rzi.u32.f32 %r10, 0fC0A00000;
  cvt.sat.s8.s32 %h2, 200;
  cvt.s32.s8 %r11, %h2;
  cvt.sat.s8.s32 %h3, -200;
  cvt.s32.s8 %r12, %h3;
  cvt.sat.f32.f32 %f1, 0f3FC00000;
  cvt.rn.f32.s32 %f2, 16777217;
  cvt.rp.f32.s32 %f3, 16777217;
  cvt.rz.f32.u32 %f4, -1;
  cvt.rn.f32.u32 %f5, -1;
  cvt.rn.f32.f64 %f6, 0d3FD5555555555555;
  cvt.rz.f32.f64 %f7, 0d3FD5555555555555;
  cvt.f64.f32 %fd1, 0f3EAAAAAB;
  cvt.s64.s32 %rd1, -2;
  cvt.u64.u32 %rd2, -2;
  cvt.u16.u32 %h4, 0x12345;
  cvt.u32.u16 %r13, %h4;
  cvt.rni.f32.f32 %f8, 0f40200000;
  S32 0 %r1
  S32 1 %r2
  S32 2 %r3
  S32 3 %r4
  S32 4 %r5
  S32 5 %r6
  S32 6 %r7
  S32 7 %r8
  S32 8 %r9
  S32 9 %r10
  S32 10 %r11
  S32 11 %r12
  S32 12 %f1
  S32 13 %f2
  S32 14 %f3
  S32 15 %f4
  S32 16 %f5
  S32 17 %f6
  S32 18 %f7
  S64 19 %fd1
  S64 20 %rd1
  S64 21 %rd2
  S32 22 %r13
  S32 23 %f8
)", 24);
  EXPECT_EQ(r[0], 2u);                                      // 2.5 -> 2 (ties to even)
  EXPECT_EQ(static_cast<std::int32_t>(r[1]), -2);           // -2.5 -> -2
  EXPECT_EQ(static_cast<std::int32_t>(r[2]), -2);           // trunc(-2.7)
  EXPECT_EQ(static_cast<std::int32_t>(r[3]), -3);           // floor(-2.7)
  EXPECT_EQ(r[4], 3u);                                      // ceil(2.1)
  EXPECT_EQ(r[5], 0x7FFFFFFFu);                             // 3e9 saturates
  EXPECT_EQ(r[6], 0x80000000u);                             // -3e9 saturates
  EXPECT_EQ(r[7], 0u);                                      // NaN -> 0
  EXPECT_EQ(r[8], 255u);                                    // 300 -> u8 max
  EXPECT_EQ(r[9], 0u);                                      // -5 -> u32 min
  EXPECT_EQ(r[10], 127u);
  EXPECT_EQ(static_cast<std::int32_t>(r[11]), -128);
  EXPECT_EQ(r[12], 0x3F800000u);
  EXPECT_EQ(r[13], 0x4B800000u);                            // 2^24 + 1 -> 2^24 (even)
  EXPECT_EQ(r[14], 0x4B800001u);                            // upward: 2^24 + 2
  EXPECT_EQ(r[15], 0x4F7FFFFFu);                            // 2^32 - 1 toward zero: 2^32 - 256
  EXPECT_EQ(r[16], 0x4F800000u);                            // nearest: 2^32
  EXPECT_EQ(r[17], fbits(static_cast<float>(1.0 / 3.0)));   // 0x3EAAAAAB
  EXPECT_EQ(r[18], 0x3EAAAAAAu);
  EXPECT_EQ(r[19], std::bit_cast<std::uint64_t>(static_cast<double>(std::bit_cast<float>(0x3EAAAAABu))));
  EXPECT_EQ(static_cast<std::int64_t>(r[20]), -2);
  EXPECT_EQ(r[21], 0xFFFFFFFEu);
  EXPECT_EQ(r[22], 0x2345u);
  EXPECT_EQ(r[23], 0x40000000u);                            // rni of 2.5 -> 2.0
}

TEST(Arithmetic, HalfPrecision) {
  const auto r = runScalar(R"(
  cvt.rn.f16.f32 %h1, 0f3EAAAAAB;
  cvt.rn.f16.f32 %h2, 0f477FF000;
  cvt.rz.f16.f32 %h3, 0f477FF000;
  cvt.f32.f16 %f1, 0x3C00;
  add.f16 %h4, 0x3C00, 0x3C00;
  mov.b32 %r1, {0x3C00, 0x4000};
  mov.b32 %r2, {0x3800, 0x3400};
  add.f16x2 %r3, %r1, %r2;
  fma.rn.f16 %h5, 0x4200, 0x4200, 0x3C00;
  cvt.rn.bf16.f32 %h6, 0f3FC00001;
  cvt.u32.u16 %r4, %h1;
  cvt.u32.u16 %r5, %h2;
  cvt.u32.u16 %r6, %h3;
  cvt.u32.u16 %r7, %h4;
  cvt.u32.u16 %r8, %h5;
  cvt.u32.u16 %r9, %h6;
  S32 0 %r4
  S32 1 %r5
  S32 2 %r6
  S32 3 %f1
  S32 4 %r7
  S32 5 %r3
  S32 6 %r8
  S32 7 %r9
  cvt.rn.satfinite.f16.f32 %h7, 0f477FF000;
  cvt.u32.u16 %r10, %h7;
  S32 8 %r10
  cvt.rn.f16x2.f32 %r11, 0f40000000, 0f3F800000;
  S32 9 %r11
)", 10);
  EXPECT_EQ(r[0], 0x3555u);      // 1/3 in binary16
  EXPECT_EQ(r[1], 0x7C00u);      // 65520 rounds to +inf
  EXPECT_EQ(r[2], 0x7BFFu);      // toward zero: 65504, the largest finite
  EXPECT_EQ(r[3], 0x3F800000u);
  EXPECT_EQ(r[4], 0x4000u);      // 1 + 1 = 2
  EXPECT_EQ(r[5], 0x40803E00u);  // {1 + 0.5, 2 + 0.25} = {1.5, 2.25}
  EXPECT_EQ(r[6], 0x4900u);      // 3 * 3 + 1 = 10 = 1.25 * 2^3
  EXPECT_EQ(r[7], 0x3FC0u);      // 1.5000001 -> bf16 1.5
  EXPECT_EQ(r[8], 0x7BFFu);      // .satfinite: 65520 -> 65504 instead of +inf
  EXPECT_EQ(r[9], 0x40003C00u);  // {2.0 (upper, from a), 1.0 (lower, from b)}
}

}  // namespace
}  // namespace teg::emu::test
