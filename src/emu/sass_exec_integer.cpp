// SASS integer, logic, predicate, move and special-register instructions, in their per-thread
// (R, P) and uniform (UR, UP) forms. The uniform form of an opcode runs the same code on one
// "lane" whose registers are the uniform ones (IntIo<true>).
//
// Semantics: the operand order nvdisasm prints (destination, carry/predicate outputs, sources,
// carry/predicate inputs, immediates such as a LUT or a shift), checked against nvcc's SASS of
// the example kernels and the unit tests' hand calculations.
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "sass_block_runner.hpp"
#include "sass_exec.hpp"
#include "teg/support/error.hpp"

namespace teg::emu {

namespace {

// The positions of an instruction's operands by role: op[0] (the destination), then predicate
// outputs, value sources, then predicate inputs (carry-ins) and trailing immediates.
struct Roles {
  std::uint8_t firstValue = 1, values = 0, firstPredIn = 0, predIns = 0, predOuts = 0;
};
Roles roles(const SassInstr& in) {
  Roles r;
  std::uint8_t k = 1;
  while (k < in.nops && (in.op[k].kind == OpndKind::Pred || in.op[k].kind == OpndKind::UPred)) ++k;
  r.predOuts = static_cast<std::uint8_t>(k - 1);
  r.firstValue = k;
  while (k < in.nops && in.op[k].kind != OpndKind::Pred && in.op[k].kind != OpndKind::UPred) ++k;
  r.values = static_cast<std::uint8_t>(k - r.firstValue);
  r.firstPredIn = k;
  while (k < in.nops && (in.op[k].kind == OpndKind::Pred || in.op[k].kind == OpndKind::UPred)) ++k;
  r.predIns = static_cast<std::uint8_t>(k - r.firstPredIn);
  return r;
}
std::uint32_t packRoles(const Roles& r) {
  return r.firstValue | (r.values << 4) | (r.firstPredIn << 8) | (r.predIns << 12) | (r.predOuts << 16);
}
Roles unpackRoles(std::uint32_t v) {
  Roles r;
  r.firstValue = v & 15;
  r.values = (v >> 4) & 15;
  r.firstPredIn = (v >> 8) & 15;
  r.predIns = (v >> 12) & 15;
  r.predOuts = (v >> 16) & 15;
  return r;
}

// Register access for the per-thread (U = false) and uniform (U = true) forms.
template <bool U>
struct IntIo {
  SassCtx& c;
  [[nodiscard]] std::uint32_t lanes() const { return U ? 1u : c.exec; }
  std::uint32_t* d(const Opnd& o) { return U ? &c.w.ur[o.row] : c.w.r[o.row]; }
  std::uint32_t* dHi(const Opnd& o) { return U ? &c.w.ur[o.row + 1] : c.w.r[o.row + 1]; }
  SassSrc s(const Opnd& o) { return c.src(o); }
  // 32-bit source with the integer modifiers (-R, ~R) applied.
  std::uint32_t v(const SassSrc& src, const Opnd& o, int l) { return applyIntModifiers(o, src[l]); }
  // Lane mask of a predicate operand (uniform: all or nothing; bit 0 is the "lane").
  [[nodiscard]] std::uint32_t p(const Opnd& o) const { return c.pred(o); }
  void setP(const Opnd& o, std::uint32_t bits) {
    if (o.kind == OpndKind::UPred) c.setUPred(o, (bits & 1u) != 0);
    else c.setPred(o, bits);
  }
  std::uint64_t s64(const Opnd& o, int l) { return c.src64(o, l); }
  void w64(const Opnd& o, int l, std::uint64_t v) {
    d(o)[l] = static_cast<std::uint32_t>(v);
    dHi(o)[l] = static_cast<std::uint32_t>(v >> 32);
  }
};

template <bool U, class F>
inline void lanesOf(IntIo<U>& io, F&& f) {
  if constexpr (U) f(0);
  else forEachSassLane(io.lanes(), f);
}

bool isUniform(const sass::Instruction& ir) { return !ir.opcode.empty() && ir.opcode[0] == 'U'; }

constexpr std::uint32_t kModX = 1, kModU32 = 2, kModHi = 4, kModWide = 8, kModSx32 = 16, kModW = 32,
                        kModLeft = 64, kModSigned = 128, kMod64 = 256, kModEx = 512, kModSh = 1024;

// ----- packed (SIMD) forms -----

// VIADD and VIMNMX on sm_90+ may work on the register as four bytes (.U8x4, .S8x4) or two
// half-words (.16x2, .U16x2, .S16x2): sm_120's ptxas builds __vabsdiffu4 from
// `VIMNMX.U8x4` (per-byte min and max) and `VIADD.U8x4 Rd, max, -min`, and sm_90's __vabsdiffs2
// uses `VIADD.16x2`. Each element is computed on its own (no carry or borrow crosses into the
// next), and an operand's -R negates each element. kModPacked8 / kModPacked16 in `mods` say which.
constexpr std::uint32_t kModPacked8 = 2048, kModPacked16 = 4096;

int packedBits(std::uint32_t mods) { return (mods & kModPacked8) ? 8 : (mods & kModPacked16) ? 16 : 32; }

std::uint32_t elementMask(int bits) { return bits == 32 ? ~0u : (1u << bits) - 1; }

// Applies f to each element pair (x, y) of a and b, zero-extended, and packs the results.
template <class F>
std::uint32_t perElement(std::uint32_t a, std::uint32_t b, int bits, F&& f) {
  const std::uint32_t m = elementMask(bits);
  std::uint32_t r = 0;
  for (int shift = 0; shift < 32; shift += bits) r |= (f((a >> shift) & m, (b >> shift) & m) & m) << shift;
  return r;
}

// An operand's -R and ~R on a packed register: ~ is bitwise either way, - negates each element.
std::uint32_t packedOperand(const Opnd& o, std::uint32_t v, int bits) {
  if (o.bitNot) v = ~v;
  if (o.neg) v = perElement(v, 0, bits, [](std::uint32_t x, std::uint32_t) { return 0u - x; });
  return v;
}

std::int64_t elementValue(std::uint32_t e, int bits, bool isSigned) {
  if (!isSigned || bits == 32) return isSigned ? static_cast<std::int32_t>(e) : static_cast<std::int64_t>(e);
  return (e & (1u << (bits - 1))) ? static_cast<std::int64_t>(e) - (std::int64_t{1} << bits) : static_cast<std::int64_t>(e);
}

// "U8x4" -> 8 unsigned, "S16x2" -> 16 signed, "16x2" -> 16 with no sign (an addition's); none: 32.
struct PackedForm {
  int bits = 32;
  bool isSigned = false, signNamed = false;
};
std::optional<PackedForm> packedForm(const std::string& modifier) {
  for (const auto& [name, bits, isSigned, signNamed] :
       {std::tuple{"U8x4", 8, false, true}, std::tuple{"S8x4", 8, true, true}, std::tuple{"U16x2", 16, false, true},
        std::tuple{"S16x2", 16, true, true}, std::tuple{"16x2", 16, false, false}, std::tuple{"8x4", 8, false, false}})
    if (modifier == name) return PackedForm{bits, isSigned, signNamed};
  return std::nullopt;
}

// ----- moves and special registers -----

template <bool U>
void mov(SassCtx& c) {
  IntIo<U> io{c};
  const SassSrc a = io.s(c.in.op[1]);
  std::uint32_t* d = io.d(c.in.op[0]);
  lanesOf(io, [&](int l) { d[l] = a[l]; });
}

// MOV.64 / UMOV.64 (Blackwell): a pair from a pair or a 64-bit immediate.
template <bool U>
void mov64(SassCtx& c) {
  IntIo<U> io{c};
  lanesOf(io, [&](int l) { io.w64(c.in.op[0], l, io.s64(c.in.op[1], l)); });
}

std::uint32_t special(SassCtx& c, SassSpecial s, int lane) {
  const SassWarp& w = c.w;
  switch (s) {
    case SassSpecial::TidX: return w.tid[0][lane];
    case SassSpecial::TidY: return w.tid[1][lane];
    case SassSpecial::TidZ: return w.tid[2][lane];
    case SassSpecial::TidXYZ: return w.tid[0][lane] | (w.tid[1][lane] << 16) | (w.tid[2][lane] << 26);
    case SassSpecial::CtaidX: return c.block.ctaid(0);
    case SassSpecial::CtaidY: return c.block.ctaid(1);
    case SassSpecial::CtaidZ: return c.block.ctaid(2);
    case SassSpecial::LaneId: return static_cast<std::uint32_t>(lane);
    case SassSpecial::ClockLo: return static_cast<std::uint32_t>(w.clock);
    case SassSpecial::ClockHi: return static_cast<std::uint32_t>(w.clock >> 32);
    case SassSpecial::GlobalTimerLo: return static_cast<std::uint32_t>(w.clock * 1000);
    case SassSpecial::GlobalTimerHi: return static_cast<std::uint32_t>((w.clock * 1000) >> 32);
    case SassSpecial::LanemaskEq: return 1u << lane;
    case SassSpecial::LanemaskLt: return (1u << lane) - 1;
    case SassSpecial::LanemaskLe: return static_cast<std::uint32_t>((std::uint64_t{2} << lane) - 1);
    case SassSpecial::LanemaskGt: return lane == 31 ? 0u : ~0u << (lane + 1);
    case SassSpecial::LanemaskGe: return ~0u << lane;
    case SassSpecial::WarpId:
    case SassSpecial::VirtId: return w.index;
    case SassSpecial::NWarpId: return 64;
    case SassSpecial::SmId:
    case SassSpecial::CgaCtaId:
    case SassSpecial::Zero: return 0;
    case SassSpecial::NSmId: return 1;
    case SassSpecial::GridId: return 1;
    default: c.fail(lane, "special register not modelled");
  }
}

template <bool U>
void s2r(SassCtx& c) {
  IntIo<U> io{c};
  std::uint32_t* d = io.d(c.in.op[0]);
  const SassSpecial s = c.in.op[1].special;
  lanesOf(io, [&](int l) { d[l] = special(c, s, U ? std::countr_zero(c.exec | (1u << 31)) : l); });
}

// The value CS2R / CS2UR read: the clock and the global timer as 64-bit counts.
std::uint64_t counterValue(SassCtx& c, SassSpecial s, int lane) {
  if (s == SassSpecial::ClockLo) return c.w.clock;
  if (s == SassSpecial::GlobalTimerLo) return c.w.clock * 1000;
  return s == SassSpecial::Zero ? 0 : special(c, s, lane);
}

// CS2R Rd, SR_CLOCKLO / SRZ: a 64-bit pair (CS2R.32: one register).
void cs2r(SassCtx& c) {
  IntIo<false> io{c};
  const SassSpecial s = c.in.op[1].special;
  const bool wide = !(c.in.mods & kModSigned);  // kModSigned marks .32 here
  lanesOf(io, [&](int l) {
    const std::uint64_t v = counterValue(c, s, l);
    if (wide) io.w64(c.in.op[0], l, v);
    else io.d(c.in.op[0])[l] = static_cast<std::uint32_t>(v);
  });
}

// CS2UR URd, SR_CLOCKLO: CS2R's uniform form, one value for the warp (sm_120's ptxas reads
// clock() and clock64() with it: "CS2UR UR4, SR_CLOCKLO", "CS2UR.32 UR4, SR_CLOCKLO").
void cs2ur(SassCtx& c) {
  const std::uint64_t v = counterValue(c, c.in.op[1].special, std::countr_zero(c.exec | (1u << 31)));
  if (c.in.mods & kModSigned) c.uwrite(c.in.op[0], static_cast<std::uint32_t>(v));
  else c.uwrite64(c.in.op[0], v);
}

// R2UR URd, Ra: the value of the first executing lane.
void r2ur(SassCtx& c) {
  const int l = std::countr_zero(c.exec);
  c.w.ur[c.in.op[0].row] = c.src(c.in.op[1])[l];
  if (c.in.mods & kMod64) c.w.ur[c.in.op[0].row + 1] = c.w.r[c.in.op[1].row + 1][l];
}

// ----- arithmetic -----

template <bool U>
void imad(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Roles r = unpackRoles(in.aux);
  const Opnd& oa = in.op[r.firstValue];
  const Opnd& ob = in.op[r.firstValue + 1];
  const Opnd& oc = in.op[r.firstValue + 2];
  const SassSrc a = io.s(oa), b = io.s(ob);
  const std::uint32_t m = in.mods;
  const bool carryIn = (m & kModX) && r.predIns > 0;
  const Opnd* pin = carryIn ? &in.op[r.firstPredIn] : nullptr;
  const std::uint32_t carryMask = pin ? io.p(*pin) : 0;
  if (m & kModWide) {
    // "IMAD.WIDE.U32 R8, P0, R6, R25, R8": the carry out of the 64-bit sum (ptxas's 64-bit
    // division chains it into an IMAD.X of the next word), and .X's carry in.
    std::uint32_t carryOut = 0;
    lanesOf(io, [&](int l) {
      const std::uint32_t x = io.v(a, oa, l), y = io.v(b, ob, l);
      const std::uint64_t prod = (m & kModU32) ? std::uint64_t{x} * y
                                               : static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(x)} *
                                                                            static_cast<std::int32_t>(y));
      std::uint64_t cc = io.s64(oc, l);
      if (oc.neg) cc = 0 - cc;
      const std::uint64_t cin = carryIn ? (carryMask >> (U ? 0 : l)) & 1u : 0;
      const std::uint64_t sum = prod + cc + cin;
      if (sum < prod || (cin != 0 && sum == prod)) carryOut |= 1u << l;
      io.w64(in.op[0], l, sum);
    });
    if (r.predOuts > 0) io.setP(in.op[1], carryOut);
    return;
  }
  const SassSrc cs = io.s(oc);
  std::uint32_t* d = io.d(in.op[0]);
  const bool hasCarryOut = r.predOuts > 0;
  std::uint32_t carryOut = 0;
  lanesOf(io, [&](int l) {
    const std::uint32_t x = io.v(a, oa, l), y = io.v(b, ob, l);
    std::uint32_t z = applyIntModifiers(oc, cs[l]);
    std::uint64_t sum;
    if (m & kModHi) {
      // IMAD.HI's addend is a 64-bit pair: (a*b + c:c+1) >> 32. ptxas's integer division
      // writes the Newton step as "MOV R2, RZ; IMAD.HI.U32 R3, R3, R7, R2" (R2:R3 = inv << 32).
      const std::uint64_t prod = (m & kModU32) ? std::uint64_t{x} * y
                                               : static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(x)} *
                                                                            static_cast<std::int32_t>(y));
      std::uint64_t c64 = io.s64(oc, l);
      if (oc.neg) c64 = 0 - c64;
      sum = (prod + c64) >> 32;
      if ((m & kModU32) && (prod + c64) < prod) sum += std::uint64_t{1} << 32;  // carry out
    } else {
      sum = std::uint64_t{x * y} + z;
    }
    if (carryIn) sum += (carryMask >> (U ? 0 : l)) & 1u;
    d[l] = static_cast<std::uint32_t>(sum);
    if (hasCarryOut && (sum >> 32)) carryOut |= 1u << l;
  });
  if (hasCarryOut) io.setP(in.op[1], carryOut);
}

