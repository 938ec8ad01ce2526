// Differences the differential tester (tests/differential) found between the PTX and the SASS
// emulator, each pinned by a hand-worked expectation on both emulators and every architecture:
//
// - ptxas's binary64 division / reciprocal / square-root subroutines build their NaNs with integer
//   operations: a NaN operand comes back quieted with its payload and sign (the dividend first),
//   an invalid operation gives 0xfff8000000000000 (the PTX emulator gave the canonical NaN);
// - fmax/fmin of two double NaNs is DSETP.MAX + a quieting LOP3 of the second operand;
// - `F2F.F16.F32.RM R25, 4`: an integral immediate of a conversion is a float value (4.0), not
//   the bits 0x4;
// - `I2F.F64.U16 R18, R4.H1` converts the high half of R4;
// - `FSEL R7, R5, -QNAN, !P0`: nvdisasm prints any NaN immediate as QNAN, the payload (here the
//   high word 0xfff00000 of -inf) is in the encoding;
// - two slow-path subroutines on divergent lanes reuse the barrier register B1: a BSYNC B1 must
//   merge only the lanes waiting at that BSYNC, not lanes waiting at the callee's BSYNC B1;
// - the carry out of IMAD.WIDE (P0) in ptxas's 64-bit division;
// - `MUFU.RCP64H R23, -20329664`: the immediate of an FP64 MUFU is the high word of that double;
// - `I2F.F64.S64.RP R6, 0x70000000`: so is a 64-bit integer immediate (0x70000000'00000000);
// - FMNMX3 (sm_100+, fmaxf(fmaxf(x, y), z)) and VIMNMX3 (sm_90, sm_100) were not run at all;
// - a binary16 NaN result is 0x7fff, and `HFMA2.MMA R6, -RZ, RZ, 0, +QNAN` loads 0x00007fff;
// - `IADD3.X R11, PT, PT, RZ, R5, RZ, P0, P1` (sm_100+) has eight operands: the eighth was dropped;
// - `LOP3.LUT P0, RZ, R9, R3, RZ, 0xc0, P0`: the trailing predicate is ORed into P0 (a 64-bit bit test);
// - `HFMA2 R7, R7, -R10.H0_NH1, R6` (sm_86+): a half permutation with a negated half.
// - `F2FP.SATFINITE.MERGE_C R0, R4, RZ` (sm_80+, cvt.rn.satfinite.f16.f32): an overflow or an
//   infinity gives the largest finite half; MERGE_C with another c: tests/differential/reproducers.
// (Reconvergence with a barrier register reused by sibling regions: tests/differential/reproducers.)
#include <gtest/gtest.h>

#include <bit>
#include <climits>
#include <cmath>
#include <cstring>

