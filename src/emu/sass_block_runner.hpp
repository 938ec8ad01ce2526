// Runs one thread block of a kernel's SASS: its warps (registers, predicates, uniform registers,
// convergence barriers, thread groups), shared memory, local memory and CTA barriers.
//
// Independent thread scheduling (Volta and later) as thread groups: a warp is a set of groups,
// each a pc and a lane mask. A branch whose lanes disagree splits a group in two; groups merge
// again where the compiler asks for it: at BSYNC Bk once every lane BSSY Bk recorded (minus the
// exited lanes and those that left with BREAK Bk) waits there, at WARPSYNC / a warp-synchronous
// instruction (SHFL, VOTE, MATCH, REDUX with a member mask) once every named lane waits at the same
// pc, and at BAR.SYNC once every live lane of the warp has arrived. Scheduling order: the runnable
// group with the lowest pc runs until it waits, exits or splits; then again the lowest pc. Lowest
// pc first is deterministic and, because ptxas lays a convergence region out with its BSYNC after
// both sides of the branch, it runs the side that comes first in the code up to the merge point
// before the other side — the order pre-Volta hardware's stack gave (Fung et al.), so warp-
// synchronous code written for that order keeps working.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "block_runner.hpp"
#include "global_memory.hpp"
#include "instruction_budget.hpp"
#include "sass_exec.hpp"
#include "sass_program.hpp"
#include "teg/trace/trace.hpp"

namespace teg::emu {

// Everything a block needs that does not change during a run.
struct SassLaunchContext {
  const SassProgram* program = nullptr;
  GlobalMemory* global = nullptr;
  const std::uint32_t* const* banks = nullptr;  // constant banks 0..17 (kSassBankWords words each)
  Dim3 grid, block;
  std::uint32_t sharedBytes = 0;     // reserved + static + dynamic
  std::uint32_t dynamicSmem = 0;
  std::uint32_t maxCallDepth = 64;
  std::uint64_t maxInstructions = 0;
  std::uint64_t maxBlockInstructions = 0;
  std::uint64_t maxTraceRecords = 0;
  std::uint64_t* instructionBudgetUsed = nullptr;
};

inline constexpr std::uint32_t kSassBankBytes = 65536;
inline constexpr std::uint32_t kSassBankWords = kSassBankBytes / 4 + 4;  // + slack for a .128 at the end
inline constexpr int kSassBanks = 18;

struct SassGroup {
  enum class Wait : std::uint8_t { None, Bsync, Sync, Bar };
  std::uint32_t pc = 0;
  std::uint32_t mask = 0;
  Wait wait = Wait::None;
  std::uint32_t waitArg = 0;               // Bsync: barrier; Sync: required lanes
  std::vector<std::uint32_t> calls;        // return pcs of CALLs that push one
};

struct SassWarpRuntime {
  std::vector<SassGroup> groups;
  std::array<std::uint32_t, 16> bssy{};    // convergence barriers B0..B15: expected lanes
  std::array<std::uint32_t, 16> inside{};  // lanes past BSSY Bk and not yet past its BSYNC (or BREAK)
  std::array<std::uint32_t, 16> bssyPc{};  // the BSSY that last set Bk (pc + 1; 0: none)
  WarpState state = WarpState::Ready;      // AtBarrier: waiting at a CTA barrier
  std::uint32_t barrier = 0;               // which, and the instruction
  const SassInstr* barrierInstr = nullptr;
  std::uint32_t barrierMask = 0;
  // Its last slice ended at an mbarrier wait (spinPc, on the mbarrier at spinBarrier).
  bool spun = false;
  std::uint32_t spinPc = 0, spinBarrier = 0;
};

class SassBlockRunner {
 public:
  explicit SassBlockRunner(const SassLaunchContext& ctx);

  void run(std::uint64_t linear, trace::TraceListener* listener, BlockEvents* buffer);

  std::uint64_t warpInstructions = 0;
  std::uint64_t threadInstructions = 0;