// IADD3 Rd, [Pc0, [Pc1,]] a, b, c [, Pin0, Pin1]: -x contributes ~x + 1 (so a 64-bit subtraction's
// carry chain works), ~x contributes ~x.
template <bool U>
void iadd3(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Roles r = unpackRoles(in.aux);
  const Opnd* o[3] = {&in.op[r.firstValue], &in.op[r.firstValue + 1],
                      r.values >= 3 ? &in.op[r.firstValue + 2] : nullptr};
  const SassSrc s0 = io.s(*o[0]), s1 = io.s(*o[1]);
  const SassSrc s2 = o[2] ? io.s(*o[2]) : SassSrc{SassCtx::kZeros, 0};
  const std::uint32_t cin0 = (in.mods & kModX) && r.predIns > 0 ? io.p(in.op[r.firstPredIn]) : 0;
  const std::uint32_t cin1 = (in.mods & kModX) && r.predIns > 1 ? io.p(in.op[r.firstPredIn + 1]) : 0;
  std::uint32_t* d = io.d(in.op[0]);
  std::uint32_t c0 = 0, c1 = 0;
  auto term = [](const Opnd* op, std::uint32_t v) -> std::uint64_t {
    if (!op) return 0;
    if (op->neg) return std::uint64_t{~v} + 1;
    if (op->bitNot) return ~v;
    return v;
  };
  lanesOf(io, [&](int l) {
    const int bit = U ? 0 : l;
    const std::uint64_t t = term(o[0], s0[l]) + term(o[1], s1[l]);
    const std::uint64_t u = (t & 0xffffffffull) + term(o[2], s2[l]) + ((cin0 >> bit) & 1u) + ((cin1 >> bit) & 1u);
    d[l] = static_cast<std::uint32_t>(u);
    const std::uint64_t carry = (t >> 32) + (u >> 32);
    if (r.predOuts >= 2) {
      c0 |= static_cast<std::uint32_t>((t >> 32) != 0) << l;
      c1 |= static_cast<std::uint32_t>((u >> 32) != 0) << l;
    } else {
      c0 |= static_cast<std::uint32_t>(carry != 0) << l;
    }
  });
  if (r.predOuts >= 1) io.setP(in.op[1], c0);
  if (r.predOuts >= 2) io.setP(in.op[2], c1);
}

