// SASS floating-point, half, double, conversion and MUFU handlers: FADD/FMUL/FFMA (and their 32I
// forms), FMNMX, FMNMX3, FSETP, FSET, FSEL, FCHK, FRND, MUFU, F2F, F2I, I2F, I2FP, DADD/DMUL/DFMA, DSETP
// (with the .MIN/.MAX select form sm_75 uses for fmin/fmax), DMNMX, HADD2/HMUL2/HFMA2 (.F32
// results, .H0_H0/.H1_H1/.F32 operand selectors, immediate pairs), HSETP2, HMNMX2, F2FP.
// The arithmetic itself is sass_float_semantics.cpp; here operands are decoded once and applied
// lane by lane. A modifier this file does not implement is refused at decode time with the
// emulator's "unsupported" error, never run with wrong semantics.
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "sass_exec.hpp"
#include "teg/support/error.hpp"
#include "float_math.hpp"
#include "sass_float_semantics.hpp"

namespace teg::emu {

namespace {

using namespace sassfloat;

constexpr std::uint32_t kFtz = 1, kSat = 2, kNanProp = 4, kF32Result = 8, kBf16 = 16;
constexpr int kRoundShift = 8;

Round roundOf(std::uint32_t mods) { return static_cast<Round>((mods >> kRoundShift) & 3); }

// Rounding from the modifiers: .RN/.RZ/.RM/.RP (arithmetic, conversions to float) and
// .TRUNC/.FLOOR/.CEIL (to integral values).
std::uint32_t decodeRounding(const sass::Instruction& ir) {
  Round r = Round::Rn;
  if (ir.hasModifier("RZ") || ir.hasModifier("TRUNC")) r = Round::Rz;
  if (ir.hasModifier("RM") || ir.hasModifier("FLOOR")) r = Round::Rm;
  if (ir.hasModifier("RP") || ir.hasModifier("CEIL")) r = Round::Rp;
  return static_cast<std::uint32_t>(r) << kRoundShift;
}

std::uint32_t commonMods(const sass::Instruction& ir) {
  std::uint32_t m = decodeRounding(ir);
  if (ir.hasModifier("FTZ")) m |= kFtz;
  if (ir.hasModifier("SAT")) m |= kSat;
  return m;
}

bool isHexText(const std::string& t) { return t.find("0x") != std::string::npos; }

// nvdisasm prints a float operand's integral immediates without a point ("FADD R0, R1, 3"):
// the parser reads those as integers. In a float slot they are values (hex ones are bits).
void floatImmediates(SassInstr& in, const sass::Instruction& ir, bool f64) {
  for (std::size_t k = 0; k < in.nops && k < ir.operands.size(); ++k) {
    Opnd& o = in.op[k];
    if (o.kind != OpndKind::Imm || isHexText(ir.operands[k].text)) continue;
    const double v = static_cast<double>(o.imm64);
    o.kind = OpndKind::FloatImm;
    o.fimm = v;
    o.imm = std::bit_cast<std::uint32_t>(static_cast<float>(v));
    o.imm64 = std::bit_cast<std::int64_t>(v);
  }
  if (f64) {
    for (std::size_t k = 0; k < in.nops && k < ir.operands.size(); ++k) {
      Opnd& o = in.op[k];
      if (o.kind == OpndKind::Imm && isHexText(ir.operands[k].text))  // the high word of a double
        o.imm64 = static_cast<std::int64_t>(static_cast<std::uint64_t>(o.imm) << 32);
    }
  }
}

void requireOps(const SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx, int n) {
  if (in.nops != n) sassDecodeError(ir, ctx, "unexpected operands of");
}

// The bit offset a sub-word selector of a source register names ("I2F.F64.U16 R18, R4.H1" reads
// bits 16..31, ".B2" bits 16..23): 0 when there is none.
std::uint32_t subwordShift(const sass::Operand& o) {
  for (const auto& s : o.suffixes) {
    if (s == "H1" || s == "B2") return 16;
    if (s == "B1") return 8;
    if (s == "B3") return 24;
  }
  return 0;
}

void refuse(const sass::Instruction& ir, const SassDecodeContext& ctx, std::initializer_list<const char*> mods) {
  for (const char* m : mods)
    if (ir.hasModifier(m)) sassDecodeError(ir, ctx, std::string("unsupported modifier .") + m + " of");
}

std::uint32_t f32Operand(SassCtx& c, const Opnd& o, const SassSrc& s, int l) {
  (void)c;
  return applyF32Modifiers(o, s[l]);
}

// |R| clears the sign; -R flips it except on a NaN, which keeps its sign: the PTX emulator's
// sub.f64 (the host's subtraction) propagates the subtrahend's NaN unchanged, and DADD a, -b is
// what ptxas makes of a - b.
std::uint64_t f64Operand(SassCtx& c, const Opnd& o, int l) {
  std::uint64_t v = c.src64(o, l);
  if (o.abs) v &= 0x7fffffffffffffffull;
  if (o.neg && (v & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull) v ^= 0x8000000000000000ull;
  return v;
}

// Destinations of the per-thread (R, P) and uniform (UR, UP; Blackwell's UFFMA, UI2F...) forms:
// a uniform result is one value, written by every executing lane alike.
struct Dst {
  SassCtx& c;
  const Opnd& o;
  std::uint32_t& operator[](int l) { return o.kind == OpndKind::UReg ? c.w.ur[o.row] : c.w.r[o.row][l]; }
};
Dst dstOf(SassCtx& c, const Opnd& o) { return Dst{c, o}; }
void put64(SassCtx& c, const Opnd& o, int l, std::uint64_t v) {
  if (o.kind == OpndKind::UReg) c.uwrite64(o, v);
  else c.write64(o, l, v);
}
void putPred(SassCtx& c, const Opnd& o, std::uint32_t bits) {
  if (o.kind == OpndKind::UPred) c.setUPred(o, (bits & c.exec) != 0);
  else c.setPred(o, bits);
}

// ---- FP32 arithmetic -------------------------------------------------------------------------

// The common case of FADD/FMUL/FFMA: round to nearest, no .FTZ, no .SAT. Its lanes need no
// rounding-mode switch and no flushing, only the IEEE operation and the canonical NaN, so they
// are computed here in one loop. A build for baseline x86-64 has no FMA instruction and
// std::fma is then a libm call per lane (two thirds of `teg predict`'s time on a register-blocked
// SGEMM); the loop alone gets a clone for FMA hardware, chosen at load time, which computes the
// same single rounding inline. Not the whole build: GCC would then contract the timing model's
// a * b + c into FMAs and change its results. The PTX emulator's fmaLanes does the same.
// (GCC only: clang refuses target_clones on a function template; the fuzz build is clang's.)
template <int Op>
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
[[gnu::target_clones("fma", "default")]]
#endif
void nearestLanes(std::uint32_t exec, std::uint32_t* out, std::uint32_t outMask, SassSrc a, std::uint32_t aFlip,
                  std::uint32_t aClear, SassSrc b, std::uint32_t bFlip, std::uint32_t bClear, SassSrc z,
                  std::uint32_t zFlip, std::uint32_t zClear) {
  if (exec == 0xffffffffu && outMask == 31) {
    // A full warp: the operands are gathered into lane arrays first (a source row may be the
    // destination row, and a broadcast operand has m = 0), so that the operation runs as plain
    // loops the compiler turns into vector instructions.
    alignas(32) std::uint32_t x[kSassLanes], y[kSassLanes], w[kSassLanes];
    const auto gather = [](SassSrc s, std::uint32_t clear, std::uint32_t flip, std::uint32_t* to) {
      if (s.m != 0) {
        for (int l = 0; l < kSassLanes; ++l) to[l] = (s.p[l] & clear) ^ flip;
      } else {
        const std::uint32_t v = (s.p[0] & clear) ^ flip;
        for (int l = 0; l < kSassLanes; ++l) to[l] = v;
      }
    };
    gather(a, aClear, aFlip, x);
    gather(b, bClear, bFlip, y);
    if constexpr (Op == 2) gather(z, zClear, zFlip, w);
    for (int l = 0; l < kSassLanes; ++l) {
      const float u = std::bit_cast<float>(x[l]), v = std::bit_cast<float>(y[l]);
      float r;
      if constexpr (Op == 0) r = u + v;
      else if constexpr (Op == 1) r = u * v;
      else r = std::fma(u, v, std::bit_cast<float>(w[l]));
      out[l] = r != r ? 0x7fffffffu : std::bit_cast<std::uint32_t>(r);
    }
    return;
  }
  forEachSassLane(exec, [&](int l) {
    const float x = std::bit_cast<float>((a[l] & aClear) ^ aFlip);
    const float y = std::bit_cast<float>((b[l] & bClear) ^ bFlip);
    float r;
    if constexpr (Op == 0) r = x + y;
    else if constexpr (Op == 1) r = x * y;
    else r = std::fma(x, y, std::bit_cast<float>((z[l] & zClear) ^ zFlip));
    out[l & outMask] = std::isnan(r) ? 0x7fffffffu : std::bit_cast<std::uint32_t>(r);
  });
}

// applyF32Modifiers as a mask and a flip: |R| clears the sign, then -R flips it.
std::uint32_t signClear(const Opnd& o) { return o.abs ? 0x7fffffffu : 0xffffffffu; }
std::uint32_t signFlip(const Opnd& o) { return o.neg ? 0x80000000u : 0u; }

template <int Op>  // 0 add, 1 mul, 2 fma
void fArith(SassCtx& c) {
  const SassInstr& in = c.in;
  const bool ftz = in.mods & kFtz, sat = in.mods & kSat;
  const Round r = roundOf(in.mods);
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  const SassSrc z = Op == 2 ? c.src(in.op[3]) : a;
  if (r == Round::Rn && !ftz && !sat) {
    const Opnd& o = in.op[0];
    const Opnd& oz = in.op[Op == 2 ? 3 : 1];
    // A uniform destination is one value that every executing lane writes alike (Dst below).
    std::uint32_t* out = o.kind == OpndKind::UReg ? &c.w.ur[o.row] : c.w.r[o.row];
    nearestLanes<Op>(c.exec, out, o.kind == OpndKind::UReg ? 0u : 31u, a, signFlip(in.op[1]), signClear(in.op[1]), b,
                     signFlip(in.op[2]), signClear(in.op[2]), z, signFlip(oz), signClear(oz));
    return;
  }
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) {
    const std::uint32_t x = f32Operand(c, in.op[1], a, l), y = f32Operand(c, in.op[2], b, l);
    if constexpr (Op == 0) d[l] = fadd(x, y, r, ftz, sat);
    else if constexpr (Op == 1) d[l] = fmul(x, y, r, ftz, sat);
    else d[l] = ffma(x, y, f32Operand(c, in.op[3], z, l), r, ftz, sat);
  });
}

// FMUL.D2 / .D4 / .M2 / .M4 / .M8: the product scaled by a power of two (ptxas folds
// `(a * b) * 0.5f` into FMUL.D2 a, b at the default -O3, without fast math, so the result is the
// PTX's: the rounded product, then the rounded scaling, which differs from one rounding only
// where the product or the result is subnormal or overflows). aux = the scale's binary32 bits.
void fmulScaled(SassCtx& c) {
  const SassInstr& in = c.in;
  const bool ftz = in.mods & kFtz, sat = in.mods & kSat;
  const Round r = roundOf(in.mods);
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) {
    const std::uint32_t p = fmul(f32Operand(c, in.op[1], a, l), f32Operand(c, in.op[2], b, l), r, ftz, false);
    d[l] = fmul(p, in.aux, r, ftz, sat);
  });
}

