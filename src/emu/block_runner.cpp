#include "block_runner.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "device_printf.hpp"
#include "teg/ptx/printer.hpp"
#include "teg/support/error.hpp"

namespace teg::emu {

namespace {
constexpr std::uint32_t kSlice = 1024;  // warp instructions before switching to the next warp
}  // namespace

BlockRunner::BlockRunner(const LaunchContext& ctx) : ctx_(ctx) {
  const ModuleLayout& L = ctx_.program->layout;
  sharedSize_ = std::max(L.sharedBytes, L.dynamicSharedOffset + ctx_.dynamicSmem);
  if (ctx_.dynamicSmem == 0) sharedSize_ = L.sharedBytes;
  // Only a kernel that asks where the reserved region is gets it: for every other kernel an access
  // past its own shared memory stays a fault.
  std::uint32_t window = sharedSize_;
  if (L.usesReservedShared) {
    reservedBegin_ = alignUp(sharedSize_, ReservedShared::kAlign);
    window = reservedBegin_ + ReservedShared::kBytes;
  }
  shared_.assign(window, std::byte{0});
  blockThreads_ = static_cast<std::uint32_t>(ctx_.block.count());
}

void BlockRunner::initWarps() {
  const Code& kernel = ctx_.program->codes[ctx_.program->kernelIndex];
  const std::uint32_t nWarps = (blockThreads_ + kLanes - 1) / kLanes;
  warps_.resize(nWarps);
  const std::uint32_t bx = ctx_.block.x, by = ctx_.block.y;
  for (std::uint32_t wi = 0; wi < nWarps; ++wi) {
    Warp& w = warps_[wi];
    w.index = wi;
    w.validMask = 0;
    for (int lane = 0; lane < kLanes; ++lane) {
      const std::uint32_t t = wi * kLanes + static_cast<std::uint32_t>(lane);
      if (t < blockThreads_) w.validMask |= 1u << lane;
      w.tid[0][lane] = t % bx;
      w.tid[1][lane] = (t / bx) % by;
      w.tid[2][lane] = t / (bx * by);
    }
    w.exitedMask = 0;
    w.state = WarpState::Ready;
    w.stack.clear();
    w.stack.push_back({0, kNoReconverge, w.validMask});
    w.frames.resize(1);
    Frame& f = w.frames[0];
    f.code = &kernel;
    f.regs.assign(std::size_t{kernel.slotCount} * kLanes, 0);
    f.stackBase = 0;
    f.localBase = 0;
    f.call = nullptr;
    w.localTop = kernel.localFrameBytes;
    // Each lane's frame starts 16-byte aligned in host memory, as the widest access (v4.b32,
    // v2.b64) and the 8-byte atomics' host operations need.
    if (w.localStride < w.localTop) w.localStride = alignUp(w.localTop, 16);
    w.local.assign(std::size_t{w.localStride} * kLanes, std::byte{0});
    w.clock = 0;
    w.barrierInstr = nullptr;
    w.spinPc = 0xffffffffu;
  }
}

void BlockRunner::run(std::uint64_t linear, trace::TraceListener* listener, BlockEvents* buffer) {
  linear_ = linear;
  ctaid_[0] = static_cast<std::uint32_t>(linear % ctx_.grid.x);
  ctaid_[1] = static_cast<std::uint32_t>((linear / ctx_.grid.x) % ctx_.grid.y);
  ctaid_[2] = static_cast<std::uint32_t>(linear / (std::uint64_t{ctx_.grid.x} * ctx_.grid.y));
  listener_ = listener;
  buffer_ = buffer;
  std::fill(shared_.begin(), shared_.end(), std::byte{0});
  barriers_ = {};
  budget_.startBlock();
  initWarps();
  if (listener_) listener_->beginBlock(static_cast<std::uint32_t>(linear));
  idleRounds_ = 0;
  for (;;) {
    bool anyReady = false, allDone = true, anyRanFreely = false;
    const std::uint64_t progressBefore = asyncProgress_;
    for (Warp& w : warps_) {
      if (w.state == WarpState::Ready) {
        anyReady = true;
        current_ = &w;
        yieldRequested_ = spunAgain_ = false;
        runWarp(w, kSlice);
        if (!yieldRequested_ || !spunAgain_) anyRanFreely = true;
        yieldRequested_ = false;
      }
      if (w.state != WarpState::Done) allDone = false;
    }
    chargeBudget(0);
    if (allDone) break;
    if (!anyReady) deadlock();
    // Every warp that ran stopped again at the wait it stopped at last time, and nothing could
    // complete a phase: two such rounds in a row cannot end.
    idleRounds_ = (!anyRanFreely && asyncProgress_ == progressBefore) ? idleRounds_ + 1 : 0;
    if (idleRounds_ >= 2) mbarrierDeadlock();
  }
  if (listener_) listener_->endBlock(static_cast<std::uint32_t>(linear));
}

void BlockRunner::chargeBudget(std::uint64_t n) {
  budget_.charge(n, {ctx_.maxInstructions, ctx_.maxBlockInstructions, ctx_.maxTraceRecords, ctx_.instructionBudgetUsed},
                 listener_ != nullptr || buffer_ != nullptr, ctaid_);
}

void BlockRunner::runWarp(Warp& w, std::uint32_t budget) {
  std::uint32_t executed = 0;
  while (executed < budget && w.state == WarpState::Ready) {
    if (w.stack.empty()) {
      w.state = WarpState::Done;
      break;
    }
    SimtEntry& top = w.stack.back();
    if (top.mask == 0 || top.pc == top.rpc) {
      w.stack.pop_back();
      continue;
    }
    Frame& f = w.frames.back();
    if (top.pc >= f.code->instrs.size()) {
      // Falling off the end of a function is a return.
      doReturn(w, top.mask);
      continue;
    }
    const std::uint32_t pc = top.pc;
    step(w, f, top, f.code->instrs[pc], pc);
    ++executed;
    if (yieldRequested_) break;
  }
  warpInstructions += executed;
  chargeBudget(executed);
}

std::uint32_t BlockRunner::predicateMask(const Frame& f, std::uint32_t slot, std::uint32_t mask) const {
  const std::uint64_t* p = f.regs.data() + std::size_t{slot} * kLanes;
  std::uint32_t m = 0;
  for (int lane = 0; lane < kLanes; ++lane) m |= static_cast<std::uint32_t>(p[lane] & 1u) << lane;
  return m & mask;
}

void BlockRunner::emit(const Warp& w, std::uint32_t pc, std::uint32_t mask, const std::uint64_t* addresses) {
  trace::WarpInstruction rec;
  rec.block = static_cast<std::uint32_t>(linear_);
  rec.warp = w.index;
  rec.pc = w.frames.back().code->pcBase + pc;
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

void BlockEvents::deliver(std::uint32_t block, trace::TraceListener& listener) const {
  trace::WarpInstruction rec;
  rec.block = block;
  bool stale = false;  // rec.addresses holds an earlier record's addresses
  for (const BufferedRecord& b : records) {
    rec.warp = b.warp;
    rec.pc = b.pc;
    rec.activeMask = b.activeMask;
    if (b.addresses != BufferedRecord::kNoAddresses) {
      rec.addresses = addresses[b.addresses];
      stale = true;
    } else if (stale) {
      rec.addresses = {};  // as emitted directly: no addresses are zeros
      stale = false;
    }
    listener.instruction(rec);
  }
}

void BlockRunner::step(Warp& w, Frame& f, SimtEntry& top, const Decoded& d, std::uint32_t pc) {
  using ptx::Opcode;
  const std::uint32_t mask = top.mask;
  std::uint32_t exec = mask;
  if (d.guard != ptx::kNone) {
    const std::uint32_t p = predicateMask(f, d.guard, mask);
    exec = d.guardNegated ? (mask & ~p) : p;
  }
  ++w.clock;
  threadInstructions += static_cast<std::uint64_t>(std::popcount(exec));
  const bool tracing = listener_ || buffer_;
  if (d.flags & dflag::kUnsupported) {
    if (exec == 0) {
      if (tracing) emit(w, pc, exec, nullptr);
      ++top.pc;
      return;
    }
    fail(w, std::countr_zero(exec), d, "instruction not supported by the emulator");
  }
  switch (d.op) {
    case Opcode::Bra: {
      if (tracing) emit(w, pc, exec, nullptr);
      branch(w, d, pc, exec, mask, d.target);
      return;
    }
    case Opcode::Brx: {
      if (tracing) emit(w, pc, exec, nullptr);
      // brx.idx index, table: targets per lane; lanes grouped by target.
      const ptx::Function& fn = *f.code->function;
      const auto& table = fn.branchTargets[d.target];
      View idx = read(w, f, d.src[0], scratch_[0].data());
      std::uint32_t remaining = exec;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> groups;  // target pc, lanes
      while (remaining) {
        const int lane = std::countr_zero(remaining);
        const std::uint64_t i = idx[lane] & 0xffffffffu;
        if (i >= table.labels.size())
          fail(w, lane, d, fmt::format("brx.idx index {} outside its {} targets", i, table.labels.size()));
        const std::uint32_t target = fn.labels[table.labels[i]].instruction;
        std::uint32_t lanes = 0;
        for (std::uint32_t r = remaining; r; r &= r - 1) {
          const int l = std::countr_zero(r);
          if ((idx[l] & 0xffffffffu) == i) lanes |= 1u << l;
        }
        groups.emplace_back(target, lanes);
        remaining &= ~lanes;
      }
      if (groups.size() == 1 && (mask & ~exec) == 0) {
        top.pc = groups[0].first;
        return;
      }
      const std::uint32_t rpc = d.reconverge;
      const std::uint32_t rest = mask & ~exec;
      top.pc = rpc;
      if (rest) w.stack.push_back({pc + 1, rpc, rest});
      for (auto& g : groups) w.stack.push_back({g.first, rpc, g.second});
      return;
    }
    case Opcode::Call:
      if (tracing) emit(w, pc, exec, nullptr);
      if (d.flags & dflag::kPrintf) {
        doPrintf(w, d, exec);
        ++top.pc;
        return;
      }
      doCall(w, d, exec);
      return;
    case Opcode::Ret:
      if (tracing) emit(w, pc, exec, nullptr);
      if (exec == 0) { ++top.pc; return; }
      doReturn(w, exec);
      return;
    case Opcode::Exit: {
      if (tracing) emit(w, pc, exec, nullptr);
      if (exec != mask) ++top.pc;
      exitLanes(w, exec);
      return;
    }
    case Opcode::Trap:
      if (exec == 0) break;
      // %envreg1/2 hold the grid workspace only under cudaLaunchCooperativeKernel; without it
      // cooperative groups' grid_group is invalid and grid.sync() aborts, here as on the GPU.
      if (ctx_.program->layout.readsGridWorkspace)
        fail(w, std::countr_zero(exec), d,
             "trap (the kernel reads the cooperative-launch grid workspace, %envreg1/2: a cooperative groups "
             "grid.sync() aborts unless the kernel is launched with cudaLaunchCooperativeKernel, and teg runs "
             "ordinary launches only)");
      fail(w, std::countr_zero(exec), d, "trap");
    case Opcode::Bar:
    case Opcode::Barrier:
      if (tracing) emit(w, pc, exec, nullptr);
      if (d.flags & dflag::kWarpBar) { ++top.pc; return; }
      arriveBarrier(w, d, exec);
      return;
    case Opcode::Ld:
    case Opcode::Ldu:
    case Opcode::St:
    case Opcode::Prefetch:
    case Opcode::Prefetchu: {
      std::uint64_t* addresses = scratch_[5].data();
      execMemory(w, f, d, exec, addresses);
      if (tracing) emit(w, pc, exec, addresses);
      ++top.pc;
      return;
    }
    case Opcode::Tex: {
      std::uint64_t* addresses = scratch_[5].data();
      execTexture(w, f, d, exec, addresses);
      if (tracing) emit(w, pc, exec, addresses);
      ++top.pc;
      return;
    }
    case Opcode::Atom:
    case Opcode::Red: {
      std::uint64_t* addresses = scratch_[5].data();
      execAtomic(w, f, d, exec, addresses);
      if (tracing) emit(w, pc, exec, addresses);
      ++top.pc;
      return;
    }
    case Opcode::Cp:
    case Opcode::Mbarrier: {
      std::uint64_t* addresses = scratch_[5].data();
      execAsync(w, f, d, exec, addresses);
      if (yieldRequested_) {
        spunAgain_ = w.spinPc == pc;
        w.spinPc = pc;
      }
      if (tracing) emit(w, pc, exec, addresses);
      ++top.pc;
      return;
    }
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Nanosleep:
    case Opcode::Pmevent:
    case Opcode::Brkpt:
      break;
    case Opcode::Cvta: execCvta(w, f, d, exec); break;
    case Opcode::Shfl:
    case Opcode::Vote:
    case Opcode::Match:
    case Opcode::Activemask:
    case Opcode::Redux: execWarpOp(w, f, d, exec); break;
    default: execAlu(w, f, d, exec); break;
  }
  if (tracing) emit(w, pc, exec, nullptr);
  ++w.stack.back().pc;
}

void BlockRunner::branch(Warp& w, const Decoded& d, std::uint32_t pc, std::uint32_t taken, std::uint32_t mask,
                         std::uint32_t target) {
  SimtEntry& top = w.stack.back();
  const std::uint32_t notTaken = mask & ~taken;
  if (notTaken == 0) { top.pc = target; return; }
  if (taken == 0) { top.pc = pc + 1; return; }
  const std::uint32_t rpc = d.reconverge;
  if (top.rpc == rpc) {
    top = {pc + 1, rpc, notTaken};  // the entry below already waits at rpc with all lanes
  } else {
    top.pc = rpc;
    w.stack.push_back({pc + 1, rpc, notTaken});
  }
  w.stack.push_back({target, rpc, taken});
}

void BlockRunner::exitLanes(Warp& w, std::uint32_t lanes) {
  w.exitedMask |= lanes;
  for (SimtEntry& e : w.stack) e.mask &= ~lanes;
  while (!w.stack.empty() && w.stack.back().mask == 0) {
    w.stack.pop_back();
    while (w.frames.size() > 1 && w.stack.size() <= w.frames.back().stackBase) {
      w.localTop = w.frames.back().localBase;
      w.frames.pop_back();
    }
  }
  if (w.stack.empty()) w.state = WarpState::Done;
}

// vprintf(format, args) per executing lane: both pointers from the call's argument list, the text
// formatted on the host through bounds-checked reads (device_printf.hpp); returns 0 to the caller.
void BlockRunner::doPrintf(Warp& w, const Decoded& d, std::uint32_t exec) {
  const Frame& caller = w.frames.back();
  const Code& code = *caller.code;
  for (std::uint32_t m = exec; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    std::uint64_t pointers[2] = {0, 0};
    for (std::uint32_t i = 0; i < 2; ++i) {
      const Src& a = code.vectorChildren[d.callArgs + i];
      if (a.kind == SrcKind::Symbol && a.symbolSpace == Space::Local) {
        std::memcpy(&pointers[i], w.local.data() + std::size_t{w.localStride} * lane + caller.localBase + a.imm, 8);
      } else {
        View v = read(w, caller, a, scratch_[0].data());
        pointers[i] = v[lane];
      }
    }
    const EmulatedRead readAt = [&](std::uint64_t address, std::uint32_t bytes) {
      std::uint64_t value = 0;
      std::memcpy(&value, resolve(w, lane, d, Space::Generic, address, bytes, false), bytes);
      return value;
    };
    const std::string text = formatDevicePrintf(pointers[0], pointers[1], readAt);
    ++printfCalls;
    if (ctx_.printfOutput && *ctx_.printfOutput) (*ctx_.printfOutput)(text);
    for (std::uint32_t i = 0; i < d.callRetCount; ++i) {
      const Src& r = code.vectorChildren[d.callRets + i];
      if (r.kind == SrcKind::Symbol && r.symbolSpace == Space::Local)
        std::memset(w.local.data() + std::size_t{w.localStride} * lane + caller.localBase + r.imm, 0, 4);
    }
  }
}

void BlockRunner::doCall(Warp& w, const Decoded& d, std::uint32_t exec) {
  SimtEntry& top = w.stack.back();
  const std::uint32_t pc = top.pc;
  ++top.pc;
  if (exec == 0) return;
  if (w.frames.size() > ctx_.maxCallDepth)
    fail(w, std::countr_zero(exec), d,
         fmt::format("call depth exceeds {} (unbounded recursion?)", ctx_.maxCallDepth));
  (void)pc;
  const Code& callee = ctx_.program->codes[d.target];
  const Frame& caller = w.frames.back();
  const Code& callerCode = *caller.code;
  const std::uint32_t base = alignUp(w.localTop, 16);
  const std::uint32_t top2 = base + callee.localFrameBytes;
  if (top2 > w.localStride) {
    // Re-layout local memory with a larger per-lane stride.
    const std::uint32_t stride = alignUp(std::max(top2, w.localStride * 2), 16);
    std::vector<std::byte> grown(std::size_t{stride} * kLanes, std::byte{0});
    for (int lane = 0; lane < kLanes; ++lane)
      std::memcpy(grown.data() + std::size_t{stride} * lane, w.local.data() + std::size_t{w.localStride} * lane,
                  w.localStride);
    w.local = std::move(grown);
    w.localStride = stride;
  }
  Frame nf;
  nf.code = &callee;
  nf.regs.assign(std::size_t{callee.slotCount} * kLanes, 0);
  nf.stackBase = w.stack.size();
  nf.localBase = base;
  nf.call = &d;
  // Arguments: the caller's .param variables (or registers/immediates) into the callee's params.
  for (std::uint32_t i = 0; i < d.callArgCount && i < callee.paramOffsets.size(); ++i) {
    const Src& a = callerCode.vectorChildren[d.callArgs + i];
    const std::uint32_t size = callee.paramSizes[i];
    for (std::uint32_t m = exec; m; m &= m - 1) {
      const int lane = std::countr_zero(m);
      std::byte* dst = w.local.data() + std::size_t{w.localStride} * lane + base + callee.paramOffsets[i];
      if (a.kind == SrcKind::Symbol && a.symbolSpace == Space::Local) {
        std::memcpy(dst, w.local.data() + std::size_t{w.localStride} * lane + caller.localBase + a.imm, size);
      } else {
        View v = read(w, caller, a, scratch_[0].data());
        const std::uint64_t value = v[lane];
        std::memcpy(dst, &value, std::min<std::uint32_t>(size, 8));
      }
    }
  }
  w.localTop = top2;
  w.frames.push_back(std::move(nf));
  w.stack.push_back({0, kReturnPc, exec});
}

void BlockRunner::doReturn(Warp& w, std::uint32_t exec) {
  if (w.frames.size() == 1) {  // ret from the kernel is exit
    SimtEntry& top = w.stack.back();
    if (exec != top.mask) ++top.pc;
    exitLanes(w, exec);
    return;
  }
  Frame& f = w.frames.back();
  SimtEntry& top = w.stack.back();
  if ((top.mask & ~exec) != 0) ++top.pc;
  for (std::size_t i = f.stackBase; i < w.stack.size(); ++i) w.stack[i].mask &= ~exec;
  while (w.stack.size() > f.stackBase && w.stack.back().mask == 0) w.stack.pop_back();
  if (w.stack.size() > f.stackBase) return;  // other lanes of the call still running
  // Whole call done: copy return values to the caller's .param variables.
  const Decoded& call = *f.call;
  Frame& caller = w.frames[w.frames.size() - 2];
  const Code& callee = *f.code;
  for (std::uint32_t i = 0; i < call.callRetCount && i < callee.returnOffsets.size(); ++i) {
    const Src& r = caller.code->vectorChildren[call.callRets + i];
    const std::uint32_t size = callee.returnSizes[i];
    for (int lane = 0; lane < kLanes; ++lane) {
      std::byte* laneLocal = w.local.data() + std::size_t{w.localStride} * lane;
      if (r.kind == SrcKind::Symbol && r.symbolSpace == Space::Local) {
        std::memcpy(laneLocal + caller.localBase + r.imm, laneLocal + f.localBase + callee.returnOffsets[i], size);
      } else if (r.kind == SrcKind::Reg) {
        std::uint64_t value = 0;
        std::memcpy(&value, laneLocal + f.localBase + callee.returnOffsets[i], std::min<std::uint32_t>(size, 8));
        write(caller, r, lane, value);
      }
    }
  }
  w.localTop = f.localBase;
  w.frames.pop_back();
  while (!w.stack.empty() && w.stack.back().mask == 0) w.stack.pop_back();
  if (w.stack.empty()) w.state = WarpState::Done;
}

void BlockRunner::arriveBarrier(Warp& w, const Decoded& d, std::uint32_t exec) {
  SimtEntry& top = w.stack.back();
  if (exec == 0) { ++top.pc; return; }
  Frame& f = w.frames.back();
  const int first = std::countr_zero(exec);
  std::uint32_t id = 0;
  std::uint32_t expected = blockThreads_;
  std::uint32_t nsrc = d.numSrc;
  const Src* predicate = nullptr;
  if (d.flags & dflag::kRedBar) {  // bar.red.op d, a{, b}, {!}c
    predicate = &d.src[nsrc - 1];
    --nsrc;
  }
  if (nsrc >= 1) id = static_cast<std::uint32_t>(read(w, f, d.src[0], scratch_[0].data())[first]);
  if (nsrc >= 2) expected = static_cast<std::uint32_t>(read(w, f, d.src[1], scratch_[1].data())[first]);
  if (id >= barriers_.size()) fail(w, first, d, fmt::format("barrier id {} is not in 0..15", id));
  if (nsrc >= 2 && (expected % kLanes != 0 || expected == 0))
    fail(w, first, d, fmt::format("barrier thread count {} is not a positive multiple of 32", expected));
  BarrierState& b = barriers_[id];
  if (b.used && b.expected != expected)
    fail(w, first, d, fmt::format("barrier {} used with thread counts {} and {} at once", id, b.expected, expected));
  b.used = true;
  b.expected = expected;
  b.arrived += static_cast<std::uint32_t>(std::popcount(exec));
  if (predicate) {
    View p = read(w, f, *predicate, scratch_[2].data());
    for (std::uint32_t m = exec; m; m &= m - 1) {
      const int lane = std::countr_zero(m);
      const bool v = ((p[lane] & 1u) != 0) != predicate->negated;
      b.popc += v;
      b.all = b.all && v;
      b.any = b.any || v;
    }
  }
  if (d.flags & dflag::kArrive) {
    ++top.pc;
  } else {
    w.state = WarpState::AtBarrier;
    w.barrier = id;
    w.barrierMask = exec;
    w.barrierInstr = &d;
  }
  if (b.arrived >= b.expected) releaseBarrier(id);
}

void BlockRunner::releaseBarrier(std::uint32_t id) {
  BarrierState& b = barriers_[id];
  for (Warp& w : warps_) {
    if (w.state != WarpState::AtBarrier || w.barrier != id) continue;
    const Decoded& d = *w.barrierInstr;
    if ((d.flags & dflag::kRedBar) && d.hasDst) {
      std::uint64_t value = 0;
      if (d.qual == static_cast<std::uint32_t>(ptx::Qualifier::Popc)) value = b.popc;
      else if (d.qual == static_cast<std::uint32_t>(ptx::Qualifier::And)) value = b.all;
      else value = b.any;
      for (std::uint32_t m = w.barrierMask; m; m &= m - 1) write(w.frames.back(), d.dst, std::countr_zero(m), value);
    }
    ++w.stack.back().pc;
    w.state = WarpState::Ready;
  }
  b = BarrierState{};
}

void BlockRunner::deadlock() {
  std::string waiting, exited;
  std::uint32_t arrivedAt = 0;
  const Decoded* at = nullptr;
  for (const Warp& w : warps_) {
    if (w.state == WarpState::AtBarrier) {
      waiting += fmt::format("{}{}", waiting.empty() ? "" : ",", w.index);
      if (!at) { at = w.barrierInstr; arrivedAt = w.barrier; }
    } else if (w.state == WarpState::Done) {
      exited += fmt::format("{}{}", exited.empty() ? "" : ",", w.index);
    }
  }
  const BarrierState& b = barriers_[arrivedAt];
  std::string msg = fmt::format(
      "barrier deadlock in block ({},{},{}): warps {} wait at barrier {} ({} of {} threads arrived)", ctaid_[0],
      ctaid_[1], ctaid_[2], waiting, arrivedAt, b.arrived, b.expected);
  if (!exited.empty()) msg += fmt::format("; warps {} have exited", exited);
  for (const Warp& w : warps_)
    if (w.state == WarpState::AtBarrier && (w.validMask & ~w.exitedMask & ~w.barrierMask) != 0) {
      msg += fmt::format("; warp {} is divergent at the barrier (lanes 0x{:08x} of 0x{:08x} arrived)", w.index,
                         w.barrierMask, w.validMask & ~w.exitedMask);
      break;
    }
  if (at) msg += fmt::format(": {}", describeInstruction(*at));
  throw Error(msg);
}

std::string BlockRunner::describeInstruction(const Decoded& d) const {
  const ptx::Module& module = *ctx_.program->module;
  // Find the function holding this instruction.
  const ptx::Function* fn = nullptr;
  for (const Code& c : ctx_.program->codes)
    if (!c.instrs.empty() && &d >= c.instrs.data() && &d < c.instrs.data() + c.instrs.size()) fn = c.function;
  if (!fn) return "?";
  std::string text = ptx::printInstruction(module, *fn, *d.ir);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  while (!text.empty() && (text.front() == '\t' || text.front() == ' ')) text.erase(text.begin());
  std::string where;
  if (d.ir->sourceLine != ptx::kNone && d.ir->sourceLine < fn->sourceLines.size()) {
    const ptx::SourceLine& sl = fn->sourceLines[d.ir->sourceLine];
    std::string file = fmt::format("file {}", sl.file);
    for (const ptx::SourceFile& sf : module.files)
      if (sf.index == sl.file) file = sf.name;
    where = fmt::format(" at {}:{}", file, sl.line);
  }
  return fmt::format("'{}'{} (pc {} of {})", text, where, d.ir - fn->instructions.data(), fn->name);
}

std::string BlockRunner::threadName(const Warp& w, int lane) const {
  return fmt::format("block ({},{},{}) thread ({},{},{})", ctaid_[0], ctaid_[1], ctaid_[2], w.tid[0][lane],
                     w.tid[1][lane], w.tid[2][lane]);
}

void BlockRunner::mbarrierDeadlock() const {
  throw Error(fmt::format("mbarrier deadlock in block ({},{},{}): every running warp waits on an mbarrier phase "
                          "that nothing left can complete; {}",
                          ctaid_[0], ctaid_[1], ctaid_[2], spinDescription_));
}

void BlockRunner::fail(const Warp& w, int lane, const Decoded& d, const std::string& what) const {
  throw Error(fmt::format("{} in {}: {}", what, threadName(w, lane), describeInstruction(d)));
}

BlockRunner::View BlockRunner::read(const Warp& w, const Frame& f, const Src& s, std::uint64_t* scratch) const {
  switch (s.kind) {
    case SrcKind::Reg: return {f.regs.data() + std::size_t{s.slot} * kLanes, 31};
    case SrcKind::Imm: scratch[0] = s.imm; return {scratch, 0};
    case SrcKind::Symbol:
      scratch[0] = s.imm + (s.symbolSpace == Space::Local ? f.localBase : 0);
      return {scratch, 0};
    case SrcKind::Special: {
      using ptx::SpecialRegister;
      const auto r = static_cast<SpecialRegister>(s.slot);
      const int c = s.component;
      auto broadcast = [&](std::uint64_t v) -> View { scratch[0] = v; return {scratch, 0}; };
      const std::uint32_t n[3] = {ctx_.block.x, ctx_.block.y, ctx_.block.z};
      const std::uint32_t g[3] = {ctx_.grid.x, ctx_.grid.y, ctx_.grid.z};
      switch (r) {
        case SpecialRegister::Tid: return {w.tid[c].data(), 31};
        case SpecialRegister::Ntid: return broadcast(n[c]);
        case SpecialRegister::Ctaid: return broadcast(ctaid_[c]);
        case SpecialRegister::Nctaid: return broadcast(g[c]);
        case SpecialRegister::Laneid:
          for (int l = 0; l < kLanes; ++l) scratch[l] = static_cast<std::uint64_t>(l);
          return {scratch, 31};
        case SpecialRegister::Warpid: return broadcast(w.index);
        case SpecialRegister::Nwarpid: return broadcast(64);  // warp slots of an SM (cc 7.x-9.x: 48-64)
        case SpecialRegister::Smid: return broadcast(0);
        case SpecialRegister::Nsmid: return broadcast(1);
        case SpecialRegister::Gridid: return broadcast(1);
        case SpecialRegister::Clock: return broadcast(w.clock & 0xffffffffu);
        case SpecialRegister::ClockHi: return broadcast(w.clock >> 32);
        case SpecialRegister::Clock64: return broadcast(w.clock);
        case SpecialRegister::Globaltimer: return broadcast(w.clock * 1000);
        case SpecialRegister::GlobaltimerLo: return broadcast((w.clock * 1000) & 0xffffffffu);
        case SpecialRegister::GlobaltimerHi: return broadcast((w.clock * 1000) >> 32);
        case SpecialRegister::LanemaskEq:
          for (int l = 0; l < kLanes; ++l) scratch[l] = std::uint64_t{1} << l;
          return {scratch, 31};
        case SpecialRegister::LanemaskLt:
          for (int l = 0; l < kLanes; ++l) scratch[l] = (std::uint64_t{1} << l) - 1;
          return {scratch, 31};
        case SpecialRegister::LanemaskLe:
          for (int l = 0; l < kLanes; ++l) scratch[l] = (std::uint64_t{2} << l) - 1;
          return {scratch, 31};
        case SpecialRegister::LanemaskGt:
          for (int l = 0; l < kLanes; ++l) scratch[l] = (0xffffffffull << (l + 1)) & 0xffffffffull;
          return {scratch, 31};
        case SpecialRegister::LanemaskGe:
          for (int l = 0; l < kLanes; ++l) scratch[l] = (0xffffffffull << l) & 0xffffffffull;
          return {scratch, 31};
        case SpecialRegister::TotalSmemSize:
        case SpecialRegister::AggrSmemSize: return broadcast(sharedSize_);
        case SpecialRegister::DynamicSmemSize: return broadcast(ctx_.dynamicSmem);
        case SpecialRegister::ReservedSmemOffsetBegin:
        case SpecialRegister::ReservedSmemOffset0:
        case SpecialRegister::ReservedSmemOffset1: return broadcast(reservedBegin_);
        case SpecialRegister::ReservedSmemOffsetEnd: return broadcast(reservedBegin_ + ReservedShared::kEnd);
        case SpecialRegister::ReservedSmemOffsetCap: return broadcast(reservedBegin_ + ReservedShared::kBytes);
        case SpecialRegister::ClusterCtaid: return broadcast(0);
        case SpecialRegister::ClusterNctaid: return broadcast(1);
        case SpecialRegister::ClusterId: return broadcast(ctaid_[c]);
        case SpecialRegister::Nclusterid: return broadcast(g[c]);
        case SpecialRegister::ClusterCtarank: return broadcast(0);
        case SpecialRegister::ClusterNctarank: return broadcast(1);
        case SpecialRegister::IsExplicitCluster: return broadcast(0);
        default: return broadcast(0);
      }
    }
    default: scratch[0] = 0; return {scratch, 0};
  }
}

}  // namespace teg::emu
