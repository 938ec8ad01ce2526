// When the L2's dirty sectors reach DRAM. The L2 is write-back: a sector a store dirtied costs one
// DRAM write when it is evicted. Whether lines are evicted while the kernel runs is a question of
// the whole L2, which all SMs share: where the grid's footprint (l2_footprint.hpp: the distinct
// sectors the whole launch reads and writes, a sector several SMs write counted once) fits in the
// whole L2, dirty sectors stay there and no store costs a DRAM write within the kernel (Kept; the
// dirty data left at the kernel's end is written back later, charged to no one here: to the next
// kernel's traffic, or never if it is rewritten). Otherwise the rule per SM applies: the simulated
// SM runs only the first waves of a long launch, which touch far less than its L2 share, so
// evictions would fall outside the sampled time and a large kernel's stores would look free. Where
// the simulated blocks are a sample and the SM's whole share of the launch outgrows its L2 share,
// every dirtied sector is therefore charged its write-back when it becomes dirty (the steady state:
// in a kernel streaming more than the L2 holds, each dirtied sector is evicted while the kernel
// runs). Otherwise (every block is simulated, so evictions happen in the simulated time) a dirty
// sector costs DRAM time when evicted from the SM's share.
#pragma once

#include <cstdint>
#include <vector>

#include "block_trace.hpp"
#include "l2_footprint.hpp"
#include "teg/timing/config.hpp"
#include "teg/trace/trace.hpp"

namespace teg::timing::detail {

enum class WriteBack : std::uint8_t { WhenDirtied, WhenEvicted, Kept };

// Whether the kernel stores or does atomics: only those dirty sectors, so without them the
// write-back rule does not matter and nothing of it need be computed or recorded.
bool kernelWrites(const trace::KernelInfo& kernel);

struct WriteBackChoice {
  WriteBack policy = WriteBack::WhenEvicted;
  double projectedBytes = 0;  // distinct sectors of the simulated blocks x blocks on the SM / simulated
  double l2Bytes = 0;         // the SM's share of the L2
  GpuFootprint footprint;     // the grid's (estimated; only for a kernel that writes)
  double wholeL2Bytes = 0;    // the whole L2 (TimingConfig::wholeL2Bytes)
};

// projectedBytes and the footprint stay 0 for a kernel without stores or atomics (nothing is ever
// dirty). `peers`: the traced peer blocks' (pc, sector) pairs, every global, texture and local
// access of theirs, in any order and with repeats: they are sorted (in place) only when the
// estimate needs them (a peer's pairs are as many as its accesses; most launches never need them).
WriteBackChoice chooseWriteBack(const TimingConfig& config, const trace::KernelInfo& kernel,
                                const std::vector<BlockTrace>& blocks, std::uint64_t blocksOnSm,
                                std::vector<std::vector<PcSector>>& peers);

// The grid's footprint (l2_footprint.hpp) from the simulated blocks and the peers' pairs (sorted
// and deduplicated in place). Where the simulated blocks' own distinct data outgrow
// `wholeL2Bytes`, the rest is not estimated: the footprint is that data, marked lowerBound.
GpuFootprint gridFootprint(const TimingConfig& config, const trace::KernelInfo& kernel,
                           const std::vector<BlockTrace>& blocks, std::vector<std::vector<PcSector>>& peers,
                           double wholeL2Bytes);

}  // namespace teg::timing::detail