// VIADD Rd, a, b (sm_90+): a + b.
template <bool U>
void viadd(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd& oa = c.in.op[1];
  const Opnd& ob = c.in.op[2];
  const SassSrc a = io.s(oa), b = io.s(ob);
  std::uint32_t* d = io.d(c.in.op[0]);
  const int bits = packedBits(c.in.mods);
  if (bits == 32) {
    lanesOf(io, [&](int l) { d[l] = io.v(a, oa, l) + io.v(b, ob, l); });
    return;
  }
  lanesOf(io, [&](int l) {
    d[l] = perElement(packedOperand(oa, a[l], bits), packedOperand(ob, b[l], bits), bits,
                      [](std::uint32_t x, std::uint32_t y) { return x + y; });
  });
}

// IADD3.64 / UIADD3.64 Rd, Pc0, Pc1, a, b, c (Blackwell): 64-bit sum of pairs (the carry
// outputs, PT in nvcc's code, are refused at decode time).
template <bool U>
void iadd3x64(SassCtx& c) {
  IntIo<U> io{c};
  const Roles r = unpackRoles(c.in.aux);
  lanesOf(io, [&](int l) {
    std::uint64_t sum = 0;
    for (std::uint8_t k = 0; k < r.values; ++k) {
      const Opnd& o = c.in.op[r.firstValue + k];
      std::uint64_t x = io.s64(o, l);
      if (o.neg) x = 0 - x;
      if (o.bitNot) x = ~x;
      sum += x;
    }
    io.w64(c.in.op[0], l, sum);
  });
}

// IADD.64 Rd, a, b (Blackwell): a 64-bit add of register / uniform pairs (-x negates the pair).
template <bool U>
void iadd64(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2];
  lanesOf(io, [&](int l) {
    std::uint64_t x = io.s64(oa, l), y = io.s64(ob, l);
    if (oa.neg) x = 0 - x;
    if (ob.neg) y = 0 - y;
    if (oa.bitNot) x = ~x;
    if (ob.bitNot) y = ~y;
    io.w64(c.in.op[0], l, x + y);
  });
}

// LEA Rd, [Pc,] a, b, shift [, Pin]: (a << shift) + b.
// LEA.HI Rd, [Pc,] a, b, c, shift [, Pin]: b + high word of ((c:a) << shift); .SX32: c = sign of a.
template <bool U>
void lea(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Roles r = unpackRoles(in.aux);
  const bool hi = in.mods & kModHi;
  const bool sx = in.mods & kModSx32;
  const std::uint8_t k = r.firstValue;
  const Opnd& oa = in.op[k];
  const Opnd& ob = in.op[k + 1];
  const Opnd* oc = hi && !sx ? &in.op[k + 2] : nullptr;
  const Opnd& os = in.op[k + r.values - 1];
  const SassSrc a = io.s(oa), b = io.s(ob), sh = io.s(os);
  const SassSrc cc = oc ? io.s(*oc) : SassSrc{SassCtx::kZeros, 0};
  const std::uint32_t cin = (in.mods & kModX) && r.predIns > 0 ? io.p(in.op[r.firstPredIn]) : 0;
  std::uint32_t* d = io.d(in.op[0]);
  std::uint32_t carry = 0;
  lanesOf(io, [&](int l) {
    const std::uint32_t s = sh[l] & 31u;
    const std::uint32_t x = io.v(a, oa, l);
    std::uint32_t part;
    if (hi) {
      const std::uint32_t high = sx ? static_cast<std::uint32_t>(static_cast<std::int32_t>(x) >> 31) : io.v(cc, *oc, l);
      const std::uint64_t wide = (std::uint64_t{high} << 32) | x;
      part = static_cast<std::uint32_t>((wide << s) >> 32);
    } else {
      part = x << s;
    }
    // A negated a is the adder's ~(a << s) + 1, as IADD3's -x: it carries out when the shifted
    // value is 0. ptxas negates a 64-bit x << 3 as "LEA R16, P1, -R9, RZ, 0x3" and
    // "IMAD.X R13, RZ, RZ, ~R13, P1" (seed 1000189: the high word was one short).
    const std::uint64_t term = oa.neg && !hi && part == 0 ? std::uint64_t{1} << 32 : std::uint64_t{part};
    const std::uint64_t sum = term + io.v(b, ob, l) + ((cin >> (U ? 0 : l)) & 1u);
    d[l] = static_cast<std::uint32_t>(sum);
    carry |= static_cast<std::uint32_t>(sum >> 32) << l;
  });
  if (r.predOuts >= 1) io.setP(in.op[1], carry);
}

std::uint32_t lut3(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t lut) {
  std::uint32_t r = 0;
  for (int i = 0; i < 8; ++i)
    if (lut >> i & 1u) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return r;
}

// LOP3.LUT [Pd,] Rd, a, b, c, lut, Pin: bitwise function of three inputs given by its truth table
// (bit (a<<2 | b<<1 | c) of lut); Pd = (result != 0) or Pin.
template <bool U>
void lop3(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  // Operands: [P,] R, a, b, c, lut, P.
  const std::uint8_t k = in.op[0].kind == OpndKind::Pred || in.op[0].kind == OpndKind::UPred ? 1 : 0;
  const Opnd& od = in.op[k];
  const Opnd &oa = in.op[k + 1], &ob = in.op[k + 2], &oc = in.op[k + 3];
  const SassSrc a = io.s(oa), b = io.s(ob), cc = io.s(oc);
  const std::uint32_t lut = in.aux2;
  std::uint32_t* d = io.d(od);
  std::uint32_t nz = 0;
  lanesOf(io, [&](int l) {
    const std::uint32_t v = lut3(io.v(a, oa, l), io.v(b, ob, l), io.v(cc, oc, l), lut);
    d[l] = v;
    nz |= static_cast<std::uint32_t>(v != 0) << l;
  });
  // The trailing predicate is ORed in: ptxas tests a 64-bit (x & m) != 0 as "LOP3.LUT P0, RZ, xlo,
  // mlo, RZ, 0xc0, !PT" then "LOP3.LUT P0, RZ, xhi, mhi, RZ, 0xc0, P0" (seed 200104); !PT is false.
  if (k == 1) io.setP(in.op[0], nz | (in.nops > k + 5u ? io.p(in.op[k + 5]) : 0u));
}

// LOP.AND/OR/XOR (older spelling, and ULOP): two inputs.
template <bool U>
void lop2(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2];
  const SassSrc a = io.s(oa), b = io.s(ob);
  std::uint32_t* d = io.d(c.in.op[0]);
  const std::uint32_t op = c.in.aux2;
  lanesOf(io, [&](int l) {
    const std::uint32_t x = io.v(a, oa, l), y = io.v(b, ob, l);
    d[l] = op == 0 ? (x & y) : op == 1 ? (x | y) : (x ^ y);
  });
}

// PLOP3.LUT Pd, Pe, a, b, c, lut, lut2: the LUT on predicates (lane masks at once).
template <bool U>
void plop3(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const std::uint32_t a = io.p(in.op[2]), b = io.p(in.op[3]), cc = io.p(in.op[4]);
  io.setP(in.op[0], lut3(a, b, cc, in.aux2));
  io.setP(in.op[1], lut3(a, b, cc, in.aux));
}

// SHF.{L,R}.{U32,S32,U64,S64}[.HI][.W] Rd, a, shift, c: funnel shift of the 64-bit value c:a
// (c the high word); without .HI the low word of the result, with .HI the high word. Shift
// amounts are clamped (to 32 for 32-bit types, 64 for 64-bit ones) unless .W wraps them.
template <bool U>
void shf(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Opnd &oa = in.op[1], &os = in.op[2], &oc = in.op[3];
  const SassSrc a = io.s(oa), sh = io.s(os), cc = io.s(oc);
  std::uint32_t* d = io.d(in.op[0]);
  const std::uint32_t m = in.mods;
  const std::uint32_t limit = (m & kMod64) ? 64 : 32;
  lanesOf(io, [&](int l) {
    std::uint32_t n = sh[l];
    n = (m & kModW) ? (n & (limit - 1)) : std::min(n, limit);
    const std::uint64_t v = (std::uint64_t{io.v(cc, oc, l)} << 32) | io.v(a, oa, l);
    std::uint64_t r;
    if (m & kModLeft) {
      r = n >= 64 ? 0 : v << n;
    } else if (m & kModSigned) {
      r = static_cast<std::uint64_t>(static_cast<std::int64_t>(v) >> std::min<std::uint32_t>(n, 63));
    } else {
      r = n >= 64 ? 0 : v >> n;
    }
    d[l] = static_cast<std::uint32_t>((m & kModHi) ? r >> 32 : r);
  });
}

