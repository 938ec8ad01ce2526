// The scalar semantics of the SASS float handlers (src/emu/sass_float_semantics.*) against IEEE
// 754 facts and hand calculations, and the MUFU results against the PTX ISA's bounds for the
// .approx instructions they implement, checked over many inputs against a long-double reference.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "sass_float_semantics.hpp"

namespace teg::emu::sassfloat {
namespace {

std::uint32_t b(float x) { return std::bit_cast<std::uint32_t>(x); }
float f(std::uint32_t x) { return std::bit_cast<float>(x); }
std::uint64_t bd(double x) { return std::bit_cast<std::uint64_t>(x); }

TEST(SassFloatSemantics, AddRoundsAsIeeeSays) {
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: nearest even gives 1, up gives 1 + 2^-23.
  const std::uint32_t one = b(1.0f), half = b(std::ldexp(1.0f, -24));
  EXPECT_EQ(fadd(one, half, Round::Rn, false, false), 0x3f800000u);
  EXPECT_EQ(fadd(one, half, Round::Rp, false, false), 0x3f800001u);
  EXPECT_EQ(fadd(one, half, Round::Rz, false, false), 0x3f800000u);
  // -1 - 2^-24 rounded down (toward -inf) is -(1 + 2^-23).
  EXPECT_EQ(fadd(b(-1.0f), b(-std::ldexp(1.0f, -24)), Round::Rm, false, false), 0xbf800001u);
  // x + (-x) is +0 except when rounding down, where it is -0 (IEEE 754 §6.3).
  EXPECT_EQ(fadd(b(3.0f), b(-3.0f), Round::Rn, false, false), 0x00000000u);
  EXPECT_EQ(fadd(b(3.0f), b(-3.0f), Round::Rm, false, false), 0x80000000u);
}

TEST(SassFloatSemantics, NaNsAreCanonical) {
  EXPECT_EQ(fadd(0x7f800000u, 0xff800000u, Round::Rn, false, false), 0x7fffffffu);  // inf - inf
  EXPECT_EQ(fmul(0x7fc00123u, b(2.0f), Round::Rn, false, false), 0x7fffffffu);       // payload dropped
  EXPECT_EQ(ffma(b(0.0f), 0x7f800000u, b(1.0f), Round::Rn, false, false), 0x7fffffffu);  // 0 x inf
  EXPECT_EQ(mufu(Mufu::Rsq, b(-4.0f)), 0x7fffffffu);
  EXPECT_EQ(mufu(Mufu::Lg2, b(-1.0f)), 0x7fffffffu);
}

TEST(SassFloatSemantics, FtzAndSat) {
  const std::uint32_t tiny = 0x00000010u;  // a subnormal
  EXPECT_EQ(fadd(tiny, tiny, Round::Rn, false, false), 0x00000020u);
  EXPECT_EQ(fadd(tiny, tiny, Round::Rn, true, false), 0x00000000u);
  EXPECT_EQ(fmul(b(-1e-20f), b(1e-20f), Round::Rn, true, false), 0x80000000u);  // -1e-40 flushes to -0
  EXPECT_EQ(fadd(b(0.75f), b(0.5f), Round::Rn, false, true), b(1.0f));
  EXPECT_EQ(fadd(b(-0.75f), b(0.5f), Round::Rn, false, true), 0u);
  EXPECT_EQ(fadd(0x7f800000u, 0xff800000u, Round::Rn, false, true), 0u);  // .SAT: NaN -> +0
}

TEST(SassFloatSemantics, FmaRoundsOnce) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly with one rounding; a separate multiply loses 2^-24.
  const float x = 1.0f + std::ldexp(1.0f, -12);
  EXPECT_EQ(f(ffma(b(x), b(x), b(-1.0f), Round::Rn, false, false)), std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24));
}

TEST(SassFloatSemantics, MinMaxOrdersZerosAndSkipsOneNaN) {
  EXPECT_EQ(fminmax(b(0.0f), b(-0.0f), true, false, false), 0x80000000u);
  EXPECT_EQ(fminmax(b(-0.0f), b(0.0f), false, false, false), 0x00000000u);
  EXPECT_EQ(fminmax(0x7fc00000u, b(2.0f), true, false, false), b(2.0f));
  EXPECT_EQ(fminmax(0x7fc00000u, 0xffc00001u, false, false, false), 0x7fffffffu);
  EXPECT_EQ(fminmax(0x7fc00000u, b(2.0f), true, false, true), 0x7fffffffu);  // .NAN
}

TEST(SassFloatSemantics, ComparisonsOrderedAndUnordered) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(compare(Cmp::Lt, nan, 1));
  EXPECT_TRUE(compare(Cmp::Ltu, nan, 1));
  EXPECT_FALSE(compare(Cmp::Ne, nan, 1));  // ordered not-equal is false for NaN
  EXPECT_TRUE(compare(Cmp::Neu, nan, 1));
  EXPECT_TRUE(compare(Cmp::Eq, -0.0, 0.0));
  EXPECT_TRUE(compare(Cmp::Nan, 1, nan));
  EXPECT_TRUE(compare(Cmp::Num, 1, 2));
}

