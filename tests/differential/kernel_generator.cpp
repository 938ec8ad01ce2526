#include "kernel_generator.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace teg::differential {
namespace {

// splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, the same sequence on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
  bool chance(int percent) { return below(100) < static_cast<std::uint32_t>(percent); }
  template <class T, std::size_t N>
  const T& pick(const std::array<T, N>& items) { return items[below(N)]; }

 private:
  std::uint64_t state_;
};

constexpr int kUnsignedVars = 4, kFloatVars = 4, kDoubleVars = 2;

// Bit patterns that exercise the edges of IEEE arithmetic and of the conversions.
constexpr std::array<std::uint32_t, 24> kFloatEdges = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fffffffu, 0x7fc00000u, 0xffc00001u,
    0x7f800001u,  // signalling NaN with a payload
    0x00000001u, 0x807fffffu, 0x00400000u, 0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu,
    0x3f800000u, 0xbf800000u, 0x3f000000u, 0x4f000000u, 0xcf000000u, 0x4f800000u, 0x5f000000u,
    0x3effffffu, 0x3fc00000u};
constexpr std::array<std::uint32_t, 14> kUnsignedEdges = {
    0u, 1u, 2u, 3u, 7u, 31u, 32u, 0xffu, 0xffffu, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu, 0x10000u};
constexpr std::array<std::uint64_t, 14> kDoubleEdges = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x0000000000000001ull, 0x000fffffffffffffull,
    0x0010000000000000ull, 0x7fefffffffffffffull, 0x3ff0000000000000ull, 0xbff8000000000000ull,
    0x41e0000000000000ull, 0xc3e0000000000000ull};

float randomFloat(Rng& rng) {
  switch (rng.below(10)) {
    case 0: case 1: return static_cast<float>(static_cast<int>(rng.below(41)) - 20) * 0.5f;
    case 2: return std::bit_cast<float>(rng.pick(kFloatEdges));
    case 3: return std::bit_cast<float>(static_cast<std::uint32_t>(rng.next()));  // any pattern
    default: {  // sign, exponent in [-24, 24], random mantissa
      const std::uint32_t sign = rng.below(2) << 31;
      const std::uint32_t exponent = static_cast<std::uint32_t>(127 - 24 + static_cast<int>(rng.below(49))) << 23;
      return std::bit_cast<float>(sign | exponent | static_cast<std::uint32_t>(rng.next() & 0x7fffffu));
    }
  }
}

std::uint32_t randomUnsigned(Rng& rng) {
  switch (rng.below(4)) {
    case 0: return rng.pick(kUnsignedEdges);
    case 1: return rng.below(64);
    case 2: return static_cast<std::uint32_t>(-static_cast<std::int32_t>(rng.below(64)));
    default: return static_cast<std::uint32_t>(rng.next());
  }
}

double randomDouble(Rng& rng) {
  switch (rng.below(8)) {
    case 0: return std::bit_cast<double>(rng.pick(kDoubleEdges));
    case 1: return std::bit_cast<double>(rng.next());
    case 2: return static_cast<double>(randomFloat(rng));
    default: {
      const std::uint64_t sign = static_cast<std::uint64_t>(rng.below(2)) << 63;
      const std::uint64_t exponent = static_cast<std::uint64_t>(1023 - 40 + rng.below(81)) << 52;
      return std::bit_cast<double>(sign | exponent | (rng.next() & 0xfffffffffffffull));
    }
  }
}

class Generator {
 public:
  Generator(std::uint64_t seed, const GeneratorOptions& options) : rng_(seed), options_(options) {}

