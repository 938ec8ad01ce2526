// DRAM partition skew (Lai §3.2.3.5): "concurrent accesses to global memory should be distributed
// evenly among all the partitions ... load imbalance on the memory channels may significantly
// impair performance", each channel carrying at most 1/partitions of the peak (§3.2.1). The
// concurrent accesses are those of every SM, so the skew is measured over a sample of the blocks
// running together — the simulated SM's first wave and the peer blocks of other SMs — as the
// busiest partition's share of their DRAM sectors against an even spread. With skew s the whole
// GPU's traffic drains at 1/s of the peak (the busiest channel finishes last), so the simulated
// SM's bandwidth share is divided by s.
//
// A sample of a few blocks is uneven by chance (9 blocks that each touch 2 of 8 partitions cannot
// cover them evenly), so the skew is applied only where the blocks line up on the same partitions
// more than blocks placed at random would: each block's partition histogram is rotated by a random
// offset, many times, and the observed skew must exceed the 95th percentile of those (a
// permutation test). Time-aggregated: blocks that crowd one partition at the same moment but
// cover all of them over their run are not caught.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "teg/timing/config.hpp"

namespace teg::timing::detail {

// The partition a DRAM sector (address / sectorBytes, possibly tagged kLocalSectorTag) maps to.
std::size_t partitionOfSector(std::uint64_t sector, int sectorBytes, int partitionBytes, int partitions);

// partitions x the busiest partition's sectors / all sectors: 1 for an even spread, `partitions`
// when every sector falls on one; 1 when there are none.
double partitionSkew(const std::vector<std::uint64_t>& sectorsByPartition);

struct PartitionSkewEstimate {
  std::vector<std::uint64_t> sectorsByPartition;  // summed over the sampled blocks
  double observed = 1;     // partitionSkew of that sum
  double chance = 1;       // 95th percentile of the skew with each block rotated at random
  double applied = 1;      // observed when above chance, else 1
  std::size_t blocks = 0;  // sampled blocks with DRAM sectors
};

// `perBlock`: each sampled block's sectors per partition (all of the same size).
PartitionSkewEstimate estimatePartitionSkew(const std::vector<std::vector<std::uint64_t>>& perBlock);

// The report's assumption row: the skew found, whether it was applied, and on what sample.
Provenance describePartitionSkew(const PartitionSkewEstimate& estimate);

}  // namespace teg::timing::detail
