// Runs one thread block: its warps (SIMT stacks, register files, local memory), its shared
// memory and barriers. Blocks are independent except for global memory, so several BlockRunners
// may run at once on different threads (global atomics use std::atomic_ref).
//
// SIMT model (Fung et al.'s PDOM stack, as in GPGPU-Sim): each warp has a stack of
// (pc, reconvergence pc, mask) entries; a divergent branch turns the top entry into the
// reconvergence entry (pc = immediate post-dominator of the branch) and pushes the not-taken and
// taken paths; an entry is popped when its pc reaches its reconvergence pc. Exited lanes leave
// every entry. Calls push a frame (registers, local memory) and a stack entry that ends at `ret`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "global_memory.hpp"
#include "instruction_budget.hpp"
#include "program.hpp"
#include "teg/emu/emulator.hpp"
#include "texture_binding.hpp"
#include "teg/trace/trace.hpp"

namespace teg::emu {

constexpr int kLanes = 32;
constexpr std::uint32_t kFullMask = 0xffffffffu;
constexpr std::uint32_t kReturnPc = 0xfffffffdu;  // reconvergence pc of a call's bottom entry

// Everything a block needs that does not change during a run.
struct LaunchContext {
  const Program* program = nullptr;
  GlobalMemory* global = nullptr;
  const std::vector<std::byte>* kernelParams = nullptr;
  Dim3 grid, block;
  std::uint32_t dynamicSmem = 0;
  std::uint32_t maxCallDepth = 64;
  std::uint64_t maxInstructions = 0;   // per run, all blocks together (0 = unlimited)
  std::uint64_t maxBlockInstructions = 0;  // per block (0 = unlimited)
  std::uint64_t maxTraceRecords = 0;       // per run when tracing (0 = unlimited)
  std::uint64_t* instructionBudgetUsed = nullptr;  // shared counter (atomic_ref), may be null
  const std::vector<std::string>* sourceFiles = nullptr;
  const std::vector<TextureBinding>* textures = nullptr;  // handle h -> (*textures)[h - 1]
  const std::function<void(const std::string&)>* printfOutput = nullptr;  // RunOptions::printfOutput
};

struct SimtEntry {
  std::uint32_t pc;
  std::uint32_t rpc;
  std::uint32_t mask;
};

struct Frame {
  const Code* code = nullptr;
  std::vector<std::uint64_t> regs;   // slot * 32 + lane
  std::size_t stackBase = 0;         // SIMT entries of this frame start here
  std::uint32_t localBase = 0;       // per-thread local offset of the frame
  const Decoded* call = nullptr;     // the caller's call instruction (null for the kernel)
};

enum class WarpState : std::uint8_t { Ready, AtBarrier, Done };

struct Warp {
  std::uint32_t index = 0;
  std::uint32_t validMask = 0;      // lanes that exist (a partial last warp has fewer)
  std::uint32_t exitedMask = 0;
  WarpState state = WarpState::Ready;
  std::vector<SimtEntry> stack;
  std::vector<Frame> frames;
  std::array<std::array<std::uint64_t, kLanes>, 3> tid{};  // %tid.x/.y/.z per lane
  std::vector<std::byte> local;     // lane * localStride + offset
  std::uint32_t localStride = 0;
  std::uint32_t localTop = 0;       // bytes of local memory in use (all frames)
  std::uint64_t clock = 0;          // executed warp instructions, for %clock
  std::array<std::uint8_t, kLanes> carry{};  // CC.CF of add.cc/sub.cc/addc/subc/madc
  // Barrier wait.
  std::uint32_t barrier = 0;
  std::uint32_t barrierMask = 0;    // lanes that arrived
  const Decoded* barrierInstr = nullptr;
  // mbarrier spin (exec_async.cpp): the pc of the last wait that found its phase incomplete.
  std::uint32_t spinPc = 0xffffffffu;
};

struct BarrierState {
  std::uint32_t arrived = 0;   // threads
  std::uint32_t expected = 0;
  std::uint32_t popc = 0;
  bool all = true, any = false;
  bool used = false;
};

// Collects what one block did; the emulator forwards it to the listener.
// One block's trace, kept while blocks run in parallel until it can be delivered in block order.
// Only memory instructions keep lane addresses (a full record is 272 bytes, this one 20 plus
// the addresses where there are any).
struct BufferedRecord {
  std::uint32_t warp = 0, pc = 0, activeMask = 0;
  std::uint32_t addresses = kNoAddresses;  // index of its 32 addresses in BlockEvents::addresses
  static constexpr std::uint32_t kNoAddresses = 0xffffffffu;
};
struct BlockEvents {
  std::vector<BufferedRecord> records;
  std::vector<std::array<std::uint64_t, kLanes>> addresses;
  void clear() { records.clear(); addresses.clear(); }
  // Delivers the block's records to `listener` as full trace records of block `block`.
  void deliver(std::uint32_t block, trace::TraceListener& listener) const;
};

class BlockRunner {
 public:
  explicit BlockRunner(const LaunchContext& ctx);