  GeneratedKernel run(std::uint64_t seed) {
    GeneratedKernel k;
    k.seed = seed;
    k.name = fmt::format("k_{}", seed);
    static constexpr std::array<std::uint32_t, 4> blocks = {32, 64, 96, 128};
    k.blockX = rng_.pick(blocks);
    k.gridX = 1 + rng_.below(3);

    std::string helper;
    if (options_.control && rng_.chance(25)) {
      helperName_ = fmt::format("h_{}", seed);
      helper = fmt::format("__device__ __noinline__ unsigned {}(unsigned u0, float f0) {{\n", helperName_);
      helper += "  unsigned u1 = u0 * 0x9e3779b9u, u2 = u0 >> 3, u3 = ~u0;\n";
      helper += "  float f1 = f0 * 0.5f, f2 = -f0, f3 = 1.0f;\n";
      helper += "  double d0 = (double)f0, d1 = (double)u0;\n";
      helper += "  __half2 h0 = __floats2half2_rn(f0, f1);\n";
      inHelper_ = true;
      const int n = 2 + static_cast<int>(rng_.below(5));
      for (int i = 0; i < n; ++i) helper += statement(1, false);
      inHelper_ = false;
      helper += fmt::format("  return u0 ^ u1 ^ u2 ^ u3 ^ __float_as_uint(f0 + f1 + f2 + f3) ^ __double2loint(d0 + d1) ^ "
                            "(__hisnan(__low2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h0)));\n}}\n");
    } else {
      helperName_.clear();
    }

    std::string body;
    body += fmt::format(
        "extern \"C\" __global__ void {}(const unsigned* __restrict__ ui, const float* __restrict__ fi,\n"
        "    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {{\n",
        k.name);
    body += "  __shared__ unsigned su[128];\n  __shared__ float sf[128];\n";
    body += "  const unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31u;\n";
    body += fmt::format("  unsigned u0 = ui[gid * {0}], u1 = ui[gid * {0} + 1], u2 = ui[gid * {0} + 2], u3 = ui[gid * {0} + 3];\n",
                        kInputsPerThread);
    body += fmt::format("  float f0 = fi[gid * {0}], f1 = fi[gid * {0} + 1], f2 = fi[gid * {0} + 2], f3 = fi[gid * {0} + 3];\n",
                        kInputsPerThread);
    body += fmt::format("  double d0 = di[gid * {0}], d1 = di[gid * {0} + 1];\n", kDoublesPerThread);
    body += "  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));\n";
    body += "  unsigned la[8];\n  float lf[8];\n";
    body += "  for (int i = 0; i < 8; ++i) { la[i] = u0 + 7u * i; lf[i] = f0 * (float)i; }\n";
    const int n = options_.minStatements +
                  static_cast<int>(rng_.below(static_cast<std::uint32_t>(options_.maxStatements - options_.minStatements + 1)));
    for (int i = 0; i < n; ++i) body += statement(0, true);
    // h0's bits go into u3, a NaN as the canonical 0x7fff: which NaN neg/abs/min/max of a NaN give
    // is unspecified (PTX ISA), and ptxas folds them (seed 2022: after an even number of __hneg2 of
    // a NaN the SASS left it as it was, the PTX emulator's neg.f16x2 gave the canonical NaN).
    body += "  u3 ^= (__hisnan(__low2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h0))) | "
            "((__hisnan(__high2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__high2half(h0))) << 16);\n";
    body += "  u2 ^= la[u1 & 7u] + __float_as_uint(lf[u0 & 7u]);\n";
    k.approxSlots.assign(kApproxPerThread, Approx::None);
    if (options_.approx) {
      for (int j = 0; j < kApproxPerThread; ++j) {
        if (!rng_.chance(50)) continue;
        body += approxStatement(j, k.approxSlots[j]);
      }
    }
    for (int j = 0; j < kOutputsPerThread; ++j) body += fmt::format("  uo[gid * {0} + {1}] = u{1};\n", kOutputsPerThread, j);
    for (int j = 0; j < kOutputsPerThread; ++j) body += fmt::format("  fo[gid * {0} + {1}] = f{1};\n", kOutputsPerThread, j);
    for (int j = 0; j < kDoublesPerThread; ++j) body += fmt::format("  dd[gid * {0} + {1}] = d{1};\n", kDoublesPerThread, j);
    body += "}\n";
    k.source = helper + body;
    return k;
  }

 private:
  std::string uvar() { return fmt::format("u{}", rng_.below(kUnsignedVars)); }
  std::string fvar() { return fmt::format("f{}", rng_.below(kFloatVars)); }
  std::string dvar() { return fmt::format("d{}", rng_.below(kDoubleVars)); }

  std::string uconst() { return fmt::format("0x{:08x}u", randomUnsigned(rng_)); }
  // No NaN literals: ptxas folds abs/neg of a constant NaN keeping its payload, where the GPU's
  // FADD/HADD2 give the canonical NaN at run time; NaNs come from the inputs instead.
  std::string fconst() {
    float v = randomFloat(rng_);
    if (std::isnan(v)) v = std::numeric_limits<float>::infinity();
    return fmt::format("__uint_as_float(0x{:08x}u)", std::bit_cast<std::uint32_t>(v));
  }
  std::string dconst() {
    double v = randomDouble(rng_);
    if (std::isnan(v)) v = -std::numeric_limits<double>::infinity();
    return fmt::format("__longlong_as_double(0x{:016x}ll)", std::bit_cast<std::uint64_t>(v));
  }

