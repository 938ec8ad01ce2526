#include "sass_block_runner.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "teg/support/error.hpp"

namespace teg::emu {

namespace {
constexpr std::uint32_t kSassSlice = 4096;  // warp instructions before the next warp's turn
// Rounds of nothing but mbarrier spinning, with no mbarrier changing, between two comparisons of
// the block's whole state (mbarrierSpinIsStuck): a few spin iterations per warp, cheap beside
// running such a kernel to the instruction limit.
constexpr std::uint32_t kSpinRoundsPerCheck = 64;
}

void sassUnsupportedInstruction(SassCtx& c) {
  c.fail(-1, c.block.program().errors[c.in.aux]);
}

void SassCtx::fail(int lane, const std::string& what) const { block.fail(w, lane, in, what); }

std::uint32_t SassCtx::constAddress(const Opnd& o, int lane) {
  std::uint64_t at = o.imm;
  if (o.indexRow >= 0) at += o.indexUniform ? w.ur[o.indexRow] : w.r[o.indexRow][lane];
  if (at > kSassBankBytes - 4 || at % 4 != 0)
    fail(lane, fmt::format("constant bank address c[0x{:x}][0x{:x}] is outside the 64 KiB bank or misaligned", o.bank, at));
  return static_cast<std::uint32_t>(at);
}

SassCtx::Src SassCtx::constIndexed(const Opnd& o) {
  std::uint32_t bank = o.bank;
  if (o.bankUniformRow >= 0) {
    bank = w.ur[o.bankUniformRow];
    if (bank >= static_cast<std::uint32_t>(kSassBanks)) fail(-1, fmt::format("constant bank {} does not exist", bank));
  }
  std::uint32_t* s = scratch[scratchUsed++ & 3];
  if (o.indexRow < 0 || o.indexUniform) {
    Opnd copy = o;
    const std::uint32_t at = constAddress(copy, 0);
    const std::uint32_t v = banks[bank][at >> 2];
    for (int l = 0; l < kSassLanes; ++l) s[l] = v;
    return {s, 31};
  }
  forEachSassLane(exec, [&](int l) { s[l] = banks[bank][constAddress(o, l) >> 2]; });
  return {s, 31};
}

std::uint32_t SassCtx::usrc(const Opnd& o, int lane) {
  switch (o.kind) {
    case OpndKind::UReg: return w.ur[o.row];
    case OpndKind::Imm:
    case OpndKind::FloatImm: return o.imm;
    case OpndKind::Const: return src(o)[lane];
    case OpndKind::Reg: return w.r[o.row][lane];
    default: return 0;
  }
}

std::uint64_t SassCtx::usrc64(const Opnd& o) { return src64(o, 0); }

SassBlockRunner::SassBlockRunner(const SassLaunchContext& ctx) : ctx_(ctx) {
  shared_.assign(ctx_.sharedBytes, std::byte{0});
  blockThreads_ = static_cast<std::uint32_t>(ctx_.block.count());
  localStride_ = std::max<std::uint32_t>(16, ctx_.program->localBytesPerThread);
  int rows = 0;
  for (const sass::Function* f : ctx_.program->functions) rows = std::max(rows, f->registers < 0 ? 255 : f->registers + 2);
  zeroRows_ = static_cast<std::uint32_t>(std::min(rows, 256));
}

void SassBlockRunner::initWarps() {
  const std::uint32_t nWarps = (blockThreads_ + kSassLanes - 1) / kSassLanes;
  if (warps_.size() != nWarps) {
    warps_.clear();
    for (std::uint32_t i = 0; i < nWarps; ++i) {
      warps_.push_back(std::make_unique<SassWarp>());
      // Register files start zeroed (the arrays have no initialiser: the warp is large and hot).
      static_assert(std::is_trivially_copyable_v<SassWarp>);
      std::memset(static_cast<void*>(warps_.back().get()), 0, sizeof(SassWarp));
    }
    runtime_.assign(nWarps, {});
  }
  local_.assign(std::size_t{localStride_} * kSassLanes * nWarps, std::byte{0});
  const std::uint32_t bx = ctx_.block.x, by = ctx_.block.y;
  for (std::uint32_t wi = 0; wi < nWarps; ++wi) {
    SassWarp& w = *warps_[wi];
    std::memset(w.r, 0, sizeof(w.r[0]) * zeroRows_);
    std::memset(w.r[kSassZeroRow], 0, sizeof(w.r[0]) * 4);
    std::memset(w.ur, 0, sizeof(w.ur));
    for (std::uint32_t& p : w.p) p = 0;
    for (std::uint32_t& p : w.up) p = 0;
    w.p[kPredTrue] = ~0u;
    w.up[kPredTrue] = ~0u;
    w.index = wi;
    w.validMask = 0;
    for (int lane = 0; lane < kSassLanes; ++lane) {
      const std::uint32_t t = wi * kSassLanes + static_cast<std::uint32_t>(lane);
      if (t < blockThreads_) w.validMask |= 1u << lane;
      w.tid[0][lane] = t % bx;
      w.tid[1][lane] = (t / bx) % by;
      w.tid[2][lane] = t / (bx * by);
    }
    w.exitedMask = 0;
    w.clock = 0;
    SassWarpRuntime& rt = runtime_[wi];
    rt.groups.clear();
    rt.groups.push_back(SassGroup{0, w.validMask, SassGroup::Wait::None, 0, {}});
    rt.bssy = {};
    rt.inside = {};
    rt.bssyPc = {};
    rt.state = WarpState::Ready;
    rt.barrierInstr = nullptr;
  }
}

void SassBlockRunner::run(std::uint64_t linear, trace::TraceListener* listener, BlockEvents* buffer) {
  linear_ = linear;
  ctaid_[0] = static_cast<std::uint32_t>(linear % ctx_.grid.x);
  ctaid_[1] = static_cast<std::uint32_t>((linear / ctx_.grid.x) % ctx_.grid.y);
  ctaid_[2] = static_cast<std::uint32_t>(linear / (std::uint64_t{ctx_.grid.x} * ctx_.grid.y));
  listener_ = listener;
  buffer_ = buffer;
  std::fill(shared_.begin(), shared_.end(), std::byte{0});
  barriers_ = {};
  mbarriers_.clear();
  transactions_.clear();
  yield_ = false;
  spinRounds_ = 0;
  spinWords_.clear();
  spinSnapshot_.clear();
  budget_.startBlock();
  initWarps();
  if (listener_) listener_->beginBlock(static_cast<std::uint32_t>(linear));
  for (;;) {
    bool anyReady = false, allDone = true;
    for (std::size_t wi = 0; wi < warps_.size(); ++wi) {
      if (runtime_[wi].state == WarpState::Ready) {
        const std::uint64_t before = warpInstructions;
        runWarp(wi, kSassSlice);
        if (warpInstructions != before || runtime_[wi].state != WarpState::Ready) anyReady = true;
      }
      if (runtime_[wi].state != WarpState::Done) allDone = false;
    }
    chargeBudget(0);
    if (allDone) break;
    if (!anyReady) deadlock();
    if (mbarrierSpinIsStuck()) mbarrierDeadlock();
  }
  if (listener_) listener_->endBlock(static_cast<std::uint32_t>(linear));
}

void SassBlockRunner::chargeBudget(std::uint64_t n) {
  budget_.charge(n, {ctx_.maxInstructions, ctx_.maxBlockInstructions, ctx_.maxTraceRecords, ctx_.instructionBudgetUsed},
                 listener_ != nullptr || buffer_ != nullptr, ctaid_);
}

void SassBlockRunner::emit(const SassWarp& w, std::uint32_t pc, std::uint32_t mask, const std::uint64_t* addresses) {
  trace::WarpInstruction rec;
  rec.block = static_cast<std::uint32_t>(linear_);
  rec.warp = w.index;
  rec.pc = pc;
  rec.activeMask = mask;
  if (addresses) std::memcpy(rec.addresses.data(), addresses, sizeof(rec.addresses));
  if (listener_) {
    listener_->instruction(rec);
    return;
  }
  BufferedRecord b{rec.warp, rec.pc, rec.activeMask, BufferedRecord::kNoAddresses};
  if (addresses) {
    b.addresses = static_cast<std::uint32_t>(buffer_->addresses.size());
    buffer_->addresses.push_back(rec.addresses);
  }
  buffer_->records.push_back(b);
}

std::size_t SassBlockRunner::pickGroup(SassWarpRuntime& rt) const {
  std::size_t best = rt.groups.size();
  for (std::size_t i = 0; i < rt.groups.size(); ++i)
    if (rt.groups[i].wait == SassGroup::Wait::None && (best == rt.groups.size() || rt.groups[i].pc < rt.groups[best].pc))
      best = i;
  return best;
}

void SassBlockRunner::exitLanes(SassWarp& w, SassWarpRuntime& rt, std::size_t gi, std::uint32_t lanes) {
  w.exitedMask |= lanes;
  rt.groups[gi].mask &= ~lanes;
  if (rt.groups[gi].mask == 0) rt.groups.erase(rt.groups.begin() + static_cast<std::ptrdiff_t>(gi));
  release(w, rt);
  if (rt.groups.empty()) rt.state = WarpState::Done;
}

// Merges waiting groups whose condition now holds: BSYNC Bk when every expected lane (BSSY's,
// minus exited and broken-out lanes) waits on Bk; a WARPSYNC / collective when every required
// live lane waits at that pc; a CTA barrier when every live lane of the warp waits at it.
void SassBlockRunner::release(SassWarp& w, SassWarpRuntime& rt) {
  const std::uint32_t live = w.validMask & ~w.exitedMask;
  // Lanes waiting at BSYNC Bk that Bk no longer expects go on, as they would have on arriving
  // there now (runWarp's Bsync): another group's BSSY Bk at another pc (a sibling region reusing
  // the register) or at the same one (a subroutine entered by two groups) reset Bk to its own
  // lanes while these waited.
  for (SassGroup& g : rt.groups)
    if (g.wait == SassGroup::Wait::Bsync && (rt.bssy[g.waitArg] & g.mask) == 0) {
      rt.inside[g.waitArg] &= ~g.mask;
      g.wait = SassGroup::Wait::None;
      ++g.pc;
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < rt.groups.size() && !changed; ++i) {
      const SassGroup& g = rt.groups[i];
      if (g.wait == SassGroup::Wait::None) continue;
      std::uint32_t waiting = 0;
      std::uint32_t required = 0;
      auto same = [&](const SassGroup& o) {
        if (o.wait != g.wait) return false;
        // A BSYNC merges the lanes waiting at that instruction only: a callee may reuse the
        // caller's barrier register (a division slow path's BSYNC B1 while the caller's next
        // region waits at its own BSYNC B1), and lanes must resume after their own BSYNC.
        if (g.wait == SassGroup::Wait::Bsync) return o.waitArg == g.waitArg && o.pc == g.pc;
        return o.pc == g.pc;
      };
      for (const SassGroup& o : rt.groups)
        if (same(o)) waiting |= o.mask;
      // A BSYNC waits for the lanes Bk expects that are still inside a region of Bk: lanes that
      // another region's BSSY Bk added (a subroutine's slow path reusing the register on other
      // lanes) and that have since gone past that region's BSYNC no longer come (seed 1000485).
      if (g.wait == SassGroup::Wait::Bsync) required = rt.bssy[g.waitArg] & rt.inside[g.waitArg] & live;
      else if (g.wait == SassGroup::Wait::Sync) required = g.waitArg & live;
      else required = live;
      if ((required & ~waiting) != 0) continue;
      // Merge every group of this kind into the first; it resumes after a BSYNC or at the
      // collective instruction (re-executed with all its lanes), or waits at the CTA barrier.
      const SassGroup::Wait kind = g.wait;
      const std::uint32_t barrier = g.waitArg;
      std::uint32_t pc = g.pc;
      for (const SassGroup& o : rt.groups)
        if (same(o)) pc = std::min(pc, o.pc);
      SassGroup merged{pc, waiting, SassGroup::Wait::None, 0, g.calls};
      std::vector<SassGroup> rest;
      for (SassGroup& o : rt.groups)
        if (!same(o)) rest.push_back(std::move(o));
      if (kind == SassGroup::Wait::Bsync) {
        merged.pc = pc + 1;
        rt.inside[barrier] &= ~waiting;
      }
      if (kind == SassGroup::Wait::Bar) {
        merged.wait = SassGroup::Wait::Bar;
        merged.waitArg = ~0u;  // arrived at the CTA barrier as one group
      }
      rest.push_back(std::move(merged));
      rt.groups = std::move(rest);
      changed = kind != SassGroup::Wait::Bar;
      if (kind == SassGroup::Wait::Bar) return;
    }
  }
}