TEST(SassFloatSemantics, RoundToIntegral) {
  EXPECT_EQ(f(frnd32(b(2.5f), Round::Rn, false)), 2.0f);  // ties to even
  EXPECT_EQ(f(frnd32(b(3.5f), Round::Rn, false)), 4.0f);
  EXPECT_EQ(f(frnd32(b(-2.5f), Round::Rm, false)), -3.0f);
  EXPECT_EQ(f(frnd32(b(-2.5f), Round::Rp, false)), -2.0f);
  EXPECT_EQ(frnd32(b(-0.5f), Round::Rz, false), 0x80000000u);  // trunc(-0.5) = -0
  EXPECT_EQ(std::bit_cast<double>(frnd64(bd(-7.25), Round::Rm)), -8.0);
}

TEST(SassFloatSemantics, FloatToIntSaturatesAndMapsNaNToZero) {
  EXPECT_EQ(floatToInt(3e9, Round::Rz, 32, true), 0x7fffffffu);
  EXPECT_EQ(floatToInt(-3e9, Round::Rz, 32, true), 0x80000000u);
  EXPECT_EQ(floatToInt(-1.5, Round::Rz, 32, false), 0u);
  EXPECT_EQ(floatToInt(5e9, Round::Rn, 32, false), 0xffffffffu);
  EXPECT_EQ(floatToInt(std::numeric_limits<double>::quiet_NaN(), Round::Rn, 32, true), 0u);
  EXPECT_EQ(floatToInt(2.5, Round::Rn, 32, true), 2u);
  EXPECT_EQ(floatToInt(-2.5, Round::Rm, 64, true), static_cast<std::uint64_t>(-3));
  EXPECT_EQ(floatToInt(1e30, Round::Rz, 64, true), 0x7fffffffffffffffull);
}

TEST(SassFloatSemantics, IntToFloatRoundsOnce) {
  // 2^24 + 1 is not a float: nearest even gives 2^24, up gives 2^24 + 2.
  EXPECT_EQ(f(static_cast<std::uint32_t>(intToFloat(16777217, 32, false, 32, Round::Rn))), 16777216.0f);
  EXPECT_EQ(f(static_cast<std::uint32_t>(intToFloat(16777217, 32, false, 32, Round::Rp))), 16777218.0f);
  EXPECT_EQ(f(static_cast<std::uint32_t>(intToFloat(0xffffffffu, 32, true, 32, Round::Rn))), -1.0f);  // S32 -1
  EXPECT_EQ(f(static_cast<std::uint32_t>(intToFloat(0xffffu, 16, false, 32, Round::Rn))), 65535.0f);   // U16
  EXPECT_EQ(std::bit_cast<double>(intToFloat(~std::uint64_t{0}, 64, false, 64, Round::Rz)), 18446744073709549568.0);
}

TEST(SassFloatSemantics, FloatToFloat) {
  // 1 + 2^-30 as a double rounds to 1 (nearest) or 1 + 2^-23 (up) in binary32.
  const std::uint64_t d = bd(1.0 + std::ldexp(1.0, -30));
  EXPECT_EQ(floatToFloat(d, 64, 32, Round::Rn, false, false), 0x3f800000u);
  EXPECT_EQ(floatToFloat(d, 64, 32, Round::Rp, false, false), 0x3f800001u);
  EXPECT_EQ(floatToFloat(bd(1e300), 64, 32, Round::Rz, false, false), 0x7f7fffffu);  // RZ: FLT_MAX, not inf
  EXPECT_EQ(floatToFloat(b(65520.0f), 32, 16, Round::Rn, false, false), 0x7c00u);   // past half's max: inf
  EXPECT_EQ(floatToFloat(b(1.0f / 3.0f), 32, 16, Round::Rn, false, false), 0x3555u);
}

// Fast division (FCHK false) is only taken where the FFMA sequence ptxas emits is exact.
TEST(SassFloatSemantics, FchkSendsEdgeCasesToTheSlowPath) {
  EXPECT_FALSE(fchk(b(1.0f), b(3.0f)));
  EXPECT_TRUE(fchk(b(1.0f), 0x00000001u));  // subnormal divisor
  EXPECT_TRUE(fchk(b(1.0f), b(0.0f)));
  EXPECT_TRUE(fchk(0x7f800000u, b(2.0f)));
  EXPECT_TRUE(fchk(b(1e38f), b(1e-38f)));  // quotient overflows
  EXPECT_TRUE(fchk(b(1e-38f), b(1e30f)));  // quotient underflows
}