#include "sass_support.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::sasstest {
namespace {

const char* const kFixes = R"(
#include <cuda_fp16.h>
extern "C" __global__ void fixes(const unsigned* u, const double* d, const double* one, unsigned* o,
                                 unsigned long long* o64) {
  const int t = threadIdx.x;
  const double a = d[2 * t], b = d[2 * t + 1];
  unsigned long long* r = o64 + 8 * t;
  r[0] = __double_as_longlong(a / b);
  r[1] = __double_as_longlong(sqrt(a));
  r[2] = __double_as_longlong(__drcp_rn(a));
  r[3] = __double_as_longlong(__dsqrt_ru(a));
  r[4] = __double_as_longlong(fmax(a, b));
  r[5] = __double_as_longlong((a < b) ? b : __longlong_as_double(0xfff0000000000000ll));
  const __half2 h = __halves2half2(__ushort_as_half((unsigned short)u[t]), __ushort_as_half((unsigned short)(u[t] >> 16)));
  r[6] = __double_as_longlong((double)(unsigned short)(u[t] >> 16) * one[t]);
  r[7] = __double_as_longlong(__int2double_rn((int)(unsigned)__half_as_ushort(__high2half(h))) / (one[t] * ceil(one[t])));
  o[t] = __half_as_ushort(__float2half_rd(fabsf(__uint_as_float(0xc0800000u))));
}
extern "C" __global__ void div64(const long long* a, const long long* b, long long* q) {
  const int t = threadIdx.x;
  q[t] = a[t] / b[t];
}
extern "C" __global__ void divconst(const double* a, double* q) {
  q[threadIdx.x] = a[threadIdx.x] / -20329664.0;  // MUFU.RCP64H R23, -20329664
}
extern "C" __global__ void roundnan(const double* a, double* q) {
  q[threadIdx.x] = floor(-a[threadIdx.x]);  // FRND.F64.FLOOR R, -R
}
extern "C" __global__ void minmax3(const float* a, float* o) {
  const int t = threadIdx.x;
  const float x = a[3 * t], y = a[3 * t + 1], z = a[3 * t + 2];
  o[3 * t] = fmaxf(fmaxf(x, y), z);               // FMNMX3 R, a, b, c, !PT on sm_100/sm_120
  o[3 * t + 1] = fmaxf(fmaxf(x, -y), fabsf(z));   // FMNMX3 R, a, -b, |c|, !PT
  o[3 * t + 2] = fminf(fminf(x, y), z);
}
extern "C" __global__ void imnmx3(const int* a, int* o) {
  const int t = threadIdx.x;
  const int x = a[3 * t], y = a[3 * t + 1], z = a[3 * t + 2];
  o[3 * t] = max(max(x, y), z);                                           // VIMNMX3 R, a, b, c, !PT (sm_90, sm_100)
  o[3 * t + 1] = min(min(x, 41), z);                                      // VIMNMX3 R, a, 0x29, c, PT
  o[3 * t + 2] = (int)umin(umin((unsigned)x, (unsigned)y), (unsigned)z);  // VIMNMX3.U32
}
extern "C" __global__ void halfnan(const unsigned* u, unsigned* o) {
  const unsigned t = threadIdx.x;
  const __half2 h2 = __halves2half2(__ushort_as_half((unsigned short)u[t]), __ushort_as_half((unsigned short)(u[t] >> 16)));
  o[2 * t] = (__hisnan(__low2half(h2)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h2))) |  // sm_80: the 0x7fff
             ((__hisnan(__high2half(h2)) ? 0x7fffu : (unsigned)__half_as_ushort(__high2half(h2))) << 16);  // by HFMA2.MMA
  o[2 * t + 1] = __half_as_ushort(__hadd(__low2half(h2), __low2half(h2)));
}
extern "C" __global__ void div15(const int* a, long long* q) {
  q[threadIdx.x] = ((long long)a[threadIdx.x] << 20) / 15ll;  // sm_100+: IADD3.X R, PT, PT, RZ, R5, RZ, P0, P1
}
extern "C" __global__ void wideimm(double* o, float* of) {
  o[threadIdx.x] = __ll2double_ru(0x7000000000000000ll);  // I2F.F64.S64.RP R, 0x70000000
  of[threadIdx.x] = __ll2float_ru(0x1234567700000000ll);  // I2F.S64.RP R, 0x12345677
}
extern "C" __global__ void bittest64(const unsigned long long* a, const unsigned* s, unsigned* o) {
  const int t = threadIdx.x;  // sm_75, sm_90: LOP3.LUT P0, RZ, lo, mlo, RZ, 0xc0, !PT; LOP3.LUT P0, RZ, hi, mhi, RZ, 0xc0, P0
  o[t] = ((a[t] >> (s[t] & 63u)) & 7ull) != 0 ? 1u : 0u;
}
extern "C" __global__ void negpair(const unsigned* a, const float* f, unsigned* o) {
  const int t = threadIdx.x;
  unsigned b;  // {f, -6.5} as nvcc writes it for sm_75; sm_86+: HFMA2 R7, R7, -R10.H0_NH1, R6 with R10 = {6.5, f}
  asm("{.reg .f16 lo, hi;\n cvt.rn.f16.f32 lo, %1;\n cvt.rn.f16.f32 hi, %2;\n mov.b32 %0, {lo, hi};}" : "=r"(b) : "f"(f[t]), "f"(-6.5f));
  unsigned r;
  asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a[2 * t]), "r"(b), "r"(a[2 * t + 1]));
  o[t] = r;
}
extern "C" __global__ void slowpaths(const float* f, float* fo) {
  const int t = threadIdx.x;
  fo[2 * t] = __fdiv_rn(f[3 * t], f[3 * t + 1]);
  fo[2 * t + 1] = __fsqrt_rd(f[3 * t + 2]);
}
)";

