// SASS asynchronous copies and mbarriers of sm_80-sm_89 (what cp.async, cuda::memcpy_async,
// cuda::barrier and cuda::pipeline compile to): LDGSTS (cp.async: global -> shared, per thread),
// LDGDEPBAR (cp.async.commit_group), ARRIVES.LDGSTSBAR (cp.async.mbarrier.arrive) and
// ATOMS.ARRIVE (mbarrier.arrive). DEPBAR (wait_group) is a no-op (sass_exec_control.cpp).
//
// A copy completes when issued, as on the PTX path (src/emu/exec_async.cpp): one of the orders the
// hardware may show, so a wait finds it done and the ARRIVES it triggers arrives at once. So
// `DEPBAR.LE SB0, N` (cp.async.wait_group N) has nothing left to wait for whatever N is; how long
// it waits is the timing engine's (teg::sass::describe marks the groups it leaves in flight).
//
// The mbarrier lives in shared memory in the hardware's layout, because the kernel's own code
// reads and writes it there: ptxas initialises it with a plain `STS.64 [bar], R2` (low word
// 0x40000000 - n, high word 0x80000000 - n for n expected arrivals), adds pending arrivals with a
// plain `ATOMS.ADD.S32 [bar+4], -k` (the `cp.async.mbarrier.arrive` without .noinc: the warp's
// leader adds the lanes that will arrive) and test_waits with `LDS R, [bar+4]` and
// `LOP3.LUT P0, RZ, R, 0x80000000, token_hi, 0x48` (phase bit 63 differs from the token's). So the
// high word is phase << 31 | (2^31 - pending) in its low 31 bits: an arrival adds one, the
// arrival that completes the phase carries into bit 31 (the phase flips) and the count reloads to
// 2^31 - n, n read back from the low word. (Layout read from nvdisasm 13 of cuda::barrier and
// mbarrier PTX on sm_80/86; the tests run them against the PTX emulator.)
//
// sm_90+ reach the mbarrier only through SYNCS (EXCH.64 to initialise, ARRIVE.TRANS64 to arrive
// and expect transaction bytes, PHASECHK.TRANS64 to test a phase), ARRIVES (.ARVCNT: arrive,
// .TRANSCNT: complete one transaction unit) and UBLKCP (cp.async.bulk: copy, then complete its
// bytes). ptxas initialises with low word (2^20 - n) << 1, high word (2^20 - n) << 11; the word
// is kept in that form (high = phase << 31 | (2^20 - pending) << 11) and the transaction count,
// which the hardware keeps where no kernel reads it, beside it in the block (SassBlockRunner).
// A phase completes when no arrival and no transaction byte is pending (PTX ISA, mbarrier).
#include <algorithm>
#include <cctype>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "sass_address.hpp"
#include "sass_block_runner.hpp"
#include "sass_exec.hpp"

namespace teg::emu {

namespace {

using Space = SassBlockRunner::Space;

constexpr std::uint32_t kZfill = 1, kUr64 = 2;

// One arrival on the sm_80 mbarrier word at `p`; returns the state before it.
std::uint64_t arriveSm80(std::byte* p) {
  std::uint32_t words[2];
  std::memcpy(words, p, 8);
  const std::uint64_t old = words[0] | (std::uint64_t{words[1]} << 32);
  std::uint32_t hi = words[1] + 1;
  if ((hi & 0x7fffffffu) == 0) {
    // The phase completed (the carry flipped bit 31): reload the pending count from the low
    // word's expected count (0x40000000 - n).
    const std::uint32_t expected = 0x40000000u - (words[0] & 0x3fffffffu);
    hi |= (0x80000000u - expected) & 0x7fffffffu;
  }
  words[1] = hi;
  std::memcpy(p, words, 8);
  return old;
}

// LDGSTS[.E][.BYPASS][.LTC128B][.ZFILL][.64|.128] [shared], [global](, P): copies 4, 8 or 16
// bytes per thread. .ZFILL (cp.async with a src-size): P false copies nothing and zero-fills; P
// true reads bytes - k bytes from the aligned address where k = the address's misalignment
// (ptxas adds (size - src-size) mod size to the source pointer) and zero-fills the rest.
void ldgsts(SassCtx& c) {
  const SassInstr& in = c.in;
  const Opnd& dst = in.op[0];
  const Opnd& src = in.op[1];
  const std::uint32_t bytes = in.aux;
  const std::uint32_t fill = (in.mods & kZfill) ? c.pred(in.op[2]) : ~0u;
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t to = sassLaneAddress(c, dst, l, false, false);
    std::uint64_t from = sassLaneAddress(c, src, l, true, in.mods & kUr64);
    std::uint32_t valid = bytes;
    if (in.mods & kZfill) {
      const std::uint32_t skip = static_cast<std::uint32_t>(from & (bytes - 1));
      from -= skip;
      valid = ((fill >> l) & 1u) ? bytes - skip : 0;
    }
    if (c.addresses) c.addresses[l] = from;
    std::byte* d = c.block.resolve(c.w, l, in, Space::Shared, to, bytes, true);
    if (valid) std::memcpy(d, c.block.resolve(c.w, l, in, Space::Global, from, bytes, false), valid);
    std::memset(d + valid, 0, bytes - valid);
  });
}

