// The address of a SASS memory operand ([R2.64+UR4+0x10], [R0.X4+0x400], [URZ+0x1400]) for one
// lane: shared and local addresses are 32-bit offsets, global and generic ones 64 bits (with a
// uniform register there a pair: [R2.64+UR4] with UR4:UR5 the base, as Turing's histogram shows).
#pragma once

#include <cstdint>

#include "sass_exec.hpp"

namespace teg::emu {

inline std::uint64_t sassLaneAddress(const SassCtx& c, const Opnd& m, int l, bool wide, bool ur64) {
  std::uint64_t a = 0;
  if (m.row != kSassZeroRow) {
    a = m.base64 ? (c.w.r[m.row][l] | (std::uint64_t{c.w.r[m.row + 1][l]} << 32)) : c.w.r[m.row][l];
    a *= m.imm;  // .X4 scale (1 when none)
  }
  if (m.uniformRow != kSassZeroRow) {
    const bool pair = ur64 || wide;
    a += pair ? (c.w.ur[m.uniformRow] | (std::uint64_t{c.w.ur[m.uniformRow + 1]} << 32)) : c.w.ur[m.uniformRow];
  }
  a += static_cast<std::uint64_t>(m.imm64);
  if (!wide) a &= 0xffffffffull;  // shared and local addresses are 32-bit offsets
  return a;
}

}  // namespace teg::emu
