#include "instruction_budget.hpp"

#include <fmt/format.h>

#include <atomic>

#include "teg/emu/emulator.hpp"
#include "teg/support/error.hpp"

namespace teg::emu {

void InstructionBudget::charge(std::uint64_t n, const InstructionLimits& limits, bool tracing,
                               const std::uint32_t (&ctaid)[3]) {
  pending_ += n;
  blockInstructions_ += n;
  if (limits.maxBlockInstructions != 0 && blockInstructions_ > limits.maxBlockInstructions)
    throw Error(fmt::format("block ({},{},{}) did not finish within {} warp instructions, the limit per block "
                            "(an endless loop?); raise it with --max-block-instructions N, 0 = no limit",
                            ctaid[0], ctaid[1], ctaid[2], limits.maxBlockInstructions));
  // Every executed warp instruction is one trace record when tracing.
  const std::uint64_t traceLimit = tracing ? limits.maxTraceRecords : 0;
  if ((limits.maxInstructions == 0 && traceLimit == 0) || !limits.used) return;
  std::atomic_ref<std::uint64_t> used(*limits.used);
  const std::uint64_t total = used.fetch_add(pending_) + pending_;
  pending_ = 0;
  if (limits.maxInstructions != 0 && total > limits.maxInstructions)
    throw Error(fmt::format("the kernel did not finish within {} warp instructions (--max-instructions); stopped "
                            "in block ({},{},{})",
                            limits.maxInstructions, ctaid[0], ctaid[1], ctaid[2]));
  if (traceLimit != 0 && total > traceLimit)
    throw TraceLimitExceeded(fmt::format("the trace would exceed {} warp instructions, the limit of a traced run (stopped in "
                            "block ({},{},{})); trace fewer blocks (--sample-blocks, --blocks) or raise it with "
                            "--max-trace-records N, 0 = no limit",
                            traceLimit, ctaid[0], ctaid[1], ctaid[2]));
}

}  // namespace teg::emu