  std::string uleaf() {
    switch (rng_.below(8)) {
      case 0: return uconst();
      case 1: return inHelper_ ? uvar() : std::string(rng_.chance(50) ? "tid" : "lane");
      case 2: return inHelper_ ? uvar() : std::string(rng_.chance(50) ? "gid" : "blockIdx.x");
      default: return uvar();
    }
  }
  std::string fleaf() { return rng_.chance(15) ? fconst() : fvar(); }
  std::string dleaf() { return rng_.chance(15) ? dconst() : dvar(); }
  std::string hleaf() { return "h0"; }

  static constexpr std::array<const char*, 4> kRound = {"rn", "rz", "rd", "ru"};

  std::string u(int depth) {
    if (depth <= 0 || rng_.chance(25)) return uleaf();
    const int d = depth - 1;
    switch (options_.integerOps ? rng_.below(48) : 34 + rng_.below(13)) {
      case 0: case 1: return fmt::format("({} + {})", u(d), u(d));
      case 2: return fmt::format("({} - {})", u(d), u(d));
      case 3: case 4: return fmt::format("({} * {})", u(d), u(d));
      case 5: return fmt::format("({} ^ {})", u(d), u(d));
      case 6: return fmt::format("({} & {})", u(d), u(d));
      case 7: return fmt::format("({} | {})", u(d), u(d));
      case 8: return fmt::format("({} << ({} & 31u))", u(d), u(d));
      case 9: return fmt::format("({} >> ({} & 31u))", u(d), u(d));
      case 10: return fmt::format("(unsigned)((int){} >> ({} & 31u))", u(d), u(d));
      case 11: return fmt::format("({} / ({} | 1u))", u(d), u(d));
      case 12: return fmt::format("({} % ({} | 1u))", u(d), u(d));
      case 13: return fmt::format("(unsigned)((int){} / (int)(({} & 0xffu) + 1u))", u(d), u(d));
      case 14: return fmt::format("(unsigned)((int){} % (int)(({} & 0xffu) + 1u))", u(d), u(d));
      case 15: return fmt::format("min({}, {})", u(d), u(d));
      case 16: return fmt::format("max({}, {})", u(d), u(d));
      case 17: return fmt::format("(unsigned)min((int){}, (int){})", u(d), u(d));
      case 18: return fmt::format("(unsigned)max((int){}, (int){})", u(d), u(d));
      case 19: return fmt::format("__umulhi({}, {})", u(d), u(d));
      case 20: return fmt::format("(unsigned)__mulhi((int){}, (int){})", u(d), u(d));
      case 21: return fmt::format("(unsigned)__popc({})", u(d));
      case 22: return fmt::format("(unsigned)__clz((int){})", u(d));
      case 23: return fmt::format("__brev({})", u(d));
      case 24: return fmt::format("__byte_perm({}, {}, {})", u(d), u(d), u(d));
      case 25: return fmt::format("__funnelshift_l({}, {}, {})", u(d), u(d), u(d));
      case 26: return fmt::format("__funnelshift_r({}, {}, {})", u(d), u(d), u(d));
      case 27: return fmt::format("__funnelshift_lc({}, {}, {})", u(d), u(d), u(d));
      case 28: return fmt::format("(unsigned)__ffs((int){})", u(d));
      case 29: return fmt::format("__usad({}, {}, {})", u(d), u(d), u(d));
      case 30: return fmt::format("(unsigned)(((unsigned long long){} * {}) >> ({} & 63u))", u(d), u(d), u(d));
      case 31: return fmt::format("(unsigned)((((unsigned long long){} << 32) | {}) / ((unsigned long long){} | 1ull))",
                                  u(d), u(d), u(d));
      case 32: return fmt::format("(unsigned)(((long long)(int){} * (long long)(int){}) >> 17)", u(d), u(d));
      case 33: return fmt::format("(unsigned)(((long long)(int){} << 20) / (long long)(int)(({} & 0xfffu) + 1u))", u(d), u(d));
      case 34: case 35: return fmt::format("({} ? {} : {})", cond(d), u(d), u(d));
      case 36: return fmt::format("(unsigned){}", cond(d));
      case 37: return fmt::format("__float2uint_{}({})", rng_.pick(kRound), f(d));
      case 38: return fmt::format("(unsigned)__float2int_{}({})", rng_.pick(kRound), f(d));
      case 39: return fmt::format("(unsigned)__float2ll_{}({})", rng_.pick(kRound), f(d));
      case 40: return fmt::format("(unsigned)(__float2ull_{}({}) >> 7)", rng_.pick(kRound), f(d));
      case 41: return fmt::format("__float_as_uint({})", f(d));
      case 42: return options_.doubles ? fmt::format("__double2uint_{}({})", rng_.pick(kRound), dbl(d)) : uleaf();
      case 43: return options_.doubles ? fmt::format("(unsigned)__double2int_{}({})", rng_.pick(kRound), dbl(d)) : uleaf();
      case 44: return options_.doubles ? fmt::format("(unsigned)__double2hiint({})", dbl(d)) : uleaf();
      case 45: return options_.doubles ? fmt::format("(unsigned)(__double2ll_{}({}) >> 3)", rng_.pick(kRound), dbl(d)) : uleaf();
      case 46: return options_.halves ? fmt::format("(unsigned)__half_as_ushort(__high2half({}))", h(d)) : uleaf();
      default: return fmt::format("(({} << ({} & 31u)) | ({} >> 5))", u(d), u(d), u(d));
    }
  }

