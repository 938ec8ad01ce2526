#include "validate.hpp"

#include <fmt/format.h>

#include "figure_table.hpp"
#include "teg/support/error.hpp"

namespace teg::device::detail {

namespace {

const Device::Figure* provenance(const Device& d, const std::string& key) {
  for (const auto& f : d.figures)
    if (f.key == key) return &f;
  return nullptr;
}

// "max_threads_per_sm (2048, generic/sm_80.json)": a figure with the file that set it.
std::string cite(const Device& d, const std::string& key) {
  const auto* f = provenance(d, key);
  return f ? fmt::format("{} = {} ({})", key, f->value, f->definedIn) : key + " (unset)";
}

}  // namespace

void validateDevice(const Device& d, const std::string& file) {
  const SourceLocation where{file, 0, 0};
  for (const auto& spec : figureSpecs()) {
    const bool required = spec.required == Required::Always ||
                          (spec.required == Required::ProductOnly && !d.generic);
    if (required && provenance(d, spec.key) == nullptr)
      throw Error(where, fmt::format("device '{}': missing required figure '{}'{}", d.id, spec.key,
                                     d.generic ? "" : " (set it here or in the entry it inherits)"));
  }
  auto rule = [&](bool ok, const std::string& what, std::initializer_list<const char*> keys) {
    if (ok) return;
    std::string detail;
    for (const char* key : keys) detail += (detail.empty() ? "" : "; ") + cite(d, key);
    throw Error(where, fmt::format("device '{}': {} ({})", d.id, what, detail));
  };
  const Limits& l = d.limits;
  rule(static_cast<long long>(l.maxWarpsPerSm) * l.warpSize == l.maxThreadsPerSm,
       "max_warps_per_sm * warp_size must equal max_threads_per_sm",
       {"max_warps_per_sm", "warp_size", "max_threads_per_sm"});
  rule(l.maxThreadsPerBlock <= l.maxThreadsPerSm,
       "max_threads_per_block must not exceed max_threads_per_sm",
       {"max_threads_per_block", "max_threads_per_sm"});
  rule(l.maxThreadsPerBlock % l.warpSize == 0, "max_threads_per_block must be a multiple of warp_size",
       {"max_threads_per_block", "warp_size"});
  rule(l.maxBlockDim[0] <= l.maxThreadsPerBlock && l.maxBlockDim[1] <= l.maxThreadsPerBlock &&
           l.maxBlockDim[2] <= l.maxThreadsPerBlock,
       "max_block_dim must not exceed max_threads_per_block", {"max_block_dim", "max_threads_per_block"});
  rule(l.maxRegistersPerBlock <= l.registersPerSm,
       "max_registers_per_block must not exceed registers_per_sm",
       {"max_registers_per_block", "registers_per_sm"});
  rule(!l.sharedMemoryCarveouts.empty() && l.sharedMemoryCarveouts.back() == l.sharedMemoryPerSm,
       "the last shared_memory_carveouts entry must equal shared_memory_per_sm",
       {"shared_memory_carveouts", "shared_memory_per_sm"});
  rule(l.sharedMemoryPerBlock <= l.sharedMemoryPerBlockOptin,
       "shared_memory_per_block must not exceed shared_memory_per_block_optin",
       {"shared_memory_per_block", "shared_memory_per_block_optin"});
  rule(l.sharedMemoryPerBlockOptin + l.reservedSharedMemoryPerBlock <= l.sharedMemoryPerSm,
       "shared_memory_per_block_optin + reserved_shared_memory_per_block must fit in "
       "shared_memory_per_sm",
       {"shared_memory_per_block_optin", "reserved_shared_memory_per_block", "shared_memory_per_sm"});
  rule(l.sharedMemoryPerSm % l.sharedMemoryAllocationUnit == 0,
       "shared_memory_per_sm must be a multiple of shared_memory_allocation_unit",
       {"shared_memory_per_sm", "shared_memory_allocation_unit"});
  rule(l.registersPerSm % l.registerAllocationUnit == 0,
       "registers_per_sm must be a multiple of register_allocation_unit",
       {"registers_per_sm", "register_allocation_unit"});
  rule(d.issue.schedulersPerSm % d.issue.subPartitions == 0 ||
           d.issue.subPartitions % d.issue.schedulersPerSm == 0,
       "warp_schedulers_per_sm and sub_partitions must divide one another",
       {"warp_schedulers_per_sm", "sub_partitions"});
  rule((d.memory.dramPartitions == 0) == (d.memory.dramPartitionBytes == 0),
       "memory.dram_partitions and memory.dram_partition_bytes go together (the interleave needs both)",
       {"memory.dram_partitions", "memory.dram_partition_bytes"});
  rule(d.clocks.baseMhz == 0 || d.clocks.coreMhz == 0 || d.clocks.baseMhz <= d.clocks.coreMhz,
       "clocks.base_mhz must not exceed clocks.core_mhz (the boost clock)",
       {"clocks.base_mhz", "clocks.core_mhz"});
}

}  // namespace teg::device::detail