template <int Op>
void decodeFArith(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, Op == 2 ? 4 : 3);
  refuse(ir, ctx, {"FMZ", "DMZ"});
  floatImmediates(in, ir, false);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir);
  in.fn = &fArith<Op>;
  static constexpr std::pair<const char*, float> kScales[] = {{"D2", 0.5f}, {"D4", 0.25f}, {"M2", 2.0f}, {"M4", 4.0f},
                                                              {"M8", 8.0f}};
  for (const auto& [name, scale] : kScales) {
    if (!ir.hasModifier(name)) continue;
    if (Op != 1) sassDecodeError(ir, ctx, std::string("unsupported modifier .") + name + " of");
    in.aux = std::bit_cast<std::uint32_t>(scale);
    in.fn = &fmulScaled;
  }
}

void fmnmx(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  const std::uint32_t minLanes = c.pred(in.op[3]);
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) {
    d[l] = fminmax(f32Operand(c, in.op[1], a, l), f32Operand(c, in.op[2], b, l), (minLanes >> l) & 1u, in.mods & kFtz,
                   in.mods & kNanProp);
  });
}
void decodeFmnmx(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 4);
  floatImmediates(in, ir, false);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir) | (ir.hasModifier("NAN") ? kNanProp : 0);
  in.fn = &fmnmx;
}