constexpr int kThreads = 32;

// Its own module: for sm_75, ptxas assembles cvt.rn.satfinite.f16.f32 into an encoding nvdisasm 13
// prints no text for (the words "0x00000004ff08723e 0x004fc800000060ff" with no instruction line),
// so the SASS of any kernel beside it could not be read there.
const char* const kSatFinite = R"(
extern "C" __global__ void satfinite(const float* f, unsigned* o) {
  unsigned short s;
  asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(s) : "f"(f[threadIdx.x]));
  o[threadIdx.x] = s;
}
)";

template <class T>
std::span<const std::byte> bytesOf(const std::vector<T>& v) {
  return std::as_bytes(std::span<const T>(v));
}
std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }
double fromBits(std::uint64_t b) { return std::bit_cast<double>(b); }
float f32(std::uint32_t b) { return std::bit_cast<float>(b); }

class SassDifferentialFix : public ::testing::TestWithParam<const char*> {};

TEST_P(SassDifferentialFix, BothEmulatorsGiveTheHandWorkedResults) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());

  // Doubles: eight cases, (a, b) per thread t, case t % 8.
  const std::uint64_t sNaN1 = 0x7ff0000000000001ull, negNaN2 = 0xfff0000000000002ull, sNaN4 = 0x7ff4000000000000ull,
                      negNaN3 = 0xfff0000000000003ull, nan4 = 0x7ff0000000000004ull;
  const double inf = INFINITY;
  const std::pair<double, double> cases[8] = {{fromBits(sNaN1), 2.0}, {1.0, fromBits(negNaN2)}, {0.0, 0.0},
                                              {inf, -inf},            {-4.0, fromBits(sNaN4)},  {fromBits(negNaN3), fromBits(nan4)},
                                              {9.0, 3.0},             {1.0, 3.0}};
  // Expected r[0..5] per case: a/b, sqrt(a), rcp.rn(a), sqrt.ru(a), fmax(a, b), a < b ? b : -inf.
  const std::uint64_t invalid = 0xfff8000000000000ull, canonical = 0x7fffffffffffffffull, minusInf = bits(-inf);
  const std::uint64_t expected[8][6] = {
      {0x7ff8000000000001ull, canonical, 0x7ff8000000000001ull, 0x7ff8000000000001ull, bits(2.0), minusInf},
      {0xfff8000000000002ull, bits(1.0), bits(1.0), bits(1.0), bits(1.0), minusInf},
      {invalid, bits(0.0), bits(inf), bits(0.0), bits(0.0), minusInf},
      {invalid, bits(inf), bits(0.0), bits(inf), bits(inf), minusInf},
      {0x7ffc000000000000ull, invalid, bits(-0.25), invalid, bits(-4.0), minusInf},
      {0xfff8000000000003ull, canonical, 0xfff8000000000003ull, 0xfff8000000000003ull, 0x7ff8000000000004ull, minusInf},
      {bits(3.0), bits(3.0), bits(1.0 / 9.0), bits(3.0), bits(9.0), minusInf},
      {bits(1.0 / 3.0), bits(1.0), bits(1.0), bits(1.0), bits(3.0), bits(3.0)},
  };
  std::vector<double> d(2 * kThreads);
  std::vector<std::uint32_t> u(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    d[2 * t] = cases[t % 8].first;
    d[2 * t + 1] = cases[t % 8].second;
    u[t] = 0x9e3779b9u * static_cast<std::uint32_t>(t + 1);
  }

  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "fixes", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("u", bytesOf(u));
    e.addBuffer("d", bytesOf(d));
    e.addBuffer("one", bytesOf(std::vector<double>(kThreads, 1.0)));
    e.addZeroedBuffer("o", kThreads * 4);
    e.addZeroedBuffer("o64", 8 * kThreads * 8);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<std::uint32_t>(e, "o");
    const auto o64 = contents<std::uint64_t>(e, "o64");
    for (int t = 0; t < kThreads; ++t) {
      SCOPED_TRACE(testing::Message() << "thread " << t);
      for (int k = 0; k < 6; ++k) {
        // CUDA 11.8's division slow path (sm_70) gives another NaN than CUDA 13's code, whose
        // payloads the expectations hold: the PTX ISA leaves a NaN result's payload open, so on
        // sm_70 a NaN result must be a NaN, any other result exact.
        if (sass && c.smVersion == 70 && k == 0 && std::isnan(std::bit_cast<double>(expected[t % 8][k]))) {
          EXPECT_TRUE(std::isnan(std::bit_cast<double>(o64[8 * t + k]))) << "r[0] = 0x" << std::hex << o64[8 * t + k];
          continue;
        }
        EXPECT_EQ(o64[8 * t + k], expected[t % 8][k]) << "r[" << k << "] = 0x" << std::hex << o64[8 * t + k];
      }
      EXPECT_EQ(o64[8 * t + 6], bits(static_cast<double>(u[t] >> 16)));
      EXPECT_EQ(o64[8 * t + 7], bits(static_cast<double>(u[t] >> 16)));
      EXPECT_EQ(o[t], 0x4400u);  // 4.0 in binary16
    }
  }
}

