// SASS loads, stores and atomics: LDG/STG (global), LDS/STS (shared), LDL/STL (local, below the
// stack pointer R1), LD/ST (generic), ATOMG/ATOM/ATOMS/RED/REDG. Every access goes through
// SassBlockRunner::resolve, which checks it against the allocation, the block's shared memory or
// the thread's stack (overflow-proof, as the PTX emulator's sandbox) and traces its address.
// Lanes access memory in increasing lane order; global atomics use std::atomic_ref because
// blocks run in parallel.
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <regex>

#include <fmt/format.h>

#include "sass_address.hpp"
#include "sass_block_runner.hpp"
#include "sass_exec.hpp"

namespace teg::emu {

namespace {

using Space = SassBlockRunner::Space;

constexpr std::uint32_t kModSigned = 1, kModUr64 = 2;

// aux: bytes per lane (1, 2, 4, 8, 16); aux2: the space; mods: sign extension, UR pair.
inline std::uint64_t laneAddress(const SassCtx& c, const Opnd& m, int l, bool wide, bool ur64) {
  return sassLaneAddress(c, m, l, wide, ur64);
}

Space spaceOf(std::uint32_t v) { return static_cast<Space>(v); }
bool isWide(Space s) { return s == Space::Global || s == Space::Generic; }

// Host pointer of an access: the fast path checks the block's shared window or the allocation the
// previous lane used (overflow-proof: address < size and bytes <= size - address, alignment);
// anything else goes through SassBlockRunner::resolve, which finds the space or reports the fault.
struct Resolver {
  SassCtx& c;
  Space space;
  std::uint32_t bytes;
  bool write;
  std::byte* sharedBase = nullptr;
  std::uint64_t sharedSize = 0;
  const Allocation* last = nullptr;
  Resolver(SassCtx& ctx, Space s, std::uint32_t n, bool w) : c(ctx), space(s), bytes(n), write(w) {
    if (space == Space::Shared) {
      sharedBase = c.block.sharedData();
      sharedSize = c.block.sharedSize();
    }
  }
  std::byte* operator()(int l, std::uint64_t at) {
    if ((at & (bytes - 1)) == 0) {
      if (space == Space::Shared) {
        if (at < sharedSize && bytes <= sharedSize - at) return sharedBase + at;
      } else if (space == Space::Global || space == Space::Generic) {
        // An access in a buffer's overrun slack takes the slow path, which logs it.
        if (last && last->quiet(at, bytes)) return const_cast<std::byte*>(last->data.data()) + (at - last->base);
        if (const Allocation* a = c.block.context().global->find(at); a && a->quiet(at, bytes)) {
          last = a;
          return const_cast<std::byte*>(a->data.data()) + (at - a->base);
        }
      }
    }
    return c.block.resolve(c.w, l, c.in, space, at, bytes, write);
  }
};

void load(SassCtx& c) {
  const SassInstr& in = c.in;
  const Opnd& d = in.op[0];
  const Opnd& m = in.op[1];
  const std::uint32_t bytes = in.aux;
  const Space space = spaceOf(in.aux2);
  const bool wide = isWide(space);
  const bool ur64 = in.mods & kModUr64;
  Resolver resolve(c, space, bytes, false);
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t at = laneAddress(c, m, l, wide, ur64);
    if (c.addresses) c.addresses[l] = at;
    const std::byte* p = resolve(l, at);
    if (bytes < 4) {
      std::uint32_t v = 0;
      std::memcpy(&v, p, bytes);
      if (in.mods & kModSigned)
        v = bytes == 1 ? static_cast<std::uint32_t>(static_cast<std::int8_t>(v))
                       : static_cast<std::uint32_t>(static_cast<std::int16_t>(v));
      c.w.r[d.row][l] = v;
      return;
    }
    for (std::uint32_t k = 0; k < bytes / 4; ++k) std::memcpy(&c.w.r[d.row + k][l], p + 4 * k, 4);
  });
}

// LDS of 4, 8 or 16 bytes: the hot loads of tiled kernels, specialised (32-bit shared address,
// inline window check; faults still go through resolve()).
template <std::uint32_t Bytes>
void loadShared(SassCtx& c) {
  const SassInstr& in = c.in;
  const Opnd& d = in.op[0];
  const Opnd& m = in.op[1];
  const std::uint32_t* base = c.w.r[m.row];
  const std::uint32_t scale = m.imm;
  const std::uint32_t add = c.w.ur[m.uniformRow] + static_cast<std::uint32_t>(m.imm64);
  std::byte* shared = c.block.sharedData();
  const std::uint64_t size = c.block.sharedSize();
  forEachSassLane(c.exec, [&](int l) {
    const std::uint32_t at = base[l] * scale + add;
    if (c.addresses) c.addresses[l] = at;
    const std::byte* p = ((at & (Bytes - 1)) == 0 && at < size && Bytes <= size - at)
                             ? shared + at
                             : c.block.resolve(c.w, l, in, Space::Shared, at, Bytes, false);
    for (std::uint32_t k = 0; k < Bytes / 4; ++k) std::memcpy(&c.w.r[d.row + k][l], p + 4 * k, 4);
  });
  // A test_wait of an mbarrier on sm_80-89 is this LDS of its word: let the other warps run.
  if (c.block.watchingMbarriers()) [[unlikely]]
    c.block.yieldIfMbarrier(base[std::countr_zero(c.exec)] * scale + add);
}