// SHL / SHR Rd, a, b (32-bit shifts, .U32 / .S32 for SHR).
template <bool U>
void shlr(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2];
  const SassSrc a = io.s(oa), b = io.s(ob);
  std::uint32_t* d = io.d(c.in.op[0]);
  const std::uint32_t m = c.in.mods;
  lanesOf(io, [&](int l) {
    std::uint32_t n = b[l];
    n = (m & kModW) ? (n & 31u) : std::min(n, 32u);
    const std::uint32_t x = io.v(a, oa, l);
    if (m & kModLeft) d[l] = n >= 32 ? 0 : x << n;
    else if (m & kModSigned) d[l] = static_cast<std::uint32_t>(static_cast<std::int32_t>(x) >> std::min(n, 31u));
    else d[l] = n >= 32 ? 0 : x >> n;
  });
}

enum Cmp : std::uint32_t { kF, kLt, kEq, kLe, kGt, kNe, kGe, kT };
enum Bop : std::uint32_t { kAnd, kOr, kXor };

template <class T>
bool compare(std::uint32_t cmp, T a, T b) {
  switch (cmp) {
    case kLt: return a < b;
    case kEq: return a == b;
    case kLe: return a <= b;
    case kGt: return a > b;
    case kNe: return a != b;
    case kGe: return a >= b;
    case kT: return true;
    default: return false;
  }
}

// ISETP.cmp[.U32].bop[.EX] Pd, Pe, a, b, Pq [, Plow]: Pd = (a cmp b) bop Pq, Pe = !(a cmp b) bop Pq.
// .EX compares the high words of a 64-bit comparison, Plow the low words' result.
template <bool U>
void isetp(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Opnd &oa = in.op[2], &ob = in.op[3];
  const SassSrc a = io.s(oa), b = io.s(ob);
  const std::uint32_t q = io.p(in.op[4]);
  const bool ex = in.mods & kModEx;
  const std::uint32_t low = ex && in.nops > 5 ? io.p(in.op[5]) : 0;
  const std::uint32_t cmp = in.aux, bop = in.aux2;
  const bool u32 = in.mods & kModU32;
  std::uint32_t t = 0;
  if (in.mods & kMod64) {  // ISETP.{U64,S64} (Blackwell): pairs compared at once
    lanesOf(io, [&](int l) {
      std::uint64_t x = io.s64(oa, l), y = io.s64(ob, l);
      if (oa.neg) x = 0 - x;
      if (ob.neg) y = 0 - y;
      const bool v = u32 ? compare(cmp, x, y) : compare(cmp, static_cast<std::int64_t>(x), static_cast<std::int64_t>(y));
      t |= static_cast<std::uint32_t>(v) << l;
    });
  } else
  lanesOf(io, [&](int l) {
    const std::uint32_t x = io.v(a, oa, l), y = io.v(b, ob, l);
    bool v;
    if (ex) {
      const bool lo = (low >> (U ? 0 : l)) & 1u;
      const bool eq = x == y;
      const bool strict = u32 ? compare(cmp == kLe ? kLt : cmp == kGe ? kGt : cmp, x, y)
                              : compare(cmp == kLe ? kLt : cmp == kGe ? kGt : cmp, static_cast<std::int32_t>(x),
                                        static_cast<std::int32_t>(y));
      switch (cmp) {
        case kEq: v = eq && lo; break;
        case kNe: v = !eq || lo; break;
        case kLt: case kLe: case kGt: case kGe: v = strict || (eq && lo); break;
        default: v = compare(cmp, x, y); break;
      }
    } else {
      v = u32 ? compare(cmp, x, y) : compare(cmp, static_cast<std::int32_t>(x), static_cast<std::int32_t>(y));
    }
    t |= static_cast<std::uint32_t>(v) << l;
  });
  auto combine = [&](std::uint32_t x) {
    return bop == kAnd ? (x & q) : bop == kOr ? (x | q) : (x ^ q);
  };
  io.setP(in.op[0], combine(t));
  io.setP(in.op[1], combine(~t));
}

// SEL Rd, a, b, P: P ? a : b.
template <bool U>
void sel(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2];
  const SassSrc a = io.s(oa), b = io.s(ob);
  const std::uint32_t p = io.p(c.in.op[3]);
  std::uint32_t* d = io.d(c.in.op[0]);
  if (c.in.mods & kMod64) {  // SEL.64: pairs
    lanesOf(io, [&](int l) { io.w64(c.in.op[0], l, (p >> (U ? 0 : l) & 1u) ? io.s64(oa, l) : io.s64(ob, l)); });
    return;
  }
  lanesOf(io, [&](int l) { d[l] = (p >> (U ? 0 : l) & 1u) ? io.v(a, oa, l) : io.v(b, ob, l); });
}

// IMNMX / VIMNMX Rd, a, b, P: P ? min : max (.U32 unsigned). VIADDMNMX Rd, a, b, c, P: the same on
// (a + b, c). VIMNMX3 Rd, a, b, c, P (sm_90+: ptxas merges min(min(x, y), z)): of all three.
template <bool U>
void imnmx(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const bool add = in.aux2 == 1, three = in.aux2 == 2;
  const std::uint8_t k = static_cast<std::uint8_t>(in.aux);  // first source (after predicate outputs)
  const Opnd &oa = in.op[k], &ob = in.op[k + 1], &oc = in.op[add || three ? k + 2 : k + 1];
  const SassSrc a = io.s(oa), b = io.s(ob), cc = io.s(oc);
  const std::uint32_t p = io.p(in.op[add || three ? k + 3 : k + 2]);
  std::uint32_t* d = io.d(in.op[0]);
  const bool u32 = in.mods & kModU32;
  const int bits = packedBits(in.mods);
  if (bits != 32) {
    // VIMNMX.{U8x4,S8x4,U16x2,S16x2} Rd, a, b, P: each element's min (P) or max (!P).
    const bool elementsSigned = !u32;
    lanesOf(io, [&](int l) {
      const bool takeMin = (p >> (U ? 0 : l)) & 1u;
      d[l] = perElement(packedOperand(oa, a[l], bits), packedOperand(oc, cc[l], bits), bits,
                        [&](std::uint32_t x, std::uint32_t y) {
                          const bool less = elementValue(x, bits, elementsSigned) < elementValue(y, bits, elementsSigned);
                          return less == takeMin ? x : y;
                        });
    });
    return;
  }
  lanesOf(io, [&](int l) {
    const bool takeMin = (p >> (U ? 0 : l)) & 1u;
    auto pick = [&](std::uint32_t x, std::uint32_t y) {
      const bool less = u32 ? x < y : static_cast<std::int32_t>(x) < static_cast<std::int32_t>(y);
      return (less == takeMin) ? x : y;
    };
    if (three) {
      d[l] = pick(pick(io.v(a, oa, l), io.v(b, ob, l)), io.v(cc, oc, l));
      return;
    }
    const std::uint32_t x = add ? io.v(a, oa, l) + io.v(b, ob, l) : io.v(a, oa, l);
    d[l] = pick(x, io.v(cc, oc, l));
  });
}

template <bool U>
void unary(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Opnd& oa = in.op[in.nops - 1];
  const SassSrc a = io.s(oa);
  std::uint32_t* d = io.d(in.op[0]);
  const std::uint32_t op = in.aux2;
  const std::uint32_t m = in.mods;
  lanesOf(io, [&](int l) {
    const std::uint32_t x = io.v(a, oa, l);
    std::uint32_t r = 0;
    switch (op) {
      case 0: r = static_cast<std::uint32_t>(static_cast<std::int32_t>(x) < 0 ? 0u - x : x); break;  // IABS
      case 1: r = static_cast<std::uint32_t>(std::popcount(x)); break;                                // POPC
      case 2: {                                                                                       // FLO
        std::uint32_t y = x;
        if (!(m & kModU32) && static_cast<std::int32_t>(x) < 0) y = ~x;
        const int idx = y == 0 ? -1 : 31 - std::countl_zero(y);
        r = (m & kModSh) ? (idx < 0 ? ~0u : static_cast<std::uint32_t>(31 - idx)) : static_cast<std::uint32_t>(idx);
        break;
      }
      case 3: r = std::uint32_t{0} | [&] {  // BREV
        std::uint32_t v = x, o = 0;
        for (int i = 0; i < 32; ++i) { o = (o << 1) | (v & 1u); v >>= 1; }
        return o;
      }(); break;
      default: break;
    }
    d[l] = r;
  });
}