  // For handlers.
  [[nodiscard]] const SassLaunchContext& context() const { return ctx_; }
  [[nodiscard]] const SassProgram& program() const { return *ctx_.program; }
  [[nodiscard]] std::string threadName(const SassWarp& w, int lane) const;
  [[noreturn]] void fail(const SassWarp& w, int lane, const SassInstr& in, const std::string& what) const;
  // Host pointer for an access of `bytes` at a generic / global / shared / local address of lane
  // `lane`; fails with a sanitizer-style message when unmapped, out of bounds or misaligned.
  enum class Space : std::uint8_t { Generic, Global, Shared, Local };
  std::byte* resolve(const SassWarp& w, int lane, const SassInstr& in, Space space, std::uint64_t address,
                     std::uint32_t bytes, bool write);
  [[nodiscard]] std::uint32_t ctaid(int i) const { return ctaid_[i]; }
  // The block's shared window (for the memory handlers' fast path; resolve() reports errors).
  [[nodiscard]] std::byte* sharedData() { return shared_.data(); }
  [[nodiscard]] std::uint64_t sharedSize() const { return shared_.size(); }
  [[nodiscard]] std::uint32_t localBytesPerThread() const { return localStride_; }
  // mbarriers (sm_80-89: 8-byte words of shared memory the kernel's code also reads): the
  // arrive handlers record each one's offset; a load of such a word (a test_wait's LDS) ends the
  // warp's slice after that instruction, so a warp spinning on a phase lets the others arrive
  // instead of spending its slice (and the trace) on the loop, as the PTX path's test_wait does.
  void noteMbarrier(std::uint32_t offset) {
    for (std::uint32_t m : mbarriers_)
      if (m == offset) return;
    mbarriers_.push_back(offset);
  }
  [[nodiscard]] bool watchingMbarriers() const { return !mbarriers_.empty(); }
  // Ends the running warp's slice after this instruction (an mbarrier wait that found its phase
  // incomplete; `mbarrier` is its shared offset).
  void yieldWarp(std::uint32_t mbarrier) {
    yield_ = true;
    yieldBarrier_ = mbarrier;
  }
  // sm_90+: the transaction count of the mbarrier at `offset` (pending bytes; zero at first).
  std::int64_t& mbarrierTransactions(std::uint32_t offset) {
    for (auto& [at, count] : transactions_)
      if (at == offset) return count;
    return transactions_.emplace_back(offset, 0).second;
  }
  void yieldIfMbarrier(std::uint32_t offset) {
    for (std::uint32_t m : mbarriers_)
      if (m == (offset & ~7u)) yieldWarp(m);
  }
 private:
  void initWarps();
  void runWarp(std::size_t wi, std::uint32_t budget);
  void emit(const SassWarp& w, std::uint32_t pc, std::uint32_t mask, const std::uint64_t* addresses);
  void chargeBudget(std::uint64_t n);
  std::size_t pickGroup(SassWarpRuntime& rt) const;
  void exitLanes(SassWarp& w, SassWarpRuntime& rt, std::size_t gi, std::uint32_t lanes);
  void release(SassWarp& w, SassWarpRuntime& rt);
  bool releaseStuckBsync(SassWarpRuntime& rt);
  std::uint32_t indirectBranchTarget(const SassWarp& w, int lane, const SassInstr& in);
  void splitByTarget(SassWarp& w, SassWarpRuntime& rt, std::size_t gi, std::uint32_t exec, const std::uint32_t* targets);
  void arriveBarrier(std::size_t wi, SassGroup& g, const SassInstr& in, std::uint32_t exec);
  void releaseBarrier(std::uint32_t id);
  std::uint32_t liveThreads() const;
  [[noreturn]] void deadlock();
  bool mbarrierSpinIsStuck();
  [[noreturn]] void mbarrierDeadlock();
  std::vector<std::byte> spinState() const;

  const SassLaunchContext& ctx_;
  std::uint64_t linear_ = 0;
  std::uint32_t ctaid_[3] = {0, 0, 0};
  std::vector<std::unique_ptr<SassWarp>> warps_;
  std::vector<SassWarpRuntime> runtime_;
  std::vector<std::byte> shared_;
  std::vector<std::byte> local_;       // warp * 32 * stride + lane * stride + offset
  std::uint32_t localStride_ = 0;
  std::array<BarrierState, 16> barriers_{};
  trace::TraceListener* listener_ = nullptr;
  BlockEvents* buffer_ = nullptr;
  std::uint32_t blockThreads_ = 0;
  std::uint32_t zeroRows_ = 0;          // register rows cleared per block
  InstructionBudget budget_;
  std::array<std::uint64_t, kSassLanes> addresses_{};
  std::vector<std::uint32_t> mbarriers_;  // shared offsets of the block's mbarriers
  bool yield_ = false;                    // end the running warp's slice after this instruction
  std::uint32_t yieldBarrier_ = 0;        // the mbarrier of that wait
  // mbarrier deadlock detection (mbarrierSpinIsStuck): rounds in a row in which every warp that
  // ran ended its slice waiting on an mbarrier and no mbarrier changed, the mbarriers' words
  // then, and a snapshot of the whole block's state.
  std::uint32_t spinRounds_ = 0;
  std::vector<std::byte> spinWords_, spinSnapshot_;
  std::vector<std::pair<std::uint32_t, std::int64_t>> transactions_;  // sm_90+ mbarrier tx counts
};

}  // namespace teg::emu