void store(SassCtx& c) {
  const SassInstr& in = c.in;
  const Opnd& m = in.op[0];
  const Opnd& v = in.op[1];
  const std::uint32_t bytes = in.aux;
  const Space space = spaceOf(in.aux2);
  const bool wide = isWide(space);
  const bool ur64 = in.mods & kModUr64;
  Resolver resolve(c, space, bytes, true);
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t at = laneAddress(c, m, l, wide, ur64);
    if (c.addresses) c.addresses[l] = at;
    std::byte* p = resolve(l, at);
    std::uint32_t words[4];
    for (std::uint32_t k = 0; k < (bytes + 3) / 4; ++k)
      words[k] = v.kind == OpndKind::UReg ? c.w.ur[v.row + k] : v.kind == OpndKind::Reg ? c.w.r[v.row + k][l] : v.imm;
    std::memcpy(p, words, bytes);
  });
}

enum AtomOp : std::uint32_t { kAdd, kMin, kMax, kExch, kCas, kAnd, kOr, kXor, kInc, kDec, kPopcInc, kFAdd };
enum AtomType : std::uint32_t { kU32, kS32, kU64, kS64, kF32 };

float flushDenormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

template <class T, class F>
T rmw(T* p, F&& f) {
  std::atomic_ref<T> a(*p);
  T old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, f(old), std::memory_order_relaxed)) {
  }
  return old;
}

template <class T>
T apply(std::uint32_t op, T old, T b, T cmpValue, T swapValue) {
  switch (op) {
    case kAdd: case kPopcInc: return static_cast<T>(old + b);
    case kMin: return std::min(old, b);
    case kMax: return std::max(old, b);
    case kExch: return b;
    case kCas: return old == cmpValue ? swapValue : old;
    case kAnd: return old & b;
    case kOr: return old | b;
    case kXor: return old ^ b;
    case kInc: return old >= b ? T{0} : static_cast<T>(old + 1);
    case kDec: return (old == 0 || old > b) ? b : static_cast<T>(old - 1);
    default: return old;
  }
}