// VABSDIFF[.U32] Rd, a, b, c: |a - b| + c (signed unless .U32), the __sad of CUDA.
template <bool U>
void vabsdiff(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2], &oc = c.in.op[3];
  const SassSrc a = io.s(oa), b = io.s(ob), cc = io.s(oc);
  std::uint32_t* d = io.d(c.in.op[0]);
  const bool u32 = c.in.mods & kModU32;
  lanesOf(io, [&](int l) {
    const std::uint32_t x = io.v(a, oa, l), y = io.v(b, ob, l);
    std::uint32_t diff;
    if (u32) diff = x > y ? x - y : y - x;
    else {
      const std::int64_t t = std::int64_t{static_cast<std::int32_t>(x)} - static_cast<std::int32_t>(y);
      diff = static_cast<std::uint32_t>(t < 0 ? -t : t);
    }
    d[l] = diff + io.v(cc, oc, l);
  });
}

// VABSDIFF4[.U8][.ACC] Rd, a, b, c: the four byte lanes' |a.b_i - b.b_i|, the SASS of the PTX
// SIMD video instruction vabsdiff4 (PTX ISA "Integer Instructions: vop4") that __vabsdiffu4,
// __vsadu4 and __vabsdiffs4 compile to. The bytes are signed unless .U8 (nvdisasm prints no
// modifier for vabsdiff4.u32.s32.s32); without .ACC each result byte is the low 8 bits of its
// difference (vabsdiff4's default mask: every byte from the result, none from c), with .ACC the
// four differences are summed and added to c (vabsdiff4's .add). ptxas emits other forms (a
// destination mask, .sat, mixed operand signs) as PRMT/IADD sequences, so they never reach here.
std::uint32_t absdiffBytes(std::uint32_t a, std::uint32_t b, bool bytesSigned, bool accumulate, std::uint32_t c) {
  std::uint32_t merged = 0, sum = 0;
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t x = (a >> (8 * i)) & 0xffu, y = (b >> (8 * i)) & 0xffu;
    const std::int32_t sx = bytesSigned ? static_cast<std::int8_t>(x) : static_cast<std::int32_t>(x);
    const std::int32_t sy = bytesSigned ? static_cast<std::int8_t>(y) : static_cast<std::int32_t>(y);
    const auto diff = static_cast<std::uint32_t>(sx > sy ? sx - sy : sy - sx);  // 0..255
    sum += diff;
    merged |= (diff & 0xffu) << (8 * i);
  }
  return accumulate ? c + sum : merged;
}

constexpr std::uint32_t kModAcc = 1;  // VABSDIFF4.ACC
constexpr std::uint32_t kModUnsignedBytes = 2;  // VABSDIFF4.U8

void vabsdiff4(SassCtx& c) {
  IntIo<false> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2], &oc = c.in.op[3];
  const SassSrc a = io.s(oa), b = io.s(ob), cc = io.s(oc);
  std::uint32_t* d = io.d(c.in.op[0]);
  const bool bytesSigned = !(c.in.mods & kModUnsignedBytes), accumulate = c.in.mods & kModAcc;
  lanesOf(io, [&](int l) { d[l] = absdiffBytes(a[l], b[l], bytesSigned, accumulate, cc[l]); });
}

// IDP.4A.{S8,U8}.{S8,U8} Rd, a, b, c: the dot product of a's and b's four bytes plus c (PTX ISA
// "Integer Arithmetic Instructions: dp4a"; CUDA Math API __dp4a). IDP.2A.{LO,HI}.{S16,U16}.{S8,U8}
// Rd, a, b, c: a's two half-words times b's bytes 0 and 1 (.LO) or 2 and 3 (.HI), plus c (PTX
// "dp2a"; __dp2a_lo / __dp2a_hi). The first type is a's, the second b's, in PTX's order:
// dp4a.u32.s32 prints IDP.4A.U8.S8. The sum wraps to 32 bits as the PTX defines.
struct DotForm {
  bool twoWay = false, high = false, aSigned = false, bSigned = false;
};
std::uint32_t packDotForm(const DotForm& f) {
  return (f.twoWay ? 1u : 0u) | (f.high ? 2u : 0u) | (f.aSigned ? 4u : 0u) | (f.bSigned ? 8u : 0u);
}
DotForm unpackDotForm(std::uint32_t v) { return {(v & 1u) != 0, (v & 2u) != 0, (v & 4u) != 0, (v & 8u) != 0}; }

std::int64_t element(std::uint32_t v, int index, int bits, bool isSigned) {
  const std::uint32_t e = (v >> (bits * index)) & ((1u << bits) - 1);
  if (!isSigned) return e;
  return bits == 8 ? static_cast<std::int8_t>(e) : static_cast<std::int16_t>(e);
}

std::uint32_t dotProduct(const DotForm& f, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::int64_t sum = static_cast<std::int32_t>(c);
  if (f.twoWay) {
    const int firstByte = f.high ? 2 : 0;
    for (int k = 0; k < 2; ++k) sum += element(a, k, 16, f.aSigned) * element(b, firstByte + k, 8, f.bSigned);
  } else {
    for (int k = 0; k < 4; ++k) sum += element(a, k, 8, f.aSigned) * element(b, k, 8, f.bSigned);
  }
  return static_cast<std::uint32_t>(sum);
}

void idp(SassCtx& c) {
  IntIo<false> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2], &oc = c.in.op[3];
  const SassSrc a = io.s(oa), b = io.s(ob), cc = io.s(oc);
  std::uint32_t* d = io.d(c.in.op[0]);
  const DotForm form = unpackDotForm(c.in.aux);
  lanesOf(io, [&](int l) { d[l] = dotProduct(form, a[l], b[l], cc[l]); });
}

// PRMT Rd, a, selector, b: byte i of the result is byte (sel nibble i & 7) of b:a, or that
// byte's sign replicated when the nibble's bit 3 is set.
template <bool U>
void prmt(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Opnd &oa = in.op[1], &os = in.op[2], &ob = in.op[3];
  const SassSrc a = io.s(oa), s = io.s(os), b = io.s(ob);
  std::uint32_t* d = io.d(in.op[0]);
  lanesOf(io, [&](int l) {
    const std::uint64_t bytes = (std::uint64_t{io.v(b, ob, l)} << 32) | io.v(a, oa, l);
    const std::uint32_t sel = s[l];
    std::uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      const std::uint32_t nib = (sel >> (4 * i)) & 15u;
      std::uint32_t byte = static_cast<std::uint32_t>(bytes >> (8 * (nib & 7u))) & 0xffu;
      if (nib & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
      r |= byte << (8 * i);
    }
    d[l] = r;
  });
}

// BMSK Rd, pos, width: width ones starting at bit pos (clamped at 32 unless .W wraps them).
template <bool U>
void bmsk(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2];
  const SassSrc a = io.s(oa), b = io.s(ob);
  std::uint32_t* d = io.d(c.in.op[0]);
  const bool wrap = c.in.mods & kModW;
  lanesOf(io, [&](int l) {
    std::uint32_t pos = a[l], width = b[l];
    if (wrap) { pos &= 31u; width &= 31u; } else { pos = std::min(pos, 32u); width = std::min(width, 32u); }
    const std::uint64_t ones = (std::uint64_t{1} << width) - 1;
    d[l] = static_cast<std::uint32_t>(ones << pos);
  });
}

// SGXT Rd, a, bits: sign-extends (.U32: zero-extends) the low `bits` bits of a.
template <bool U>
void sgxt(SassCtx& c) {
  IntIo<U> io{c};
  const Opnd &oa = c.in.op[1], &ob = c.in.op[2];
  const SassSrc a = io.s(oa), b = io.s(ob);
  std::uint32_t* d = io.d(c.in.op[0]);
  const bool u32 = c.in.mods & kModU32;
  const bool wrap = c.in.mods & kModW;
  lanesOf(io, [&](int l) {
    std::uint32_t n = b[l];
    n = wrap ? (n & 31u) : std::min(n, 32u);
    const std::uint32_t x = a[l];
    if (n == 0) { d[l] = 0; return; }
    if (n >= 32) { d[l] = x; return; }
    const std::uint32_t low = x & ((1u << n) - 1);
    d[l] = u32 ? low : static_cast<std::uint32_t>((static_cast<std::int32_t>(low << (32 - n))) >> (32 - n));
  });
}

