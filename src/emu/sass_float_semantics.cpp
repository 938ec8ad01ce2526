// Scalar semantics of the SASS floating-point instructions (see the header for the conventions).
#include "sass_float_semantics.hpp"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>

#include "float_math.hpp"

namespace teg::emu::sassfloat {

namespace {

int hostMode(Round r) {
  switch (r) {
    case Round::Rz: return FE_TOWARDZERO;
    case Round::Rm: return FE_DOWNWARD;
    case Round::Rp: return FE_UPWARD;
    default: return -1;
  }
}

float asF(std::uint32_t b) { return std::bit_cast<float>(b); }
double asD(std::uint64_t b) { return std::bit_cast<double>(b); }

float inF(std::uint32_t b, bool ftz) { return ftz ? flush(asF(b)) : asF(b); }

std::uint32_t finish(float r, bool ftz, bool sat) {
  if (ftz) r = flush(r);
  if (sat) r = saturate(r);
  return canonicalBits(r);
}

}  // namespace

std::uint32_t canonicalBits(float x) { return static_cast<std::uint32_t>(canonical32(x)); }

std::uint32_t fadd(std::uint32_t a, std::uint32_t b, Round r, bool ftz, bool sat) {
  const float x = inF(a, ftz), y = inF(b, ftz);
  return finish(underRounding<float>(hostMode(r), [&] { volatile float p = x, q = y; return p + q; }), ftz, sat);
}

std::uint32_t fmul(std::uint32_t a, std::uint32_t b, Round r, bool ftz, bool sat) {
  const float x = inF(a, ftz), y = inF(b, ftz);
  return finish(underRounding<float>(hostMode(r), [&] { volatile float p = x, q = y; return p * q; }), ftz, sat);
}

std::uint32_t ffma(std::uint32_t a, std::uint32_t b, std::uint32_t c, Round r, bool ftz, bool sat) {
  const float x = inF(a, ftz), y = inF(b, ftz), z = inF(c, ftz);
  return finish(underRounding<float>(hostMode(r), [&] { volatile float p = x, q = y, s = z; return std::fma(p, q, s); }),
                ftz, sat);
}

std::uint32_t fminmax(std::uint32_t a, std::uint32_t b, bool min, bool ftz, bool propagateNaN) {
  const float x = inF(a, ftz), y = inF(b, ftz);
  const bool nx = std::isnan(x), ny = std::isnan(y);
  if (nx || ny) {
    if (propagateNaN || (nx && ny)) return 0x7fffffffu;
    return std::bit_cast<std::uint32_t>(nx ? y : x);
  }
  if (x == 0 && y == 0) return std::bit_cast<std::uint32_t>(std::signbit(x) == min ? x : y);
  return std::bit_cast<std::uint32_t>(min ? std::min(x, y) : std::max(x, y));
}

bool compare(Cmp c, double a, double b) {
  const bool u = std::isnan(a) || std::isnan(b);
  switch (c) {
    case Cmp::F: return false;
    case Cmp::Lt: return !u && a < b;
    case Cmp::Eq: return !u && a == b;
    case Cmp::Le: return !u && a <= b;
    case Cmp::Gt: return !u && a > b;
    case Cmp::Ne: return !u && a != b;
    case Cmp::Ge: return !u && a >= b;
    case Cmp::Num: return !u;
    case Cmp::Nan: return u;
    case Cmp::Ltu: return u || a < b;
    case Cmp::Equ: return u || a == b;
    case Cmp::Leu: return u || a <= b;
    case Cmp::Gtu: return u || a > b;
    case Cmp::Neu: return u || a != b;
    case Cmp::Geu: return u || a >= b;
    case Cmp::T: return true;
  }
  return false;
}

namespace {
template <class T>
T roundIntegral(T x, Round r) {
  switch (r) {
    case Round::Rz: return std::trunc(x);
    case Round::Rm: return std::floor(x);
    case Round::Rp: return std::ceil(x);
    default: return std::nearbyint(x);  // the default rounding mode is nearest even
  }
}
}  // namespace

std::uint32_t frnd32(std::uint32_t a, Round r, bool ftz) {
  const float x = inF(a, ftz);
  return finish(roundIntegral(x, r), ftz, false);
}

// A NaN comes out canonical, as from the other FP64 arithmetic (the host's floor keeps the payload
// and the sign an operand's -/| | modifier gave it).
std::uint64_t frnd64(std::uint64_t a, Round r) { return canonical64(roundIntegral(asD(a), r)); }

bool fchk(std::uint32_t a, std::uint32_t b) {
  const float x = asF(a), y = asF(b);
  if (!std::isnormal(x) || !std::isnormal(y)) return true;
  const int ex = std::ilogb(x), ey = std::ilogb(y);
  // 1/y stays normal and finite, the quotient stays well inside the normal range, and the
  // residual a - b q (about 2^(ex - 24)) is not subnormal.
  if (ey >= 125 || ey <= -125) return true;
  const int eq = ex - ey;
  if (eq >= 125 || eq <= -124) return true;
  return ex <= -100;
}

std::uint32_t mufu(Mufu op, std::uint32_t a) {
  const float x = flush(asF(a));  // MUFU works on normal inputs: subnormals read as zero
  float r = 0;
  switch (op) {
    case Mufu::Rcp: { volatile float one = 1.0f, v = x; r = one / v; break; }
    case Mufu::Rsq: r = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); break;
    case Mufu::Sqrt: { volatile float v = x; r = std::sqrt(v); break; }
    case Mufu::Ex2: r = static_cast<float>(std::exp2(static_cast<double>(x))); break;
    case Mufu::Lg2: r = static_cast<float>(std::log2(static_cast<double>(x))); break;
    case Mufu::Sin:
    case Mufu::Cos: {
      // The operand is in revolutions (ptxas multiplies the angle by 1/(2 pi) first, FMUL.RZ).
      // Its fraction is exact in double; the angle 2 pi t is then accurate to ~2^-52.
      if (!std::isfinite(x)) { r = std::numeric_limits<float>::quiet_NaN(); break; }
      const double t = static_cast<double>(x) - std::nearbyint(static_cast<double>(x));
      const double angle = 6.283185307179586476925286766559 * t;
      r = static_cast<float>(op == Mufu::Sin ? std::sin(angle) : std::cos(angle));
      if (op == Mufu::Sin && t == 0) r = std::copysign(0.0f, x);  // sin(-0) = -0
      break;
    }
    case Mufu::Tanh: r = static_cast<float>(std::tanh(static_cast<double>(x))); break;
    case Mufu::Rcp64h:
    case Mufu::Rsq64h: {
      // The high word of an approximation of 1/x or 1/sqrt(x) for the binary64 x whose high word
      // is `a` (low word zero): the double result truncated to its high word, relative error
      // < 2^-20, the start of ptxas's DFMA Newton iterations.
      const double d = std::bit_cast<double>(static_cast<std::uint64_t>(a) << 32);
      const double v = op == Mufu::Rcp64h ? 1.0 / d : 1.0 / std::sqrt(d);
      if (std::isnan(v)) return 0x7fffffffu;
      return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(v) >> 32);
    }
  }
  return canonicalBits(flush(r));
}