// The lanes of one warp take different ways through ptxas's f32 division and square-root slow
// paths (the lane classes of the random kernel that showed the difference): lane 10 leaves the
// division early (a NaN) and waits at the subroutine's BSYNC B1; lanes 12, 20, 24 (an overflowing
// quotient of normal operands) jump to its common part and run its BSSY B2 apart from lane 9 (a
// subnormal divisor) and lane 15 (a subnormal dividend), which are rescaled first; then the
// caller's square root, slow for a negative or subnormal operand, has its own BSSY B1 / BSYNC B1.
// Every lane must get its own correctly rounded result.
TEST_P(SassDifferentialFix, DivergentSlowPathsReusingABarrierRegister) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  std::vector<float> f(3 * kThreads);
  std::vector<std::uint32_t> quotient(kThreads), root(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    float a = 7.5f, b = 2.5f;  // the fast path: 3
    quotient[t] = 0x40400000u;
    if (t == 10) {
      a = f32(0x7fc00000u);  // NaN / 2: the canonical NaN
      b = 2.0f;
      quotient[t] = 0x7fffffffu;
    } else if (t == 12 || t == 20 || t == 24) {
      a = 1e30f;  // 1e40 overflows: inf
      b = 1e-10f;
      quotient[t] = 0x7f800000u;
    } else if (t == 9) {
      a = f32(0x0dc00000u);  // 1.5 x 2^-100 / 2^-128 = 1.5 x 2^28
      b = f32(0x00200000u);
      quotient[t] = 0x4dc00000u;
    } else if (t == 15) {
      a = f32(0x00600000u);  // 3 x 2^-128 / 2^-100 = 1.5 x 2^-27
      b = f32(0x0d800000u);
      quotient[t] = 0x32400000u;
    }
    f[3 * t] = a;
    f[3 * t + 1] = b;
    // sqrt.rd: -4 -> the canonical NaN, 2^-140 (subnormal) -> 2^-70, 2.25 -> 1.5 (fast path).
    f[3 * t + 2] = t % 3 == 0 ? -4.0f : t % 3 == 1 ? 2.25f : f32(0x00000200u);
    root[t] = t % 3 == 0 ? 0x7fffffffu : t % 3 == 1 ? 0x3fc00000u : 0x1c800000u;
  }
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "slowpaths", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("f", bytesOf(f));
    e.addZeroedBuffer("fo", 2 * kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto fo = contents<std::uint32_t>(e, "fo");
    for (int t = 0; t < kThreads; ++t) {
      SCOPED_TRACE(testing::Message() << "thread " << t);
      EXPECT_EQ(fo[2 * t], quotient[t]) << std::hex << fo[2 * t];
      EXPECT_EQ(fo[2 * t + 1], root[t]) << std::hex << fo[2 * t + 1];
    }
  }
}