  std::string cond(int depth) {
    const int d = depth > 0 ? depth - 1 : 0;
    switch (rng_.below(16)) {
      case 0: return fmt::format("({} < {})", u(d), u(d));
      case 1: return fmt::format("((int){} < (int){})", u(d), u(d));
      case 2: return fmt::format("({} == {})", u(d), u(d));
      case 3: return fmt::format("(({} & 0x{:x}u) != 0u)", u(d), 1u << rng_.below(32));
      case 4: return fmt::format("({} < {})", f(d), f(d));
      case 5: return fmt::format("({} <= {})", f(d), f(d));
      case 6: return fmt::format("({} == {})", f(d), f(d));
      case 7: return fmt::format("({} != {})", f(d), f(d));
      case 8: return fmt::format("!({} >= {})", f(d), f(d));
      case 9: return fmt::format("!({} > {})", f(d), f(d));
      case 10: return fmt::format("isnan({})", f(d));
      case 11: return fmt::format("isinf({})", f(d));
      case 12: return options_.doubles ? fmt::format("({} < {})", dbl(d), dbl(d)) : fmt::format("signbit({})", f(d));
      case 13: return options_.doubles ? fmt::format("!({} >= {})", dbl(d), dbl(d)) : fmt::format("isfinite({})", f(d));
      case 14: return options_.halves ? fmt::format("__hlt(__low2half({}), __high2half({}))", h(d), h(d))
                                      : fmt::format("({} > {})", u(d), u(d));
      default: return fmt::format("({} && {})", cond(0), cond(0));
    }
  }