// FMNMX3 Rd, a, b, c, Pmin (sm_100+: ptxas merges fmaxf(fmaxf(x, y), z)): the two-operand rule
// applied twice. That is the three-way minNum/maxNum: fminmax gives the canonical NaN only for two
// NaNs, which then loses to c, so the result is NaN only when all three are (or with .NAN, when
// any is); -0 < +0 holds at each step.
void fmnmx3(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]), z = c.src(in.op[3]);
  const std::uint32_t minLanes = c.pred(in.op[4]);
  auto d = dstOf(c, in.op[0]);
  const bool ftz = in.mods & kFtz, nan = in.mods & kNanProp;
  forEachSassLane(c.exec, [&](int l) {
    const bool isMin = (minLanes >> l) & 1u;
    const std::uint32_t ab = fminmax(f32Operand(c, in.op[1], a, l), f32Operand(c, in.op[2], b, l), isMin, ftz, nan);
    d[l] = fminmax(ab, f32Operand(c, in.op[3], z, l), isMin, ftz, nan);
  });
}
void decodeFmnmx3(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 5);
  floatImmediates(in, ir, false);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir) | (ir.hasModifier("NAN") ? kNanProp : 0);
  in.fn = &fmnmx3;
}

void fsel(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  const std::uint32_t p = c.pred(in.op[3]);
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) {
    d[l] = ((p >> l) & 1u) ? f32Operand(c, in.op[1], a, l) : f32Operand(c, in.op[2], b, l);
  });
}
void decodeFsel(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 4);
  floatImmediates(in, ir, false);
  sassDestination(in.op[0]);
  in.fn = &fsel;
}

// ---- comparisons -----------------------------------------------------------------------------

bool decodeCmp(const sass::Instruction& ir, Cmp& out) {
  static constexpr std::pair<const char*, Cmp> names[] = {
      {"F", Cmp::F},     {"LT", Cmp::Lt},   {"EQ", Cmp::Eq},   {"LE", Cmp::Le},   {"GT", Cmp::Gt},   {"NE", Cmp::Ne},
      {"GE", Cmp::Ge},   {"NUM", Cmp::Num}, {"NAN", Cmp::Nan}, {"LTU", Cmp::Ltu}, {"EQU", Cmp::Equ}, {"LEU", Cmp::Leu},
      {"GTU", Cmp::Gtu}, {"NEU", Cmp::Neu}, {"GEU", Cmp::Geu}, {"T", Cmp::T}};
  for (const auto& [name, cmp] : names)
    if (ir.hasModifier(name)) {
      out = cmp;
      return true;
    }
  return false;
}

// .AND / .OR / .XOR of the comparison with the predicate input.
bool combine(std::uint32_t bop, bool r, bool p) { return bop == 0 ? (r && p) : bop == 1 ? (r || p) : (r != p); }

std::uint32_t decodeBop(const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (ir.hasModifier("AND")) return 0;
  if (ir.hasModifier("OR")) return 1;
  if (ir.hasModifier("XOR")) return 2;
  sassDecodeError(ir, ctx, "no .AND/.OR/.XOR in");
}

// FSETP / DSETP Pd, Pq, a, b, Pc: Pd = cmp(a, b) op Pc, Pq = !cmp(a, b) op Pc.
template <bool F64>
void setp(SassCtx& c) {
  const SassInstr& in = c.in;
  const Cmp cmp = static_cast<Cmp>(in.aux);
  const bool ftz = in.mods & kFtz;
  const SassSrc a = c.src(in.op[2]), b = c.src(in.op[3]);
  const std::uint32_t p = c.pred(in.op[4]);
  std::uint32_t pd = 0, pq = 0;
  forEachSassLane(c.exec, [&](int l) {
    double x, y;
    if constexpr (F64) {
      x = std::bit_cast<double>(f64Operand(c, in.op[2], l));
      y = std::bit_cast<double>(f64Operand(c, in.op[3], l));
    } else {
      float fx = std::bit_cast<float>(f32Operand(c, in.op[2], a, l)), fy = std::bit_cast<float>(f32Operand(c, in.op[3], b, l));
      if (ftz) { fx = std::fpclassify(fx) == FP_SUBNORMAL ? std::copysign(0.0f, fx) : fx; fy = std::fpclassify(fy) == FP_SUBNORMAL ? std::copysign(0.0f, fy) : fy; }
      x = fx;
      y = fy;
    }
    const bool r = compare(cmp, x, y), pin = (p >> l) & 1u;
    if (combine(in.aux2, r, pin)) pd |= 1u << l;
    if (combine(in.aux2, !r, pin)) pq |= 1u << l;
  });
  putPred(c, in.op[0], pd);
  putPred(c, in.op[1], pq);
}

// DSETP.MIN/.MAX Pd, Pq, a, b, Pc (sm_75's fmin/fmax of doubles, followed by FSEL/SEL on Pd and a
// quieting LOP3 of b on Pq): Pd = "a is the result" (b is NaN, or a is the smaller/larger, -0 <
// +0), Pq = both are NaN.
void dsetpMinMax(SassCtx& c) {
  const SassInstr& in = c.in;
  const bool isMin = in.aux == 1;
  const std::uint32_t p = c.pred(in.op[4]);
  std::uint32_t pd = 0, pq = 0;
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t a = f64Operand(c, in.op[2], l), b = f64Operand(c, in.op[3], l);
    const double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
    const bool pin = (p >> l) & 1u;
    bool pickA;
    if (std::isnan(x) || std::isnan(y)) pickA = std::isnan(y) && !std::isnan(x);
    else if (isMin) pickA = x < y || (x == y && (std::signbit(x) || !std::signbit(y)));
    else pickA = x > y || (x == y && (!std::signbit(x) || std::signbit(y)));
    if (combine(in.aux2, pickA, pin)) pd |= 1u << l;
    if (combine(in.aux2, std::isnan(x) && std::isnan(y), pin)) pq |= 1u << l;
  });
  putPred(c, in.op[0], pd);
  putPred(c, in.op[1], pq);
}