// ptxas's 64-bit division subroutine (`__cuda_sm20_div_s64`) chains the carry of
// "IMAD.WIDE.U32 R8, P0, R6, R25, R8" into "IMAD.X R8, R25, 0x1, R7, P0"; a lost carry gave a
// quotient off in its high bits. The expectation is C++'s truncating division.
TEST_P(SassDifferentialFix, SixtyFourBitDivisionKeepsTheWideMultiplyAddCarry) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  std::vector<long long> a(kThreads), b(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    // The random kernel's case first: (long long)(int)0xb051484f << 20 = -0x4faeb7b100000 by 1962.
    a[t] = t == 0 ? -0x4faeb7b100000ll : static_cast<long long>(0x9e3779b97f4a7c15ull * (t + 1));
    b[t] = t == 0 ? 1962 : static_cast<long long>((0x2545f4914f6cdd1dull * (t + 7)) >> (t % 60)) | 1;
  }
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "div64", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addBuffer("b", bytesOf(b));
    e.addZeroedBuffer("q", kThreads * 8);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto q = contents<long long>(e, "q");
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(q[t], a[t] / b[t]) << "thread " << t;
  }
}

// A double divided by a constant: ptxas seeds the Newton iteration with "MUFU.RCP64H R23,
// -20329664", whose immediate is the high word 0xc1736340 of the double nvdisasm prints (read as a
// binary32 -20329664.0 it was 0xcb9b1a60, and the quotient was wrong). The expectation is IEEE
// division, correctly rounded (div.rn.f64).
TEST_P(SassDifferentialFix, DoubleDivisionByAConstantSeedsFromTheHighWord) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  std::vector<double> a(kThreads);
  for (int t = 0; t < kThreads; ++t) a[t] = (t - 11) * 1234567.891 + 0.5;
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "divconst", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addZeroedBuffer("q", kThreads * 8);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto q = contents<double>(e, "q");
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(bits(q[t]), bits(a[t] / -20329664.0)) << "thread " << t;
  }
}

// floor(-x) of a NaN: FRND.F64 with a negated operand on the SASS path, neg + cvt.rmi.f64.f64 on
// the PTX path; both give the canonical NaN 0x7fffffffffffffff like the other FP64 arithmetic
// (the host's floor kept the payload and the flipped sign: 0x7ff8000000000000 from 0xfff8...).
TEST_P(SassDifferentialFix, RoundToIntegralOfANaNIsCanonical) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  std::vector<double> a(kThreads);
  for (int t = 0; t < kThreads; ++t) a[t] = t % 2 ? fromBits(0xfff8000000000000ull + t) : 2.5 * t;
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "roundnan", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addZeroedBuffer("q", kThreads * 8);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto q = contents<double>(e, "q");
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(bits(q[t]), t % 2 ? 0x7fffffffffffffffull : bits(std::floor(-2.5 * t))) << "thread " << t;
  }
}

// fmaxf(fmaxf(x, y), z) is one FMNMX3 on sm_100 and newer: the three-way maxNum (NaN only when all
// three are NaN, then the canonical 0x7fffffff; -0 < +0), with operand modifiers on each source.
TEST_P(SassDifferentialFix, ThreeWayMinMaxIsTwoTwoWayOnes) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  const float nan = f32(0x7fc00001u), inf = INFINITY;
  struct Case {
    float x, y, z;
    std::uint32_t max, maxNegAbs, min;  // fmaxf(fmaxf(x, y), z); fmaxf(fmaxf(x, -y), |z|); fminf(fminf(x, y), z)
  };
  const Case cases[8] = {
      {1.0f, 2.0f, 3.0f, 0x40400000u, 0x40400000u, 0x3f800000u},        // 3; max(1, -2, 3) = 3; 1
      {nan, 2.0f, -3.0f, 0x40000000u, 0x40400000u, 0xc0400000u},        // NaN loses: 2; max(-2, 3) = 3; -3
      {nan, nan, -3.0f, 0xc0400000u, 0x40400000u, 0xc0400000u},         // two NaNs then -3
      {nan, nan, nan, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu},           // all NaN: canonical
      {-0.0f, 0.0f, -0.0f, 0x00000000u, 0x00000000u, 0x80000000u},      // +0 > -0
      {-inf, -5.0f, nan, 0xc0a00000u, 0x40a00000u, 0xff800000u},        // -5; max(-inf, 5) = 5; -inf
      {7.0f, -8.0f, -9.0f, 0x40e00000u, 0x41100000u, 0xc1100000u},      // 7; max(7, 8, 9) = 9; -9
      {1e-40f, -1e-40f, 0.0f, 0x000116c2u, 0x000116c2u, 0x800116c2u},   // subnormals kept (no .FTZ)
  };
  std::vector<float> a(3 * kThreads);
  for (int t = 0; t < kThreads; ++t) {
    a[3 * t] = cases[t % 8].x;
    a[3 * t + 1] = cases[t % 8].y;
    a[3 * t + 2] = cases[t % 8].z;
  }
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "minmax3", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addZeroedBuffer("o", 3 * kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<std::uint32_t>(e, "o");
    for (int t = 0; t < kThreads; ++t) {
      SCOPED_TRACE(testing::Message() << "thread " << t);
      EXPECT_EQ(o[3 * t], cases[t % 8].max) << std::hex << o[3 * t];
      EXPECT_EQ(o[3 * t + 1], cases[t % 8].maxNegAbs) << std::hex << o[3 * t + 1];
      EXPECT_EQ(o[3 * t + 2], cases[t % 8].min) << std::hex << o[3 * t + 2];
    }
  }
}