// Every group of the warp waits and none can be released: some lanes a BSYNC waits for are
// themselves blocked at another convergence barrier (they left the region without BREAK, e.g. a
// loop's break that ptxas routed to an outer region's BSYNC). A thread blocked at one convergence
// barrier does not hold another (Volta's scheduler runs the others), so the BSYNC with the lowest
// pc — the innermost region in ptxas's layout, as the lowest-pc-first order — goes on with the
// lanes that are there. Returns false when no group waits at a BSYNC (a real deadlock).
bool SassBlockRunner::releaseStuckBsync(SassWarpRuntime& rt) {
  std::size_t best = rt.groups.size();
  for (std::size_t i = 0; i < rt.groups.size(); ++i)
    if (rt.groups[i].wait == SassGroup::Wait::Bsync && (best == rt.groups.size() || rt.groups[i].pc < rt.groups[best].pc))
      best = i;
  if (best == rt.groups.size()) return false;
  const std::uint32_t pc = rt.groups[best].pc;
  for (SassGroup& g : rt.groups)
    if (g.wait == SassGroup::Wait::Bsync && g.pc == pc) {
      rt.inside[g.waitArg] &= ~g.mask;
      g.wait = SassGroup::Wait::None;
      g.pc = pc + 1;
    }
  // Groups now at the same pc run together.
  std::vector<SassGroup> merged;
  for (SassGroup& g : rt.groups) {
    bool joined = false;
    for (SassGroup& m : merged)
      if (g.wait == SassGroup::Wait::None && m.wait == SassGroup::Wait::None && m.pc == g.pc && m.calls == g.calls) {
        m.mask |= g.mask;
        joined = true;
        break;
      }
    if (!joined) merged.push_back(std::move(g));
  }
  rt.groups = std::move(merged);
  return true;
}