template <bool F64>
void decodeSetp(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 5);
  floatImmediates(in, ir, F64);
  sassDestination(in.op[0]);
  sassDestination(in.op[1]);
  in.mods = commonMods(ir);
  in.aux2 = decodeBop(ir, ctx);
  if (F64 && (ir.hasModifier("MIN") || ir.hasModifier("MAX"))) {
    in.aux = ir.hasModifier("MIN") ? 1 : 0;
    in.fn = &dsetpMinMax;
    return;
  }
  Cmp cmp;
  if (!decodeCmp(ir, cmp)) sassDecodeError(ir, ctx, "no comparison in");
  in.aux = static_cast<std::uint32_t>(cmp);
  in.fn = &setp<F64>;
}

// FSET.BF.cmp.op Rd, a, b, Pc: 1.0f (.BF) or 0xffffffff when true, 0 when false.
void fset(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  const std::uint32_t p = c.pred(in.op[3]);
  auto d = dstOf(c, in.op[0]);
  const bool ftz = in.mods & kFtz;
  forEachSassLane(c.exec, [&](int l) {
    float x = std::bit_cast<float>(f32Operand(c, in.op[1], a, l)), y = std::bit_cast<float>(f32Operand(c, in.op[2], b, l));
    if (ftz) { if (std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0f, x); if (std::fpclassify(y) == FP_SUBNORMAL) y = std::copysign(0.0f, y); }
    const bool r = combine(in.aux2, compare(static_cast<Cmp>(in.aux), x, y), (p >> l) & 1u);
    d[l] = r ? (in.mods & kF32Result ? 0x3f800000u : 0xffffffffu) : 0u;
  });
}
void decodeFset(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 4);
  floatImmediates(in, ir, false);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir) | (ir.hasModifier("BF") ? kF32Result : 0);
  in.aux2 = decodeBop(ir, ctx);
  Cmp cmp;
  if (!decodeCmp(ir, cmp)) sassDecodeError(ir, ctx, "no comparison in");
  in.aux = static_cast<std::uint32_t>(cmp);
  in.fn = &fset;
}

void fchkHandler(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  std::uint32_t bits = 0;
  forEachSassLane(c.exec, [&](int l) {
    if (fchk(f32Operand(c, in.op[1], a, l), f32Operand(c, in.op[2], b, l))) bits |= 1u << l;
  });
  putPred(c, in.op[0], bits);
}
void decodeFchk(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 3);
  if (!ir.modifiers.empty() && !ir.hasModifier("DIVIDE")) sassDecodeError(ir, ctx, "unsupported form of");
  floatImmediates(in, ir, false);
  sassDestination(in.op[0]);
  in.fn = &fchkHandler;
}

// ---- FRND, MUFU --------------------------------------------------------------------------------

template <bool F64>
void frnd(SassCtx& c) {
  const SassInstr& in = c.in;
  const Round r = roundOf(in.mods);
  if constexpr (F64) {
    forEachSassLane(c.exec, [&](int l) { put64(c, in.op[0], l, frnd64(f64Operand(c, in.op[1], l), r)); });
  } else {
    const SassSrc a = c.src(in.op[1]);
    auto d = dstOf(c, in.op[0]);
    forEachSassLane(c.exec, [&](int l) { d[l] = frnd32(f32Operand(c, in.op[1], a, l), r, in.mods & kFtz); });
  }
}
void decodeFrnd(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 2);
  const bool f64 = ir.hasModifier("F64");
  floatImmediates(in, ir, f64);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir);
  in.fn = f64 ? &frnd<true> : &frnd<false>;
}

void mufuHandler(SassCtx& c) {
  const SassInstr& in = c.in;
  const Mufu op = static_cast<Mufu>(in.aux);
  const SassSrc a = c.src(in.op[1]);
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) { d[l] = mufu(op, f32Operand(c, in.op[1], a, l)); });
}
void decodeMufu(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 2);
  static constexpr std::pair<const char*, Mufu> names[] = {
      {"RCP64H", Mufu::Rcp64h}, {"RSQ64H", Mufu::Rsq64h}, {"RCP", Mufu::Rcp}, {"RSQ", Mufu::Rsq}, {"SQRT", Mufu::Sqrt},
      {"EX2", Mufu::Ex2},       {"LG2", Mufu::Lg2},       {"SIN", Mufu::Sin}, {"COS", Mufu::Cos}, {"TANH", Mufu::Tanh}};
  refuse(ir, ctx, {"F16", "BF16"});
  bool found = false;
  for (const auto& [name, op] : names)
    if (ir.hasModifier(name)) {
      in.aux = static_cast<std::uint32_t>(op);
      found = true;
      break;
    }
  if (!found) sassDecodeError(ir, ctx, "unsupported function of");
  const bool wide = in.aux == static_cast<std::uint32_t>(Mufu::Rcp64h) || in.aux == static_cast<std::uint32_t>(Mufu::Rsq64h);
  floatImmediates(in, ir, wide);
  // "MUFU.RCP64H R23, -20329664": the operand of the FP64 forms is the high word of a double, and
  // nvdisasm prints that double's value (-20329664 = 0xc1736340'00000000), not a binary32 one.
  if (wide && (in.op[1].kind == OpndKind::FloatImm || in.op[1].kind == OpndKind::Imm) && !isHexText(ir.operands[1].text))
    in.op[1].imm = static_cast<std::uint32_t>(static_cast<std::uint64_t>(in.op[1].imm64) >> 32);
  sassDestination(in.op[0]);
  in.fn = &mufuHandler;
}

// ---- conversions -------------------------------------------------------------------------------

struct TypeMods {
  int floatBits = 0;  // the float type named (F16/F32/F64), 0 when none
  int intBits = 0;    // the integer type named, 0 when none
  bool intSigned = true;
  bool bf16 = false;
};
// The float and integer types among an instruction's modifiers, in order of appearance.
std::vector<std::pair<int, bool>> typeList(const sass::Instruction& ir, bool& anyBf16) {
  std::vector<std::pair<int, bool>> out;  // (bits, isFloat) ; signedness via separate list
  anyBf16 = false;
  for (const auto& m : ir.modifiers) {
    if (m == "F16") out.push_back({16, true});
    else if (m == "BF16") { out.push_back({16, true}); anyBf16 = true; }
    else if (m == "F32") out.push_back({32, true});
    else if (m == "F64") out.push_back({64, true});
  }
  return out;
}
bool intType(const sass::Instruction& ir, int& bits, bool& isSigned) {
  static constexpr std::tuple<const char*, int, bool> names[] = {{"S8", 8, true},   {"U8", 8, false},  {"S16", 16, true},
                                                                 {"U16", 16, false}, {"S32", 32, true}, {"U32", 32, false},
                                                                 {"S64", 64, true},  {"U64", 64, false}};
  for (const auto& [name, b, s] : names)
    if (ir.hasModifier(name)) {
      bits = b;
      isSigned = s;
      return true;
    }
  return false;
}

