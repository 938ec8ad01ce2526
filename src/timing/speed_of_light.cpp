#include "teg/timing/speed_of_light.hpp"

#include <algorithm>

#include "bounds.hpp"

namespace teg::timing {

namespace {

MemoryThroughput level(std::string name, double bytes, double peakBytesPerCycle, double cycles, std::string what,
                       std::string origin) {
  MemoryThroughput m;
  m.level = std::move(name);
  m.bytes = bytes;
  m.bytesPerCycle = cycles > 0 ? bytes / cycles : 0;
  m.peakBytesPerCycle = peakBytesPerCycle > 0 ? peakBytesPerCycle : 0;
  m.fractionOfPeak = m.peakBytesPerCycle > 0 ? m.bytesPerCycle / m.peakBytesPerCycle : 0;
  m.what = std::move(what);
  m.peakOrigin = std::move(origin);
  return m;
}

}  // namespace

SpeedOfLight speedOfLight(const TimingConfig& config, const TimingResult& result) {
  SpeedOfLight sol;
  const double cycles = result.simulatedCycles;
  // The issue and functional-unit bounds are the ones the bottleneck is named from (bounds.cpp);
  // the memory levels are recomputed below with their bytes.
  for (const detail::Bound& b : detail::simulatedBounds(config, result)) {
    const bool unit = b.name == "issue" || (b.name.size() > 5 && b.name.compare(b.name.size() - 5, 5, " unit") == 0);
    if (unit) sol.units.push_back({b.name, b.cycles, cycles > 0 ? b.cycles / cycles : 0});
  }
  const auto& m = result.memory;
  const double sector = config.sectorBytes;
  sol.memory.push_back(level("L1", static_cast<double>(m.sectorsRequested) * sector, config.lsuBytesPerCycle, cycles,
                             "global sectors requested x sector bytes",
                             "throughput.load_store lanes x 4 B per cycle"));
  const double wavefrontBytes = static_cast<double>(config.sharedBanks) * config.sharedBankWidth;
  sol.memory.push_back(level("shared", static_cast<double>(m.sharedWavefronts) * wavefrontBytes,
                             config.sharedWavefrontCycles > 0 ? wavefrontBytes / config.sharedWavefrontCycles : 0,
                             cycles, "shared wavefronts x banks x bank width (the data path's capacity used)",
                             "shared_memory_banks x shared_memory_bank_width per timing.shared_wavefront_cycles"));
  // The L2 pipe's capacity used, as the shared level counts wavefronts: written sectors weigh
  // read share / write share, a read-modify-write twice that (bounds.cpp, l2BoundCycles).
  const bool writesApart = config.l2BytesPerCycle > 0 &&
                           (m.l2PartialWordWrites > 0 || (m.l2WriteSectors > 0 && config.l2WriteBytesPerCycle > 0 &&
                                                          config.l2WriteBytesPerCycle != config.l2BytesPerCycle));
  const double l2Bytes = writesApart
                             ? detail::l2BoundCycles(config, m) * config.l2BytesPerCycle
                             : static_cast<double>(m.sectorsRequested - std::min(m.l1Hits, m.sectorsRequested)) * sector;
  sol.memory.push_back(level("L2", l2Bytes, config.l2BytesPerCycle, cycles,
                             writesApart ? "sectors that missed the L1 x sector bytes, a written one weighted by the read "
                                           "/ write bandwidth ratio and a read-modify-write twice (the pipe's capacity used)"
                                         : "sectors that missed the L1 x sector bytes",
                             config.l2BytesPerCycle > 0 ? "timing.l2_bytes_per_clk / SMs"
                                                        : "none: the device gives no timing.l2_bytes_per_clk"));
  sol.memory.push_back(level("DRAM", m.dramBytes, config.dramBytesPerCycle, cycles,
                             "DRAM reads and write-backs", "memory.dram_bandwidth_gbs / SMs / clock"));
  return sol;
}

}  // namespace teg::timing