void SassBlockRunner::splitByTarget(SassWarp& w, SassWarpRuntime& rt, std::size_t gi, std::uint32_t exec,
                                    const std::uint32_t* targets) {
  (void)w;
  SassGroup base = rt.groups[gi];
  rt.groups.erase(rt.groups.begin() + static_cast<std::ptrdiff_t>(gi));
  if (base.mask & ~exec) {
    SassGroup stay = base;
    stay.mask = base.mask & ~exec;
    stay.pc = base.pc + 1;
    rt.groups.push_back(stay);
  }
  for (std::uint32_t m = exec; m;) {
    const std::uint32_t t = targets[std::countr_zero(m)];
    std::uint32_t same = 0;
    for (std::uint32_t k = m; k; k &= k - 1)
      if (targets[std::countr_zero(k)] == t) same |= 1u << std::countr_zero(k);
    SassGroup g = base;
    g.mask = same;
    g.pc = t;
    rt.groups.push_back(g);
    m &= ~same;
  }
}

// BRX Ra imm: the pc of lane `lane`'s target, the 64-bit pair Ra:Ra+1 (a section-relative address
// from the jump table, sign-extended by ptxas's SHF.R.S32.HI) plus the immediate plus the address
// of the next instruction (decodeBrx). It must be an instruction and, when nvdisasm listed the
// BRANCH_TARGETS, one of them.
std::uint32_t SassBlockRunner::indirectBranchTarget(const SassWarp& w, int lane, const SassInstr& in) {
  const SassProgram& prog = *ctx_.program;
  const Opnd& reg = in.op[0];
  std::uint64_t address = w.r[reg.row][lane] | (std::uint64_t{w.r[reg.row + 1][lane]} << 32);
  if (in.nops > 1 && in.op[1].kind == OpndKind::Imm) address += static_cast<std::uint64_t>(in.op[1].imm64);
  address += std::uint64_t{in.ir->address} + 16;
  const std::int64_t pc = prog.pcOf(address);
  if (pc < 0) fail(w, lane, in, fmt::format("indirect branch target 0x{:x} is not an instruction of the kernel", address));
  const auto target = static_cast<std::uint32_t>(pc);
  if (in.aux == 0 || in.aux > prog.branchTargets.size()) return target;
  const std::vector<std::uint32_t>& allowed = prog.branchTargets[in.aux - 1];
  if (std::find(allowed.begin(), allowed.end(), target) == allowed.end())
    fail(w, lane, in, fmt::format("indirect branch target 0x{:x} is not one of the instruction's BRANCH_TARGETS "
                                  "(a jump table read from a constant bank 2 without the kernel's cubin?)", address));
  return target;
}

