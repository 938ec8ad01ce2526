// Floating-point arithmetic, comparisons and conversions (PTX ISA §9.7.3-9.7.5, setp/set §9.7.6,
// cvt §9.7.9.21). Rounding modifiers use the host's IEEE rounding modes; .approx functions are
// computed in double precision and rounded, which is within every documented max error.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "block_runner.hpp"
#include "float_math.hpp"
#include "lanes.hpp"

namespace teg::emu {

using ptx::CompareOp;
using ptx::Opcode;
using ptx::Qualifier;
using ptx::Type;

namespace {

// Applies a scalar binary operation in the given precision, rounding mode, ftz and sat.
template <class T>
T arith(Opcode op, T a, T b, T c, int mode) {
  switch (op) {
    case Opcode::Add: return underRounding<T>(mode, [&] { volatile T x = a, y = b; return x + y; });
    case Opcode::Sub: return underRounding<T>(mode, [&] { volatile T x = a, y = b; return x - y; });
    case Opcode::Mul: return underRounding<T>(mode, [&] { volatile T x = a, y = b; return x * y; });
    case Opcode::Fma:
    case Opcode::Mad: return underRounding<T>(mode, [&] { volatile T x = a, y = b, z = c; return std::fma(x, y, z); });
    case Opcode::Div: return underRounding<T>(mode, [&] { volatile T x = a, y = b; return x / y; });
    default: return T(0);
  }
}

// fma.rn.f32 without ftz or sat over the lanes of `exec`. A build for baseline x86-64 has no FMA
// instruction, so std::fma is a libm call per lane; this loop alone gets a clone for FMA hardware,
// chosen at load time, which computes the same single rounding inline. Not the whole build: GCC
// would then contract the timing model's a * b + c into FMAs and change its results.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
[[gnu::target_clones("fma", "default")]]
#endif
void fmaLanes(std::uint32_t exec, std::uint64_t* out, BlockRunner::View a, BlockRunner::View b, BlockRunner::View c) {
  forEachLane(exec, [&](int l) { out[l] = canonical32(std::fma(f32(a[l]), f32(b[l]), f32(c[l]))); });
}

// The canonical NaN PTX instructions produce (all mantissa bits set, PTX ISA §9.7.3).
template <class T>
T canonicalNaN() {
  if constexpr (sizeof(T) == 4) return std::bit_cast<T>(0x7fffffffu);
  else if constexpr (sizeof(T) == 8) return std::bit_cast<T>(0x7fffffffffffffffull);
  else return std::numeric_limits<T>::quiet_NaN();
}

template <class T>
T minMax(bool isMin, T a, T b, bool propagateNaN) {
  if (std::isnan(a) || std::isnan(b)) {
    if (propagateNaN || (std::isnan(a) && std::isnan(b))) return canonicalNaN<T>();
    return std::isnan(a) ? b : a;
  }
  if (a == 0 && b == 0) return (std::signbit(a) == isMin) ? a : b;  // min(-0,+0) = -0, max = +0
  return isMin ? std::min(a, b) : std::max(a, b);
}

bool compare(CompareOp op, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (op) {
    case CompareOp::Eq: return !unordered && a == b;
    case CompareOp::Ne: return !unordered && a != b;
    case CompareOp::Lt: return !unordered && a < b;
    case CompareOp::Le: return !unordered && a <= b;
    case CompareOp::Gt: return !unordered && a > b;
    case CompareOp::Ge: return !unordered && a >= b;
    case CompareOp::Equ: return unordered || a == b;
    case CompareOp::Neu: return unordered || a != b;
    case CompareOp::Ltu: return unordered || a < b;
    case CompareOp::Leu: return unordered || a <= b;
    case CompareOp::Gtu: return unordered || a > b;
    case CompareOp::Geu: return unordered || a >= b;
    case CompareOp::Num: return !unordered;
    case CompareOp::Nan: return unordered;
    default: return false;
  }
}

template <class I>
bool compareInt(CompareOp op, I a, I b) {
  switch (op) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: case CompareOp::Lo: return a < b;
    case CompareOp::Le: case CompareOp::Ls: return a <= b;
    case CompareOp::Gt: case CompareOp::Hi: return a > b;
    case CompareOp::Ge: case CompareOp::Hs: return a >= b;
    default: return false;
  }
}

// Reads a 16-bit float lane value as double.
double half(Type t, std::uint64_t bits) {
  return t == Type::Bf16 || t == Type::Bf16x2 ? fromBf16(static_cast<std::uint16_t>(bits))
                                              : fromHalf(static_cast<std::uint16_t>(bits));
}

}  // namespace

