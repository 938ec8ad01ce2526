// The run's instruction limits as one block counts against them (RunOptions::maxInstructions,
// maxBlockInstructions, maxTraceRecords): shared by the PTX and the SASS block runners so that
// both stop an endless kernel or an oversized trace with the same message.
#pragma once

#include <cstdint>

namespace teg::emu {

struct InstructionLimits {
  std::uint64_t maxInstructions = 0;       // per run, all blocks together (0 = unlimited)
  std::uint64_t maxBlockInstructions = 0;  // per block (0 = unlimited)
  std::uint64_t maxTraceRecords = 0;       // per run when tracing (0 = unlimited)
  std::uint64_t* used = nullptr;           // the run's shared counter (atomic_ref), may be null
};

class InstructionBudget {
 public:
  void startBlock() { blockInstructions_ = 0; }
  // Counts n more warp instructions of the block at `ctaid`; `tracing`: every one is a trace
  // record. Throws teg::Error naming the limit and how to raise it. The shared counter is
  // updated in batches (n = 0 flushes), so blocks on other threads see it late by a slice.
  void charge(std::uint64_t n, const InstructionLimits& limits, bool tracing, const std::uint32_t (&ctaid)[3]);

 private:
  std::uint64_t pending_ = 0;
  std::uint64_t blockInstructions_ = 0;
};

}  // namespace teg::emu