std::uint32_t SassBlockRunner::liveThreads() const {
  std::uint32_t n = 0;
  for (const auto& w : warps_) n += static_cast<std::uint32_t>(std::popcount(w->validMask & ~w->exitedMask));
  return n;
}

void SassBlockRunner::arriveBarrier(std::size_t wi, SassGroup& g, const SassInstr& in, std::uint32_t exec) {
  SassWarp& w = *warps_[wi];
  SassWarpRuntime& rt = runtime_[wi];
  std::uint32_t id = 0;
  std::uint32_t expected = 0;  // 0: every live thread of the block
  SassCtx c(w, *this, in, exec, nullptr, ctx_.banks);
  if (in.nops >= 1) id = c.src(in.op[0])[std::countr_zero(exec | 1u << 31)];
  if (in.nops >= 2) expected = c.src(in.op[1])[std::countr_zero(exec | 1u << 31)];
  if (id >= barriers_.size()) fail(w, -1, in, fmt::format("barrier id {} is not in 0..15", id));
  BarrierState& b = barriers_[id];
  b.used = true;
  b.expected = expected;
  b.arrived += static_cast<std::uint32_t>(std::popcount(exec));
  if (in.control == SassControl::BarArrive) {
    ++g.pc;
  } else {
    rt.state = WarpState::AtBarrier;
    rt.barrier = id;
    rt.barrierInstr = &in;
    rt.barrierMask = exec;
  }
  const std::uint32_t need = b.expected ? b.expected : liveThreads();
  if (b.arrived >= need) releaseBarrier(id);
}

void SassBlockRunner::releaseBarrier(std::uint32_t id) {
  for (std::size_t wi = 0; wi < warps_.size(); ++wi) {
    SassWarpRuntime& rt = runtime_[wi];
    if (rt.state != WarpState::AtBarrier || rt.barrier != id) continue;
    for (SassGroup& g : rt.groups)
      if (g.wait == SassGroup::Wait::Bar) {
        g.wait = SassGroup::Wait::None;
        ++g.pc;
      }
    rt.state = WarpState::Ready;
  }
  barriers_[id] = BarrierState{};
}