  // Runs block `linear` to completion. Events go to `listener` directly when non-null, else
  // into `buffer` when non-null. Returns (warp instructions, thread instructions).
  void run(std::uint64_t linear, trace::TraceListener* listener, BlockEvents* buffer);

  std::uint64_t warpInstructions = 0;
  std::uint64_t threadInstructions = 0;
  std::uint64_t printfCalls = 0;

 private:
  // block_runner.cpp: scheduling, control flow, barriers, errors.
  void initWarps();
  void runWarp(Warp& w, std::uint32_t budget);
  void step(Warp& w, Frame& f, SimtEntry& top, const Decoded& d, std::uint32_t pc);
  void emit(const Warp& w, std::uint32_t pc, std::uint32_t mask, const std::uint64_t* addresses);
  void branch(Warp& w, const Decoded& d, std::uint32_t pc, std::uint32_t taken, std::uint32_t mask,
              std::uint32_t target);
  void exitLanes(Warp& w, std::uint32_t lanes);
  void doCall(Warp& w, const Decoded& d, std::uint32_t exec);
  void doPrintf(Warp& w, const Decoded& d, std::uint32_t exec);
  void doReturn(Warp& w, std::uint32_t exec);
  void arriveBarrier(Warp& w, const Decoded& d, std::uint32_t exec);
  void releaseBarrier(std::uint32_t id);
  [[noreturn]] void deadlock();
  void chargeBudget(std::uint64_t n);

 public:
  // Helpers used by the execute files.
  [[noreturn]] void fail(const Warp& w, int lane, const Decoded& d, const std::string& what) const;
  std::string describeInstruction(const Decoded& d) const;
  std::string threadName(const Warp& w, int lane) const;

 private:
  // exec_alu.cpp / exec_float.cpp / exec_memory.cpp / exec_warp.cpp
  void execAlu(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec);
  bool execInteger(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec);
  bool execFloat(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec);
  void execConvert(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec);
  void execSetp(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec);
  void execMemory(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses);
  void execAtomic(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses);
  void execCvta(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec);
  // exec_async.cpp: cp.async, cp.async.bulk, mbarrier.
  void execAsync(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses);
  std::byte* mbarrierAt(Warp& w, const Frame& f, const Decoded& d, const Addr& a, int lane, std::uint64_t& offset);
  [[noreturn]] void mbarrierDeadlock() const;
  // exec_texture.cpp
  void execTexture(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses);
  void execWarpOp(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec);

 public:
  // Operand access.
  struct View {
    const std::uint64_t* p;
    std::uint32_t m;  // 31 for per-lane arrays, 0 for a broadcast value
    std::uint64_t operator[](int lane) const { return p[lane & m]; }
  };
  View read(const Warp& w, const Frame& f, const Src& s, std::uint64_t* scratch) const;
  std::uint64_t* dstRow(Frame& f, const Src& s) { return f.regs.data() + std::size_t{s.slot} * kLanes; }
  void write(Frame& f, const Src& s, int lane, std::uint64_t v) {
    if (s.kind != SrcKind::Reg) return;
    const std::uint32_t bits = s.regBits;
    f.regs[std::size_t{s.slot} * kLanes + lane] = bits >= 64 ? v : (v & ((std::uint64_t{1} << bits) - 1));
  }
  std::uint32_t predicateMask(const Frame& f, std::uint32_t slot, std::uint32_t mask) const;

  // Memory: host pointer for an access of `bytes` at a resolved space address; fails with a
  // sanitizer-style message when out of bounds, unmapped or misaligned.
  std::byte* resolve(Warp& w, int lane, const Decoded& d, Space space, std::uint64_t address,
                     std::uint32_t bytes, bool write);
  std::uint64_t effectiveAddress(const Warp& w, const Frame& f, const Decoded& d, int lane) const;
  std::uint64_t addressOf(const Frame& f, const Addr& a, int lane) const;

  const LaunchContext& ctx_;
  std::uint64_t linear_ = 0;
  std::uint32_t ctaid_[3] = {0, 0, 0};
  std::vector<Warp> warps_;
  std::vector<std::byte> shared_;
  std::uint32_t sharedSize_ = 0;
  std::uint32_t reservedBegin_ = 0;  // offset of the reserved shared memory (ReservedShared)
  std::array<BarrierState, 16> barriers_{};
  trace::TraceListener* listener_ = nullptr;
  BlockEvents* buffer_ = nullptr;
  std::uint32_t blockThreads_ = 0;
  const Warp* current_ = nullptr;
  InstructionBudget budget_;
  // mbarrier waits (exec_async.cpp): a wait that finds its phase incomplete ends the warp's
  // slice; two rounds in which every running warp stopped again at the wait it stopped at before
  // and no copy or mbarrier changed are a deadlock (reported with the last spinning thread).
  bool yieldRequested_ = false;
  bool spunAgain_ = false;  // the yield was at the same wait as the warp's previous one
  std::uint64_t asyncProgress_ = 0;
  std::uint32_t idleRounds_ = 0;
  std::string spinDescription_;
  std::array<std::uint64_t, kLanes> scratch_[6]{};
};

}  // namespace teg::emu