// max(max(x, y), z) and friends are one VIMNMX3 on sm_90 and sm_100 (three VIMNMX on sm_120 and two
// IMNMX before sm_90): the signed or unsigned extreme of the three.
TEST_P(SassDifferentialFix, ThreeWayIntegerMinMax) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  struct Case {
    int x, y, z, max, min41, umin;
  };
  const Case cases[4] = {
      {1, 2, 3, 3, 1, 1},
      {-5, 7, 100, 100, -5, 7},                 // unsigned: -5 is 0xfffffffb, the largest
      {50, INT_MIN, -1, 50, -1, 50},            // min(50, 41, -1) = -1; unsigned 50 < 0x80000000
      {INT_MAX, INT_MAX - 1, 60, INT_MAX, 41, 60},
  };
  std::vector<int> a(3 * kThreads);
  for (int t = 0; t < kThreads; ++t) {
    a[3 * t] = cases[t % 4].x;
    a[3 * t + 1] = cases[t % 4].y;
    a[3 * t + 2] = cases[t % 4].z;
  }
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "imnmx3", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addZeroedBuffer("o", 3 * kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<int>(e, "o");
    for (int t = 0; t < kThreads; ++t) {
      SCOPED_TRACE(testing::Message() << "thread " << t);
      EXPECT_EQ(o[3 * t], cases[t % 4].max);
      EXPECT_EQ(o[3 * t + 1], cases[t % 4].min41);
      EXPECT_EQ(o[3 * t + 2], cases[t % 4].umin);
    }
  }
}

// The canonical binary16 NaN is 0x7fff (CUDA Math API, CUDART_NAN_FP16), and ptxas builds the
// constant 0x00007fff on sm_80 as "HFMA2.MMA R0, -RZ, RZ, 0, +QNAN": -0 x 0 + (0, NaN), whose NaN half
// nvdisasm prints as QNAN (the bits are in the encoding). Both emulators gave 0x7e00 for a half NaN
// result, and the SASS one also lost the pair's bits (0). Expected: h + h of 1.0 is 2.0 (0x4000),
// of any NaN 0x7fff; the select gives h's bits unless h is NaN, then 0x7fff.
TEST_P(SassDifferentialFix, HalfNaNIsCanonicalAndTheQnanPairImmediateKeepsItsBits) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  // (high half, low half): (NaN, 1.0), (0, NaN), (-NaN with payload 1, the same), (-1.0, +0).
  const std::uint32_t in[4] = {0x7e003c00u, 0x00007e00u, 0xfc01fc01u, 0xbc000000u};
  const std::uint32_t select[4] = {0x7fff3c00u, 0x00007fffu, 0x7fff7fffu, 0xbc000000u};
  const std::uint32_t sum[4] = {0x4000u, 0x7fffu, 0x7fffu, 0x0000u};  // low + low
  std::vector<std::uint32_t> u(kThreads);
  for (int t = 0; t < kThreads; ++t) u[t] = in[t % 4];
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "halfnan", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("u", bytesOf(u));
    e.addZeroedBuffer("o", 2 * kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<std::uint32_t>(e, "o");
    for (int t = 0; t < kThreads; ++t) {
      EXPECT_EQ(o[2 * t], select[t % 4]) << "thread " << t << std::hex << " 0x" << o[2 * t];
      EXPECT_EQ(o[2 * t + 1], sum[t % 4]) << "thread " << t << std::hex << " 0x" << o[2 * t + 1];
    }
  }
}

