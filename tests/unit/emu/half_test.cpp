// binary16 conversions against the CPU's own F16C instructions (an independent implementation of
// IEEE 754 round-to-nearest-even), where the CPU has them, and against hand-worked values.
#include <gtest/gtest.h>
#include <immintrin.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "teg/emu/scalar_type.hpp"

using teg::emu::floatToHalf;
using teg::emu::halfToFloat;

namespace {

__attribute__((target("f16c"))) std::uint16_t hardwareFloatToHalf(float f) {
  return static_cast<std::uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) float hardwareHalfToFloat(std::uint16_t h) { return _cvtsh_ss(h); }

TEST(Half, HandWorkedValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);          // exponent 15, mantissa 0
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);      // largest finite half
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);      // halfway to 2^16 rounds (to even) to infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // halfway, rounds to even (zero)
  EXPECT_EQ(floatToHalf(0.1f), 0x2E66);          // 0.1 = 0x2E66 (0.0999755859375)
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
}

TEST(Half, EveryHalfRoundTripsThroughFloat) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = halfToFloat(static_cast<std::uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(floatToHalf(f), h) << std::hex << h;
  }
}

TEST(Half, AgreesWithF16cHardware) {
  if (!__builtin_cpu_supports("f16c")) GTEST_SKIP() << "this CPU has no F16C instructions";
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float a = halfToFloat(static_cast<std::uint16_t>(h));
    const float b = hardwareHalfToFloat(static_cast<std::uint16_t>(h));
    if (std::isnan(a)) {
      ASSERT_TRUE(std::isnan(b));
      continue;
    }
    ASSERT_EQ(std::bit_cast<std::uint32_t>(a), std::bit_cast<std::uint32_t>(b)) << std::hex << h;
  }
  // Floats: every 4099th bit pattern (odd stride, so all exponents and roundings are hit).
  for (std::uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 4099) {
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (std::isnan(f)) continue;
    ASSERT_EQ(floatToHalf(f), hardwareFloatToHalf(f)) << std::hex << bits;
  }
}

}  // namespace
