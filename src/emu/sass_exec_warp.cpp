// SASS warp-wide instructions: SHFL, VOTE / VOTEU, MATCH, REDUX. They see the lanes of the
// executing thread group (the block runner merges groups first where the code has a WARPSYNC or
// a BRA.DIV / BRA.CONV check). A source lane that does not execute still has its register value,
// which SHFL returns, as the PTX emulator does (hardware leaves it undefined).
#include <bit>

#include "sass_block_runner.hpp"
#include "sass_exec.hpp"

namespace teg::emu {

namespace {

enum ShflMode : std::uint32_t { kIdx, kUp, kDown, kBfly };

// SHFL.mode Pd, Rd, a, b, c: b the lane / delta, c = (segment mask << 8) | clamp, as the PTX
// shfl.sync operands (PTX ISA "shfl.sync"); Pd whether the source lane was in range.
void shfl(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[2]), b = c.src(in.op[3]), cc = c.src(in.op[4]);
  std::uint32_t value[kSassLanes];
  std::uint32_t valid = 0;
  forEachSassLane(c.exec, [&](int lane) {
    const int bval = static_cast<int>(b[lane] & 31u);
    const int cval = static_cast<int>(cc[lane] & 31u);
    const int segmask = static_cast<int>((cc[lane] >> 8) & 31u);
    const int maxLane = (lane & segmask) | (cval & ~segmask);
    const int minLane = lane & segmask;
    int j = lane;
    bool pval = false;
    switch (in.aux2) {
      case kUp: j = lane - bval; pval = j >= maxLane; break;
      case kDown: j = lane + bval; pval = j <= maxLane; break;
      case kBfly: j = lane ^ bval; pval = j <= maxLane; break;
      default: j = minLane | (bval & ~segmask); pval = j <= maxLane; break;
    }
    if (!pval) j = lane;
    value[lane] = a[j & 31];
    valid |= static_cast<std::uint32_t>(pval) << lane;
  });
  std::uint32_t* d = c.dst(in.op[1]);
  forEachSassLane(c.exec, [&](int l) { d[l] = value[l]; });
  c.setPred(in.op[0], valid);
}

enum VoteMode : std::uint32_t { kAll, kAny, kEq };

// VOTE.mode [Rd,] Pd, Ps: Rd the ballot of Ps over the executing lanes, Pd all / any / all-equal.
// VOTEU.mode [URd,] UPd, Ps: the same into uniform registers.
template <bool U>
void vote(SassCtx& c) {
  const SassInstr& in = c.in;
  const std::uint8_t k = in.aux;  // index of the predicate destination
  const std::uint32_t ballot = c.pred(in.op[k + 1]) & c.exec;
  bool r = false;
  switch (in.aux2) {
    case kAll: r = ballot == c.exec; break;
    case kAny: r = ballot != 0; break;
    default: r = ballot == c.exec || ballot == 0; break;
  }
  if (k == 1) {
    if (U) c.w.ur[in.op[0].row] = ballot;
    else forEachSassLane(c.exec, [&](int l) { c.w.r[in.op[0].row][l] = ballot; });
  }
  if (U) c.setUPred(in.op[k], r);
  else c.setPred(in.op[k], r ? ~0u : 0u);
}

// MATCH.ANY Rd, a: the lanes holding the same value; MATCH.ALL Pd, Rd, a: all lanes when they all
// agree (Pd true), else 0. .U64: a is a pair.
void match(SassCtx& c) {
  const SassInstr& in = c.in;
  const bool all = in.aux2 == 1;
  const bool wide = in.mods & 1u;
  const std::uint8_t dk = all ? 1 : 0;
  const Opnd& oa = in.op[dk + 1];
  std::uint64_t v[kSassLanes];
  forEachSassLane(c.exec, [&](int l) { v[l] = wide ? c.src64(oa, l) : c.src(oa)[l]; });
  std::uint32_t* d = c.dst(in.op[dk]);
  if (all) {
    bool same = true;
    const int first = std::countr_zero(c.exec);
    forEachSassLane(c.exec, [&](int l) { same = same && v[l] == v[first]; });
    forEachSassLane(c.exec, [&](int l) { d[l] = same ? c.exec : 0u; });
    c.setPred(in.op[0], same ? ~0u : 0u);
    return;
  }
  std::uint32_t masks[kSassLanes];
  forEachSassLane(c.exec, [&](int l) {
    std::uint32_t m = 0;
    forEachSassLane(c.exec, [&](int k) { if (v[k] == v[l]) m |= 1u << k; });
    masks[l] = m;
  });
  forEachSassLane(c.exec, [&](int l) { d[l] = masks[l]; });
}

enum ReduxOp : std::uint32_t { kRSum, kRMin, kRMax, kRAnd, kROr, kRXor };

// REDUX.op URd, Ra: the reduction over the executing lanes, into a uniform register.
void redux(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc a = c.src(in.op[1]);
  const bool s32 = in.mods & 1u;
  const int first = std::countr_zero(c.exec);
  std::uint32_t r = a[first];
  forEachSassLane(c.exec & (c.exec - 1), [&](int l) {
    const std::uint32_t x = a[l];
    switch (in.aux2) {
      case kRSum: r += x; break;
      case kRMin: r = s32 ? static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(r), static_cast<std::int32_t>(x))) : std::min(r, x); break;
      case kRMax: r = s32 ? static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(r), static_cast<std::int32_t>(x))) : std::max(r, x); break;
      case kRAnd: r &= x; break;
      case kROr: r |= x; break;
      default: r ^= x; break;
    }
  });
  if (in.op[0].kind == OpndKind::UReg) c.w.ur[in.op[0].row] = r;
  else forEachSassLane(c.exec, [&](int l) { c.w.r[in.op[0].row][l] = r; });
}