// The shared offset of an mbarrier operand for lane l, checked (8 bytes, aligned).
std::byte* mbarrierAt(SassCtx& c, const Opnd& m, int l, bool write) {
  const std::uint64_t at = sassLaneAddress(c, m, l, false, false);
  if (c.addresses) c.addresses[l] = at;
  std::byte* p = c.block.resolve(c.w, l, c.in, Space::Shared, at, 8, write);
  c.block.noteMbarrier(static_cast<std::uint32_t>(at));
  return p;
}

// ARRIVES.LDGSTSBAR.64 [bar]: each executing thread arrives once its earlier LDGSTS are done,
// which is now.
void arrives(SassCtx& c) {
  forEachSassLane(c.exec, [&](int l) { arriveSm80(mbarrierAt(c, c.in.op[0], l, true)); });
}

// ATOMS.ARRIVE.64 Rd, [bar]: each executing thread arrives; Rd:Rd+1 gets the state before.
void atomsArrive(SassCtx& c) {
  const Opnd& d = c.in.op[0];
  forEachSassLane(c.exec, [&](int l) {
    const std::uint64_t old = arriveSm80(mbarrierAt(c, c.in.op[1], l, true));
    c.w.r[d.row][l] = static_cast<std::uint32_t>(old);
    c.w.r[d.row + 1][l] = static_cast<std::uint32_t>(old >> 32);
  });
}

// ---- sm_90+ ----

struct Sm90State {
  std::uint32_t expected, pending;
  bool phase;
};
Sm90State readSm90(const std::byte* p) {
  std::uint32_t w[2];
  std::memcpy(w, p, 8);
  // Counts are below 2^20 (PTX ISA), so a zero field is a zero count.
  return {(0x100000u - ((w[0] >> 1) & 0xfffffu)) & 0xfffffu, (0x100000u - ((w[1] >> 11) & 0xfffffu)) & 0xfffffu,
          (w[1] >> 31) != 0};
}
void writeSm90(std::byte* p, const Sm90State& s) {
  const std::uint32_t w[2] = {((0x100000u - s.expected) & 0xfffffu) << 1,
                              (std::uint32_t{s.phase} << 31) | (((0x100000u - s.pending) & 0xfffffu) << 11)};
  std::memcpy(p, w, 8);
}

// `arrivals` arrive and the transaction count moves by `tx` on the mbarrier of lane l; returns the
// 64-bit word before.
std::uint64_t updateSm90(SassCtx& c, const Opnd& m, int l, std::uint32_t arrivals, std::int64_t tx) {
  std::byte* p = mbarrierAt(c, m, l, true);
  std::uint64_t old;
  std::memcpy(&old, p, 8);
  Sm90State s = readSm90(p);
  const std::uint32_t offset = static_cast<std::uint32_t>(sassLaneAddress(c, m, l, false, false));
  if (arrivals > s.pending)
    c.fail(l, fmt::format("mbarrier arrive of {} on a phase with {} pending arrivals of {} (PTX ISA: undefined "
                          "behaviour)", arrivals, s.pending, s.expected));
  s.pending -= arrivals;
  std::int64_t& count = c.block.mbarrierTransactions(offset);
  count += tx;  // pending transaction bytes: tx > 0 expects them, tx < 0 completes them
  if (s.pending == 0 && count == 0) {
    s.phase = !s.phase;
    s.pending = s.expected;
  }
  writeSm90(p, s);
  return old;
}

