// The latency bound of a kernel (`teg bound`): each warp's dependent chain through its dynamic
// trace, every instruction at its most optimistic latency (ALU: the class's execution latency;
// global: an L1 hit where the load may use the L1, else an L2 hit; shared: a conflict-free access;
// constants and parameters: free), so no schedule of the timing engine can be shorter. A trace
// listener: it sees the blocks the engine replays.
//
// Per block the time is its slowest warp's chain, or its issue count at one instruction per issue
// interval, whichever is longer; with R resident blocks an SM cannot finish its blocks faster than
// max(longest block, sum of the blocks / R) — the latency bound at the kernel's occupancy.
//
// A block-wide barrier (bar.sync / barrier.sync / bar.red without a thread count) joins the
// chains: no warp passes its k-th barrier before every warp of the block has reached it, i.e.
// before the latest of their arrivals (a warp arrives when its earlier instructions have issued);
// the instructions after it start no earlier. The trace lists a block's records in the order the
// emulator ran them, which passes a barrier only after all warps reached it, so each release is
// known when a warp's next instruction arrives. Barriers with a thread count (a subset of warps)
// and bar.arrive are not joined (a lower bound stays one without them).
#pragma once

#include <cstdint>
#include <vector>

#include "teg/timing/config.hpp"
#include "teg/trace/trace.hpp"

namespace teg::analysis {

class CriticalPath final : public trace::TraceListener {
 public:
  // Only blocks in `blocks` (linear indices) are counted; latencies come from `config`.
  CriticalPath(const timing::TimingConfig& config, std::vector<std::uint64_t> blocks);
  void beginKernel(const trace::KernelInfo& kernel) override;
  void beginBlock(std::uint32_t block) override;
  void instruction(const trace::WarpInstruction& record) override;
  void endBlock(std::uint32_t block) override;

  // Cycles of each counted block (its slowest warp), in completion order.
  [[nodiscard]] const std::vector<double>& blockCycles() const { return blockCycles_; }

 private:
  struct Warp {
    std::vector<double> ready;  // per register: cycle its value is available
    double end = 0;             // latest completion
    std::uint64_t issued = 0;
    double floor = 0;           // nothing issues before the release of the last barrier passed
    std::size_t barriers = 0;   // block-wide barriers reached
    bool atBarrier = false;     // the last instruction was one (its release applies next)
  };
  const timing::TimingConfig& config_;
  std::vector<trace::StaticInstruction> instructions_;
  std::vector<std::uint64_t> blocks_;  // sorted
  std::vector<double> latencyOf_;      // per pc; < 0: passes its operands through (a fused multiply)
  std::uint32_t registers_ = 0;
  bool counting_ = false;
  std::vector<Warp> warps_;
  std::vector<double> blockCycles_;
  std::vector<bool> joins_;            // per pc: a block-wide barrier
  std::vector<double> release_;        // per barrier ordinal of the block: the latest arrival
};

}  // namespace teg::analysis
