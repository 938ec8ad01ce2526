// Floating-point helpers: IEEE rounding modes (through the host's dynamic rounding mode, with
// volatile operands so the compiler cannot move the arithmetic out of the mode's scope),
// flush-to-zero, saturation, and software rounding to binary16 / bfloat16.
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

#include "teg/ptx/ir.hpp"

namespace teg::emu {

// The host rounding mode for a PTX rounding qualifier; -1 for round-to-nearest (the default).
inline int hostRounding(ptx::Rounding r) {
  switch (r) {
    case ptx::Rounding::Rz: case ptx::Rounding::Rzi: return FE_TOWARDZERO;
    case ptx::Rounding::Rm: case ptx::Rounding::Rmi: return FE_DOWNWARD;
    case ptx::Rounding::Rp: case ptx::Rounding::Rpi: return FE_UPWARD;
    default: return -1;
  }
}

// Runs `op` (which must read its inputs through volatile and return a value) under `mode`.
template <class T, class Op>
T underRounding(int mode, Op&& op) {
  if (mode < 0) return op();
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile T r = op();
  std::fesetround(saved);
  return r;
}

inline float flush(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
inline double flush(double x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x;
}
template <class T>
T saturate(T x) {  // .sat: clamp to [0, 1], NaN -> +0
  if (std::isnan(x)) return T(0);
  if (x < T(0)) return T(0);
  if (x > T(1)) return T(1);
  return x;
}

inline float f32(std::uint64_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits)); }
inline double f64(std::uint64_t bits) { return std::bit_cast<double>(bits); }
inline std::uint64_t bits32(float x) { return std::bit_cast<std::uint32_t>(x); }
inline std::uint64_t bits64(double x) { return std::bit_cast<std::uint64_t>(x); }
// The bits of a binary32 result as the GPU writes them: every NaN an f32 arithmetic instruction
// or conversion produces is the canonical NaN 0x7fffffff (CUDART_NAN_F; the host's would keep an
// input's payload or give 0xffc00000).
inline std::uint64_t canonical32(float x) { return std::isnan(x) ? 0x7fffffffu : bits32(x); }

// binary16 / bfloat16 from double with any IEEE rounding (mode as hostRounding, -1 = nearest),
// and back (exact).
std::uint16_t toHalf(double x, int mode, bool saturateFinite = false);
std::uint16_t toBf16(double x, int mode);
double fromHalf(std::uint16_t h);
double fromBf16(std::uint16_t h);

// Rounds a double to float with a given mode.
float toFloat(double x, int mode);

}  // namespace teg::emu