void SassBlockRunner::runWarp(std::size_t wi, std::uint32_t budget) {
  SassWarp& w = *warps_[wi];
  SassWarpRuntime& rt = runtime_[wi];
  const SassProgram& prog = *ctx_.program;
  const std::uint32_t n = static_cast<std::uint32_t>(prog.instrs.size());
  const bool tracing = listener_ || buffer_;
  std::uint32_t executed = 0;
  std::uint64_t threads = 0;
  std::size_t gi = pickGroup(rt);
  rt.spun = false;
  while (executed < budget) {
    if (gi >= rt.groups.size()) {
      if (rt.groups.empty()) rt.state = WarpState::Done;
      if (rt.groups.empty() || !releaseStuckBsync(rt)) break;  // every group waits
      gi = pickGroup(rt);
      continue;
    }
    SassGroup* g = &rt.groups[gi];
    if (g->pc >= n) fail(w, -1, prog.instrs[n - 1], "execution ran past the end of the kernel's code");
    const SassInstr& in = prog.instrs[g->pc];
    std::uint32_t exec = g->mask;
    if (in.guard != kPredTrue) {
      const std::uint32_t p = in.guardUniform ? w.up[in.guard] : w.p[in.guard];
      exec &= in.guardNot ? ~p : p;
    }
    ++w.clock;
    ++executed;
    threads += static_cast<std::uint64_t>(std::popcount(exec));
    if (in.fn) {
      if (exec != 0) {
        SassCtx c(w, *this, in, in.uniformOnce ? exec & (0u - exec) : exec, tracing ? addresses_.data() : nullptr,
                  ctx_.banks);
        in.fn(c);
        if (tracing) emit(w, g->pc, exec, in.memory ? addresses_.data() : nullptr);
      } else if (tracing) {
        emit(w, g->pc, exec, nullptr);
      }
      ++g->pc;
      if (yield_) [[unlikely]] {
        yield_ = false;
        rt.spun = true;
        rt.spinPc = g->pc - 1;
        rt.spinBarrier = yieldBarrier_;
        break;
      }
      continue;
    }
    if (tracing) emit(w, g->pc, exec, nullptr);
    switch (in.control) {
      case SassControl::Nop: ++g->pc; break;
      case SassControl::Bra:
      case SassControl::BraDiv: {
        std::uint32_t taken = exec;
        std::uint32_t target = g->pc + 1;
        for (std::uint8_t k = 0; k < in.nops; ++k) {
          const Opnd& o = in.op[k];
          if (o.kind == OpndKind::Label) target = o.target;
          else if (o.kind == OpndKind::Pred || o.kind == OpndKind::UPred) {
            const std::uint32_t v = o.kind == OpndKind::UPred ? w.up[o.row] : w.p[o.row];
            taken &= o.lnot ? ~v : v;
          }
        }
        if (in.control == SassControl::Bra && (in.mods & kModBraAny) && taken != 0) taken = g->mask;
        if (in.control == SassControl::BraDiv) {
          // BRA.DIV URx / BRA.CONV URx: whether every live lane of the mask URx (all lanes when
          // none is named) is in this group. DIV branches to the divergent slow path when not;
          // CONV branches past the slow path when so.
          std::uint32_t mask = ~0u;
          for (std::uint8_t k = 0; k < in.nops; ++k)
            if (in.op[k].kind == OpndKind::UReg) mask = applyIntModifiers(in.op[k], w.ur[in.op[k].row]);
          const std::uint32_t members = mask & w.validMask & ~w.exitedMask;
          const bool converged = (members & ~g->mask) == 0 && exec == g->mask;
          taken = (in.mods & 1u) ? (converged ? exec : 0) : (converged ? 0 : exec);
        }
        if (taken == g->mask) {
          g->pc = target;
        } else if (taken == 0) {
          ++g->pc;
        } else {
          SassGroup other = *g;
          other.mask = taken;
          other.pc = target;
          g->mask &= ~taken;
          ++g->pc;
          rt.groups.push_back(std::move(other));
          gi = pickGroup(rt);
        }
        break;
      }
      case SassControl::Exit:
      case SassControl::Kill: {
        if (exec == 0) {
          ++g->pc;
          break;
        }
        if (exec != g->mask) {
          ++g->pc;
        }
        exitLanes(w, rt, gi, exec);
        gi = pickGroup(rt);
        break;
      }
      case SassControl::Call: {
        if (exec == 0) {
          ++g->pc;
          break;
        }
        if (exec != g->mask) {
          // A guarded CALL: the lanes that call leave as a group of their own.
          SassGroup callers = *g;
          callers.mask = exec;
          g->mask &= ~exec;
          ++g->pc;
          rt.groups.push_back(std::move(callers));
          gi = rt.groups.size() - 1;
          g = &rt.groups[gi];
        }
        const Opnd* target = nullptr;
        for (std::uint8_t k = 0; k < in.nops; ++k)
          if (in.op[k].kind == OpndKind::Label) target = &in.op[k];
        if (!target) fail(w, -1, in, "a CALL without a target the emulator can resolve");
        if (!(in.mods & 1u)) {  // not .NOINC: the return pc is pushed (RET without a register pops it)
          if (g->calls.size() >= ctx_.maxCallDepth)
            fail(w, -1, in, fmt::format("call depth exceeds {} (recursion?)", ctx_.maxCallDepth));
          g->calls.push_back(g->pc + 1);
        }
        g->pc = target->target;
        break;
      }
      case SassControl::Ret: {
        if (exec == 0) {
          ++g->pc;
          break;
        }
        std::uint32_t targets[kSassLanes];
        const Opnd* reg = nullptr;
        for (std::uint8_t k = 0; k < in.nops; ++k)
          if (in.op[k].kind == OpndKind::Reg) reg = &in.op[k];
        if (reg) {
          for (std::uint32_t m = exec; m; m &= m - 1) {
            const int l = std::countr_zero(m);
            const std::uint64_t address = w.r[reg->row][l] | (std::uint64_t{w.r[reg->row + 1][l]} << 32);
            const std::int64_t pc = prog.pcOf(address);
            if (pc < 0) fail(w, l, in, fmt::format("return address 0x{:x} is not an instruction of the kernel", address));
            targets[l] = static_cast<std::uint32_t>(pc);
          }
        } else {
          if (g->calls.empty()) fail(w, -1, in, "RET without a call");
          const std::uint32_t pc = g->calls.back();
          g->calls.pop_back();
          for (int l = 0; l < kSassLanes; ++l) targets[l] = pc;
        }
        splitByTarget(w, rt, gi, exec, targets);
        gi = pickGroup(rt);
        break;
      }
      case SassControl::Brx: {
        if (exec == 0) {
          ++g->pc;
          break;
        }
        std::uint32_t targets[kSassLanes];
        for (std::uint32_t m = exec; m; m &= m - 1) {
          const int l = std::countr_zero(m);
          targets[l] = indirectBranchTarget(w, l, in);
        }
        splitByTarget(w, rt, gi, exec, targets);
        gi = pickGroup(rt);
        break;
      }
      case SassControl::Bssy:
        if (exec) {
          // Lanes that recorded Bk and still run elsewhere in the region stay expected: a forward
          // branch can split a region so that its two sides reach the same BSSY apart (ptxas's
          // division slow path branches over its rescaling to the BSSY B2 after it); the second
          // BSSY must not drop the first side, whose BSYNC would then wait for lanes already past.
          // Only lanes of the same region count (the same BSSY): another region that reuses Bk
          // on other lanes (main code's BSSY B5 while some lanes are in a division slow path's
          // BSSY B5 region) is a different convergence point, and the lanes waiting there must
          // not wait for these (seed 1000188: the two regions waited for each other, and the
          // stuck-barrier rule then let the enclosing BSYNC B0 go on without the slow path's lanes).
          const std::uint32_t k = in.op[0].row;
          std::uint32_t running = 0;
          for (const SassGroup& o : rt.groups)
            if (&o != g && o.wait == SassGroup::Wait::None) running |= o.mask;
          const bool sameRegion = rt.bssyPc[k] == g->pc + 1;
          rt.bssy[k] = exec | (sameRegion ? rt.bssy[k] & rt.inside[k] & running : 0u);
          rt.bssyPc[k] = g->pc + 1;
          rt.inside[k] |= exec;
        }
        ++g->pc;
        break;
      case SassControl::Bsync: {
        if (exec == 0) {
          ++g->pc;
          break;
        }
        const std::uint32_t k = in.op[0].row;
        const std::uint32_t expected = rt.bssy[k] & w.validMask & ~w.exitedMask;
        // A group none of whose lanes Bk expects goes on: a sibling region that reuses Bk (the
        // other side of an if/else, BSSY B1 at another pc) set Bk to its own lanes while this one
        // was parked inside its region (in a slow-path subroutine, say); waiting for lanes that
        // are not its own would keep them from the BSYNC of the enclosing region, and a warp-wide
        // SHFL after it would run on part of the warp.
        if ((expected & ~g->mask) == 0 || (expected & g->mask) == 0) {
          rt.inside[k] &= ~g->mask;
          ++g->pc;
          break;
        }
        g->wait = SassGroup::Wait::Bsync;
        g->waitArg = k;
        release(w, rt);
        gi = pickGroup(rt);
        break;
      }
      case SassControl::Break: {
        const std::uint32_t k = in.op[0].row;
        rt.bssy[k] &= ~exec;
        rt.inside[k] &= ~exec;
        ++g->pc;
        release(w, rt);
        gi = pickGroup(rt);
        break;
      }
      case SassControl::Bmov: {
        // BMOV.32.CLEAR Rd, Bk / BMOV.32 Bk, Rs (the register form moves a barrier's mask).
        if (exec == 0) {
          ++g->pc;
          break;
        }
        const Opnd& a = in.op[0];
        const Opnd& b = in.op[1];
        if (a.kind == OpndKind::Barrier) {
          SassCtx c(w, *this, in, exec, nullptr, ctx_.banks);
          rt.bssy[a.row] = c.src(b)[std::countr_zero(exec)];
          rt.inside[a.row] |= rt.bssy[a.row];  // a saved mask restored: its lanes are in the region
        } else if (b.kind == OpndKind::Barrier) {
          if (a.kind == OpndKind::Reg)
            for (std::uint32_t m = exec; m; m &= m - 1) w.r[a.row][std::countr_zero(m)] = rt.bssy[b.row];
          if (in.mods & 1u) rt.bssy[b.row] = 0;
        }
        ++g->pc;
        break;
      }
      case SassControl::WarpSync:
      case SassControl::WarpSyncCollective: {
        if (exec == 0) {
          ++g->pc;
          break;
        }
        SassCtx c(w, *this, in, exec, nullptr, ctx_.banks);
        const std::uint32_t mask = in.nops >= 1 && in.op[0].kind != OpndKind::Label ? c.src(in.op[0])[std::countr_zero(exec)]
                                                                                  : ~0u;
        const std::uint32_t members = mask & w.validMask & ~w.exitedMask;
        if ((members & ~g->mask) != 0) {
          g->wait = SassGroup::Wait::Sync;
          g->waitArg = members;
          release(w, rt);
          // Once merged, the group re-executes this instruction with every member present.
          gi = pickGroup(rt);
          break;
        }
        if (in.control == SassControl::WarpSyncCollective) {
          for (std::uint8_t k = 0; k < in.nops; ++k)
            if (in.op[k].kind == OpndKind::Label) g->pc = in.op[k].target - 1;
        }
        ++g->pc;
        break;
      }
      case SassControl::BarSync:
      case SassControl::BarArrive: {
        if (exec == 0) {
          ++g->pc;
          break;
        }
        const std::uint32_t live = w.validMask & ~w.exitedMask;
        if (in.control == SassControl::BarSync && (live & ~exec) != 0) {
          // Part of the warp: wait for its other lanes (Volta counts threads; teg arrives once
          // every live lane of the warp is here, which is what __syncthreads in converged code
          // gives).
          g->wait = SassGroup::Wait::Bar;
          g->waitArg = 0;
          release(w, rt);
          bool merged = false;
          for (SassGroup& o : rt.groups)
            if (o.wait == SassGroup::Wait::Bar && o.waitArg == ~0u) {
              o.waitArg = 0;
              merged = true;
              arriveBarrier(wi, o, in, o.mask);
              break;
            }
          if (!merged) gi = pickGroup(rt);
          else gi = pickGroup(rt);
          break;
        }
        if (in.control == SassControl::BarSync) {
          g->wait = SassGroup::Wait::Bar;
          g->waitArg = 0;
        }
        arriveBarrier(wi, *g, in, exec);
        gi = pickGroup(rt);
        break;
      }
      default:
        fail(w, -1, in, "control instruction not implemented");
    }
    if (rt.state != WarpState::Ready) break;
    if (gi >= rt.groups.size() || rt.groups[gi].wait != SassGroup::Wait::None) gi = pickGroup(rt);
  }
  if (rt.groups.empty()) rt.state = WarpState::Done;
  warpInstructions += executed;
  threadInstructions += threads;
  chargeBudget(executed);
}