  std::string f(int depth) {
    if (depth <= 0 || rng_.chance(25)) return fleaf();
    const int d = depth - 1;
    switch (rng_.below(44)) {
      case 0: case 1: return fmt::format("({} + {})", f(d), f(d));
      case 2: case 3: return fmt::format("({} - {})", f(d), f(d));
      case 4: case 5: return fmt::format("({} * {})", f(d), f(d));
      case 6: return fmt::format("({} / {})", f(d), f(d));
      case 7: case 8: return fmt::format("fmaf({}, {}, {})", f(d), f(d), f(d));
      case 9: return fmt::format("fminf({}, {})", f(d), f(d));
      case 10: return fmt::format("fmaxf({}, {})", f(d), f(d));
      case 11: return fmt::format("fabsf({})", f(d));
      case 12: return fmt::format("(-{})", f(d));
      case 13: return fmt::format("sqrtf({})", f(d));
      case 14: return fmt::format("floorf({})", f(d));
      case 15: return fmt::format("ceilf({})", f(d));
      case 16: return fmt::format("truncf({})", f(d));
      case 17: return fmt::format("rintf({})", f(d));
      case 18: return fmt::format("__fadd_{}({}, {})", rng_.pick(kRound), f(d), f(d));
      case 19: return fmt::format("__fsub_{}({}, {})", rng_.pick(kRound), f(d), f(d));
      case 20: return fmt::format("__fmul_{}({}, {})", rng_.pick(kRound), f(d), f(d));
      case 21: return fmt::format("__fmaf_{}({}, {}, {})", rng_.pick(kRound), f(d), f(d), f(d));
      case 22: return fmt::format("__fdiv_{}({}, {})", rng_.pick(kRound), f(d), f(d));
      case 23: return fmt::format("__fsqrt_{}({})", rng_.pick(kRound), f(d));
      case 24: return fmt::format("__frcp_{}({})", rng_.pick(kRound), f(d));
      case 25: return fmt::format("__saturatef({})", f(d));
      case 26: return fmt::format("copysignf({}, {})", f(d), f(d));
      case 27: return fmt::format("__int2float_{}((int){})", rng_.pick(kRound), u(d));
      case 28: return fmt::format("__uint2float_{}({})", rng_.pick(kRound), u(d));
      case 29: return fmt::format("__ll2float_{}((long long)(int){} * 0x10001ll)", rng_.pick(kRound), u(d));
      case 30: return fmt::format("__ull2float_{}((unsigned long long){} << ({} & 31u))", rng_.pick(kRound), u(d), u(d));
      case 31: case 32: return fmt::format("({} ? {} : {})", cond(d), f(d), f(d));
      case 33: return fmt::format("fdimf({}, {})", f(d), f(d));
      case 34: return fmt::format("__uint_as_float({})", u(d));
      case 35: return options_.doubles ? fmt::format("__double2float_{}({})", rng_.pick(kRound), dbl(d)) : fleaf();
      case 36: return options_.doubles ? fmt::format("(float){}", dbl(d)) : fleaf();
      case 37: return options_.halves ? fmt::format("__low2float({})", h(d)) : fleaf();
      case 38: return options_.halves ? fmt::format("__high2float({})", h(d)) : fleaf();
      case 39: return fmt::format("roundf({})", f(d));
      case 40: return fmt::format("({} * {} + {})", f(d), f(d), f(d));  // contracted by nvcc unless -fmad=false
      case 41: return fmt::format("__fmul_rn({}, {})", f(d), f(d));
      case 42: return fmt::format("fmaf(-{}, {}, {})", f(d), f(d), f(d));
      default: return fmt::format("(float)(int)({} & 0xffffu)", u(d));
    }
  }

  std::string dbl(int depth) {
    if (depth <= 0 || rng_.chance(25)) return dleaf();
    const int d = depth - 1;
    switch (rng_.below(26)) {
      case 0: case 1: return fmt::format("({} + {})", dbl(d), dbl(d));
      case 2: return fmt::format("({} - {})", dbl(d), dbl(d));
      case 3: case 4: return fmt::format("({} * {})", dbl(d), dbl(d));
      case 5: return fmt::format("({} / {})", dbl(d), dbl(d));
      case 6: case 7: return fmt::format("fma({}, {}, {})", dbl(d), dbl(d), dbl(d));
      case 8: return fmt::format("fmin({}, {})", dbl(d), dbl(d));
      case 9: return fmt::format("fmax({}, {})", dbl(d), dbl(d));
      case 10: return fmt::format("sqrt({})", dbl(d));
      case 11: return fmt::format("fabs({})", dbl(d));
      case 12: return fmt::format("floor({})", dbl(d));
      case 13: return fmt::format("trunc({})", dbl(d));
      case 14: return fmt::format("(double){}", f(d));
      case 15: return fmt::format("__uint2double_rn({})", u(d));
      case 16: return fmt::format("__int2double_rn((int){})", u(d));
      case 17: return fmt::format("__ll2double_{}((long long){} << ({} & 63u))", rng_.pick(kRound), u(d), u(d));
      case 18: return fmt::format("__dadd_{}({}, {})", rng_.pick(kRound), dbl(d), dbl(d));
      case 19: return fmt::format("__dmul_{}({}, {})", rng_.pick(kRound), dbl(d), dbl(d));
      case 20: return fmt::format("__fma_{}({}, {}, {})", rng_.pick(kRound), dbl(d), dbl(d), dbl(d));
      case 21: return fmt::format("({} ? {} : {})", cond(d), dbl(d), dbl(d));
      case 22: return fmt::format("__hiloint2double((int){}, (int){})", u(d), u(d));
      case 23: return fmt::format("(-{})", dbl(d));
      case 24: return fmt::format("rint({})", dbl(d));
      default: return fmt::format("ceil({})", dbl(d));
    }
  }