// Operand positions: mods bits 8..11 = index of the memory operand; the destination (if any) is
// the register operand before it, the sources follow it.
void atomic(SassCtx& c) {
  const SassInstr& in = c.in;
  const std::uint32_t mi = (in.mods >> 8) & 15u;
  const Opnd& m = in.op[mi];
  const Opnd* d = mi > 0 && in.op[mi - 1].kind == OpndKind::Reg ? &in.op[mi - 1] : nullptr;
  const Opnd* b = mi + 1 < in.nops ? &in.op[mi + 1] : nullptr;
  const Opnd* e = mi + 2 < in.nops ? &in.op[mi + 2] : nullptr;
  const std::uint32_t op = in.aux2 & 0xffu;
  const Space space = spaceOf(in.aux2 >> 8);
  const std::uint32_t type = (in.aux >> 8) & 0xffu;
  const bool wide64 = type == kU64 || type == kS64;
  const std::uint32_t bytes = wide64 ? 8 : 4;
  const bool ur64 = in.mods & kModUr64;
  auto word = [&](const Opnd* o, int l, std::uint32_t k) -> std::uint32_t {
    if (!o) return 0;
    if (o->kind == OpndKind::Reg) return c.w.r[o->row + k][l];
    if (o->kind == OpndKind::UReg) return c.w.ur[o->row + k];
    return k == 0 ? o->imm : 0;
  };
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t at = laneAddress(c, m, l, isWide(space), ur64);
    if (c.addresses) c.addresses[l] = at;
    std::byte* p = c.block.resolve(c.w, l, in, space, at, bytes, true);
    std::uint64_t old = 0;
    if (wide64) {
      const std::uint64_t bv = word(b, l, 0) | (std::uint64_t{word(b, l, 1)} << 32);
      // CAS: compare with b, swap in e (pairs).
      const std::uint64_t ev = word(e, l, 0) | (std::uint64_t{word(e, l, 1)} << 32);
      auto* q = reinterpret_cast<std::uint64_t*>(p);
      if (type == kS64)
        old = static_cast<std::uint64_t>(rmw<std::int64_t>(reinterpret_cast<std::int64_t*>(q), [&](std::int64_t o) {
          return apply<std::int64_t>(op, o, static_cast<std::int64_t>(bv), static_cast<std::int64_t>(bv),
                                     static_cast<std::int64_t>(ev));
        }));
      else
        old = rmw<std::uint64_t>(q, [&](std::uint64_t o) { return apply<std::uint64_t>(op, o, bv, bv, ev); });
      if (d) {
        c.w.r[d->row][l] = static_cast<std::uint32_t>(old);
        c.w.r[d->row + 1][l] = static_cast<std::uint32_t>(old >> 32);
      }
      return;
    }
    const std::uint32_t bv = op == kPopcInc ? 1u : word(b, l, 0);
    const std::uint32_t ev = word(e, l, 0);
    auto* q = reinterpret_cast<std::uint32_t*>(p);
    if (type == kF32) {
      old = rmw<std::uint32_t>(q, [&](std::uint32_t o) {
        const float x = flushDenormal(std::bit_cast<float>(o)), y = flushDenormal(std::bit_cast<float>(bv));
        return std::bit_cast<std::uint32_t>(flushDenormal(x + y));
      });
    } else if (type == kS32) {
      old = static_cast<std::uint32_t>(rmw<std::int32_t>(reinterpret_cast<std::int32_t*>(q), [&](std::int32_t o) {
        return apply<std::int32_t>(op, o, static_cast<std::int32_t>(bv), static_cast<std::int32_t>(bv),
                                   static_cast<std::int32_t>(ev));
      }));
    } else {
      old = rmw<std::uint32_t>(q, [&](std::uint32_t o) { return apply<std::uint32_t>(op, o, bv, bv, ev); });
    }
    if (d) c.w.r[d->row][l] = static_cast<std::uint32_t>(old);
  });
}

// ----- decoders -----

std::uint32_t widthOf(const sass::Instruction& ir, bool& sign) {
  sign = false;
  if (ir.hasModifier("U8")) return 1;
  if (ir.hasModifier("S8")) { sign = true; return 1; }
  if (ir.hasModifier("U16")) return 2;
  if (ir.hasModifier("S16")) { sign = true; return 2; }
  if (ir.hasModifier("64")) return 8;
  if (ir.hasModifier("128")) return 16;
  return 4;
}

Space spaceOfOpcode(const std::string& op) {
  if (op == "LDG" || op == "STG" || op == "ATOMG" || op == "REDG") return Space::Global;
  if (op == "LDS" || op == "STS" || op == "ATOMS") return Space::Shared;
  if (op == "LDL" || op == "STL") return Space::Local;
  return Space::Generic;
}

bool usesUniformPair(const sass::Instruction& ir) {
  static const std::regex kPair(R"(UR[0-9]+\.64)");
  for (const auto& o : ir.operands)
    if (o.kind == sass::OperandKind::Memory && std::regex_search(o.text, kPair)) return true;
  return false;
}

int memoryOperand(const SassInstr& in) {
  for (std::uint8_t k = 0; k < in.nops; ++k)
    if (in.op[k].kind == OpndKind::Mem) return k;
  return -1;
}

// Turing prints a 64-bit address register without ".64" ([R2] with .E, "extended" addressing);
// from Ampere on nvdisasm writes [R2.64]. Either way .E on a global/generic access is a pair,
// except a register marked .U32: a 32-bit offset added to a 64-bit uniform base (sm_75's
// "LDG.E.SYS R8, [R8.U32+UR8]" indexes a kernel parameter's array so).
void extendedAddress(SassInstr& in, const sass::Instruction& ir) {
  const Space s = spaceOfOpcode(ir.opcode);
  if (!ir.hasModifier("E") || !isWide(s)) return;
  for (std::uint8_t k = 0; k < in.nops; ++k)
    if (in.op[k].kind == OpndKind::Mem && in.op[k].row != kSassZeroRow &&
        !(k < ir.operands.size() && ir.operands[k].address.base32))
      in.op[k].base64 = true;
}