void SassBlockRunner::deadlock() {
  std::string msg = fmt::format("deadlock in block ({},{},{}):", ctaid_[0], ctaid_[1], ctaid_[2]);
  const SassInstr* at = nullptr;
  for (std::size_t wi = 0; wi < warps_.size(); ++wi) {
    const SassWarpRuntime& rt = runtime_[wi];
    if (rt.state == WarpState::Done) continue;
    if (rt.state == WarpState::AtBarrier) {
      msg += fmt::format(" warp {} waits at barrier {} ({} of {} threads arrived);", wi, rt.barrier,
                         barriers_[rt.barrier].arrived, barriers_[rt.barrier].expected ? barriers_[rt.barrier].expected : liveThreads());
      if (!at) at = rt.barrierInstr;
      continue;
    }
    for (const SassGroup& g : rt.groups) {
      const char* kind = g.wait == SassGroup::Wait::Bsync ? "BSYNC" : g.wait == SassGroup::Wait::Sync ? "a warp sync" : "a CTA barrier";
      msg += fmt::format(" warp {} lanes 0x{:08x} wait at {} (pc {});", wi, g.mask, kind, g.pc);
      if (!at) at = &ctx_.program->instrs[g.pc];
    }
  }
  if (at) msg += " " + ctx_.program->describe(*at);
  throw Error(msg);
}