  std::string h(int depth) {
    if (depth <= 0 || rng_.chance(30)) return hleaf();
    const int d = depth - 1;
    switch (rng_.below(12)) {
      case 0: return fmt::format("__hadd2({}, {})", h(d), h(d));
      case 1: return fmt::format("__hsub2({}, {})", h(d), h(d));
      case 2: return fmt::format("__hmul2({}, {})", h(d), h(d));
      case 3: return fmt::format("__hfma2({}, {}, {})", h(d), h(d), h(d));
      case 4: return fmt::format("__hadd2_sat({}, {})", h(d), h(d));
      case 5: return fmt::format("__floats2half2_rn({}, {})", f(d), f(d));
      case 6: return fmt::format("__halves2half2(__float2half_rz({}), __float2half_rd({}))", f(d), f(d));
      case 7: return fmt::format("__hmul2_sat({}, {})", h(d), h(d));
      case 8: return fmt::format("__lowhigh2highlow({})", h(d));
      case 9: return fmt::format("__hneg2({})", h(d));
      case 10: return fmt::format("__halves2half2(__ushort_as_half((unsigned short){}), __low2half({}))", u(d), h(d));
      default: return fmt::format("__hfma2({}, __float2half2_rn({}), {})", h(d), f(d), h(d));
    }
  }

  std::string assignment(const std::string& pad) {
    switch (rng_.below(options_.halves ? 10 : 9)) {
      case 0: case 1: case 2: return fmt::format("{}{} = {};\n", pad, uvar(), u(3));
      case 3: case 4: case 5: return fmt::format("{}{} = {};\n", pad, fvar(), f(3));
      case 6: case 7: return options_.doubles ? fmt::format("{}{} = {};\n", pad, dvar(), dbl(3))
                                              : fmt::format("{}{} = {};\n", pad, fvar(), f(3));
      case 8: return fmt::format("{}{} += {};\n", pad, fvar(), f(2));
      default: return fmt::format("{}h0 = {};\n", pad, h(3));
    }
  }

  std::string block(int level) {
    std::string s;
    const int n = 1 + static_cast<int>(rng_.below(3));
    for (int i = 0; i < n; ++i) s += statement(level, false);
    return s;
  }