// A 64-bit division by a constant is a multiply-high chain whose carries ptxas adds with
// "IADD3.X R11, PT, PT, RZ, R5, RZ, P0, P1" on sm_100 and sm_120 (two carry outputs printed as PT):
// eight operands, and the emulator kept seven, dropping the carry-in P1 (seed 1000160: a = -1 gave
// 0xffffffffdffeeeef). The expectation is the host's truncating division.
TEST_P(SassDifferentialFix, SixtyFourBitDivisionByAConstantKeepsBothCarryIns) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  std::vector<int> a(kThreads);
  for (int t = 0; t < kThreads; ++t) a[t] = t == 0 ? -1 : t == 1 ? INT_MIN : t == 2 ? INT_MAX : static_cast<int>(0x9e3779b9u * t);
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "div15", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addZeroedBuffer("q", kThreads * 8);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto q = contents<long long>(e, "q");
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(q[t], (static_cast<long long>(a[t]) << 20) / 15) << "thread " << t;
  }
}

// A 64-bit integer constant whose low word is zero is an I2F immediate, and nvdisasm prints only
// its high word: "I2F.F64.S64.RP R6, 0x70000000" converts 0x70000000'00000000 = 7 x 2^60 (read as
// 0x70000000 it gave 1879048192.0). Rounded up to binary32, 0x12345677 x 2^32 keeps the top 24 of
// its 29 significant bits: 0x12345677 = 0x91a2b3 x 32 + 0x17, so 0x91a2b4 x 32 x 2^32.
TEST_P(SassDifferentialFix, SixtyFourBitIntegerImmediateIsTheHighWord) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "wideimm", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addZeroedBuffer("o", kThreads * 8);
    e.addZeroedBuffer("of", kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<double>(e, "o");
    const auto of = contents<float>(e, "of");
    for (int t = 0; t < kThreads; ++t) {
      EXPECT_EQ(o[t], std::ldexp(7.0, 60)) << "thread " << t;
      EXPECT_EQ(of[t], std::ldexp(static_cast<float>(0x91a2b4 * 32), 32)) << "thread " << t;
    }
  }
}

// "LOP3.LUT P0, RZ, R9, R3, RZ, 0xc0, P0": the trailing predicate of LOP3 is ORed into Pd, which is
// how ptxas tests a 64-bit (x & m) != 0 one word at a time; the emulator dropped it, so a bit
// found in the low words was lost (seed 200104: an unrolled loop's trip count (u3 * u3 >> s) & 7
// read as 0). Expected: the host's (a >> s) & 7 != 0, with the set bits in the low word only, the
// high word only, across the two, or none.
TEST_P(SassDifferentialFix, SixtyFourBitBitTestOrsTheLowWordsPredicate) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  const std::pair<std::uint64_t, std::uint32_t> cases[8] = {
      {0x5ull, 0},                   {0x80000000ull, 30},           {0x100000000ull, 31}, {0x0000000700000000ull, 32},
      {0xfffffff8ull, 0},            {0xffffffa800000790ull, 9},    {0x8000000000000000ull, 61}, {0x4000000000000000ull, 63}};
  std::vector<std::uint64_t> a(kThreads);
  std::vector<std::uint32_t> sh(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    a[t] = cases[t % 8].first;
    sh[t] = cases[t % 8].second + 64u * static_cast<std::uint32_t>(t / 8);  // the kernel masks the shift
  }
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "bittest64", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addBuffer("s", bytesOf(sh));
    e.addZeroedBuffer("o", kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<std::uint32_t>(e, "o");
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(o[t], ((a[t] >> (sh[t] & 63u)) & 7u) != 0 ? 1u : 0u) << "thread " << t << std::hex << " a 0x" << a[t];
  }
}