// A warp waiting on an mbarrier phase spins (SYNCS.PHASECHK.TRYWAIT or LDS + LOP3 and a branch
// back) and ends its slice there, so a phase that can never complete (an arrival count nobody
// reaches, a transaction count no copy completes) is no deadlock to the round loop: the warps
// keep running. It is one once a round in which every running warp ended its slice at an mbarrier
// wait leaves the block exactly as it was kSpinRoundsPerCheck rounds before: then nothing will ever change (the
// emulator is deterministic; SR_CLOCKLO, the one value that moves, is not in the comparison, so
// a spin that reads the clock to time out is never called stuck). Cheap checks first: the
// mbarrier words and transaction counts must not have moved for kSpinRoundsPerCheck rounds.
bool SassBlockRunner::mbarrierSpinIsStuck() {
  bool spinning = false;
  for (const SassWarpRuntime& rt : runtime_) {
    if (rt.state != WarpState::Ready) continue;
    if (!rt.spun) {
      spinRounds_ = 0;
      return false;
    }
    spinning = true;
  }
  if (!spinning) {
    spinRounds_ = 0;
    return false;
  }
  std::vector<std::byte> words;
  for (std::uint32_t m : mbarriers_)
    words.insert(words.end(), shared_.begin() + m, shared_.begin() + m + std::min<std::size_t>(8, shared_.size() - m));
  for (const auto& [at, count] : transactions_) {
    const auto* b = reinterpret_cast<const std::byte*>(&count);
    words.insert(words.end(), b, b + sizeof(count));
  }
  if (spinRounds_ == 0 || words != spinWords_) {
    spinWords_ = std::move(words);
    spinRounds_ = 1;
    spinSnapshot_.clear();
    return false;
  }
  if (++spinRounds_ % kSpinRoundsPerCheck != 0) return false;
  std::vector<std::byte> now = spinState();
  if (now == spinSnapshot_) return true;
  spinSnapshot_ = std::move(now);
  return false;
}