bool BlockRunner::execFloat(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec) {
  switch (d.op) {
    case Opcode::Mov: case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Not:
    case Opcode::Selp: case Opcode::Slct:
      return false;  // bitwise: the integer path
    default: break;
  }
  const View a = d.numSrc > 0 ? read(w, f, d.src[0], scratch_[0].data()) : View{scratch_[0].data(), 0};
  const View b = d.numSrc > 1 ? read(w, f, d.src[1], scratch_[1].data()) : View{scratch_[1].data(), 0};
  const View c = d.numSrc > 2 ? read(w, f, d.src[2], scratch_[2].data()) : View{scratch_[2].data(), 0};
  const int mode = hostRounding(d.ir->rounding);
  const bool ftz = d.ir->has(ptx::modifier::kFtz);
  const bool sat = d.ir->has(ptx::modifier::kSat);
  const bool nanq = [&] {
    for (Qualifier q : f.code->function->qualifiersOf(*d.ir))
      if (q == Qualifier::NaNQ) return true;
    return false;
  }();
  const Src& dst = d.dst;

  if (d.type == Type::F32) {
    std::uint64_t* out = dstRow(f, dst);
    const bool plain = !ftz && !sat && mode < 0 && dst.kind == SrcKind::Reg;
    if (plain) {  // the hot forms: round-to-nearest, no ftz/sat
      switch (d.op) {
        case Opcode::Add: forEachLane(exec, [&](int l) { out[l] = canonical32(f32(a[l]) + f32(b[l])); }); return true;
        case Opcode::Sub: forEachLane(exec, [&](int l) { out[l] = canonical32(f32(a[l]) - f32(b[l])); }); return true;
        case Opcode::Mul: forEachLane(exec, [&](int l) { out[l] = canonical32(f32(a[l]) * f32(b[l])); }); return true;
        case Opcode::Fma:
        case Opcode::Mad:
          fmaLanes(exec, out, a, b, c);
          return true;
        default: break;
      }
    }
    auto in = [&](std::uint64_t v) { return ftz ? flush(f32(v)) : f32(v); };
    auto fin = [&](int l, float r) {
      if (ftz) r = flush(r);
      if (sat) r = saturate(r);
      write(f, dst, l, canonical32(r));
    };
    switch (d.op) {
      case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Fma: case Opcode::Mad: case Opcode::Div:
        forEachLane(exec, [&](int l) { fin(l, arith<float>(d.op, in(a[l]), in(b[l]), in(c[l]), mode)); });
        return true;
      case Opcode::Abs: forEachLane(exec, [&](int l) { fin(l, std::fabs(in(a[l]))); }); return true;
      case Opcode::Neg: forEachLane(exec, [&](int l) { fin(l, -in(a[l])); }); return true;
      case Opcode::Min:
      case Opcode::Max:
        forEachLane(exec, [&](int l) { fin(l, minMax(d.op == Opcode::Min, in(a[l]), in(b[l]), nanq)); });
        return true;
      case Opcode::Rcp:
        forEachLane(exec, [&](int l) { fin(l, arith<float>(Opcode::Div, 1.0f, in(a[l]), 0.0f, mode)); });
        return true;
      case Opcode::Sqrt:
        forEachLane(exec, [&](int l) { fin(l, underRounding<float>(mode, [&] { volatile float x = in(a[l]); return std::sqrt(x); })); });
        return true;
      case Opcode::Rsqrt:
        forEachLane(exec, [&](int l) { fin(l, static_cast<float>(1.0 / std::sqrt(static_cast<double>(in(a[l]))))); });
        return true;
      case Opcode::Sin: forEachLane(exec, [&](int l) { fin(l, static_cast<float>(std::sin(static_cast<double>(in(a[l]))))); }); return true;
      case Opcode::Cos: forEachLane(exec, [&](int l) { fin(l, static_cast<float>(std::cos(static_cast<double>(in(a[l]))))); }); return true;
      case Opcode::Lg2: forEachLane(exec, [&](int l) { fin(l, static_cast<float>(std::log2(static_cast<double>(in(a[l]))))); }); return true;
      case Opcode::Ex2: forEachLane(exec, [&](int l) { fin(l, static_cast<float>(std::exp2(static_cast<double>(in(a[l]))))); }); return true;
      case Opcode::Tanh: forEachLane(exec, [&](int l) { fin(l, static_cast<float>(std::tanh(static_cast<double>(in(a[l]))))); }); return true;
      case Opcode::Copysign: forEachLane(exec, [&](int l) { write(f, dst, l, bits32(std::copysign(f32(b[l]), f32(a[l])))); }); return true;
      case Opcode::Testp: break;
      default: return false;
    }
  }
  if (d.type == Type::F64) {
    auto in = [&](std::uint64_t v) { return ftz ? flush(f64(v)) : f64(v); };
    auto fin = [&](int l, double r) {
      if (ftz) r = flush(r);
      if (sat) r = saturate(r);
      write(f, dst, l, canonical64(r));
    };
    // div/rcp/sqrt.f64 with IEEE rounding are ptxas subroutines whose NaNs are built bit by bit
    // (float_math.hpp, softwareDivide64); the .approx forms are MUFU instructions.
    const bool software = !d.ir->has(ptx::modifier::kApprox) && !ftz && !sat;
    switch (d.op) {
      case Opcode::Div:
        if (software) {
          forEachLane(exec, [&](int l) {
            const double x = f64(a[l]), y = f64(b[l]);
            write(f, dst, l, softwareDivide64(x, y, arith<double>(Opcode::Div, x, y, 0.0, mode)));
          });
          return true;
        }
        [[fallthrough]];
      case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Fma: case Opcode::Mad:
        forEachLane(exec, [&](int l) { fin(l, arith<double>(d.op, in(a[l]), in(b[l]), in(c[l]), mode)); });
        return true;
      case Opcode::Abs: forEachLane(exec, [&](int l) { fin(l, std::fabs(in(a[l]))); }); return true;
      case Opcode::Neg: forEachLane(exec, [&](int l) { fin(l, -in(a[l])); }); return true;
      case Opcode::Min:
      case Opcode::Max:
        // ptxas lowers min/max.f64 on every architecture (sm_75-sm_120) to DSETP.MIN/.MAX P0, P1, a,
        // b; FSEL/SEL on P0; `@P1 LOP3.LUT hi, b.hi, 0x80000` (P1: both NaN): two NaNs give b
        // quieted, with its payload and sign.
        forEachLane(exec, [&](int l) {
          const double x = in(a[l]), y = in(b[l]);
          if (std::isnan(x) && std::isnan(y) && !nanq && !ftz && !sat) write(f, dst, l, quietNaN64(bits64(y)));
          else fin(l, minMax(d.op == Opcode::Min, x, y, nanq));
        });
        return true;
      case Opcode::Rcp:
        if (software) {
          forEachLane(exec, [&](int l) {
            write(f, dst, l, softwareReciprocal64(f64(a[l]), arith<double>(Opcode::Div, 1.0, f64(a[l]), 0.0, mode)));
          });
          return true;
        }
        // rcp.approx.ftz.f64 is a ~1 ulp-of-f32 approximation on hardware; the exact value is closer.
        forEachLane(exec, [&](int l) { fin(l, arith<double>(Opcode::Div, 1.0, in(a[l]), 0.0, mode)); });
        return true;
      case Opcode::Sqrt:
        if (software) {
          forEachLane(exec, [&](int l) {
            const double x = f64(a[l]);
            const double r = underRounding<double>(mode, [&] { volatile double v = x; return std::sqrt(v); });
            write(f, dst, l, softwareSqrt64(x, r, d.ir->rounding == ptx::Rounding::Rn || d.ir->rounding == ptx::Rounding::None));
          });
          return true;
        }
        forEachLane(exec, [&](int l) { fin(l, underRounding<double>(mode, [&] { volatile double x = in(a[l]); return std::sqrt(x); })); });
        return true;
      case Opcode::Rsqrt: forEachLane(exec, [&](int l) { fin(l, 1.0 / std::sqrt(in(a[l]))); }); return true;
      case Opcode::Copysign: forEachLane(exec, [&](int l) { write(f, dst, l, bits64(std::copysign(f64(b[l]), f64(a[l])))); }); return true;
      case Opcode::Testp: break;
      default: return false;
    }
  }
  if (d.op == Opcode::Testp) {
    std::string_view what;
    for (Qualifier q : f.code->function->qualifiersOf(*d.ir)) {
      const std::string_view s = ctx_.program->module->qualifierSpelling(q);
      if (s == ".finite" || s == ".infinite" || s == ".number" || s == ".notanumber" || s == ".normal" ||
          s == ".subnormal")
        what = s;
    }
    forEachLane(exec, [&](int l) {
      const double x = d.type == Type::F32 ? static_cast<double>(f32(a[l])) : f64(a[l]);
      const int cls = d.type == Type::F32 ? std::fpclassify(f32(a[l])) : std::fpclassify(x);
      bool r = false;
      if (what == ".finite") r = std::isfinite(x);
      else if (what == ".infinite") r = std::isinf(x);
      else if (what == ".number") r = !std::isnan(x);
      else if (what == ".notanumber") r = std::isnan(x);
      else if (what == ".normal") r = cls == FP_NORMAL;
      else if (what == ".subnormal") r = cls == FP_SUBNORMAL;
      write(f, dst, l, r ? 1 : 0);
    });
    return true;
  }
  // Half precision (f16, bf16) and their x2 pairs: computed in double, rounded once.
  const bool pair = d.type == Type::F16x2 || d.type == Type::Bf16x2;
  const bool bf = d.type == Type::Bf16 || d.type == Type::Bf16x2;
  auto narrowTo = [&](double r) -> std::uint64_t {
    if (sat) r = saturate(r);
    std::uint16_t h = bf ? toBf16(r, mode) : toHalf(r, mode);
    if (ftz && !bf && (h & 0x7c00) == 0) h &= 0x8000;
    return h;
  };
  auto one = [&](Opcode op, double x, double y, double z) -> double {
    if (ftz && !bf) {
      if (std::fabs(x) < 6.103515625e-05) x = std::copysign(0.0, x);
      if (std::fabs(y) < 6.103515625e-05) y = std::copysign(0.0, y);
      if (std::fabs(z) < 6.103515625e-05) z = std::copysign(0.0, z);
    }
    switch (op) {
      case Opcode::Add: return x + y;
      case Opcode::Sub: return x - y;
      case Opcode::Mul: return x * y;
      case Opcode::Fma: case Opcode::Mad: return std::fma(x, y, z);
      case Opcode::Abs: return std::fabs(x);
      case Opcode::Neg: return -x;
      case Opcode::Min: case Opcode::Max: return minMax(op == Opcode::Min, x, y, nanq);
      case Opcode::Ex2: return std::exp2(x);
      case Opcode::Tanh: return std::tanh(x);
      case Opcode::Rcp: return 1.0 / x;
      case Opcode::Sqrt: return std::sqrt(x);
      default: return std::numeric_limits<double>::quiet_NaN();
    }
  };
  switch (d.op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Fma: case Opcode::Mad: case Opcode::Abs:
    case Opcode::Neg: case Opcode::Min: case Opcode::Max: case Opcode::Ex2: case Opcode::Tanh:
      break;
    default: return false;
  }
  forEachLane(exec, [&](int l) {
    std::uint64_t r = 0;
    for (int h = 0; h < (pair ? 2 : 1); ++h) {
      const int sh = 16 * h;
      const double x = half(d.type, (a[l] >> sh) & 0xffffu);
      const double y = half(d.type, (b[l] >> sh) & 0xffffu);
      const double z = half(d.type, (c[l] >> sh) & 0xffffu);
      // abs/neg of a NaN give the canonical NaN like the arithmetic (PTX ISA: "NaN inputs yield an
      // unspecified NaN"): ptxas implements neg.f16x2 as HADD2 d, -a, -RZ, which does.
      r |= narrowTo(one(d.op, x, y, z)) << sh;
    }
    write(f, dst, l, r);
  });
  return true;
}