void decodeLoad(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 2 || in.op[1].kind != OpndKind::Mem || in.op[0].kind != OpndKind::Reg)
    sassDecodeError(ir, ctx, "unexpected operands of");
  bool sign = false;
  in.aux = widthOf(ir, sign);
  if (sign) in.mods |= kModSigned;
  if (usesUniformPair(ir)) in.mods |= kModUr64;
  in.aux2 = static_cast<std::uint32_t>(spaceOfOpcode(ir.opcode));
  // A wide load into RZ still reads (and checks) memory; its registers go to the sink rows.
  sassDestination(in.op[0]);
  if (in.op[0].row >= kSassSinkRow) in.op[0].row = kSassSinkRow;
  extendedAddress(in, ir);
  in.memory = true;
  in.fn = &load;
  if (spaceOfOpcode(ir.opcode) == Space::Shared && !usesUniformPair(ir)) {
    if (in.aux == 4) in.fn = &loadShared<4>;
    if (in.aux == 8) in.fn = &loadShared<8>;
    if (in.aux == 16) in.fn = &loadShared<16>;
  }
}

void decodeStore(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 2 || in.op[0].kind != OpndKind::Mem) sassDecodeError(ir, ctx, "unexpected operands of");
  bool sign = false;
  in.aux = widthOf(ir, sign);
  if (usesUniformPair(ir)) in.mods |= kModUr64;
  in.aux2 = static_cast<std::uint32_t>(spaceOfOpcode(ir.opcode));
  extendedAddress(in, ir);
  in.memory = true;
  in.fn = &store;
}

void decodeAtomic(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (ir.opcode == "ATOMS" && ir.hasModifier("ARRIVE")) return decodeAtomsArrive(in, ir, ctx);  // mbarrier.arrive
  const int mi = memoryOperand(in);
  if (mi < 0) sassDecodeError(ir, ctx, "no memory operand in");
  static const std::pair<const char*, AtomOp> kOps[] = {
      {"ADD", kAdd}, {"MIN", kMin}, {"MAX", kMax}, {"EXCH", kExch}, {"CAS", kCas}, {"AND", kAnd},
      {"OR", kOr},   {"XOR", kXor}, {"INC", kInc}, {"DEC", kDec}};
  std::uint32_t op = 0xff;
  for (const auto& [name, o] : kOps)
    if (ir.hasModifier(name)) op = o;
  if (ir.hasModifier("POPC") && ir.hasModifier("INC")) op = kPopcInc;
  if (op == 0xff) sassDecodeError(ir, ctx, "unsupported atomic operation in");
  std::uint32_t type = kU32;
  if (ir.hasModifier("S32")) type = kS32;
  if (ir.hasModifier("64") || ir.hasModifier("U64")) type = kU64;
  if (ir.hasModifier("S64")) type = kS64;
  if (ir.hasModifier("F32") || ir.hasModifier("F32.FTZ.RN")) type = kF32;
  for (const char* m : {"F16x2", "BF16x2", "F64", "F16", "BF16", "128"})
    if (ir.hasModifier(m)) sassDecodeError(ir, ctx, fmt::format("atomic type .{} is not modelled in", m).c_str());
  if (type == kF32 && op != kAdd) sassDecodeError(ir, ctx, "unsupported float atomic in");
  if (type == kF32 && ir.opcode == "ATOMS") sassDecodeError(ir, ctx, "unsupported float atomic in");
  const Space space = spaceOfOpcode(ir.opcode);
  if (space == Space::Local) sassDecodeError(ir, ctx, "an atomic on local memory in");
  in.aux = type << 8;
  in.aux2 = op | (static_cast<std::uint32_t>(space) << 8);
  in.mods |= static_cast<std::uint32_t>(mi) << 8;
  if (usesUniformPair(ir)) in.mods |= kModUr64;
  for (std::uint8_t k = 0; k < static_cast<std::uint8_t>(mi); ++k) sassDestination(in.op[k]);
  // A 64-bit destination RZ: both words to the sink rows.
  extendedAddress(in, ir);
  in.memory = true;
  in.fn = &atomic;
}

void decodeUnsupportedMemory(SassInstr&, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  sassDecodeError(ir, ctx, "tensor-core / TMA / asynchronous-copy instruction not modelled yet:");
}

}  // namespace

void registerMemoryHandlers(SassHandlerTable& t) {
  for (const char* op : {"LDG", "LDS", "LDL", "LD"}) t.add(op, &decodeLoad);
  for (const char* op : {"STG", "STS", "STL", "ST"}) t.add(op, &decodeStore);
  for (const char* op : {"ATOMG", "ATOM", "ATOMS", "RED", "REDG"}) t.add(op, &decodeAtomic);
  for (const char* op : {"LDSM", "STSM", "UTMALDG", "UTMASTG", "UTMAPF", "UBLKRED",
                         "UBLKPF", "HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA", "QGMMA", "UTCHMMA", "UTCQMMA",
                         "UTCIMMA", "UTCBAR", "LDTM", "STTM", "TEX", "TLD", "TLD4", "TXQ", "SUST", "SULD",
                         "SUATOM", "SURED"})
    t.add(op, &decodeUnsupportedMemory);
}

}  // namespace teg::emu
