#include "bounds.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace teg::timing::detail {

double dramBoundCycles(const TimingConfig& config, const MemoryCounters& memory) {
  if (!(config.dramBytesPerCycle > 0)) return 0;
  double cycles = memory.dramBytes / config.dramBytesPerCycle;
  // The read/write turnaround the DRAM pipe charges (MemorySystem::dramTransfer): 2 min(w, 1 - w)
  // of the sectors follow a change of direction, each costing sector / sustained - sector / peak.
  // Without it the floor is the peak and a read/write stream could be extrapolated above the
  // device's sustained bandwidth (issue 25: never above it).
  if (config.dramMixedBytesPerCycle > 0 && memory.dramSectors > 0) {
    const double turnaround =
        std::max(0.0, config.sectorBytes / config.dramMixedBytesPerCycle - config.sectorBytes / config.dramBytesPerCycle);
    const double sectors = static_cast<double>(memory.dramSectors);
    const double w = static_cast<double>(memory.dramWriteSectors) / sectors;
    cycles += sectors * turnaround * 2 * std::min(w, 1 - w);
  }
  return cycles;
}

// The L2 pipe's time (MemorySystem::throughL2): read and atomic sectors at the read share, written
// sectors at the write share, a read-modify-write (part of an ECC word written) twice.
double l2BoundCycles(const TimingConfig& config, const MemoryCounters& memory) {
  if (!(config.l2BytesPerCycle > 0)) return 0;
  const std::uint64_t beyondL1 = memory.sectorsRequested - std::min(memory.l1Hits, memory.sectorsRequested);
  const std::uint64_t written = std::min(memory.l2WriteSectors, beyondL1);
  const double writeShare = config.l2WriteBytesPerCycle > 0 ? config.l2WriteBytesPerCycle : config.l2BytesPerCycle;
  return static_cast<double>(beyondL1 - written) * config.sectorBytes / config.l2BytesPerCycle +
         static_cast<double>(written + memory.l2PartialWordWrites) * config.sectorBytes / writeShare;
}

std::vector<Bound> simulatedBounds(const TimingConfig& config, const TimingResult& result) {
  std::vector<Bound> bounds;
  const double schedulers = std::max(1, config.schedulers);
  bounds.push_back({"issue", static_cast<double>(result.warpInstructions) * config.issueIntervalCycles / schedulers});
  for (const auto& unit : result.units) {
    if (unit.unit == InstructionClass::LoadStore) continue;
    const double copies = config.unitSharedBySm[static_cast<std::size_t>(unit.unit)] ? 1.0 : schedulers;
    bounds.push_back({fmt::format("{} unit", device::instructionClassName(unit.unit)), unit.busyCycles / copies});
  }
  bounds.push_back({"shared memory",
                    static_cast<double>(result.memory.sharedWavefronts) * config.sharedWavefrontCycles});
  // The LD/ST path is held by a global access for its bytes at the data path's width or for its
  // lanes (a 4-byte warp access on 16 lanes takes 2 cycles, whatever the width: RTX 4090, 121.2
  // B/clk for 16-byte loads, 63.7 for 4-byte ones, Luo 2024 Table V): whichever the run held it.
  if (config.lsuBytesPerCycle > 0)
    bounds.push_back({"L1/LSU bandwidth",
                      std::max(static_cast<double>(result.memory.sectorsRequested) * config.sectorBytes /
                                   config.lsuBytesPerCycle,
                               result.memory.lsuBusyCycles)});
  if (config.l2BytesPerCycle > 0)
    bounds.push_back({"L2 bandwidth", l2BoundCycles(config, result.memory)});
  if (config.dramBytesPerCycle > 0)
    bounds.push_back({"DRAM bandwidth", dramBoundCycles(config, result.memory)});
  // The L2 atomic unit of the busiest sector performs its operations one after another, this SM's
  // interleaved with the other SMs' (MemorySystem::atomic): the run cannot end before it has.
  if (config.l2AtomicCycles > 0 && result.memory.atomicUnitBusyCycles > 0)
    bounds.push_back({kAtomicUnitBoundName, result.memory.atomicUnitBusyCycles});
  // Little's law on C_mem (Lai eq. 3.1): each sector holds a slot for at least its latency. A DRAM
  // sector's share of this is the DRAM bandwidth bound again (C_mem = share x latency / sector,
  // eq. 3.2); it differs where L2 accesses hold slots too (devices without timing.l2_bytes_per_clk,
  // MemorySystem::throughL2), and then it is the limit the warps queue on (lg_throttle).
  const auto& m = result.memory;
  if (config.maxOutstandingSectors > 0 && m.l2SlotSectors > 0) {
    const double slotCycles = static_cast<double>(m.dramSectors) * config.dramLatency +
                              static_cast<double>(m.l2SlotSectors) * config.l2HitLatency;
    bounds.push_back({kConcurrencyBoundName, slotCycles / config.maxOutstandingSectors});
  }
  // Stable: on a tie the bound pushed first (the plainer one) names the bottleneck.
  std::stable_sort(bounds.begin(), bounds.end(), [](const Bound& a, const Bound& b) { return a.cycles > b.cycles; });
  return bounds;
}

void explainBound(const TimingConfig& config, TimingResult& result) {
  const auto bounds = simulatedBounds(config, result);
  const double simulated = std::max(1.0, result.simulatedCycles);
  const Bound& top = bounds.front();
  const double share = top.cycles / simulated;
  if (share > 1) {
    // Only the memory limits can: the DRAM share lends a burst after idle time, and C_mem admits a
    // request when half of it fits (MemorySystem).
    result.bound = top.name;
    result.boundExplanation = fmt::format(
        "{} at its nominal rate needs {:.0f} cycles, {:.0f} % of the {:.0f} simulated: it is saturated, and the model "
        "lets it run slightly above that rate (a burst after idle time, a request admitted when half of it fits)",
        top.name, top.cycles, 100 * share, simulated);
  } else if (share >= 0.8) {
    result.bound = top.name;
    result.boundExplanation = fmt::format(
        "{} alone needs {:.0f} of the {:.0f} simulated cycles ({:.0f} %)", top.name, top.cycles, simulated, 100 * share);
  } else {
    result.bound = "latency";
    result.boundExplanation = fmt::format(
        "no resource is saturated (the busiest, {}, needs {:.0f} % of the cycles): warps wait on latencies that "
        "too few warps or too little independent work cannot hide",
        top.name, 100 * share);
  }
  // The remedies for a contended counter: privatisation (Hwu, Kirk and El Hajj, Programming Massively
  // Parallel Processors, 4th ed., the histogram chapter) and warp aggregation.
  if (result.bound == kAtomicUnitBoundName)
    result.boundExplanation +=
        "; the L2 atomic unit that owns the busiest address performs every SM's operations on it one after another: "
        "privatise the counters (a copy per block in shared memory, merged at the end) or combine a warp's lanes "
        "before the atomic";
  // Lai §3.2.3.5: a DRAM share cut by partition skew is camping, not the bandwidth itself.
  if (result.bound == "DRAM bandwidth" && result.dramPartitionSkew > 1)
    result.boundExplanation += fmt::format(
        "; partition camping: the running blocks crowd some DRAM partitions, so the share is the bandwidth / {:.2f} "
        "(DRAM partition skew; what-if no-partition-camping removes it)",
        result.dramPartitionSkew);
}

}  // namespace teg::timing::detail
