// When the L2's dirty sectors reach DRAM. The L2 is write-back: a sector a store dirtied costs one
// DRAM write when it is evicted. The simulated SM runs only the first waves of a long launch,
// which touch far less than its L2 share, so evictions would fall outside the sampled time and a
// large kernel's stores would look free. Where the simulated blocks are a sample and the SM's whole
// share of the launch outgrows its L2 share, every dirtied sector is therefore charged its
// write-back when it becomes dirty (the steady state: in a kernel streaming more than the L2 holds,
// each dirtied sector is evicted while the kernel runs). Otherwise (the data fit, or every block is
// simulated, so evictions happen in the simulated time) a dirty sector costs DRAM time when evicted.
#pragma once

#include <cstdint>
#include <vector>

#include "block_trace.hpp"
#include "teg/timing/config.hpp"
#include "teg/trace/trace.hpp"

namespace teg::timing::detail {

enum class WriteBack : std::uint8_t { WhenDirtied, WhenEvicted };

struct WriteBackChoice {
  WriteBack policy = WriteBack::WhenEvicted;
  double projectedBytes = 0;  // distinct sectors of the simulated blocks x blocks on the SM / simulated
  bool upperBound = false;    // projectedBytes counts repeated sectors too (the exact count did not matter)
  double l2Bytes = 0;         // the SM's share of the L2
};

// projectedBytes stays 0 for a kernel without stores or atomics (nothing is ever dirty).
WriteBackChoice chooseWriteBack(const TimingConfig& config, const trace::KernelInfo& kernel,
                                const std::vector<BlockTrace>& blocks, std::uint64_t blocksOnSm);

}  // namespace teg::timing::detail
