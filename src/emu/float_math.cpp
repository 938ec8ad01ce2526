#include "float_math.hpp"

#include <cstring>
#include <limits>

namespace teg::emu {

namespace {

// Rounds |x| (finite, >= 0) to a multiple of 2^exp with `mode`, sign `neg` for directed modes.
double roundToQuantum(double ax, int exp, int mode, bool neg) {
  const double q = std::ldexp(1.0, exp);
  const double scaled = ax / q;  // exact (power of two)
  double fl = std::floor(scaled);
  const double frac = scaled - fl;
  double r;
  switch (mode) {
    case FE_TOWARDZERO: r = fl; break;
    case FE_DOWNWARD: r = neg ? (frac > 0 ? fl + 1 : fl) : fl; break;
    case FE_UPWARD: r = neg ? fl : (frac > 0 ? fl + 1 : fl); break;
    default:
      if (frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) != 0)) r = fl + 1;
      else r = fl;
      break;
  }
  return r * q;
}

// Generic narrowing to a binary format with `mant` stored mantissa bits and exponent bias `bias`.
std::uint16_t narrow(double x, int mode, int mant, int expBits, bool saturateFinite) {
  const int bias = (1 << (expBits - 1)) - 1;
  const std::uint16_t signBit = static_cast<std::uint16_t>(1u << (mant + expBits));
  const std::uint16_t expMask = static_cast<std::uint16_t>(((1u << expBits) - 1) << mant);
  // A NaN becomes the canonical one, all mantissa bits set: 0x7fff for binary16 (CUDA Math API,
  // "Half Arithmetic Constants": CUDART_NAN_FP16 0x7FFF "canonical NaN") and bfloat16
  // (CUDART_NAN_BF16 0x7FFF). ptxas relies on it: "HFMA2.MMA R6, -RZ, RZ, 0, +QNAN" is how it loads
  // the constant 0x00007fff (it was 0x7e00 here, and __hisnan(h) ? 0x7fff : bits differed: seed 1003).
  if (std::isnan(x)) return static_cast<std::uint16_t>(expMask | ((1u << mant) - 1));
  const bool neg = std::signbit(x);
  const std::uint16_t sign = neg ? signBit : 0;
  double ax = std::fabs(x);
  const double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, -mant), bias);
  auto overflow = [&]() -> std::uint16_t {
    const bool toInf = !saturateFinite &&
                       (mode < 0 || (mode == FE_UPWARD && !neg) || (mode == FE_DOWNWARD && neg));
    if (toInf) return static_cast<std::uint16_t>(sign | expMask);
    return static_cast<std::uint16_t>(sign | (expMask - (1u << mant)) | ((1u << mant) - 1));
  };
  if (std::isinf(ax)) return saturateFinite ? overflow() : static_cast<std::uint16_t>(sign | expMask);
  if (ax == 0) return sign;
  int e;
  std::frexp(ax, &e);  // ax = m * 2^e, m in [0.5, 1)
  int exp = e - 1;     // ax in [2^exp, 2^(exp+1))
  const int minExp = 1 - bias;
  const int quantumExp = (exp < minExp ? minExp : exp) - mant;
  double r = roundToQuantum(ax, quantumExp, mode, neg);
  if (r > maxFinite) return overflow();
  if (r == 0) return sign;
  std::frexp(r, &e);
  exp = e - 1;
  if (exp < minExp) {  // subnormal
    const auto m = static_cast<std::uint32_t>(r / std::ldexp(1.0, minExp - mant));
    return static_cast<std::uint16_t>(sign | m);
  }
  const auto m = static_cast<std::uint32_t>(r / std::ldexp(1.0, exp - mant)) - (1u << mant);
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exp + bias) << mant) | m);
}

}  // namespace

std::uint16_t toHalf(double x, int mode, bool saturateFinite) { return narrow(x, mode, 10, 5, saturateFinite); }
std::uint16_t toBf16(double x, int mode) { return narrow(x, mode, 7, 8, false); }

double fromHalf(std::uint16_t h) {
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0x1f) return mant ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  return sign * std::ldexp(1024 + mant, exp - 25);
}

double fromBf16(std::uint16_t h) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16);
}

float toFloat(double x, int mode) {
  if (mode < 0) return static_cast<float>(x);
  return underRounding<float>(mode, [&] {
    volatile double v = x;
    return static_cast<float>(v);
  });
}

}  // namespace teg::emu
