// SASS asynchronous copies and mbarriers of sm_80-sm_89 (what cp.async, cuda::memcpy_async,
// cuda::barrier and cuda::pipeline compile to): LDGSTS (cp.async: global -> shared, per thread),
// LDGDEPBAR (cp.async.commit_group), ARRIVES.LDGSTSBAR (cp.async.mbarrier.arrive) and
// ATOMS.ARRIVE (mbarrier.arrive). DEPBAR (wait_group) is a no-op (sass_exec_control.cpp).
//
// A copy completes when issued, as on the PTX path (src/emu/exec_async.cpp): one of the orders the
// hardware may show, so a wait finds it done and the ARRIVES it triggers arrives at once.
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

void nothing(SassCtx&) {}

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
  // .TRANSCNT / .ARVCNT (sm_90's forms, on its own mbarrier layout) are not modelled yet.
  refuseOthers(ir, ctx, {"LDGSTSBAR", "64"});
  if (ctx.smVersion >= 90) sassDecodeError(ir, ctx, "the sm_90+ mbarrier is not modelled yet:");
  if (in.nops != 1 || in.op[0].kind != OpndKind::Mem) sassDecodeError(ir, ctx, "unexpected operands of");
  in.memory = true;
  in.fn = &arrives;
}

void decodeLdgdepbar(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 0) sassDecodeError(ir, ctx, "unexpected operands of");
  in.fn = &nothing;  // cp.async.commit_group: every copy is already complete
}

}  // namespace

void decodeAtomsArrive(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  refuseOthers(ir, ctx, {"ARRIVE", "64"});
  if (ctx.smVersion >= 90) sassDecodeError(ir, ctx, "the sm_90+ mbarrier is not modelled yet:");
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
}

}  // namespace teg::emu