void decodeShfl(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 5) sassDecodeError(ir, ctx, "unexpected operands of");
  if (ir.hasModifier("IDX")) in.aux2 = kIdx;
  else if (ir.hasModifier("UP")) in.aux2 = kUp;
  else if (ir.hasModifier("DOWN")) in.aux2 = kDown;
  else if (ir.hasModifier("BFLY")) in.aux2 = kBfly;
  else sassDecodeError(ir, ctx, "unsupported mode of");
  sassDestination(in.op[0]);
  sassDestination(in.op[1]);
  in.fn = &shfl;
}

void decodeVote(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (ir.hasModifier("ALL")) in.aux2 = kAll;
  else if (ir.hasModifier("ANY")) in.aux2 = kAny;
  else if (ir.hasModifier("EQ")) in.aux2 = kEq;
  else sassDecodeError(ir, ctx, "unsupported mode of");
  const bool ballot = in.nops == 3;
  if (in.nops != 2 && in.nops != 3) sassDecodeError(ir, ctx, "unexpected operands of");
  in.aux = ballot ? 1 : 0;
  if (ballot) sassDestination(in.op[0]);
  sassDestination(in.op[in.aux]);
  in.fn = ir.opcode == "VOTEU" ? &vote<true> : &vote<false>;
}

void decodeMatch(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (ir.hasModifier("ALL")) in.aux2 = 1;
  else if (!ir.hasModifier("ANY")) sassDecodeError(ir, ctx, "unsupported mode of");
  if (ir.hasModifier("U64")) in.mods |= 1u;
  if (in.nops != (in.aux2 ? 3 : 2)) sassDecodeError(ir, ctx, "unexpected operands of");
  for (std::uint8_t k = 0; k + 1 < in.nops; ++k) sassDestination(in.op[k]);
  in.fn = &match;
}

void decodeRedux(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  static const std::pair<const char*, ReduxOp> kOps[] = {{"SUM", kRSum}, {"MIN", kRMin}, {"MAX", kRMax},
                                                         {"AND", kRAnd}, {"OR", kROr},   {"XOR", kRXor}};
  bool found = false;
  for (const auto& [name, op] : kOps)
    if (ir.hasModifier(name)) { in.aux2 = op; found = true; }
  if (!found || in.nops != 2) sassDecodeError(ir, ctx, "unsupported form of");
  if (ir.hasModifier("S32")) in.mods |= 1u;
  sassDestination(in.op[0]);
  in.fn = &redux;
}

}  // namespace

// ELECT Pd, URd, Pm (elect.sync, sm_90+): the lowest executing lane of the member mask Pm is the
// leader: Pd is true in it and false in the other executing lanes; URd gets its lane id.
void elect(SassCtx& c) {
  const SassInstr& in = c.in;
  const std::uint32_t members = c.exec & c.pred(in.op[2]);
  const std::uint32_t leader = members & (0u - members);
  c.setPred(in.op[0], leader);
  if (in.op[1].kind == OpndKind::UReg && leader) c.uwrite(in.op[1], static_cast<std::uint32_t>(std::countr_zero(leader)));
}
void decodeElect(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 3 || in.op[0].kind != OpndKind::Pred || in.op[1].kind != OpndKind::UReg || in.op[2].kind != OpndKind::Pred)
    sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  sassDestination(in.op[1]);
  in.fn = &elect;
}

void registerWarpHandlers(SassHandlerTable& t) {
  t.add("ELECT", &decodeElect);
  t.add("SHFL", &decodeShfl);
  t.add("VOTE", &decodeVote);
  t.add("VOTEU", &decodeVote);
  t.add("MATCH", &decodeMatch);
  t.add("REDUX", &decodeRedux);
  t.add("CREDUX", &decodeRedux);  // Blackwell's spelling of the same reduction into a uniform register
}

}  // namespace teg::emu