void BlockRunner::execSetp(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec) {
  const Type t = d.op == Opcode::Set ? d.type2 : d.type;
  const View a = read(w, f, d.src[0], scratch_[0].data());
  const View b = read(w, f, d.src[1], scratch_[1].data());
  const bool hasC = d.numSrc > 2;
  const View c = hasC ? read(w, f, d.src[2], scratch_[2].data()) : View{scratch_[2].data(), 0};
  const bool cNeg = hasC && d.src[2].negated;
  const auto bop = static_cast<Qualifier>(d.qual);
  const CompareOp op = d.ir->compare;
  const int bits = bitsOf(t);
  const bool ftz = d.ir->has(ptx::modifier::kFtz);
  if (t == Type::F16x2 || t == Type::Bf16x2) {
    if (exec) fail(w, std::countr_zero(exec), d, "packed half comparison not supported by the emulator");
    return;
  }
  auto cmp = [&](int l) -> bool {
    switch (t) {
      case Type::F32: {
        float x = f32(a[l]), y = f32(b[l]);
        if (ftz) { x = flush(x); y = flush(y); }
        return compare(op, x, y);
      }
      case Type::F64: return compare(op, f64(a[l]), f64(b[l]));
      case Type::F16: case Type::Bf16: return compare(op, half(t, a[l] & 0xffffu), half(t, b[l] & 0xffffu));
      default:
        if (ptx::isSignedType(t)) return compareInt(op, signExtend(a[l], bits), signExtend(b[l], bits));
        return compareInt(op, lowBits(a[l], bits), lowBits(b[l], bits));
    }
  };
  auto combine = [&](bool r, int l) -> bool {
    if (!hasC) return r;
    const bool p = ((c[l] & 1u) != 0) != cNeg;
    switch (bop) {
      case Qualifier::And: return r && p;
      case Qualifier::Or: return r || p;
      case Qualifier::Xor: return r != p;
      default: return r;
    }
  };
  if (d.op == Opcode::Setp) {
    std::uint64_t* out = dstRow(f, d.dst);
    const bool plain = !hasC && !d.hasDst2 && d.dst.kind == SrcKind::Reg;
    if (plain && (t == Type::S32 || t == Type::U32 || t == Type::S64 || t == Type::U64 || t == Type::B32)) {
      const bool s = ptx::isSignedType(t);
      forEachLane(exec, [&](int l) {
        out[l] = s ? compareInt(op, signExtend(a[l], bits), signExtend(b[l], bits))
                   : compareInt(op, lowBits(a[l], bits), lowBits(b[l], bits));
      });
      return;
    }
    forEachLane(exec, [&](int l) {
      const bool r = cmp(l);
      write(f, d.dst, l, combine(r, l) ? 1 : 0);
      if (d.hasDst2) write(f, d.dst2, l, combine(!r, l) ? 1 : 0);
    });
    return;
  }
  // set.cmp.dtype.stype: 1.0f or 0xffffffff when true, 0 when false.
  const bool floatDst = d.type == Type::F32;
  forEachLane(exec, [&](int l) {
    const bool r = combine(cmp(l), l);
    write(f, d.dst, l, r ? (floatDst ? 0x3f800000u : 0xffffffffu) : 0);
  });
}