// aux: source bits | destination bits << 8 | signed << 16 (the integer side) | a half's sub-word shift << 24
void f2i(SassCtx& c) {
  const SassInstr& in = c.in;
  const int srcBits = in.aux & 0xff, dstBits = (in.aux >> 8) & 0xff;
  const bool isSigned = (in.aux >> 16) & 1;
  const Round r = roundOf(in.mods);
  const SassSrc a = c.src(in.op[1]);
  forEachSassLane(c.exec, [&](int l) {
    double x;
    if (srcBits == 64) x = std::bit_cast<double>(f64Operand(c, in.op[1], l));
    else if (srcBits == 32) {
      float f = std::bit_cast<float>(f32Operand(c, in.op[1], a, l));
      if ((in.mods & kFtz) && std::fpclassify(f) == FP_SUBNORMAL) f = std::copysign(0.0f, f);
      x = f;
    } else {
      x = halfValue(static_cast<std::uint16_t>(a[l] >> (in.aux >> 24)));
    }
    const std::uint64_t v = floatToInt(x, r, dstBits, isSigned);
    if (dstBits == 64) put64(c, in.op[0], l, v);
    else dstOf(c, in.op[0])[l] = static_cast<std::uint32_t>(v);
  });
}
void decodeF2i(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 2);
  bool bf;
  const auto floats = typeList(ir, bf);
  if (bf || floats.size() > 1) sassDecodeError(ir, ctx, "unsupported types of");
  int bits = 32;
  bool isSigned = true;
  intType(ir, bits, isSigned);
  const int srcBits = floats.empty() ? 32 : floats[0].first;
  if (srcBits != 16) floatImmediates(in, ir, srcBits == 64);  // "F2I.U32.TRUNC R0, 3" converts 3.0
  sassDestination(in.op[0]);
  in.mods = commonMods(ir);
  in.aux = static_cast<std::uint32_t>(srcBits) | (static_cast<std::uint32_t>(bits) << 8) | (isSigned ? 1u << 16 : 0) |
           (srcBits == 16 ? subwordShift(ir.operands[1]) << 24 : 0);
  in.fn = &f2i;
}

// aux: integer source bits | float destination bits << 8 | signed << 16 | sub-word shift << 24
void i2f(SassCtx& c) {
  const SassInstr& in = c.in;
  const int srcBits = in.aux & 0xff, dstBits = (in.aux >> 8) & 0xff;
  const bool isSigned = (in.aux >> 16) & 1;
  const Round r = roundOf(in.mods);
  const SassSrc a = c.src(in.op[1]);
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t v = srcBits == 64 ? c.src64(in.op[1], l) : applyIntModifiers(in.op[1], a[l] >> (in.aux >> 24));
    const std::uint64_t f = intToFloat(v, srcBits, isSigned, dstBits, r);
    if (dstBits == 64) put64(c, in.op[0], l, f);
    else dstOf(c, in.op[0])[l] = static_cast<std::uint32_t>(f);
  });
}
void decodeI2f(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 2);
  bool bf;
  const auto floats = typeList(ir, bf);
  if (bf || floats.size() > 1) sassDecodeError(ir, ctx, "unsupported types of");
  int bits = 32;
  bool isSigned = true;
  intType(ir, bits, isSigned);
  const int dstBits = floats.empty() ? 32 : floats[0].first;
  // "I2F.F64.S64.RP R6, 0x70000000" converts 0x70000000'00000000: the 32-bit immediate of a 64-bit
  // integer source is its high word (ptxas uses the form only for constants whose low word is 0;
  // 12345 or -3 come from constant bank 2 or a UMOV pair), as for the FP64 instructions.
  if (bits == 64 && in.op[1].kind == OpndKind::Imm)
    in.op[1].imm64 = static_cast<std::int64_t>(static_cast<std::uint64_t>(in.op[1].imm) << 32);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir);
  in.aux = static_cast<std::uint32_t>(bits) | (static_cast<std::uint32_t>(dstBits) << 8) | (isSigned ? 1u << 16 : 0) |
           (bits < 32 && ir.operands.size() > 1 ? subwordShift(ir.operands[1]) << 24 : 0);
  in.fn = &i2f;
}

// F2F.<dst>.<src>: aux = src bits | dst bits << 8 | sub-word shift << 24 (a half's .H1)
void f2f(SassCtx& c) {
  const SassInstr& in = c.in;
  const int srcBits = in.aux & 0xff, dstBits = (in.aux >> 8) & 0xff;
  const Round r = roundOf(in.mods);
  const SassSrc a = c.src(in.op[1]);
  forEachSassLane(c.exec, [&](int l) {
    std::uint64_t v;
    if (srcBits == 64) v = f64Operand(c, in.op[1], l);
    else if (srcBits == 32) v = f32Operand(c, in.op[1], a, l);
    else {
      std::uint32_t h = (a[l] >> (in.aux >> 24)) & 0xffffu;
      if (in.op[1].abs) h &= 0x7fffu;
      if (in.op[1].neg) h ^= 0x8000u;
      v = h;
    }
    const std::uint64_t out = floatToFloat(v, srcBits, dstBits, r, in.mods & kFtz, in.mods & kSat, in.mods & kBf16);
    if (dstBits == 64) put64(c, in.op[0], l, out);
    else dstOf(c, in.op[0])[l] = static_cast<std::uint32_t>(out);
  });
}
void decodeF2f(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 2);
  bool bf;
  const auto floats = typeList(ir, bf);
  if (floats.size() != 2 || floats[0].first == floats[1].first) sassDecodeError(ir, ctx, "unsupported types of");
  if (bf && floats[1].first == 16) sassDecodeError(ir, ctx, "unsupported types of");
  // "F2F.F16.F32.RM R25, 4" rounds 4.0 (ptxas folds __float2half_rd of a constant this way).
  if (floats[1].first != 16) floatImmediates(in, ir, floats[1].first == 64);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir) | (bf ? kBf16 : 0);
  in.aux = static_cast<std::uint32_t>(floats[1].first) | (static_cast<std::uint32_t>(floats[0].first) << 8) |
           (floats[1].first == 16 ? subwordShift(ir.operands[1]) << 24 : 0);  // F2F.F32.F16 R0, R4.H1
  in.fn = &f2f;
}

