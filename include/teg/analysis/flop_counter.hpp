// Floating-point operations of the simulated SM's blocks, counted as Nsight Compute counts them
// for its roofline: per active lane, add/sub/mul 1, fma/mad 2 (a half2 instruction does two
// halves); divisions, square roots and special functions are not counted. A trace listener, so
// it sees the blocks the timing engine replays, lane masks applied.
#pragma once

#include <cstdint>
#include <vector>

#include "teg/trace/trace.hpp"

namespace teg::analysis {

struct FlopCount {
  double fp16 = 0, fp32 = 0, fp64 = 0;
};

// FLOPs one active lane performs with this PTX instruction text, and in which precision
// (fp16/bf16, fp32 or fp64); {0, ...} for anything else.
struct LaneFlops {
  double flops = 0;
  enum class Precision : std::uint8_t { None, Fp16, Fp32, Fp64 } precision = Precision::None;
};
LaneFlops laneFlopsOf(const std::string& instructionText);
// The same for a SASS instruction text ("FFMA R4, R2, R3, R4" 2, "HFMA2" 4 halves' worth, "DADD"
// 1 in fp64). HADD2.F32 / HMUL2.F32 are ptxas's half-to-float conversions and HFMA2 -RZ, RZ, c
// its constant moves: they count nothing;
// uniform-datapath forms (UFFMA ...) run once per warp, not per lane, and are not counted.
LaneFlops laneFlopsOfSass(const std::string& instructionText);

class FlopCounter final : public trace::TraceListener {
 public:
  // Only blocks in `blocks` (linear indices) are counted: the simulated SM's own, not the peer
  // blocks traced for L2 sharing.
  explicit FlopCounter(std::vector<std::uint64_t> blocks);
  void beginKernel(const trace::KernelInfo& kernel) override;
  void beginBlock(std::uint32_t block) override;
  void instruction(const trace::WarpInstruction& record) override;
  void endBlock(std::uint32_t block) override;
  [[nodiscard]] const FlopCount& count() const { return count_; }

 private:
  std::vector<std::uint64_t> blocks_;  // sorted
  std::vector<LaneFlops> perPc_;
  bool counting_ = false;
  FlopCount count_;
};

}  // namespace teg::analysis