// SYNCS.EXCH.64 URd, [bar], URs: stores the 64-bit URs:URs+1 (mbarrier.init's word), returns the
// old one; the transaction count starts at zero.
void syncsExch(SassCtx& c) {
  const SassInstr& in = c.in;
  forEachSassLane(c.exec, [&](int l) {
    std::byte* p = mbarrierAt(c, in.op[1], l, true);
    std::uint64_t old;
    std::memcpy(&old, p, 8);
    const std::uint64_t v = c.src64(in.op[2], l);
    std::memcpy(p, &v, 8);
    c.block.mbarrierTransactions(static_cast<std::uint32_t>(sassLaneAddress(c, in.op[1], l, false, false))) = 0;
    if (in.op[0].kind == OpndKind::UReg) c.uwrite64(in.op[0], old);
    else if (in.op[0].kind == OpndKind::Reg) c.write64(in.op[0], l, old);
  });
}

// SYNCS.ARRIVE.TRANS64[.RED][.AaTt] Rd, [bar], Rtx: each thread arrives a times (1 by default) and
// expects t transaction bytes (the register when t is R, the default); Rd:Rd+1 gets the word
// before (not with .RED). aux = arrivals, aux2 = 0xffffffff for "from the register", else t.
void syncsArrive(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc reg = c.src(in.op[2]);
  forEachSassLane(c.exec, [&](int l) {
    const std::int64_t tx = in.aux2 == 0xffffffffu ? static_cast<std::int64_t>(reg[l]) : in.aux2;
    const std::uint64_t old = updateSm90(c, in.op[1], l, in.aux, tx);
    if (in.op[0].kind == OpndKind::Reg) c.write64(in.op[0], l, old);
  });
}

// SYNCS.PHASECHK.TRANS64[.TRYWAIT] Pd, [bar], R: whether the phase R names (its bit 31: a parity
// shifted there, or the high word of an arrive's state) has completed, i.e. the current phase bit
// differs. A thread that finds it incomplete spins: let the other warps run.
void syncsPhasechk(SassCtx& c) {
  const SassInstr& in = c.in;
  const SassSrc r = c.src(in.op[2]);
  std::uint32_t done = 0;
  forEachSassLane(c.exec, [&](int l) {
    const std::byte* p = mbarrierAt(c, in.op[1], l, false);
    std::uint32_t hi;
    std::memcpy(&hi, p + 4, 4);
    if ((hi ^ r[l]) & 0x80000000u) done |= 1u << l;
  });
  c.setPred(in.op[0], done);
  if ((done & c.exec) != c.exec)
    c.block.yieldWarp(static_cast<std::uint32_t>(sassLaneAddress(c, in.op[1], std::countr_zero(c.exec & ~done), false, false)));
}

// ARRIVES.LDGSTSBAR.64.ARVCNT [bar]: an arrival per thread once its copies are done (now);
// .TRANSCNT: one transaction unit completed instead (the cp.async.mbarrier.arrive without .noinc,
// whose expected unit SYNCS.ARRIVE.TRANS64.RED.A0T1 added).
void arrivesSm90(SassCtx& c) {
  const bool arrival = c.in.aux == 1;
  forEachSassLane(c.exec, [&](int l) { updateSm90(c, c.in.op[0], l, arrival ? 1 : 0, arrival ? 0 : -1); });
}