// ---- FP64 ----------------------------------------------------------------------------------------

template <int Op>
void dArith(SassCtx& c) {
  const SassInstr& in = c.in;
  const Round r = roundOf(in.mods);
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t x = f64Operand(c, in.op[1], l), y = f64Operand(c, in.op[2], l);
    std::uint64_t v;
    if constexpr (Op == 0) v = dadd(x, y, r);
    else if constexpr (Op == 1) v = dmul(x, y, r);
    else v = dfma(x, y, f64Operand(c, in.op[3], l), r);
    put64(c, in.op[0], l, v);
  });
}
template <int Op>
void decodeDArith(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, Op == 2 ? 4 : 3);
  refuse(ir, ctx, {"FTZ", "SAT"});
  floatImmediates(in, ir, true);
  sassDestination(in.op[0]);
  in.mods = decodeRounding(ir);
  in.fn = &dArith<Op>;
}

void dmnmx(SassCtx& c) {
  const SassInstr& in = c.in;
  const std::uint32_t minLanes = c.pred(in.op[3]);
  forEachSassLane(c.exec, [&](int l) {
    put64(c, in.op[0], l, dminmax(f64Operand(c, in.op[1], l), f64Operand(c, in.op[2], l), (minLanes >> l) & 1u));
  });
}
void decodeDmnmx(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 4);
  floatImmediates(in, ir, true);
  sassDestination(in.op[0]);
  in.fn = &dmnmx;
}

// ---- packed half -----------------------------------------------------------------------------------

// A half operand's selector (aux/aux2 nibbles): 0 = as is (H1:H0), 1 = H0_H0, 2 = H1_H1, 3 = .F32
// (the register is a float, both halves take its value), 8 | 4 | 1 = H0_NH1: high <- H0, low <-
// -H1 (sm_86+: ptxas builds {f3, -6.5} from R = {6.5, f3} as "-R.H0_NH1", then the operand's
// minus; seed 1000556). The bits of the permuted form: 8 | swap << 2 | negHigh << 1 | negLow.
// These are all nvdisasm 13 prints: enumerating the selector bits of an sm_86 HFMA2's b operand
// (bits 60-61 and 86 of the encoding) gives none, .H0_H0, .H1_H1, .F32, .H0_NH1 and .INVALID5-7;
// anything else (an INVALIDn, a hand-edited .H1_H0) is an error at the operand.
enum HalfSel : std::uint32_t { kAsIs = 0, kH0H0 = 1, kH1H1 = 2, kF32Sel = 3, kPermuted = 8 };

std::uint32_t halfSelector(const sass::Instruction& ir, const sass::Operand& o) {
  std::uint32_t sel = kAsIs;
  for (const auto& s : o.suffixes) {
    if (s == "H0_H0") sel = kH0H0;
    else if (s == "H1_H1") sel = kH1H1;
    else if (s == "F32") sel = kF32Sel;
    else if (s == "H0_NH1") sel = kPermuted | 4u | 1u;
    else
      throw Error(SourceLocation{ir.where.file, ir.where.line, o.column},
                  fmt::format("unknown half-operand selector '.{}' in '{}' (known: .H0_H0, .H1_H1, .F32, .H0_NH1)", s,
                              o.text));
  }
  return sel;
}

// The two values (low, high) of half operand `o` for lane l, with its selector and -/| |.
void halfPair(SassCtx& c, const Opnd& o, std::uint32_t sel, const SassSrc& s, int l, double& lo, double& hi) {
  const std::uint32_t v = s[l];
  if (sel == kF32Sel) {
    // A binary32 operand of a half instruction is narrowed to binary16 toward zero first: ptxas
    // implements __float2half_rz (cvt.rz.f16.f32) as HADD2 Rd, Ra.F32, -RZ.H0_H0.
    lo = hi = halfValue(toHalfBits(std::bit_cast<float>(v), Round::Rz, false, false));
  } else {
    std::uint16_t h0 = static_cast<std::uint16_t>(v), h1 = static_cast<std::uint16_t>(v >> 16);
    if (sel == kH0H0) h1 = h0;
    if (sel == kH1H1) h0 = h1;
    if ((sel & kPermuted) && (sel & 4u)) std::swap(h0, h1);
    lo = halfValue(h0);
    hi = halfValue(h1);
    if ((sel & kPermuted) && (sel & 2u)) hi = -hi;
    if ((sel & kPermuted) && (sel & 1u)) lo = -lo;
  }
  if (o.abs) { lo = std::fabs(lo); hi = std::fabs(hi); }
  if (o.neg) { lo = -lo; hi = -hi; }
  (void)c;
}

// The PTX emulator's half arithmetic: in double, one rounding to binary16 (or binary32 for .F32).
double halfOp(int op, double x, double y, double z, bool ftz) {
  if (ftz) {
    if (std::fabs(x) < 6.103515625e-05) x = std::copysign(0.0, x);
    if (std::fabs(y) < 6.103515625e-05) y = std::copysign(0.0, y);
    if (std::fabs(z) < 6.103515625e-05) z = std::copysign(0.0, z);
  }
  switch (op) {
    case 0: return x + y;
    case 1: return x * y;
    default: return std::fma(x, y, z);
  }
}

// An operand list with immediate pairs folded: positions of the value operands in `in.op`.
template <int Op>  // 0 add, 1 mul, 2 fma
void hArith(SassCtx& c) {
  const SassInstr& in = c.in;
  const int n = Op == 2 ? 3 : 2;
  const bool ftz = in.mods & kFtz, sat = in.mods & kSat;
  const Round r = roundOf(in.mods);
  SassSrc s[3] = {c.src(in.op[1]), c.src(in.op[2]), n > 2 ? c.src(in.op[3]) : c.src(in.op[2])};
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) {
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int k = 0; k < n; ++k) halfPair(c, in.op[1 + k], (in.aux >> (4 * k)) & 15u, s[k], l, lo[k], hi[k]);
    if (in.mods & kF32Result) {
      double v = halfOp(Op, lo[0], lo[1], lo[2], false);
      float f = static_cast<float>(v);  // exact for add/mul of halves; fma rounds once
      if (sat) f = saturate(f);
      d[l] = canonicalBits(f);
      return;
    }
    const std::uint16_t h0 = toHalfBits(halfOp(Op, lo[0], lo[1], lo[2], ftz), r, ftz, sat);
    const std::uint16_t h1 = toHalfBits(halfOp(Op, hi[0], hi[1], hi[2], ftz), r, ftz, sat);
    d[l] = static_cast<std::uint32_t>(h0) | (static_cast<std::uint32_t>(h1) << 16);
  });
}

