// Per-lane iteration and bit helpers shared by the execute files.
#pragma once

#include <bit>
#include <cstdint>

#include "teg/ptx/isa.hpp"

namespace teg::emu {

// 128-bit integers for mul.hi/.wide and carries (a GCC/Clang extension; __extension__ keeps
// -Wpedantic quiet).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// Calls f(lane) for each set bit of `mask`; the full-warp case is a plain counted loop the
// compiler can unroll and vectorise.
template <class F>
inline void forEachLane(std::uint32_t mask, F&& f) {
  if (mask == 0xffffffffu) {
    for (int lane = 0; lane < 32; ++lane) f(lane);
  } else {
    for (; mask; mask &= mask - 1) f(std::countr_zero(mask));
  }
}

inline int bitsOf(ptx::Type t) { return t == ptx::Type::Pred ? 1 : ptx::typeBits(t); }

inline std::uint64_t lowBits(std::uint64_t v, int bits) {
  return bits >= 64 ? v : (v & ((std::uint64_t{1} << bits) - 1));
}

inline std::int64_t signExtend(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  if (bits <= 0) return 0;
  const std::uint64_t m = std::uint64_t{1} << (bits - 1);
  v = lowBits(v, bits);
  return static_cast<std::int64_t>((v ^ m) - m);
}

}  // namespace teg::emu
