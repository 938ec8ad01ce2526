// Warp-wide instructions (PTX ISA §9.7.8.x): shfl.sync, vote, match, activemask, redux.sync.
// Lanes are the warp's active lanes at the instruction; a source lane that is not active still
// has its register value, which is what the emulator returns (hardware leaves it undefined).
#include <algorithm>
#include <bit>

#include "block_runner.hpp"
#include "lanes.hpp"

namespace teg::emu {

using ptx::Opcode;
using ptx::Qualifier;
using ptx::Type;

void BlockRunner::execWarpOp(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec) {
  const auto mode = static_cast<Qualifier>(d.qual);
  switch (d.op) {
    case Opcode::Activemask:
      forEachLane(exec, [&](int l) { write(f, d.dst, l, w.stack.back().mask); });
      return;
    case Opcode::Shfl: {
      const View a = read(w, f, d.src[0], scratch_[0].data());
      const View b = read(w, f, d.src[1], scratch_[1].data());
      const View c = read(w, f, d.src[2], scratch_[2].data());
      std::array<std::uint64_t, kLanes> value{};
      std::array<std::uint8_t, kLanes> valid{};
      forEachLane(exec, [&](int lane) {
        const int bval = static_cast<int>(b[lane] & 31u);
        const int cval = static_cast<int>(c[lane] & 31u);
        const int segmask = static_cast<int>((c[lane] >> 8) & 31u);
        const int maxLane = (lane & segmask) | (cval & ~segmask);
        const int minLane = lane & segmask;
        int j = lane;
        bool pval = false;
        switch (mode) {
          case Qualifier::Up: j = lane - bval; pval = j >= maxLane; break;
          case Qualifier::Down: j = lane + bval; pval = j <= maxLane; break;
          case Qualifier::Bfly: j = lane ^ bval; pval = j <= maxLane; break;
          case Qualifier::Idx: j = minLane | (bval & ~segmask); pval = j <= maxLane; break;
          default: break;
        }
        if (!pval) j = lane;
        value[lane] = a[j & 31];
        valid[lane] = pval;
      });
      forEachLane(exec, [&](int l) {
        write(f, d.dst, l, value[l]);
        if (d.hasDst2) write(f, d.dst2, l, valid[l]);
      });
      return;
    }
    case Opcode::Vote: {
      const View a = read(w, f, d.src[0], scratch_[0].data());
      const bool neg = d.src[0].negated;
      std::uint32_t ballot = 0;
      forEachLane(exec, [&](int l) { if (((a[l] & 1u) != 0) != neg) ballot |= 1u << l; });
      std::uint64_t r = 0;
      switch (mode) {
        case Qualifier::All: r = ballot == exec; break;
        case Qualifier::Any: r = ballot != 0; break;
        case Qualifier::Ballot: r = ballot; break;
        default: r = (ballot == exec || ballot == 0); break;  // .uni
      }
      forEachLane(exec, [&](int l) { write(f, d.dst, l, r); });
      return;
    }
    case Opcode::Match: {
      const View a = read(w, f, d.src[0], scratch_[0].data());
      const int bits = bitsOf(d.type);
      if (mode == Qualifier::All) {
        bool same = true;
        const int first = exec ? std::countr_zero(exec) : 0;
        forEachLane(exec, [&](int l) { same = same && lowBits(a[l], bits) == lowBits(a[first], bits); });
        forEachLane(exec, [&](int l) {
          write(f, d.dst, l, same ? exec : 0);
          if (d.hasDst2) write(f, d.dst2, l, same ? 1 : 0);
        });
        return;
      }
      std::array<std::uint32_t, kLanes> m{};
      forEachLane(exec, [&](int l) {
        std::uint32_t s = 0;
        forEachLane(exec, [&](int k) { if (lowBits(a[k], bits) == lowBits(a[l], bits)) s |= 1u << k; });
        m[l] = s;
      });
      forEachLane(exec, [&](int l) { write(f, d.dst, l, m[l]); });
      return;
    }
    case Opcode::Redux: {
      const View a = read(w, f, d.src[0], scratch_[0].data());
      const bool sgn = ptx::isSignedType(d.type);
      std::uint64_t acc = 0;
      std::int64_t sacc = 0;
      bool first = true;
      forEachLane(exec, [&](int l) {
        const std::uint64_t u = a[l] & 0xffffffffu;
        const std::int64_t s = signExtend(u, 32);
        if (first) { acc = u; sacc = s; first = false; return; }
        switch (mode) {
          case Qualifier::Add: acc += u; break;
          case Qualifier::Min: if (sgn) sacc = std::min(sacc, s); else acc = std::min(acc, u); break;
          case Qualifier::Max: if (sgn) sacc = std::max(sacc, s); else acc = std::max(acc, u); break;
          case Qualifier::And: acc &= u; break;
          case Qualifier::Or: acc |= u; break;
          case Qualifier::Xor: acc ^= u; break;
          default: break;
        }
      });
      const std::uint64_t r = (sgn && (mode == Qualifier::Min || mode == Qualifier::Max))
                                  ? static_cast<std::uint64_t>(sacc) & 0xffffffffu
                                  : acc & 0xffffffffu;
      forEachLane(exec, [&](int l) { write(f, d.dst, l, r); });
      return;
    }
    default:
      if (exec) fail(w, std::countr_zero(exec), d, "instruction not supported by the emulator");
  }
}

}  // namespace teg::emu