// "HFMA2 R7, R7, -R10.H0_NH1, R6" (sm_86+, from PTX that packs {f, -6.5} with two cvt.rn.f16.f32):
// R10 = {high f, low 6.5}; the selector names the high half's source first, N negates, and the
// operand's minus applies after it: high <- -(H0) = -6.5, low <- -(-H1) = f. The emulator read
// ".H0_NH1" as no selector (seed 1000556, sm_86 ... sm_120 with sm_75's PTX). Expected, exact in
// binary16: x = {hi 2.0, lo 1.0}, c = {hi 0.25, lo 0.5}: high 2 x -6.5 + 0.25 = -12.75 (0xca60),
// low f + 0.5 for f = 3, -1, 0, 10 (0x4300, 0xb800, 0x3800, 0x4940).
TEST_P(SassDifferentialFix, NegatedHalfPermutationSelector) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_differential_fixes", kFixes, GetParam());
  const float fs[4] = {3.0f, -1.0f, 0.0f, 10.0f};
  const std::uint32_t low[4] = {0x4300u, 0xb800u, 0x3800u, 0x4940u};
  std::vector<std::uint32_t> a(2 * kThreads);
  std::vector<float> f(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    a[2 * t] = 0x40003c00u;      // {2.0, 1.0}
    a[2 * t + 1] = 0x34003800u;  // {0.25, 0.5}
    f[t] = fs[t % 4];
  }
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "negpair", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("a", bytesOf(a));
    e.addBuffer("f", bytesOf(f));
    e.addZeroedBuffer("o", kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<std::uint32_t>(e, "o");
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(o[t], 0xca600000u | low[t % 4]) << "thread " << t << std::hex << " 0x" << o[t];
  }
}

// cvt.rn.satfinite.f16.f32 (F2FP.SATFINITE.MERGE_C on sm_80+): the PTX ISA's .satfinite gives
// MAX_NORM (0x7bff, 65504) of the sign for an overflow and for an infinity, a NaN stays a NaN
// (the canonical 0x7fff); in range it rounds to nearest even as cvt.rn does.
TEST_P(SassDifferentialFix, SatFiniteHalfConversionClampsToTheLargestFiniteHalf) {
  TEG_SASS_TOOLS_OR_SKIP();
  if (std::string(GetParam()) == "sm_75") GTEST_SKIP() << "nvdisasm prints no text for sm_75's satfinite conversion";
  if (std::string(GetParam()) == "sm_70") {
    // CUDA 11.8's ptxas does not know cvt's .satfinite f16 form: the error names it, and a
    // prediction then times the PTX (analysis/kernel_source.cpp).
    try {
      compileSource("sass_satfinite", kSatFinite, GetParam());
      ADD_FAILURE() << "CUDA 11.8's ptxas assembled cvt.rn.satfinite.f16.f32 for sm_70";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("CUDA 11.8's ptxas could not assemble the PTX for sm_70"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("'cvt'"), std::string::npos) << e.what();
    }
    return;
  }
  const Compiled& c = compileSource("sass_satfinite", kSatFinite, GetParam());
  struct Case {
    float x;
    std::uint32_t half;
  };
  const Case cases[8] = {
      {70000.0f, 0x7bffu},    // above 65504: clamped, not +inf
      {-1e9f, 0xfbffu},       // far below -65504: -65504
      {INFINITY, 0x7bffu},    // +inf: MAX_NORM
      {-INFINITY, 0xfbffu},   // -inf: -MAX_NORM
      {1.0f, 0x3c00u},        // in range: exact
      {65519.0f, 0x7bffu},    // rounds to 65504 (65520 would be the tie to 65536)
      {f32(0x7fc00001u), 0x7fffu},  // NaN: the canonical half NaN
      {-0.0f, 0x8000u},       // sign of zero kept
  };
  std::vector<float> f(kThreads);
  for (int t = 0; t < kThreads; ++t) f[t] = cases[t % 8].x;
  for (const bool sass : {false, true}) {
    SCOPED_TRACE(sass ? "SASS emulator" : "PTX emulator");
    Emulator e(c.ptx, "satfinite", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1});
    e.addBuffer("f", bytesOf(f));
    e.addZeroedBuffer("o", kThreads * 4);
    if (sass) e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto o = contents<std::uint32_t>(e, "o");
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(o[t], cases[t % 8].half) << "thread " << t << std::hex << " 0x" << o[t];
  }
}

INSTANTIATE_TEST_SUITE_P(Architectures, SassDifferentialFix, ::testing::ValuesIn(kArchs),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace teg::emu::sasstest