// P2R Rd, PR, a, mask: Rd = (a & ~m) | (P0..P6 bits & m), m = mask << 8·byte (.B1..B3).
// R2P PR, a, mask: sets P0..P6 from the bits of a (byte .Bn) where mask is 1.
void p2r(SassCtx& c) {
  IntIo<false> io{c};
  const SassInstr& in = c.in;
  const SassSrc a = io.s(in.op[2]), mk = io.s(in.op[3]);
  std::uint32_t* d = io.d(in.op[0]);
  const std::uint32_t shift = 8 * in.aux2;
  forEachSassLane(c.exec, [&](int l) {
    std::uint32_t bits = 0;
    for (int k = 0; k < 7; ++k) bits |= ((c.w.p[k] >> l) & 1u) << k;
    const std::uint32_t m = (mk[l] & 0x7fu) << shift;
    d[l] = (a[l] & ~m) | ((bits << shift) & m);
  });
}
void r2p(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]), mk = c.src(in.op[2]);
  const std::uint32_t shift = 8 * in.aux2;
  for (int k = 0; k < 7; ++k) {
    std::uint32_t set = 0, touched = 0;
    forEachSassLane(c.exec, [&](int l) {
      if ((mk[l] >> k) & 1u) {
        touched |= 1u << l;
        set |= ((a[l] >> (shift + k)) & 1u) << l;
      }
    });
    c.w.p[k] = (c.w.p[k] & ~touched) | set;
  }
}

// UFLO / UPOPC on a uniform register; FLO/POPC of R handled by unary().
// LDC / ULDC / LDCU: constant loads (.64 / .128 pairs, .U8 .S8 .U16 .S16 sub-words).
template <bool U>
void ldc(SassCtx& c) {
  IntIo<U> io{c};
  const SassInstr& in = c.in;
  const Opnd& oc = in.op[1];
  const std::uint32_t words = in.aux;  // 1, 2, 4
  const std::uint32_t sub = in.aux2;   // 0 = word, else 1/2 bytes (bit 4: signed)
  lanesOf(io, [&](int l) {
    const std::uint32_t bank = oc.bankUniformRow >= 0 ? c.w.ur[oc.bankUniformRow] : oc.bank;
    if (bank >= static_cast<std::uint32_t>(kSassBanks)) c.fail(l, fmt::format("constant bank {} does not exist", bank));
    std::uint64_t at = oc.imm64;
    if (oc.indexRow >= 0) at += oc.indexUniform ? c.w.ur[oc.indexRow] : c.w.r[oc.indexRow][l];
    const std::uint32_t bytes = sub ? (sub & 15u) : 4 * words;
    if (at > kSassBankBytes - bytes || at % bytes != 0)
      c.fail(U ? -1 : l, fmt::format("constant read of {} bytes at c[0x{:x}][0x{:x}] is outside the bank or misaligned", bytes, bank, at));
    const std::uint32_t* base = c.banks[bank];
    if (sub) {
      std::uint32_t v = 0;
      std::memcpy(&v, reinterpret_cast<const std::byte*>(base) + at, sub & 15u);
      if (sub & 16u) v = (sub & 15u) == 1 ? static_cast<std::uint32_t>(static_cast<std::int8_t>(v))
                                          : static_cast<std::uint32_t>(static_cast<std::int16_t>(v));
      io.d(in.op[0])[l] = v;
      return;
    }
    for (std::uint32_t k = 0; k < words; ++k) {
      const Opnd& od = in.op[0];
      if (U) c.w.ur[od.row + k] = base[(at >> 2) + k];
      else c.w.r[od.row + k][l] = base[(at >> 2) + k];
    }
  });
}

// HFMA2 Rd, -RZ, RZ, hi, lo: ptxas's way of moving a 32-bit constant (two binary16 halves, the
// first printed is the high half): (-0 * 0) + c is c exactly, so this is a move of the packed
// halves. Only this form is decoded here, for the integer code that uses it; the float work's
// registerFloatHandlers registers the full HFMA2 after this and replaces it.
std::optional<std::uint16_t> exactHalf(double v) {
  if (v == 0) return static_cast<std::uint16_t>(std::signbit(v) ? 0x8000 : 0);
  const std::uint16_t sign = v < 0 ? 0x8000 : 0;
  const double a = std::fabs(v);
  int e = 0;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const int exponent = e - 1 + 15;     // biased exponent of 1.f * 2^(e-1)
  if (exponent >= 31) return std::nullopt;
  double frac;
  std::uint16_t bits;
  if (exponent <= 0) {  // subnormal: a = f * 2^-24
    frac = a / std::ldexp(1.0, -24);
    if (frac != std::floor(frac) || frac >= 1024) return std::nullopt;
    bits = static_cast<std::uint16_t>(frac);
  } else {
    frac = (m * 2 - 1) * 1024;
    if (frac != std::floor(frac)) return std::nullopt;
    bits = static_cast<std::uint16_t>((exponent << 10) | static_cast<int>(frac));
  }
  return static_cast<std::uint16_t>(sign | bits);
}

void constantMove(SassCtx& c) {
  std::uint32_t* d = c.dst(c.in.op[0]);
  const std::uint32_t v = c.in.aux2;
  forEachSassLane(c.exec, [&](int l) { d[l] = v; });
}

// ----- decoders -----

void decodeHfma2Move(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  auto isZero = [](const Opnd& o) { return o.kind == OpndKind::Reg && o.row == kSassZeroRow; };
  if (in.nops != 5 || !isZero(in.op[1]) || !isZero(in.op[2]) || in.op[3].kind == OpndKind::Reg ||
      in.op[4].kind == OpndKind::Reg || !(ir.modifiers.empty() || (ir.modifiers.size() == 1 && ir.hasModifier("MMA"))))
    sassDecodeError(ir, ctx, "unsupported SASS instruction (float)");
  const auto hi = exactHalf(in.op[3].kind == OpndKind::FloatImm ? in.op[3].fimm : static_cast<double>(in.op[3].imm64));
  const auto lo = exactHalf(in.op[4].kind == OpndKind::FloatImm ? in.op[4].fimm : static_cast<double>(in.op[4].imm64));
  if (!hi || !lo) sassDecodeError(ir, ctx, "unsupported SASS instruction (inexact half constant)");
  // -0 * 0 = -0; -0 + c is c, and -0 + +0 = +0 under round-to-nearest.
  const std::uint16_t h = *hi == 0x8000 ? 0 : *hi, l = *lo == 0x8000 ? 0 : *lo;
  sassDestination(in.op[0]);
  in.aux2 = (std::uint32_t{h} << 16) | l;
  in.fn = &constantMove;
}


std::uint32_t cmpOf(const sass::Instruction& ir, const SassDecodeContext& ctx) {
  static const std::pair<const char*, Cmp> kCmps[] = {{"F", kF}, {"LT", kLt}, {"EQ", kEq}, {"LE", kLe},
                                                      {"GT", kGt}, {"NE", kNe}, {"GE", kGe}, {"T", kT}};
  for (const auto& [name, cmp] : kCmps)
    if (ir.hasModifier(name)) return cmp;
  sassDecodeError(ir, ctx, "no comparison in");
}
std::uint32_t bopOf(const sass::Instruction& ir) {
  if (ir.hasModifier("OR")) return kOr;
  if (ir.hasModifier("XOR")) return kXor;
  return kAnd;
}