  // One statement at nesting `level` (0 = the kernel's body); `converged`: every thread of the
  // block reaches it together (barriers, full-mask shuffles and votes only there).
  std::string statement(int level, bool converged) {
    const std::string pad(2 * (level + 1), ' ');
    const bool nest = level < 3;
    std::uint32_t choice = rng_.below(converged && !inHelper_ ? 30 : 22);
    if (!options_.control && choice < 22) choice = 22 + rng_.below(8);
    if (!options_.blockOps && choice >= 22) choice = 10;
    if (!options_.control && !options_.blockOps) choice = 10;
    switch (choice) {
      case 0: case 1:
        if (!nest) break;
        return fmt::format("{}if ({}) {{\n{}{}}} else {{\n{}{}}}\n", pad, cond(2), block(level + 1), pad, block(level + 1), pad);
      case 2:
        if (!nest) break;
        return fmt::format("{}if ({}) {{\n{}{}}}\n", pad, cond(2), block(level + 1), pad);
      case 3: {
        if (!nest) break;
        const int i = loopCounter_++;
        return fmt::format("{0}for (unsigned i{1} = 0; i{1} < ({2} & 7u); ++i{1}) {{\n{3}{0}}}\n", pad, i, u(2),
                           block(level + 1));
      }
      case 4: {
        if (!nest) break;
        const int i = loopCounter_++;
        return fmt::format("{0}for (unsigned w{1} = 0; ({2}) && w{1} < 6u; ++w{1}) {{\n{3}{0}}}\n", pad, i, cond(1),
                           block(level + 1));
      }
      case 5: {
        if (!nest) break;
        return fmt::format("{0}switch ({1} & 3u) {{\n{0}  case 0: {{\n{2}{0}  }} break;\n{0}  case 1: {{\n{3}{0}  }}\n"
                           "{0}  case 2: {{\n{4}{0}  }} break;\n{0}  default: {{\n{5}{0}  }}\n{0}}}\n",
                           pad, u(1), block(level + 2), block(level + 2), block(level + 2), block(level + 2));
      }
      case 6:
        if (inHelper_) break;
        return fmt::format("{}la[{} & 7u] = {};\n", pad, u(1), u(2));
      case 7:
        if (inHelper_) break;
        return fmt::format("{}{} = la[{} & 7u] + {};\n", pad, uvar(), u(1), u(1));
      case 8:
        if (inHelper_) break;
        return fmt::format("{}lf[{} & 7u] = {}; {} = lf[{} & 7u];\n", pad, u(1), f(2), fvar(), u(1));
      case 9:
        if (helperName_.empty() || inHelper_) break;
        return fmt::format("{}{} = {}({}, {});\n", pad, uvar(), helperName_, u(1), f(1));
      // converged only
      case 22: case 23: {
        const std::string idx = rng_.chance(50) ? fmt::format("(tid + {}u) % blockDim.x", 1 + rng_.below(127))
                                                : fmt::format("{} % blockDim.x", u(1));
        return fmt::format("{0}su[tid] = {1}; sf[tid] = {2};\n{0}__syncthreads();\n{0}{3} = su[{5}]; {4} = sf[{5}];\n"
                           "{0}__syncthreads();\n",
                           pad, u(2), f(2), uvar(), fvar(), idx);
      }
      case 24: {
        static constexpr std::array<const char*, 5> atomics = {"atomicAdd", "atomicOr", "atomicXor", "atomicMax", "atomicMin"};
        return fmt::format("{0}su[tid] = {1};\n{0}__syncthreads();\n{0}{2}(&su[{3} % blockDim.x], {4});\n"
                           "{0}__syncthreads();\n{0}{5} ^= su[{6} % blockDim.x];\n{0}__syncthreads();\n",
                           pad, u(1), rng_.pick(atomics), u(1), u(1), uvar(), u(1));
      }
      case 25: {
        static constexpr std::array<const char*, 4> widths = {"32", "32", "16", "8"};
        return fmt::format("{}{} = __shfl_sync(0xffffffffu, {}, {}, {});\n", pad, uvar(), u(2), u(1), rng_.pick(widths));
      }
      case 26:
        return fmt::format("{}{} = __shfl_xor_sync(0xffffffffu, {}, {}u);\n", pad, fvar(), f(2), 1u << rng_.below(5));
      case 27:
        return rng_.chance(50)
                   ? fmt::format("{}{} = __shfl_up_sync(0xffffffffu, {}, {}u);\n", pad, uvar(), u(2), rng_.below(32))
                   : fmt::format("{}{} = __shfl_down_sync(0xffffffffu, {}, {}u);\n", pad, dvar(), dbl(2), rng_.below(32));
      case 28:
        return fmt::format("{}{} ^= __ballot_sync(0xffffffffu, {});\n", pad, uvar(), cond(2));
      case 29:
        return fmt::format("{}{} += (unsigned)__any_sync(0xffffffffu, {}) + 2u * (unsigned)__all_sync(0xffffffffu, {});\n",
                           pad, uvar(), cond(1), cond(1));
      default: break;
    }
    return assignment(pad);
  }

  std::string approxStatement(int slot, Approx& kind) {
    struct Form { Approx kind; const char* ptx; int operands; };
    static constexpr std::array<Form, 13> forms = {{
        {Approx::Sin, "sin.approx.f32", 1},   {Approx::Cos, "cos.approx.ftz.f32", 1},
        {Approx::Exp2, "ex2.approx.f32", 1},  {Approx::Exp2, "ex2.approx.ftz.f32", 1},
        {Approx::Log2, "lg2.approx.f32", 1},  {Approx::Log2, "lg2.approx.ftz.f32", 1},
        {Approx::Rsqrt, "rsqrt.approx.f32", 1}, {Approx::Rsqrt, "rsqrt.approx.ftz.f32", 1},
        {Approx::Rcp, "rcp.approx.f32", 1},   {Approx::Rcp, "rcp.approx.ftz.f32", 1},
        {Approx::Divide, "div.approx.f32", 2}, {Approx::Tanh, "tanh.approx.f32", 1},
        {Approx::Exp, "", 1},
    }};
    const Form& form = rng_.pick(forms);
    kind = form.kind;
    const std::string at = fmt::format("gid * {} + {}", kApproxPerThread, slot);
    // ai keeps the argument (the divisor for div), compared bit for bit; the bound depends on it.
    if (form.kind == Approx::Exp)
      return fmt::format("  {{ const float x = {}; ai[{}] = x; ao[{}] = __expf(x); }}\n", f(1), at, at);
    if (form.operands == 2)
      return fmt::format("  {{ const float x = {}, y = {}; float r; asm(\"{} %0, %1, %2;\" : \"=f\"(r) : \"f\"(x), \"f\"(y)); "
                         "ai[{}] = y; ao[{}] = r; }}\n",
                         f(1), f(1), form.ptx, at, at);
    return fmt::format("  {{ const float x = {}; float r; asm(\"{} %0, %1;\" : \"=f\"(r) : \"f\"(x)); ai[{}] = x; ao[{}] = r; }}\n",
                       f(1), form.ptx, at, at);
  }