void BlockRunner::execConvert(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec) {
  const Type dt = d.type, st = d.type2;
  const View a = read(w, f, d.src[0], scratch_[0].data());
  const bool ftz = d.ir->has(ptx::modifier::kFtz);
  const bool sat = d.ir->has(ptx::modifier::kSat);
  const ptx::Rounding rnd = d.ir->rounding;
  const int mode = hostRounding(rnd);
  const int sbits = bitsOf(st), dbits = bitsOf(dt);
  const bool sFloat = ptx::isFloatType(st), dFloat = ptx::isFloatType(dt);
  const bool dSigned = ptx::isSignedType(dt);
  std::uint64_t* out = dstRow(f, d.dst);
  bool satfinite = false;  // .satfinite: overflow gives the largest finite value, not infinity
  for (Qualifier q : f.code->function->qualifiersOf(*d.ir))
    if (q == Qualifier::Satfinite) satfinite = true;

  // Hot forms: widening/narrowing integer moves.
  if (!sFloat && !dFloat && !sat && d.dst.kind == SrcKind::Reg) {
    const bool sSigned = ptx::isSignedType(st);
    const std::uint64_t dmask = d.dst.regBits >= 64 ? ~0ull : ((1ull << d.dst.regBits) - 1);
    if (sSigned)
      forEachLane(exec, [&](int l) {
        const std::uint64_t v = static_cast<std::uint64_t>(signExtend(a[l], sbits));
        out[l] = (dSigned ? static_cast<std::uint64_t>(signExtend(v, dbits)) : lowBits(v, dbits)) & dmask;
      });
    else
      forEachLane(exec, [&](int l) {
        const std::uint64_t v = lowBits(a[l], sbits);
        out[l] = (dSigned ? static_cast<std::uint64_t>(signExtend(v, dbits)) : lowBits(v, dbits)) & dmask;
      });
    return;
  }
  auto sourceValue = [&](int l, bool& isInt, std::int64_t& si, std::uint64_t& ui) -> double {
    isInt = !sFloat;
    if (!sFloat) {
      si = signExtend(a[l], sbits);
      ui = lowBits(a[l], sbits);
      return ptx::isSignedType(st) ? static_cast<double>(si) : static_cast<double>(ui);
    }
    switch (st) {
      case Type::F32: return ftz ? flush(f32(a[l])) : f32(a[l]);
      case Type::F64: return f64(a[l]);
      case Type::F16: return fromHalf(static_cast<std::uint16_t>(a[l]));
      case Type::Bf16: return fromBf16(static_cast<std::uint16_t>(a[l]));
      default: return std::numeric_limits<double>::quiet_NaN();
    }
  };
  if ((dt == Type::F16x2 || dt == Type::Bf16x2) && st == Type::F32 && d.numSrc == 2) {
    // cvt.rn{.relu}.f16x2.f32 d, a, b: a goes to the upper half, b to the lower (PTX ISA cvt).
    const View b = read(w, f, d.src[1], scratch_[1].data());
    bool relu = false;
    for (Qualifier q : f.code->function->qualifiersOf(*d.ir))
      if (q == Qualifier::Relu) relu = true;
    auto one = [&](std::uint64_t v) -> std::uint64_t {
      double x = f32(v);
      if (relu && !std::isnan(x) && x < 0) x = 0;
      return dt == Type::F16x2 ? toHalf(x, mode, satfinite) : toBf16(x, mode);
    };
    forEachLane(exec, [&](int l) { write(f, d.dst, l, (one(a[l]) << 16) | one(b[l])); });
    return;
  }
  if (sFloat && !(st == Type::F32 || st == Type::F64 || st == Type::F16 || st == Type::Bf16)) {
    if (exec) fail(w, std::countr_zero(exec), d, "conversion not supported by the emulator");
    return;
  }
  forEachLane(exec, [&](int l) {
    bool isInt;
    std::int64_t si = 0;
    std::uint64_t ui = 0;
    const double x = sourceValue(l, isInt, si, ui);
    std::uint64_t r = 0;
    if (!dFloat) {
      if (isInt) {  // integer -> integer with .sat
        const bool sSigned = ptx::isSignedType(st);
        if (dSigned) {
          const std::int64_t lo = dbits >= 64 ? INT64_MIN : -(std::int64_t{1} << (dbits - 1));
          const std::int64_t hi = dbits >= 64 ? INT64_MAX : (std::int64_t{1} << (dbits - 1)) - 1;
          if (sSigned) r = static_cast<std::uint64_t>(std::clamp(si, lo, hi));
          else r = ui > static_cast<std::uint64_t>(hi) ? static_cast<std::uint64_t>(hi) : ui;
        } else {
          const std::uint64_t hi = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
          if (sSigned) r = si < 0 ? 0 : std::min<std::uint64_t>(static_cast<std::uint64_t>(si), hi);
          else r = std::min(ui, hi);
        }
        write(f, d.dst, l, r);
        return;
      }
      // float -> integer: round as the modifier says (.rni default), saturate, NaN -> 0.
      double v;
      switch (rnd) {
        case ptx::Rounding::Rzi: case ptx::Rounding::Rz: v = std::trunc(x); break;
        case ptx::Rounding::Rmi: case ptx::Rounding::Rm: v = std::floor(x); break;
        case ptx::Rounding::Rpi: case ptx::Rounding::Rp: v = std::ceil(x); break;
        default: v = std::nearbyint(x); break;
      }
      if (std::isnan(v)) r = 0;
      else if (dSigned) {
        const double lo = dbits >= 64 ? -9223372036854775808.0 : -std::ldexp(1.0, dbits - 1);
        const double hi = dbits >= 64 ? 9223372036854775807.0 : std::ldexp(1.0, dbits - 1) - 1;
        if (v <= lo) r = static_cast<std::uint64_t>(dbits >= 64 ? INT64_MIN : -(std::int64_t{1} << (dbits - 1)));
        else if (v >= hi) r = static_cast<std::uint64_t>(dbits >= 64 ? INT64_MAX : (std::int64_t{1} << (dbits - 1)) - 1);
        else r = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
      } else {
        const double hi = dbits >= 64 ? 18446744073709551615.0 : std::ldexp(1.0, dbits) - 1;
        if (v <= 0) r = 0;
        else if (v >= hi) r = dbits >= 64 ? ~0ull : (1ull << dbits) - 1;
        else r = static_cast<std::uint64_t>(v);
      }
      write(f, d.dst, l, r);
      return;
    }
    // -> float
    const bool intRound = rnd == ptx::Rounding::Rni || rnd == ptx::Rounding::Rzi || rnd == ptx::Rounding::Rmi ||
                          rnd == ptx::Rounding::Rpi;
    double v = x;
    if (intRound) {
      switch (rnd) {
        case ptx::Rounding::Rzi: v = std::trunc(x); break;
        case ptx::Rounding::Rmi: v = std::floor(x); break;
        case ptx::Rounding::Rpi: v = std::ceil(x); break;
        default: v = std::nearbyint(x); break;
      }
    }
    const int m = intRound ? -1 : mode;
    switch (dt) {
      case Type::F32: {
        float o;
        if (isInt) {
          o = underRounding<float>(m, [&] {
            volatile std::int64_t vs = si;
            volatile std::uint64_t vu = ui;
            return ptx::isSignedType(st) ? static_cast<float>(vs) : static_cast<float>(vu);
          });
        } else {
          o = toFloat(v, m);
        }
        if (ftz) o = flush(o);
        if (sat) o = saturate(o);
        r = canonical32(o);
        break;
      }
      case Type::F64: {
        double o;
        if (isInt) {
          o = underRounding<double>(m, [&] {
            volatile std::int64_t vs = si;
            volatile std::uint64_t vu = ui;
            return ptx::isSignedType(st) ? static_cast<double>(vs) : static_cast<double>(vu);
          });
        } else {
          o = v;
        }
        if (sat) o = saturate(o);
        r = intRound ? canonical64(o) : bits64(o);  // cvt.rmi.f64.f64 is FRND.F64: a canonical NaN
        break;
      }
      case Type::F16: {
        double o = v;
        if (sat) o = saturate(o);
        // Integers beyond 2^53 are rounded twice here; PTX integer->f16 sources are at most 64 bits.
        r = toHalf(o, m, satfinite);
        break;
      }
      case Type::Bf16: {
        double o = v;
        if (sat) o = saturate(o);
        r = toBf16(o, m);
        break;
      }
      default:
        fail(w, l, d, "conversion not supported by the emulator");
    }
    write(f, d.dst, l, r);
  });
}

}  // namespace teg::emu