// UBLKCP.S.G [URd], [URs], URn (cp.async.bulk global -> shared, once per warp): copies 16 URn
// bytes from URs:URs+1 to the shared offset URd and completes them on the mbarrier at URd+1.
void ublkcp(SassCtx& c) {
  const SassInstr& in = c.in;
  if (c.exec == 0) return;  // no lane to issue it
  const int l = std::countr_zero(c.exec);
  const std::uint32_t dst = c.w.ur[in.op[0].uniformRow] + static_cast<std::uint32_t>(in.op[0].imm64);
  const std::uint32_t bar = c.w.ur[in.op[0].uniformRow + 1];
  const std::uint64_t src = (c.w.ur[in.op[1].uniformRow] | (std::uint64_t{c.w.ur[in.op[1].uniformRow + 1]} << 32)) +
                            static_cast<std::uint64_t>(in.op[1].imm64);
  // In 64 bits: a count of 2^28 or more 16-byte units would wrap to a small size in 32.
  const std::uint64_t bytes = std::uint64_t{c.src(in.op[2])[l]} * 16u;
  if (bytes == 0 || dst % 16 || src % 16)
    c.fail(l, fmt::format("cp.async.bulk of {} bytes 0x{:x} <- 0x{:x}: size and addresses must be multiples of 16", bytes,
                          dst, src));
  // More than the block's shared memory can never fit (and would not fit resolve()'s 32 bits).
  if (bytes > c.block.sharedSize())
    c.fail(l, fmt::format("out-of-bounds shared write of {} bytes at 0x{:x} by cp.async.bulk (the block has {} bytes of "
                          "shared memory)", bytes, dst, c.block.sharedSize()));
  if (c.addresses) c.addresses[l] = src;
  const auto size = static_cast<std::uint32_t>(bytes);
  std::memcpy(c.block.resolve(c.w, l, in, Space::Shared, dst, size, true),
              c.block.resolve(c.w, l, in, Space::Global, src, size, false), size);
  Opnd m{};
  m.kind = OpndKind::Mem;
  m.row = kSassZeroRow;
  m.imm64 = bar;
  updateSm90(c, m, l, 0, -static_cast<std::int64_t>(bytes));
}

void nothing(SassCtx&) {}

}  // namespace

std::string describeMbarrier(const std::byte* p, int smVersion, std::int64_t transactionBytes) {
  std::uint32_t w[2];
  std::memcpy(w, p, 8);
  if (smVersion >= 90) {
    const Sm90State s = readSm90(p);
    return fmt::format("phase {}: {} of {} arrivals and {} transaction bytes pending", s.phase ? 1 : 0, s.pending,
                       s.expected, transactionBytes);
  }
  const std::uint32_t expected = 0x40000000u - (w[0] & 0x3fffffffu);
  const std::uint32_t pending = (0x80000000u - (w[1] & 0x7fffffffu)) & 0x7fffffffu;
  return fmt::format("phase {}: {} of {} arrivals pending", w[1] >> 31, pending, expected);
}

