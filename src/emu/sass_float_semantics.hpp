// The scalar semantics of the SASS floating-point instructions, one function per operation on
// raw bits, free of the warp machinery so the unit tests can check them against IEEE facts and
// hand calculations. sass_exec_float.cpp applies them lane by lane.
//
// Conventions the GPU follows and the PTX emulator computes too (so the two emulators agree bit
// for bit, tests/differential):
//  - binary32 results that are NaN are the canonical NaN 0x7fffffff (PTX ISA "NaN results are
//    canonical" for the f32 arithmetic; CUDART_NAN_F); binary16 ones 0x7fff;
//  - .FTZ flushes subnormal inputs and results to zero of the same sign; .SAT clamps to [0, 1]
//    with NaN -> +0;
//  - MUFU results are the correctly rounded value of the function at the (flushed) input, then
//    flushed: within every bound the PTX ISA gives for the .approx instruction MUFU implements
//    (rcp 1 ulp, rsqrt 2^-22.9 relative, ex2 2 ulp, lg2 2^-22 absolute, sin/cos 2^-20.5 absolute,
//    tanh 2^-10.987 relative), and what the PTX emulator computes for those .approx instructions.
#pragma once

#include <cstdint>

namespace teg::emu::sassfloat {

// Rounding of an operation: nearest even (the default), toward zero, down, up.
enum class Round : std::uint8_t { Rn, Rz, Rm, Rp };

// NaN -> 0x7fffffff, else the bits (float_math.hpp's canonical32, 32 bits wide).
std::uint32_t canonicalBits(float x);

std::uint32_t fadd(std::uint32_t a, std::uint32_t b, Round r, bool ftz, bool sat);
std::uint32_t fmul(std::uint32_t a, std::uint32_t b, Round r, bool ftz, bool sat);
std::uint32_t ffma(std::uint32_t a, std::uint32_t b, std::uint32_t c, Round r, bool ftz, bool sat);
// FMNMX: the smaller (min) or larger value; -0 < +0; one NaN gives the other operand, two give
// the canonical NaN (`propagateNaN`: any NaN gives the canonical NaN, FMNMX.NAN).
std::uint32_t fminmax(std::uint32_t a, std::uint32_t b, bool min, bool ftz, bool propagateNaN);

// Comparisons of FSETP/DSETP/HSETP2 (F, LT, EQ, LE, GT, NE, GE, NUM, NAN, LTU, EQU, LEU, GTU,
// NEU, GEU, T), with the unordered forms true when either operand is NaN.
enum class Cmp : std::uint8_t { F, Lt, Eq, Le, Gt, Ne, Ge, Num, Nan, Ltu, Equ, Leu, Gtu, Neu, Geu, T };
bool compare(Cmp c, double a, double b);

// FRND: round to an integral value (Rn: nearest even; Rz: .TRUNC; Rm: .FLOOR; Rp: .CEIL).
std::uint32_t frnd32(std::uint32_t a, Round r, bool ftz);
std::uint64_t frnd64(std::uint64_t a, Round r);

// FCHK P, a, b: true when the fast FFMA division sequence ptxas emits for a / b might not give the
// correctly rounded quotient, so the slow path must run. The hardware's exact condition is not
// published; this one is conservative (it sends every case with a non-normal operand, or a
// quotient or residual near the ends of the exponent range, to the slow path, which is correct
// for all inputs), so the division is correctly rounded either way.
bool fchk(std::uint32_t a, std::uint32_t b);

enum class Mufu : std::uint8_t { Rcp, Rsq, Sqrt, Ex2, Lg2, Sin, Cos, Tanh, Rcp64h, Rsq64h };
// MUFU on binary32 bits (RCP64H/RSQ64H: the high word of a binary64, result likewise).
std::uint32_t mufu(Mufu op, std::uint32_t a);

// DADD/DMUL/DFMA with rounding; NaN results are the canonical 0x7fffffffffffffff (as the PTX
// emulator's add/mul/fma.f64).
std::uint64_t dadd(std::uint64_t a, std::uint64_t b, Round r);
std::uint64_t dmul(std::uint64_t a, std::uint64_t b, Round r);
std::uint64_t dfma(std::uint64_t a, std::uint64_t b, std::uint64_t c, Round r);
std::uint64_t dminmax(std::uint64_t a, std::uint64_t b, bool min);

// Conversions. Float -> integer rounds as `r` says (Rn: nearest even), saturates to the
// destination range and gives 0 for NaN (PTX ISA cvt: "float-to-integer conversions saturate";
// the PTX emulator's NaN -> 0). `bits` 8/16/32/64, `isSigned` of the destination.
std::uint64_t floatToInt(double x, Round r, int bits, bool isSigned);
// Integer -> float, rounded once as `r` says. `dstBits` 16, 32 or 64.
std::uint64_t intToFloat(std::uint64_t v, int srcBits, bool srcSigned, int dstBits, Round r);
// Float -> float (F2F): `dstBits`/`srcBits` 16, 32, 64; `bf16` for a bfloat16 destination.
std::uint64_t floatToFloat(std::uint64_t v, int srcBits, int dstBits, Round r, bool ftz, bool sat, bool bf16 = false);

// binary16 helpers: the value of a half, and rounding a double to a half (canonical NaN 0x7fff).
double halfValue(std::uint16_t h);
// satFinite: an overflow gives the largest finite half of its sign, not infinity (F2FP.SATFINITE,
// PTX cvt.rn.satfinite.f16.f32).
std::uint16_t toHalfBits(double x, Round r, bool ftz, bool sat, bool satFinite = false);
std::uint16_t toBf16Bits(double x, Round r);

}  // namespace teg::emu::sassfloat