// Folds an immediate pair "a, b" (printed high half first) into one 32-bit immediate operand.
void foldHalfImmediates(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  for (std::size_t k = 1; k + 1 < in.nops; ++k) {
    const bool imm0 = in.op[k].kind == OpndKind::FloatImm || in.op[k].kind == OpndKind::Imm;
    const bool imm1 = in.op[k + 1].kind == OpndKind::FloatImm || in.op[k + 1].kind == OpndKind::Imm;
    if (!imm0 || !imm1) continue;
    auto half = [&](const Opnd& o) -> std::uint32_t {
      const double v = o.kind == OpndKind::FloatImm ? o.fimm : static_cast<double>(o.imm64);
      return toHalfBits(v, Round::Rn, false, false);
    };
    Opnd folded = in.op[k];
    folded.kind = OpndKind::Imm;
    folded.neg = folded.abs = false;
    folded.imm = (half(in.op[k]) << 16) | half(in.op[k + 1]);
    // "HFMA2.MMA R6, -RZ, RZ, 0, +QNAN" (ptxas's way to load the constant 0x00007fff): nvdisasm
    // prints a NaN half as QNAN, and the operand then holds the encoding's 32-bit immediate
    // (sass_program.cpp), which is the whole pair.
    for (std::size_t j = k; j <= k + 1; ++j)
      if (j < ir.operands.size() && ir.operands[j].kind == sass::OperandKind::FloatImmediate &&
          std::isnan(ir.operands[j].floatValue))
        folded.imm = in.op[j].imm;
    folded.imm64 = folded.imm;
    in.op[k] = folded;
    for (std::size_t j = k + 1; j + 1 < in.nops; ++j) in.op[j] = in.op[j + 1];
    --in.nops;
    return;
  }
  (void)ir;
  (void)ctx;
}

// Operand index in `in.op` -> index in ir.operands before folding (a pair shifts the rest).
std::uint32_t selectors(const SassInstr& in, const sass::Instruction& ir, int first, int count) {
  std::uint32_t sel = 0;
  int irIndex = first;
  for (int k = 0; k < count; ++k) {
    const Opnd& o = in.op[first + k];
    if (irIndex < static_cast<int>(ir.operands.size()) && o.kind != OpndKind::Imm)
      sel |= halfSelector(ir, ir.operands[irIndex]) << (4 * k);
    irIndex += (o.kind == OpndKind::Imm && irIndex + 1 < static_cast<int>(ir.operands.size()) &&
                (ir.operands[irIndex].kind == sass::OperandKind::FloatImmediate ||
                 ir.operands[irIndex].kind == sass::OperandKind::Immediate) &&
                (ir.operands[irIndex + 1].kind == sass::OperandKind::FloatImmediate ||
                 ir.operands[irIndex + 1].kind == sass::OperandKind::Immediate))
                   ? 2
                   : 1;
  }
  return sel;
}

template <int Op>
void decodeHArith(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  refuse(ir, ctx, {"BF16_V2", "RELU", "BF16"});
  foldHalfImmediates(in, ir, ctx);
  requireOps(in, ir, ctx, Op == 2 ? 4 : 3);
  sassDestination(in.op[0]);
  in.mods = commonMods(ir) | (ir.hasModifier("F32") ? kF32Result : 0);
  in.aux = selectors(in, ir, 1, Op == 2 ? 3 : 2);
  in.fn = &hArith<Op>;
}

// HSETP2.cmp.op Pd, Pq, a, b, Pc: Pd from the low halves, Pq from the high halves.
void hsetp2(SassCtx& c) {
  const SassInstr& in = c.in;
  const Cmp cmp = static_cast<Cmp>(in.aux2 & 0xff);
  const std::uint32_t bop = in.aux2 >> 8;
  const SassSrc a = c.src(in.op[2]), b = c.src(in.op[3]);
  const std::uint32_t p = c.pred(in.op[4]);
  std::uint32_t pd = 0, pq = 0;
  forEachSassLane(c.exec, [&](int l) {
    double alo, ahi, blo, bhi;
    halfPair(c, in.op[2], in.aux & 15u, a, l, alo, ahi);
    halfPair(c, in.op[3], (in.aux >> 4) & 15u, b, l, blo, bhi);
    if (in.mods & kFtz) {
      for (double* v : {&alo, &ahi, &blo, &bhi})
        if (std::fabs(*v) < 6.103515625e-05) *v = std::copysign(0.0, *v);
    }
    const bool pin = (p >> l) & 1u;
    if (combine(bop, compare(cmp, alo, blo), pin)) pd |= 1u << l;
    if (combine(bop, compare(cmp, ahi, bhi), pin)) pq |= 1u << l;
  });
  putPred(c, in.op[0], pd);
  putPred(c, in.op[1], pq);
}
void decodeHsetp2(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  refuse(ir, ctx, {"H_AND", "H_OR", "BF16_V2"});
  foldHalfImmediates(in, ir, ctx);
  requireOps(in, ir, ctx, 5);
  sassDestination(in.op[0]);
  sassDestination(in.op[1]);
  Cmp cmp;
  if (!decodeCmp(ir, cmp)) sassDecodeError(ir, ctx, "no comparison in");
  in.mods = commonMods(ir);
  in.aux = selectors(in, ir, 2, 2);
  in.aux2 = static_cast<std::uint32_t>(cmp) | (decodeBop(ir, ctx) << 8);
  in.fn = &hsetp2;
}

