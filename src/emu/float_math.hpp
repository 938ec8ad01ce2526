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
T saturate(T x) {  // .sat: clamp to [+0, 1]; NaN and -0 -> +0 (ptxas's cvt.sat is FADD.SAT RZ, x)
  if (!(x > T(0))) return T(0);
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
// Likewise for binary64 arithmetic (add/sub/mul/fma/div/sqrt.f64, DADD/DMUL/DFMA): the canonical
// NaN 0x7fffffffffffffff, the value min/max.f64 already give. The host's choice among NaN operands
// depends on how the compiler ordered an FMA's operands, so only a fixed NaN makes the two
// emulators agree.
inline std::uint64_t canonical64(double x) { return std::isnan(x) ? 0x7fffffffffffffffull : bits64(x); }

// binary64 division, reciprocal and square root are not instructions on the GPU but ptxas's
// subroutines (`__cuda_sm20_div_rn_f64_full`, `div_rz_f64_v2`, `rcp_ru_f64`, `dblrcp_rn_slowpath_v3`,
// `dsqrt_rn_f64_mediumpath_v1`, `dsqrt_ru_f64`... in every sm_75-sm_120 cubin), whose NaN results
// are built with integer operations, not the FPU's canonical NaN: a NaN operand comes back quieted
// with its payload and sign (`LOP3.LUT R3, R11, 0x80000, RZ, 0xfc` on the high word; the dividend
// is tested first), and an invalid operation (0/0, inf/inf, sqrt of a negative) gives
// 0xfff8000000000000 (`MOV R5, 0xfff80000`). sqrt.rn of a NaN goes through `DADD R, x, x` (the
// FPU's canonical NaN: its `DSETP.NE x, 0` fails before the sign test).
inline std::uint64_t quietNaN64(std::uint64_t bits) { return bits | 0x0008000000000000ull; }
inline constexpr std::uint64_t kInvalidNaN64 = 0xfff8000000000000ull;
inline std::uint64_t softwareDivide64(double a, double b, double result) {
  if (std::isnan(a)) return quietNaN64(bits64(a));
  if (std::isnan(b)) return quietNaN64(bits64(b));
  return std::isnan(result) ? kInvalidNaN64 : bits64(result);
}
inline std::uint64_t softwareReciprocal64(double a, double result) {
  return std::isnan(a) ? quietNaN64(bits64(a)) : canonical64(result);
}
inline std::uint64_t softwareSqrt64(double a, double result, bool nearest) {
  if (std::isnan(a)) return nearest ? canonical64(result) : quietNaN64(bits64(a));
  return std::isnan(result) ? kInvalidNaN64 : bits64(result);
}

// binary16 / bfloat16 from double with any IEEE rounding (mode as hostRounding, -1 = nearest),
// and back (exact).
std::uint16_t toHalf(double x, int mode, bool saturateFinite = false);
std::uint16_t toBf16(double x, int mode);
double fromHalf(std::uint16_t h);
double fromBf16(std::uint16_t h);

// Rounds a double to float with a given mode.
float toFloat(double x, int mode);

}  // namespace teg::emu