// The fast path of div.rn.f32 as ptxas emits it (FCHK false), run on these semantics, gives the
// correctly rounded quotient for random operands.
TEST(SassFloatSemantics, PtxasDivisionSequenceIsCorrectlyRounded) {
  std::uint64_t s = 12345;
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint32_t a = static_cast<std::uint32_t>(s >> 32), d = static_cast<std::uint32_t>(s);
    if (fchk(a, d)) continue;
    ++checked;
    const std::uint32_t r = mufu(Mufu::Rcp, d);
    const std::uint32_t e = ffma(d ^ 0x80000000u, r, b(1.0f), Round::Rn, false, false);
    const std::uint32_t r2 = ffma(r, e, r, Round::Rn, false, false);
    const std::uint32_t q = ffma(a, r2, 0, Round::Rn, false, false);
    const std::uint32_t res = ffma(d ^ 0x80000000u, q, a, Round::Rn, false, false);
    const std::uint32_t q2 = ffma(r2, res, q, Round::Rn, false, false);
    ASSERT_EQ(q2, b(f(a) / f(d))) << std::hex << a << " / " << d;
  }
  EXPECT_GT(checked, 50000);
}

// MUFU against the PTX ISA bounds of the .approx instructions, on a long-double reference.
TEST(SassFloatSemantics, MufuWithinThePtxIsaBounds) {
  std::uint64_t s = 99;
  for (int i = 0; i < 20000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const float x = std::ldexp(1.0f + static_cast<float>(s >> 41) / 8388608.0f, static_cast<int>((s >> 8) % 40) - 20);
    const auto ulp = [](long double v) { return std::ldexp(1.0L, std::ilogb(static_cast<float>(v)) - 23); };
    const long double rcp = 1.0L / x, rsq = 1.0L / std::sqrt(static_cast<long double>(x));
    EXPECT_LE(std::fabs(f(mufu(Mufu::Rcp, b(x))) - rcp), ulp(rcp)) << x;           // rcp.approx: 1 ulp
    EXPECT_LE(std::fabs(f(mufu(Mufu::Rsq, b(x))) - rsq), rsq * std::ldexp(1.0L, -22) * 0.54) << x;  // 2^-22.9
    const float e = std::fmod(x, 64.0f) - 32.0f;
    const long double ex2 = std::exp2(static_cast<long double>(e));
    EXPECT_LE(std::fabs(f(mufu(Mufu::Ex2, b(e))) - ex2), 2 * ulp(ex2)) << e;     // ex2.approx: 2 ulp
    EXPECT_LE(std::fabs(f(mufu(Mufu::Lg2, b(x))) - std::log2(static_cast<long double>(x))),
              std::ldexp(1.0L, -22) + ulp(std::log2(static_cast<long double>(x))));
    const float rev = std::fmod(x, 1.0f);  // MUFU.SIN/COS take revolutions
    const long double angle = 6.283185307179586476925286766559L * rev;
    EXPECT_LE(std::fabs(f(mufu(Mufu::Sin, b(rev))) - std::sin(angle)), std::ldexp(1.0L, -20) / std::sqrt(2.0L));
    EXPECT_LE(std::fabs(f(mufu(Mufu::Cos, b(rev))) - std::cos(angle)), std::ldexp(1.0L, -20) / std::sqrt(2.0L));
  }
  EXPECT_EQ(mufu(Mufu::Rcp, b(0.0f)), 0x7f800000u);
  EXPECT_EQ(mufu(Mufu::Rcp, 0x80000001u), 0xff800000u);  // a subnormal input reads as -0
  EXPECT_EQ(mufu(Mufu::Rsq, b(-0.0f)), 0xff800000u);
  EXPECT_EQ(mufu(Mufu::Ex2, b(-200.0f)), 0u);            // 2^-200 flushes to +0
  EXPECT_EQ(mufu(Mufu::Sin, b(-0.0f)), 0x80000000u);
  EXPECT_LE(std::fabs(f(mufu(Mufu::Cos, b(0.25f)))), 1e-7f);  // cos(pi/2)
  // RCP64H: the high word of 1/x for x = 2.0 (0x40000000 00000000) is 0x3fe00000 (0.5).
  EXPECT_EQ(mufu(Mufu::Rcp64h, 0x40000000u), 0x3fe00000u);
  EXPECT_EQ(mufu(Mufu::Rsq64h, 0x40100000u), 0x3fe00000u);  // 1/sqrt(4) = 0.5
}

TEST(SassFloatSemantics, DoubleArithmetic) {
  EXPECT_EQ(std::bit_cast<double>(dadd(bd(1.0), bd(std::ldexp(1.0, -53)), Round::Rp)), 1.0 + std::ldexp(1.0, -52));
  EXPECT_EQ(std::bit_cast<double>(dadd(bd(1.0), bd(std::ldexp(1.0, -53)), Round::Rn)), 1.0);
  EXPECT_EQ(std::bit_cast<double>(dmul(bd(3.0), bd(-0.5), Round::Rn)), -1.5);
  EXPECT_EQ(dminmax(bd(-0.0), bd(0.0), true), bd(-0.0));
  EXPECT_EQ(dminmax(bd(std::nan("")), bd(2.0), false), bd(2.0));
}

}  // namespace
}  // namespace teg::emu::sassfloat
