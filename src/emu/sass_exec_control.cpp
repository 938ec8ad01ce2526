// SASS control flow: which opcodes the block runner executes itself (branches, exits, calls and
// returns, convergence barriers, warp and CTA synchronisation) and the no-ops of a functional
// run (memory fences, cache control, scheduling hints). The semantics live in
// sass_block_runner.cpp; here only the decoding.
#include <bit>
#include <utility>

#include "sass_exec.hpp"

namespace teg::emu {

namespace {

constexpr std::uint32_t kModNoInc = 1;  // CALL.NOINC (the return address is in a register)
constexpr std::uint32_t kModClear = 1;  // BMOV.CLEAR

template <SassControl K>
void decodeControl(SassInstr& in, const sass::Instruction&, const SassDecodeContext&) {
  in.control = K;
}

void decodeBra(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  bool label = false;
  for (std::uint8_t k = 0; k < in.nops; ++k) label = label || in.op[k].kind == OpndKind::Label;
  if (!label) sassDecodeError(ir, ctx, "a branch without a target label:");
  in.control = SassControl::Bra;
  // BRA.U.ANY (sm_90's elect loops): taken by the whole group when its guard holds in any lane.
  if (ir.hasModifier("ANY")) in.mods = kModBraAny;
  if (ir.hasModifier("DIV") || ir.hasModifier("CONV")) {
    in.control = SassControl::BraDiv;
    in.mods = ir.hasModifier("CONV") ? 1u : 0u;  // CONV: taken when converged; DIV: when not
  }
}

// BRX Ra imm (*"BRANCH_TARGETS .L_x_18,..."*): an indirect branch, what ptxas makes of a dense
// switch: Ra:Ra+1 holds a section-relative address loaded from the jump table in constant bank 2
// (`LDC R8, c[0x2][R7+0x1c]`), and the target is that value plus the immediate plus the address
// of the next instruction (ptxas prints the immediate as minus that address, so the target is the
// table's value). The block runner splits the group by target as for any divergent branch, and
// checks each target against the BRANCH_TARGETS list (buildSassProgram resolves it into
// SassProgram::branchTargets).
void decodeBrx(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (!ir.modifiers.empty() || in.nops < 1 || in.op[0].kind != OpndKind::Reg)
    sassDecodeError(ir, ctx, "unsupported form of");
  for (std::uint8_t k = 1; k < in.nops; ++k) {
    const bool immediate = k == 1 && in.op[k].kind == OpndKind::Imm;
    if (!immediate && in.op[k].kind != OpndKind::Other) sassDecodeError(ir, ctx, "unsupported operand of");
  }
  in.control = SassControl::Brx;
}

// LEPC Rd: the address of this instruction, a 64-bit pair; LEPC Rd, label (sm_100+): the label's.
// ptxas uses it only for the return address of a CALL.ABS (below), which never returns here, so
// the address is 16 bytes (one Volta+ instruction) per instruction index, the section's base 0.
void lepc(SassCtx& c) {
  const std::uint64_t address = std::uint64_t{c.in.aux} * 16;
  forEachSassLane(c.exec, [&](int l) { c.write64(c.in.op[0], l, address); });
}
void decodeLepc(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  const bool label = in.nops == 2 && in.op[1].kind == OpndKind::Label;
  if (!(in.nops == 1 || label) || in.op[0].kind != OpndKind::Reg) sassDecodeError(ir, ctx, "unsupported form of");
  sassDestination(in.op[0]);
  in.aux = label ? in.op[1].target : in.index;
  in.fn = &lepc;
}

// CALL.ABS.NOINC R: a call to a function outside the kernel's code, at an address the driver
// relocates into constant bank 4 — the CUDA runtime's __assertfail (an assert that failed),
// vprintf, malloc/free. ptxas puts the call on the path the condition guards, so a kernel whose
// asserts hold never executes it; one that does stops here with its source line, as the GPU would
// trap (assert) or as the PTX emulator stops at a call it does not run.
void callAbsolute(SassCtx& c) {
  const int lane = std::countr_zero(c.exec);
  c.fail(lane, "called a function outside the kernel (CALL.ABS: the CUDA runtime's __assertfail when an assert "
               "fails, or vprintf/malloc/free), which the SASS emulator does not run");
}
void decodeCall(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (ir.hasModifier("ABS")) {
    in.fn = &callAbsolute;
    return;
  }
  if (!ir.hasModifier("REL")) sassDecodeError(ir, ctx, "only relative calls are modelled:");
  in.control = SassControl::Call;
  if (ir.hasModifier("NOINC")) in.mods |= kModNoInc;
}

void decodeRet(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (!ir.hasModifier("REL")) sassDecodeError(ir, ctx, "only relative returns are modelled:");
  in.control = SassControl::Ret;
}

// The barrier operand is moved to op[0]; a predicate operand before it (BREAK.RELIABLE P2, B3)
// is not modelled and must be PT... or is ignored for BREAK, whose effect is on the barrier.
void decodeBarrierOperand(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx, SassControl k) {
  int b = -1;
  for (std::uint8_t i = 0; i < in.nops; ++i)
    if (in.op[i].kind == OpndKind::Barrier) b = i;
  if (b < 0) sassDecodeError(ir, ctx, "no convergence barrier in");
  if (b > 0) std::swap(in.op[0], in.op[b]);
  in.control = k;
}
void decodeBssy(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  decodeBarrierOperand(in, ir, ctx, SassControl::Bssy);
}
void decodeBsync(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  decodeBarrierOperand(in, ir, ctx, SassControl::Bsync);
}
void decodeBreak(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  decodeBarrierOperand(in, ir, ctx, SassControl::Break);
}
void decodeBmov(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (in.nops != 2 || (in.op[0].kind != OpndKind::Barrier && in.op[1].kind != OpndKind::Barrier) ||
      !ir.hasModifier("32"))
    sassDecodeError(ir, ctx, "unsupported form of");
  if (in.op[1].kind == OpndKind::Barrier) sassDestination(in.op[0]);
  if (ir.hasModifier("CLEAR")) in.mods |= kModClear;
  in.control = SassControl::Bmov;
}
void decodeWarpSync(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext&) {
  in.control = ir.hasModifier("COLLECTIVE") ? SassControl::WarpSyncCollective : SassControl::WarpSync;
  if (ir.hasModifier("ALL")) in.nops = 0;  // all lanes
}
void decodeBar(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  if (ir.hasModifier("SYNC") || ir.hasModifier("SYNCALL")) in.control = SassControl::BarSync;
  else if (ir.hasModifier("ARV")) in.control = SassControl::BarArrive;
  else sassDecodeError(ir, ctx, "unsupported barrier operation in");
  if (ir.hasModifier("SYNCALL")) in.nops = 0;
}
void decodeUnsupportedControl(SassInstr&, const sass::Instruction& ir, const SassDecodeContext& ctx) {
  sassDecodeError(ir, ctx, "control instruction not modelled:");
}

}  // namespace

void registerControlHandlers(SassHandlerTable& t) {
  t.add("BRA", &decodeBra);
  t.add("JMP", &decodeBra);
  t.add("BRX", &decodeBrx);
  t.add("EXIT", &decodeControl<SassControl::Exit>);
  t.add("KILL", &decodeControl<SassControl::Kill>);
  t.add("CALL", &decodeCall);
  t.add("LEPC", &decodeLepc);
  t.add("RET", &decodeRet);
  t.add("BSSY", &decodeBssy);
  t.add("BSYNC", &decodeBsync);
  t.add("BREAK", &decodeBreak);
  t.add("BMOV", &decodeBmov);
  t.add("WARPSYNC", &decodeWarpSync);
  t.add("BAR", &decodeBar);
  // No effect on a functional run: fences and memory ordering (one thread runs a block, blocks
  // share only global memory, whose accesses are atomic where the kernel asks), cache control,
  // scheduling hints, dependency waits.
  for (const char* op : {"NOP", "YIELD", "MEMBAR", "FENCE", "ERRBAR", "CGAERRBAR", "CCTL", "CCTLL", "DEPBAR",
                         "NANOSLEEP", "ENDCOLLECTIVE", "PMTRIG", "BPT.DRAIN"})
    t.add(op, &decodeControl<SassControl::Nop>);
  for (const char* op : {"JMX", "BPT", "RTT", "PRET", "BRXU", "JMXU"})
    t.add(op, &decodeUnsupportedControl);
}

}  // namespace teg::emu