std::uint64_t dadd(std::uint64_t a, std::uint64_t b, Round r) {
  const double x = asD(a), y = asD(b);
  return canonical64(underRounding<double>(hostMode(r), [&] { volatile double p = x, q = y; return p + q; }));
}
std::uint64_t dmul(std::uint64_t a, std::uint64_t b, Round r) {
  const double x = asD(a), y = asD(b);
  return canonical64(underRounding<double>(hostMode(r), [&] { volatile double p = x, q = y; return p * q; }));
}
std::uint64_t dfma(std::uint64_t a, std::uint64_t b, std::uint64_t c, Round r) {
  const double x = asD(a), y = asD(b), z = asD(c);
  return canonical64(
      underRounding<double>(hostMode(r), [&] { volatile double p = x, q = y, s = z; return std::fma(p, q, s); }));
}
std::uint64_t dminmax(std::uint64_t a, std::uint64_t b, bool min) {
  const double x = asD(a), y = asD(b);
  const bool nx = std::isnan(x), ny = std::isnan(y);
  if (nx && ny) return 0x7fffffffffffffffull;  // as the PTX emulator's min/max.f64
  if (nx || ny) return nx ? b : a;
  if (x == 0 && y == 0) return std::signbit(x) == min ? a : b;
  return (min ? x < y : x > y) ? a : b;
}