namespace {

bool usesUniformPair(const sass::Instruction& ir) {
  for (const auto& o : ir.operands)
    if (o.kind == sass::OperandKind::Memory && o.text.find(".64") != std::string::npos && o.text.find("UR") != std::string::npos)
      for (std::size_t at = o.text.find("UR"); at != std::string::npos; at = o.text.find("UR", at + 2)) {
        std::size_t e = at + 2;
        while (e < o.text.size() && std::isdigit(static_cast<unsigned char>(o.text[e]))) ++e;
        if (o.text.compare(e, 3, ".64") == 0) return true;
      }
  return false;
}

void refuseOthers(const sass::Instruction& ir, const SassDecodeContext& ctx, std::initializer_list<std::string_view> known) {
  for (const std::string& m : ir.modifiers)
    if (std::find(known.begin(), known.end(), m) == known.end())
      sassDecodeError(ir, ctx, fmt::format("unsupported modifier .{} of", m).c_str());
}

void decodeLdgsts(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  refuseOthers(ir, ctx, {"E", "BYPASS", "LTC128B", "ZFILL", "64", "128"});
  const bool zfill = ir.hasModifier("ZFILL");
  if (in.nops != (zfill ? 3 : 2) || in.op[0].kind != OpndKind::Mem || in.op[1].kind != OpndKind::Mem ||
      (zfill && in.op[2].kind != OpndKind::Pred))
    sassDecodeError(ir, ctx, "unexpected operands of");
  in.aux = ir.hasModifier("128") ? 16 : ir.hasModifier("64") ? 8 : 4;
  if (zfill) in.mods |= kZfill;
  if (usesUniformPair(ir)) in.mods |= kUr64;
  if (in.op[1].row != kSassZeroRow) in.op[1].base64 = true;  // .E: a 64-bit address register pair
  in.memory = true;
  in.fn = &ldgsts;
}

void decodeArrives(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  refuseOthers(ir, ctx, {"LDGSTSBAR", "64", "ARVCNT", "TRANSCNT"});
  if (in.nops != 1 || in.op[0].kind != OpndKind::Mem) sassDecodeError(ir, ctx, "unexpected operands of");
  in.memory = true;
  in.fn = &arrives;
  if (ctx.smVersion >= 90) {
    if (ir.hasModifier("ARVCNT") == ir.hasModifier("TRANSCNT")) sassDecodeError(ir, ctx, "unexpected form of");
    in.aux = ir.hasModifier("ARVCNT") ? 1 : 0;
    in.fn = &arrivesSm90;
  } else if (ir.hasModifier("ARVCNT") || ir.hasModifier("TRANSCNT")) {
    sassDecodeError(ir, ctx, "unexpected form of");
  }
}

void decodeSyncs(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (ctx.smVersion < 90 || in.nops != 3 || in.op[1].kind != OpndKind::Mem) sassDecodeError(ir, ctx, "unexpected operands of");
  in.memory = true;
  if (ir.hasModifier("EXCH")) {
    refuseOthers(ir, ctx, {"EXCH", "64"});
    sassDestination(in.op[0]);
    in.fn = &syncsExch;
    return;
  }
  if (ir.hasModifier("PHASECHK")) {
    refuseOthers(ir, ctx, {"PHASECHK", "TRANS64", "TRYWAIT"});
    if (in.op[0].kind != OpndKind::Pred) sassDecodeError(ir, ctx, "unexpected operands of");
    sassDestination(in.op[0]);
    in.fn = &syncsPhasechk;
    return;
  }
  if (!ir.hasModifier("ARRIVE") || !ir.hasModifier("TRANS64")) sassDecodeError(ir, ctx, "unsupported form of");
  in.aux = 1;
  in.aux2 = 0xffffffffu;
  for (const std::string& m : ir.modifiers) {
    if (m == "ARRIVE" || m == "TRANS64" || m == "RED") continue;
    if (m.size() == 4 && m[0] == 'A' && m[2] == 'T' && std::isdigit(static_cast<unsigned char>(m[1]))) {
      in.aux = static_cast<std::uint32_t>(m[1] - '0');
      if (std::isdigit(static_cast<unsigned char>(m[3]))) in.aux2 = static_cast<std::uint32_t>(m[3] - '0');
      else if (m[3] != 'R') sassDecodeError(ir, ctx, "unsupported form of");
      continue;
    }
    sassDecodeError(ir, ctx, fmt::format("unsupported modifier .{} of", m).c_str());
  }
  sassDestination(in.op[0]);
  in.fn = &syncsArrive;
}

void decodeUblkcp(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  // Only the global -> shared copy completing on an mbarrier (.S.G); the reducing and prefetch
  // forms (UBLKRED, UBLKPF) and shared -> global stay unmodelled.
  refuseOthers(ir, ctx, {"S", "G"});
  if (!ir.hasModifier("S") || !ir.hasModifier("G") || in.nops != 3 || in.op[0].kind != OpndKind::Mem ||
      in.op[1].kind != OpndKind::Mem || in.op[0].row != kSassZeroRow || in.op[1].row != kSassZeroRow ||
      in.op[0].uniformRow >= kSassZeroRow || in.op[1].uniformRow >= kSassZeroRow)
    sassDecodeError(ir, ctx, "unexpected operands of");
  in.memory = true;
  in.uniformOnce = true;
  in.fn = &ublkcp;
}

void decodeLdgdepbar(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 0) sassDecodeError(ir, ctx, "unexpected operands of");
  in.fn = &nothing;  // cp.async.commit_group: every copy is already complete
}

}  // namespace

void decodeAtomsArrive(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  refuseOthers(ir, ctx, {"ARRIVE", "64"});
  if (ctx.smVersion >= 90) sassDecodeError(ir, ctx, "an sm_80-89 mbarrier arrive on sm_90+:");
  if (in.nops != 2 || in.op[0].kind != OpndKind::Reg || in.op[1].kind != OpndKind::Mem)
    sassDecodeError(ir, ctx, "unexpected operands of");
  sassDestination(in.op[0]);
  in.memory = true;
  in.fn = &atomsArrive;
}

void registerAsyncHandlers(SassHandlerTable& t) {
  t.add("LDGSTS", &decodeLdgsts);
  t.add("LDGDEPBAR", &decodeLdgdepbar);
  t.add("ARRIVES", &decodeArrives);
  t.add("SYNCS", &decodeSyncs);
  t.add("UBLKCP", &decodeUblkcp);
}

}  // namespace teg::emu
