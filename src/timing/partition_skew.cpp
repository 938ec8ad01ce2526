#include "partition_skew.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "block_trace.hpp"

namespace teg::timing::detail {

namespace {

constexpr int kChanceTrials = 400;
constexpr double kChanceQuantile = 0.95;

}  // namespace

std::size_t partitionOfSector(std::uint64_t sector, int sectorBytes, int partitionBytes, int partitions) {
  if (partitions <= 1 || partitionBytes <= 0) return 0;
  // Local sectors carry a tag bit above any address; it is not part of the address.
  const std::uint64_t address = (sector & ~kLocalSectorTag) * static_cast<std::uint64_t>(sectorBytes);
  return static_cast<std::size_t>(address / static_cast<std::uint64_t>(partitionBytes) %
                                  static_cast<std::uint64_t>(partitions));
}

double partitionSkew(const std::vector<std::uint64_t>& sectorsByPartition) {
  const std::uint64_t total = std::accumulate(sectorsByPartition.begin(), sectorsByPartition.end(), std::uint64_t{0});
  if (total == 0) return 1.0;
  const std::uint64_t busiest = *std::max_element(sectorsByPartition.begin(), sectorsByPartition.end());
  return static_cast<double>(sectorsByPartition.size()) * static_cast<double>(busiest) / static_cast<double>(total);
}

PartitionSkewEstimate estimatePartitionSkew(const std::vector<std::vector<std::uint64_t>>& perBlock) {
  PartitionSkewEstimate e;
  std::vector<const std::vector<std::uint64_t>*> used;
  for (const auto& block : perBlock)
    if (std::any_of(block.begin(), block.end(), [](std::uint64_t n) { return n > 0; })) used.push_back(&block);
  e.blocks = used.size();
  if (used.empty()) return e;
  const std::size_t partitions = used.front()->size();
  e.sectorsByPartition.assign(partitions, 0);
  for (const auto* block : used)
    for (std::size_t p = 0; p < partitions; ++p) e.sectorsByPartition[p] += (*block)[p];
  e.observed = partitionSkew(e.sectorsByPartition);
  // Fixed seed: the same trace always gets the same answer.
  std::mt19937_64 random(0x7465672d70617274ull);
  std::vector<double> trials;
  std::vector<std::uint64_t> rotated(partitions);
  for (int t = 0; t < kChanceTrials; ++t) {
    std::fill(rotated.begin(), rotated.end(), 0);
    for (const auto* block : used) {
      const std::size_t offset = random() % partitions;
      for (std::size_t p = 0; p < partitions; ++p) rotated[(p + offset) % partitions] += (*block)[p];
    }
    trials.push_back(partitionSkew(rotated));
  }
  std::sort(trials.begin(), trials.end());
  e.chance = trials[static_cast<std::size_t>(kChanceQuantile * static_cast<double>(trials.size() - 1))];
  e.applied = e.observed > e.chance ? e.observed : 1.0;
  return e;
}

Provenance describePartitionSkew(const PartitionSkewEstimate& e) {
  const auto& byPartition = e.sectorsByPartition;
  const std::uint64_t total = std::accumulate(byPartition.begin(), byPartition.end(), std::uint64_t{0});
  const std::uint64_t busiest = total == 0 ? 0 : *std::max_element(byPartition.begin(), byPartition.end());
  const double busiestPct = total == 0 ? 0 : 100.0 * static_cast<double>(busiest) / static_cast<double>(total);
  const double evenPct = byPartition.empty() ? 0 : 100.0 / static_cast<double>(byPartition.size());
  std::string value =
      total == 0 ? std::string("none: the sampled blocks make no global accesses")
      : e.applied > 1
          ? fmt::format("x{:.2f}: the busiest of {} partitions takes {:.1f} % of the sampled DRAM sectors (even: "
                        "{:.1f} %; blocks at random: up to x{:.2f}); the DRAM share is divided by it",
                        e.observed, byPartition.size(), busiestPct, evenPct, e.chance)
          : fmt::format("not applied: the busiest partition takes {:.1f} % of the sampled DRAM sectors (x{:.2f}; "
                        "even: {:.1f} %), no more than {} blocks at random would (up to x{:.2f})",
                        busiestPct, e.observed, evenPct, e.blocks, e.chance);
  return {"DRAM partition skew", std::move(value),
          fmt::format("model (partition_skew.hpp, Lai §3.2.3.5): the global accesses of {} sampled block(s) running "
                      "together (this SM's first wave and the peer blocks of other SMs), over their whole run",
                      e.blocks)};
}

}  // namespace teg::timing::detail