// HMNMX2 Rd, a, b, Pmin: per half the smaller (Pmin) or larger, as the PTX emulator's min/max.f16x2.
void hmnmx2(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  const std::uint32_t minLanes = c.pred(in.op[3]);
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) {
    double alo, ahi, blo, bhi;
    halfPair(c, in.op[1], in.aux & 15u, a, l, alo, ahi);
    halfPair(c, in.op[2], (in.aux >> 4) & 15u, b, l, blo, bhi);
    const bool isMin = (minLanes >> l) & 1u;
    auto one = [&](double x, double y) -> std::uint32_t {
      double r;
      if (std::isnan(x) || std::isnan(y)) r = (std::isnan(x) && std::isnan(y)) || (in.mods & kNanProp) ? NAN : (std::isnan(x) ? y : x);
      else if (x == 0 && y == 0) r = std::signbit(x) == isMin ? x : y;
      else r = isMin ? std::fmin(x, y) : std::fmax(x, y);
      return toHalfBits(r, Round::Rn, false, false);
    };
    d[l] = one(alo, blo) | (one(ahi, bhi) << 16);
  });
}
void decodeHmnmx2(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  refuse(ir, ctx, {"BF16_V2", "FTZ"});
  foldHalfImmediates(in, ir, ctx);
  requireOps(in, ir, ctx, 4);
  sassDestination(in.op[0]);
  in.mods = ir.hasModifier("NAN") ? kNanProp : 0;
  in.aux = selectors(in, ir, 1, 2);
  in.fn = &hmnmx2;
}

// F2FP.F16.F32.PACK_AB / F2FP.BF16(.F32).PACK_AB Rd, a, b: a rounded into the high half, b into the
// low (as cvt.rn.f16x2.f32 d, a, b). F2FP(.F16.F32).MERGE_C Rd, a, c: a rounded into the low half,
// the low half of c (raw bits) into the high half; ptxas uses it for one cvt.f16.f32 (c = RZ) and
// to build a half pair from two converted constants (MERGE_C R5, 1, RZ then MERGE_C R5, -3.45, R5
// leaves {1.0, rz(-3.45)} in R5.H1/R5.H0: differential seed 5000899). .SATFINITE: an overflow gives
// the largest finite half (PTX cvt.rn.satfinite.f16.f32).
constexpr std::uint32_t kMergeC = 32, kSatFinite = 64;

void f2fp(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
  const Round r = roundOf(in.mods);
  const bool bf = in.mods & kBf16, mergeC = in.mods & kMergeC, satFinite = in.mods & kSatFinite;
  auto d = dstOf(c, in.op[0]);
  forEachSassLane(c.exec, [&](int l) {
    auto one = [&](std::uint32_t v) -> std::uint32_t {
      double x = std::bit_cast<float>(v);
      if (in.mods & kSat) x = saturate(x);
      return bf ? toBf16Bits(x, r) : toHalfBits(x, r, false, false, satFinite);
    };
    if (mergeC)
      d[l] = (b[l] << 16) | one(f32Operand(c, in.op[1], a, l));
    else
      d[l] = (one(f32Operand(c, in.op[1], a, l)) << 16) | one(f32Operand(c, in.op[2], b, l));
  });
}
void decodeF2fp(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  requireOps(in, ir, ctx, 3);
  const bool mergeC = ir.hasModifier("MERGE_C");
  if (!ir.hasModifier("PACK_AB") && !mergeC) sassDecodeError(ir, ctx, "unsupported form of");
  refuse(ir, ctx, {"RELU", "E4M3", "E5M2"});
  // bf16 .satfinite is not run by the PTX emulator either; refused rather than guessed
  if (ir.hasModifier("BF16") && ir.hasModifier("SATFINITE")) sassDecodeError(ir, ctx, "unsupported form of");
  floatImmediates(in, ir, false);
  // MERGE_C's c is raw bits (a register whose low half is kept), never a float value
  if (mergeC && in.op[2].kind != OpndKind::Reg) sassDecodeError(ir, ctx, "unsupported form of");
  sassDestination(in.op[0]);
  in.mods = commonMods(ir) | (ir.hasModifier("BF16") ? kBf16 : 0) | (mergeC ? kMergeC : 0) |
            (ir.hasModifier("SATFINITE") ? kSatFinite : 0);
  in.fn = &f2fp;
}

}  // namespace

void registerFloatHandlers(SassHandlerTable& t) {
  // The uniform-datapath forms (sm_90+ UI2F/UF2I..., Blackwell's UFADD/UFFMA/UFSETP...) run the same
  // decoders on uniform registers and predicates.
  t.add("UFADD", &decodeFArith<0>);
  t.add("UFMUL", &decodeFArith<1>);
  t.add("UFFMA", &decodeFArith<2>);
  t.add("UFMNMX", &decodeFmnmx);
  t.add("UFSEL", &decodeFsel);
  t.add("UFSETP", &decodeSetp<false>);
  t.add("UFRND", &decodeFrnd);
  t.add("UF2I", &decodeF2i);
  t.add("UI2F", &decodeI2f);
  t.add("UI2FP", &decodeI2f);
  t.add("UF2F", &decodeF2f);
  t.add("UF2FP", &decodeF2fp);
  t.add("FADD", &decodeFArith<0>);
  t.add("FADD32I", &decodeFArith<0>);
  t.add("FMUL", &decodeFArith<1>);
  t.add("FMUL32I", &decodeFArith<1>);
  t.add("FFMA", &decodeFArith<2>);
  t.add("FFMA32I", &decodeFArith<2>);
  t.add("FMNMX", &decodeFmnmx);
  t.add("FMNMX3", &decodeFmnmx3);
  t.add("FSEL", &decodeFsel);
  t.add("FSETP", &decodeSetp<false>);
  t.add("FSET", &decodeFset);
  t.add("FCHK", &decodeFchk);
  t.add("FRND", &decodeFrnd);
  t.add("MUFU", &decodeMufu);
  t.add("F2I", &decodeF2i);
  t.add("I2F", &decodeI2f);
  t.add("I2FP", &decodeI2f);
  t.add("F2F", &decodeF2f);
  t.add("DADD", &decodeDArith<0>);
  t.add("DMUL", &decodeDArith<1>);
  t.add("DFMA", &decodeDArith<2>);
  t.add("DSETP", &decodeSetp<true>);
  t.add("DMNMX", &decodeDmnmx);
  t.add("HADD2", &decodeHArith<0>);
  t.add("HMUL2", &decodeHArith<1>);
  t.add("HFMA2", &decodeHArith<2>);
  t.add("HSETP2", &decodeHsetp2);
  t.add("HMNMX2", &decodeHmnmx2);
  t.add("F2FP", &decodeF2fp);
}

}  // namespace teg::emu