void decodeMov(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext&) {
  sassDestination(in.op[0]);
  in.fn = isUniform(ir) ? &mov<true> : &mov<false>;
  if (ir.hasModifier("64")) {
    if (in.op[0].row >= kSassSinkRow) in.op[0].row = kSassSinkRow;
    in.fn = isUniform(ir) ? &mov64<true> : &mov64<false>;
  }
}
void decodeS2r(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  sassDestination(in.op[0]);
  if (in.nops < 2 || in.op[1].kind != OpndKind::Special || in.op[1].special == SassSpecial::Unknown)
    sassDecodeError(ir, ctx, fmt::format("special register {} not modelled in", in.nops > 1 ? ir.operands[1].text : "?"));
  in.fn = ir.opcode == "S2UR" ? &s2r<true> : &s2r<false>;
}
void decodeCs2r(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  sassDestination(in.op[0]);
  if (in.nops < 2 || in.op[1].kind != OpndKind::Special || in.op[1].special == SassSpecial::Unknown)
    sassDecodeError(ir, ctx, "special register not modelled in");
  if (ir.hasModifier("32")) in.mods |= kModSigned;
  in.fn = ir.opcode == "CS2UR" ? &cs2ur : &cs2r;
}
void decodeR2ur(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext&) {
  sassDestination(in.op[0]);
  if (ir.hasModifier("64")) in.mods |= kMod64;
  in.fn = &r2ur;
}
void decodeImad(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  const Roles r = roles(in);
  if (r.values < 3) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  for (std::uint8_t k = 1; k <= r.predOuts; ++k) sassDestination(in.op[k]);
  in.aux = packRoles(r);
  if (ir.hasModifier("X")) in.mods |= kModX;
  if (ir.hasModifier("U32")) in.mods |= kModU32;
  if (ir.hasModifier("HI")) in.mods |= kModHi;
  if (ir.hasModifier("WIDE")) in.mods |= kModWide;
  in.fn = isUniform(ir) ? &imad<true> : &imad<false>;
}
void decodeIadd3(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  const Roles r = roles(in);
  if (r.values < 2 || r.values > 3) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  for (std::uint8_t k = 1; k <= r.predOuts; ++k) sassDestination(in.op[k]);
  in.aux = packRoles(r);
  if (ir.hasModifier("X")) in.mods |= kModX;
  in.fn = isUniform(ir) ? &iadd3<true> : &iadd3<false>;
  if (ir.hasModifier("64")) {
    for (std::uint8_t k = 1; k <= r.predOuts; ++k)
      if (in.op[k].row != kPredSink) sassDecodeError(ir, ctx, "carry outputs of a 64-bit add are not modelled in");
    if (in.mods & kModX) sassDecodeError(ir, ctx, "unsupported form of");
    if (in.op[0].row >= kSassSinkRow) in.op[0].row = kSassSinkRow;
    in.fn = isUniform(ir) ? &iadd3x64<true> : &iadd3x64<false>;
  }
}
void decodeIadd(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 3 || !ir.hasModifier("64")) sassDecodeError(ir, ctx, "unsupported form of");
  sassDestination(in.op[0]);
  if (in.op[0].row >= kSassSinkRow) in.op[0].row = kSassSinkRow;
  in.fn = isUniform(ir) ? &iadd64<true> : &iadd64<false>;
}
void decodeViadd(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 3) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  for (const auto& m : ir.modifiers) {
    const auto packed = packedForm(m);
    if (!packed) sassDecodeError(ir, ctx, "unsupported modifier in");
    in.mods |= packed->bits == 8 ? kModPacked8 : kModPacked16;  // an addition's sign does not matter
  }
  in.fn = isUniform(ir) ? &viadd<true> : &viadd<false>;
}
void decodeLea(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  const Roles r = roles(in);
  sassDestination(in.op[0]);
  for (std::uint8_t k = 1; k <= r.predOuts; ++k) sassDestination(in.op[k]);
  in.aux = packRoles(r);
  if (ir.hasModifier("X")) in.mods |= kModX;
  if (ir.hasModifier("HI")) in.mods |= kModHi;
  if (ir.hasModifier("SX32")) in.mods |= kModSx32;
  const std::uint8_t need = (in.mods & kModHi) && !(in.mods & kModSx32) ? 4 : 3;
  if (r.values != need) sassDecodeError(ir, ctx, "unexpected operands of");
  in.fn = isUniform(ir) ? &lea<true> : &lea<false>;
}
void decodeLop3(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  const std::uint8_t k = in.op[0].kind == OpndKind::Pred || in.op[0].kind == OpndKind::UPred ? 1 : 0;
  if (!ir.hasModifier("LUT") || in.nops < k + 5u || in.op[k + 4].kind != OpndKind::Imm)
    sassDecodeError(ir, ctx, "unexpected form of");
  if (k) sassDestination(in.op[0]);
  sassDestination(in.op[k]);
  in.aux2 = in.op[k + 4].imm & 0xffu;
  in.fn = isUniform(ir) ? &lop3<true> : &lop3<false>;
}
void decodeLop(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  sassDestination(in.op[0]);
  if (ir.hasModifier("AND")) in.aux2 = 0;
  else if (ir.hasModifier("OR")) in.aux2 = 1;
  else if (ir.hasModifier("XOR")) in.aux2 = 2;
  else sassDecodeError(ir, ctx, "unsupported operation of");
  in.fn = isUniform(ir) ? &lop2<true> : &lop2<false>;
}
void decodePlop3(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops < 7 || in.op[5].kind != OpndKind::Imm || in.op[6].kind != OpndKind::Imm)
    sassDecodeError(ir, ctx, "unexpected form of");
  sassDestination(in.op[0]);
  sassDestination(in.op[1]);
  in.aux2 = in.op[5].imm & 0xffu;
  in.aux = in.op[6].imm & 0xffu;
  in.fn = isUniform(ir) ? &plop3<true> : &plop3<false>;
}
void decodeShf(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 4) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  if (ir.hasModifier("L")) in.mods |= kModLeft;
  else if (!ir.hasModifier("R")) sassDecodeError(ir, ctx, "no direction in");
  if (ir.hasModifier("S32") || ir.hasModifier("S64")) in.mods |= kModSigned;
  if (ir.hasModifier("U64") || ir.hasModifier("S64")) in.mods |= kMod64;
  if (ir.hasModifier("HI")) in.mods |= kModHi;
  if (ir.hasModifier("W")) in.mods |= kModW;
  in.fn = isUniform(ir) ? &shf<true> : &shf<false>;
}
void decodeShlr(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 3) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  if (ir.opcode == "SHL" || ir.opcode == "USHL") in.mods |= kModLeft;
  if (ir.hasModifier("S32")) in.mods |= kModSigned;
  if (ir.hasModifier("W")) in.mods |= kModW;
  in.fn = isUniform(ir) ? &shlr<true> : &shlr<false>;
}
void decodeIsetp(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops < 5) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  sassDestination(in.op[1]);
  in.aux = cmpOf(ir, ctx);
  in.aux2 = bopOf(ir);
  if (ir.hasModifier("U32") || ir.hasModifier("U64")) in.mods |= kModU32;
  if (ir.hasModifier("U64") || ir.hasModifier("S64")) in.mods |= kMod64;
  if (ir.hasModifier("EX")) in.mods |= kModEx;
  in.fn = isUniform(ir) ? &isetp<true> : &isetp<false>;
}
void decodeSel(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 4) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  if (ir.hasModifier("64")) {
    in.mods |= kMod64;
    if (in.op[0].row >= kSassSinkRow) in.op[0].row = kSassSinkRow;
  }
  in.fn = isUniform(ir) ? &sel<true> : &sel<false>;
}
void decodeImnmx(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  sassDestination(in.op[0]);
  in.aux2 = ir.opcode.find("ADDMNMX") != std::string::npos ? 1 : ir.opcode.find("MNMX3") != std::string::npos ? 2 : 0;
  // Blackwell prints two predicate outputs after the destination (VIMNMX R5, PT, PT, a, b, !PT);
  // nvcc leaves them PT (unused), so they are not computed.
  std::uint8_t k = 1;
  while (k < in.nops && (in.op[k].kind == OpndKind::Pred || in.op[k].kind == OpndKind::UPred) && k + 3 < in.nops) {
    if (in.op[k].row != kPredTrue) sassDecodeError(ir, ctx, "predicate outputs are not modelled in");
    ++k;
  }
  in.aux = k;
  if (in.nops != k + (in.aux2 ? 4 : 3)) sassDecodeError(ir, ctx, "unexpected operands of");
  if (ir.hasModifier("U32")) in.mods |= kModU32;
  for (const auto& m : ir.modifiers) {
    if (m == "U32" || m == "S32") continue;
    const auto packed = packedForm(m);
    // A packed min/max names its elements' sign; VIADDMNMX / VIMNMX3 are only known in 32 bits.
    if (!packed || !packed->signNamed || in.aux2 != 0) sassDecodeError(ir, ctx, "unsupported modifier in");
    in.mods |= packed->bits == 8 ? kModPacked8 : kModPacked16;
    if (!packed->isSigned) in.mods |= kModU32;
  }
  in.fn = isUniform(ir) ? &imnmx<true> : &imnmx<false>;
}
template <std::uint32_t Op>
void decodeUnary(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops < 2) sassDecodeError(ir, ctx, "unexpected operands of");
  // FLO may name a predicate output (FLO.U32 Rd, Pd?, a): not produced by nvcc for the corpus.
  for (std::uint8_t k = 1; k + 1 < in.nops; ++k)
    if (in.op[k].kind == OpndKind::Pred) sassDecodeError(ir, ctx, "unsupported predicate output of");
  sassDestination(in.op[0]);
  in.aux2 = Op;
  if (ir.hasModifier("U32")) in.mods |= kModU32;
  if (ir.hasModifier("SH")) in.mods |= kModSh;
  in.fn = isUniform(ir) ? &unary<true> : &unary<false>;
}
void decodePrmt(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 4 || !ir.modifiers.empty()) sassDecodeError(ir, ctx, "unsupported mode of");
  sassDestination(in.op[0]);
  in.fn = isUniform(ir) ? &prmt<true> : &prmt<false>;
}
void decodeVabsdiff(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 4) sassDecodeError(ir, ctx, "unexpected operands of");
  for (const auto& m : ir.modifiers)
    if (m != "U32" && m != "S32") sassDecodeError(ir, ctx, "unsupported modifier in");
  sassDestination(in.op[0]);
  if (ir.hasModifier("U32")) in.mods |= kModU32;
  in.fn = isUniform(ir) ? &vabsdiff<true> : &vabsdiff<false>;
}
// The operands of VABSDIFF4 and IDP: Rd, a, b, c with no operand modifiers (none that nvcc
// emits; -R or ~R would change the bytes, so they are refused rather than ignored).
void checkPlainFourOperands(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 4 || in.op[0].kind != OpndKind::Reg) sassDecodeError(ir, ctx, "unexpected operands of");
  for (std::uint8_t k = 1; k < 4; ++k) {
    const Opnd& o = in.op[k];
    const bool value = o.kind == OpndKind::Reg || o.kind == OpndKind::UReg || o.kind == OpndKind::Imm || o.kind == OpndKind::Const;
    if (!value || o.neg || o.bitNot || o.abs) sassDecodeError(ir, ctx, "unsupported operand form in");
  }
  sassDestination(in.op[0]);
}
void decodeVabsdiff4(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  checkPlainFourOperands(in, ir, ctx);
  for (const auto& m : ir.modifiers) {
    if (m == "U8") in.mods |= kModUnsignedBytes;
    else if (m == "ACC") in.mods |= kModAcc;
    else if (m != "S8") sassDecodeError(ir, ctx, "unsupported modifier in");
  }
  in.fn = &vabsdiff4;
}
// "IDP.4A.S8.U8" -> modifiers 4A, S8, U8; "IDP.2A.LO.U16.S8" -> 2A, LO, U16, S8.
void decodeIdp(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  checkPlainFourOperands(in, ir, ctx);
  const auto& m = ir.modifiers;
  DotForm form;
  std::size_t k = 0;
  if (k < m.size() && (m[k] == "4A" || m[k] == "2A")) form.twoWay = m[k++] == "2A";
  else sassDecodeError(ir, ctx, "expected .4A or .2A in");
  if (form.twoWay) {
    if (k < m.size() && (m[k] == "LO" || m[k] == "HI")) form.high = m[k++] == "HI";
    else sassDecodeError(ir, ctx, "expected .LO or .HI in");
  }
  const std::string aSigned = form.twoWay ? "S16" : "S8", aUnsigned = form.twoWay ? "U16" : "U8";
  if (m.size() != k + 2 || !(m[k] == aSigned || m[k] == aUnsigned) || !(m[k + 1] == "S8" || m[k + 1] == "U8"))
    sassDecodeError(ir, ctx, "unsupported operand types in");
  form.aSigned = m[k] == aSigned;
  form.bSigned = m[k + 1] == "S8";
  in.aux = packDotForm(form);
  in.fn = &idp;
}
void decodeBmsk(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 3) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  if (ir.hasModifier("W")) in.mods |= kModW;
  in.fn = isUniform(ir) ? &bmsk<true> : &bmsk<false>;
}
void decodeSgxt(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 3) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  if (ir.hasModifier("U32")) in.mods |= kModU32;
  if (ir.hasModifier("W")) in.mods |= kModW;
  in.fn = isUniform(ir) ? &sgxt<true> : &sgxt<false>;
}
std::uint32_t byteSelect(const sass::Instruction& ir) {
  if (ir.hasModifier("B1")) return 1;
  if (ir.hasModifier("B2")) return 2;
  if (ir.hasModifier("B3")) return 3;
  return 0;
}
void decodeP2r(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 4 || ir.opcode != "P2R") sassDecodeError(ir, ctx, "unsupported form of");
  sassDestination(in.op[0]);
  in.aux2 = byteSelect(ir);
  in.fn = &p2r;
}
void decodeR2p(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 3 || ir.opcode != "R2P") sassDecodeError(ir, ctx, "unsupported form of");
  in.aux2 = byteSelect(ir);
  in.fn = &r2p;
}
void decodeLdc(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 2 || in.op[1].kind != OpndKind::Const) sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  in.aux = 1;
  if (ir.hasModifier("64")) in.aux = 2;
  if (ir.hasModifier("128")) in.aux = 4;
  if (ir.hasModifier("U8")) in.aux2 = 1;
  if (ir.hasModifier("S8")) in.aux2 = 1 | 16;
  if (ir.hasModifier("U16")) in.aux2 = 2;
  if (ir.hasModifier("S16")) in.aux2 = 2 | 16;
  if (in.op[0].row >= kSassSinkRow) {
    in.op[0].row = kSassSinkRow;  // LDC.64 RZ: the pair goes to the sink rows
  }
  in.fn = isUniform(ir) || ir.opcode == "LDCU" ? &ldc<true> : &ldc<false>;
}

}  // namespace