  Rng rng_;
  GeneratorOptions options_;
  std::string helperName_;
  bool inHelper_ = false;
  int loopCounter_ = 0;
};

}  // namespace

GeneratedKernel generateKernel(std::uint64_t seed, const GeneratorOptions& options) {
  return Generator(seed * 0x2545f4914f6cdd1dull + 1, options).run(seed);
}

std::string translationUnit(const std::vector<GeneratedKernel>& kernels) {
  std::string s = "// Generated by teg's differential tester (tests/differential): random kernels, one seed each.\n"
                  "#include <cuda_fp16.h>\n\n";
  for (const auto& k : kernels) s += k.source + "\n";
  return s;
}

KernelInputs generateInputs(const GeneratedKernel& kernel) {
  Rng rng(kernel.seed ^ 0x5bd1e9955bd1e995ull);
  const std::size_t threads = threadCount(kernel);
  KernelInputs in;
  in.ui.resize(threads * kInputsPerThread);
  in.fi.resize(threads * kInputsPerThread);
  in.di.resize(threads * kDoublesPerThread);
  for (auto& v : in.ui) v = randomUnsigned(rng);
  for (auto& v : in.fi) v = randomFloat(rng);
  for (auto& v : in.di) v = randomDouble(rng);
  return in;
}

std::optional<ApproxBound> approxBound(Approx kind, float argument) {
  // PTX ISA 9.x, the .approx instructions' "maximum error" notes (as tests/unit/emu/
  // arithmetic_test.cpp cites them): rcp 1 ulp; sin/cos 2^-20.5 absolute in [-pi, pi]; ex2 2 ulp;
  // lg2 2^-22 absolute; rsqrt 2^-22.9 relative (~1 ulp); div 2 ulp for |b| in [2^-126, 2^126];
  // tanh 2^-10.987 relative (2^12 ulps); __expf 2 + floor(|1.173 x|) ulp (CUDA C++ Programming
  // Guide, "Intrinsic Functions"). Outside [-pi, pi], sin/cos are documented without a bound; ptxas
  // reduces the argument by one FMUL.RZ with 1/(2 pi) (relative error <= 2^-23 each for the
  // product and the constant), which moves the angle by up to |x| 2^-22: the bound used there.
  const double x = std::fabs(static_cast<double>(argument));
  const double sinCos = std::ldexp(1.0, -20) / 1.4142135623730951;  // 2^-20.5
  switch (kind) {
    case Approx::Sin: return ApproxBound{"sin.approx", 2, sinCos + (x > 3.14159265358979 ? x * std::ldexp(1.0, -22) : 0)};
    case Approx::Cos: return ApproxBound{"cos.approx", 2, sinCos + (x > 3.14159265358979 ? x * std::ldexp(1.0, -22) : 0)};
    case Approx::Exp2: return ApproxBound{"ex2.approx", 2, 0};
    case Approx::Log2: return ApproxBound{"lg2.approx", 2, std::ldexp(1.0, -22)};
    case Approx::Exp: return ApproxBound{"__expf", 2 + std::floor(1.173 * x), 0};
    case Approx::Rsqrt: return ApproxBound{"rsqrt.approx", 1, 0};
    case Approx::Rcp: return ApproxBound{"rcp.approx", 1, 0};
    case Approx::Divide:
      if (!(x >= std::ldexp(1.0, -126) && x <= std::ldexp(1.0, 126))) return std::nullopt;
      return ApproxBound{"div.approx", 2, 0};
    case Approx::Tanh: return ApproxBound{"tanh.approx", 4096, 0};
    case Approx::None: break;
  }
  return std::nullopt;
}

}  // namespace teg::differential