std::uint64_t floatToInt(double x, Round r, int bits, bool isSigned) {
  const double v = roundIntegral(x, r);
  if (std::isnan(v)) return 0;
  if (isSigned) {
    const std::int64_t lo = bits >= 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
    const std::int64_t hi = bits >= 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (bits - 1)) - 1;
    const double dlo = bits >= 64 ? -9223372036854775808.0 : static_cast<double>(lo);
    const double dhi = bits >= 64 ? 9223372036854775807.0 : static_cast<double>(hi);
    std::int64_t out;
    if (v <= dlo) out = lo;
    else if (v >= dhi) out = hi;
    else out = static_cast<std::int64_t>(v);
    return bits >= 64 ? static_cast<std::uint64_t>(out) : static_cast<std::uint64_t>(out) & ((std::uint64_t{1} << bits) - 1);
  }
  const std::uint64_t hi = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const double dhi = bits >= 64 ? 18446744073709551615.0 : static_cast<double>(hi);
  if (v <= 0) return 0;
  if (v >= dhi) return hi;
  return static_cast<std::uint64_t>(v);
}

std::uint64_t intToFloat(std::uint64_t v, int srcBits, bool srcSigned, int dstBits, Round r) {
  const std::uint64_t mask = srcBits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << srcBits) - 1;
  const std::uint64_t u = v & mask;
  std::int64_t s = static_cast<std::int64_t>(u);
  if (srcSigned && srcBits < 64 && (u >> (srcBits - 1)) != 0) s = static_cast<std::int64_t>(u | ~mask);
  const int mode = hostMode(r);
  if (dstBits == 32) {
    const float f = underRounding<float>(mode, [&] {
      volatile std::int64_t vs = s;
      volatile std::uint64_t vu = u;
      return srcSigned ? static_cast<float>(vs) : static_cast<float>(vu);
    });
    return std::bit_cast<std::uint32_t>(f);
  }
  if (dstBits == 64) {
    const double d = underRounding<double>(mode, [&] {
      volatile std::int64_t vs = s;
      volatile std::uint64_t vu = u;
      return srcSigned ? static_cast<double>(vs) : static_cast<double>(vu);
    });
    return std::bit_cast<std::uint64_t>(d);
  }
  return toHalf(srcSigned ? static_cast<double>(s) : static_cast<double>(u), mode, false);
}

double halfValue(std::uint16_t h) { return fromHalf(h); }

std::uint16_t toHalfBits(double x, Round r, bool ftz, bool sat, bool satFinite) {
  if (sat) x = saturate(x);
  std::uint16_t h = toHalf(x, hostMode(r), satFinite);
  if (ftz && (h & 0x7c00) == 0) h &= 0x8000;
  return h;
}

std::uint16_t toBf16Bits(double x, Round r) { return toBf16(x, hostMode(r)); }

std::uint64_t floatToFloat(std::uint64_t v, int srcBits, int dstBits, Round r, bool ftz, bool sat, bool bf16) {
  double x = srcBits == 64 ? asD(v) : srcBits == 32 ? static_cast<double>(asF(static_cast<std::uint32_t>(v)))
                                                    : fromHalf(static_cast<std::uint16_t>(v));
  if (ftz && srcBits == 32) x = flush(asF(static_cast<std::uint32_t>(v)));
  switch (dstBits) {
    case 32: {
      float f = toFloat(x, hostMode(r));
      return finish(f, ftz, sat);
    }
    case 64: {
      if (sat) x = saturate(x);
      return std::bit_cast<std::uint64_t>(x);
    }
    default:
      if (bf16) return toBf16Bits(sat ? saturate(x) : x, r);
      return toHalfBits(x, r, ftz, sat);
  }
}

}  // namespace teg::emu::sassfloat