void registerIntegerHandlers(SassHandlerTable& t) {
  for (const char* op : {"MOV", "MOV32I", "UMOV"}) t.add(op, &decodeMov);
  for (const char* op : {"S2R", "S2UR"}) t.add(op, &decodeS2r);
  for (const char* op : {"CS2R", "CS2UR"}) t.add(op, &decodeCs2r);
  t.add("R2UR", &decodeR2ur);
  for (const char* op : {"IMAD", "UIMAD", "IMAD32I"}) t.add(op, &decodeImad);
  for (const char* op : {"IADD3", "UIADD3"}) t.add(op, &decodeIadd3);
  for (const char* op : {"IADD", "UIADD"}) t.add(op, &decodeIadd);
  for (const char* op : {"VIADD", "UVIADD", "IADD32I"}) t.add(op, &decodeViadd);
  for (const char* op : {"LEA", "ULEA"}) t.add(op, &decodeLea);
  for (const char* op : {"LOP3", "ULOP3"}) t.add(op, &decodeLop3);
  for (const char* op : {"LOP", "ULOP"}) t.add(op, &decodeLop);
  for (const char* op : {"PLOP3", "UPLOP3"}) t.add(op, &decodePlop3);
  for (const char* op : {"SHF", "USHF"}) t.add(op, &decodeShf);
  for (const char* op : {"SHL", "SHR", "USHL", "USHR"}) t.add(op, &decodeShlr);
  for (const char* op : {"ISETP", "UISETP"}) t.add(op, &decodeIsetp);
  for (const char* op : {"SEL", "USEL"}) t.add(op, &decodeSel);
  for (const char* op : {"IMNMX", "UIMNMX", "VIMNMX", "UVIMNMX", "VIADDMNMX", "UVIADDMNMX", "VIMNMX3", "UVIMNMX3"})
    t.add(op, &decodeImnmx);
  for (const char* op : {"IABS", "UIABS"}) t.add(op, &decodeUnary<0>);
  for (const char* op : {"POPC", "UPOPC"}) t.add(op, &decodeUnary<1>);
  for (const char* op : {"FLO", "UFLO"}) t.add(op, &decodeUnary<2>);
  for (const char* op : {"BREV", "UBREV"}) t.add(op, &decodeUnary<3>);
  for (const char* op : {"PRMT", "UPRMT"}) t.add(op, &decodePrmt);
  for (const char* op : {"BMSK", "UBMSK"}) t.add(op, &decodeBmsk);
  t.add("VABSDIFF", &decodeVabsdiff);
  t.add("VABSDIFF4", &decodeVabsdiff4);
  t.add("IDP", &decodeIdp);
  for (const char* op : {"SGXT", "USGXT"}) t.add(op, &decodeSgxt);
  t.add("P2R", &decodeP2r);
  t.add("R2P", &decodeR2p);
  for (const char* op : {"LDC", "ULDC", "LDCU"}) t.add(op, &decodeLdc);
  t.add("HFMA2", &decodeHfma2Move);  // the constant-move form only (see decodeHfma2Move)
}

}  // namespace teg::emu