std::vector<std::byte> SassBlockRunner::spinState() const {
  std::vector<std::byte> out(shared_.begin(), shared_.end());
  out.insert(out.end(), local_.begin(), local_.end());
  const auto add = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  };
  for (std::size_t wi = 0; wi < warps_.size(); ++wi) {
    const SassWarp& w = *warps_[wi];
    const SassWarpRuntime& rt = runtime_[wi];
    add(w.r, sizeof(w.r[0]) * zeroRows_);
    add(w.ur, sizeof(w.ur));
    add(w.p, sizeof(w.p));
    add(w.up, sizeof(w.up));
    add(&w.exitedMask, sizeof(w.exitedMask));
    add(&rt.state, sizeof(rt.state));
    for (const SassGroup& g : rt.groups) {
      add(&g.pc, sizeof(g.pc));
      add(&g.mask, sizeof(g.mask));
      add(&g.wait, sizeof(g.wait));
      add(&g.waitArg, sizeof(g.waitArg));
      add(g.calls.data(), g.calls.size() * sizeof(std::uint32_t));
    }
    add(rt.bssy.data(), sizeof(rt.bssy));
    add(rt.inside.data(), sizeof(rt.inside));
  }
  return out;
}

void SassBlockRunner::mbarrierDeadlock() {
  std::string msg = fmt::format("mbarrier deadlock in kernel {} block ({},{},{}): every running warp waits on an "
                                "mbarrier phase that can never complete (nothing else changes):",
                                ctx_.program->kernelName, ctaid_[0], ctaid_[1], ctaid_[2]);
  for (std::size_t wi = 0; wi < warps_.size(); ++wi) {
    const SassWarpRuntime& rt = runtime_[wi];
    if (rt.state == WarpState::Done) continue;
    if (rt.state == WarpState::AtBarrier) {
      msg += fmt::format("\n  warp {} waits at CTA barrier {}", wi, rt.barrier);
      if (rt.barrierInstr) msg += " at " + ctx_.program->describe(*rt.barrierInstr);
      continue;
    }
    std::int64_t tx = 0;
    for (const auto& [at, count] : transactions_)
      if (at == rt.spinBarrier) tx = count;
    msg += fmt::format("\n  warp {} waits on the mbarrier at shared offset 0x{:x} ({}) at {}", wi, rt.spinBarrier,
                       describeMbarrier(shared_.data() + rt.spinBarrier, ctx_.program->smVersion, tx),
                       ctx_.program->describe(ctx_.program->instrs[rt.spinPc]));
  }
  throw Error(msg);
}

std::string SassBlockRunner::threadName(const SassWarp& w, int lane) const {
  if (lane < 0) return fmt::format("block ({},{},{}) warp {}", ctaid_[0], ctaid_[1], ctaid_[2], w.index);
  return fmt::format("block ({},{},{}) thread ({},{},{})", ctaid_[0], ctaid_[1], ctaid_[2], w.tid[0][lane],
                     w.tid[1][lane], w.tid[2][lane]);
}

void SassBlockRunner::fail(const SassWarp& w, int lane, const SassInstr& in, const std::string& what) const {
  throw Error(fmt::format("{} in {}: {}", what, threadName(w, lane), ctx_.program->describe(in)));
}

std::byte* SassBlockRunner::resolve(const SassWarp& w, int lane, const SassInstr& in, Space space,
                                    std::uint64_t address, std::uint32_t bytes, bool write) {
  if (bytes > 1 && address % bytes != 0)
    fail(w, lane, in, fmt::format("misaligned {}-byte access at 0x{:x}", bytes, address));
  auto fits = [](std::uint64_t at, std::uint64_t n, std::uint64_t size) { return at < size && n <= size - at; };
  if (space == Space::Generic) {
    if (address >= kSharedWindow && address - kSharedWindow < kWindowSize) {
      space = Space::Shared;
      address -= kSharedWindow;
    } else if (address >= kLocalWindow && address - kLocalWindow < kWindowSize) {
      space = Space::Local;
      address -= kLocalWindow;
    } else {
      space = Space::Global;
    }
  }
  switch (space) {
    case Space::Shared:
      if (!fits(address, bytes, shared_.size()))
        fail(w, lane, in, fmt::format("out-of-bounds shared {} of {} bytes at 0x{:x} (the block has {} bytes of shared memory)",
                                      write ? "write" : "read", bytes, address, shared_.size()));
      return shared_.data() + address;
    case Space::Local: {
      if (!fits(address, bytes, localStride_))
        fail(w, lane, in, fmt::format("out-of-bounds local {} of {} bytes at 0x{:x} (the thread's stack has {} bytes)",
                                      write ? "write" : "read", bytes, address, localStride_));
      const std::size_t thread = std::size_t{w.index} * kSassLanes + static_cast<std::size_t>(lane);
      return local_.data() + thread * localStride_ + address;
    }
    default: {
      std::byte* p = ctx_.global->translate(address, bytes);
      if (!p) {
        std::string near;
        if (const Allocation* a = ctx_.global->nearest(address))
          near = fmt::format(" (nearest allocation '{}' at 0x{:x}, {} bytes)", a->name, a->userBase(), a->user().size());
        fail(w, lane, in, fmt::format("invalid global {} of {} bytes at 0x{:x}{}", write ? "write" : "read", bytes,
                                      address, near));
      }
      return p;
    }
  }
}

}  // namespace teg::emu
