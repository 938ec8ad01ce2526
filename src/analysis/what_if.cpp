#include "teg/analysis/what_if.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "teg/support/error.hpp"

namespace teg::analysis {

namespace {

double parseNumber(const std::string& spec, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(v))
    throw Error(fmt::format("what-if '{}': '{}' is not a number", spec, text));
  return v;
}

}  // namespace

std::string whatIfHelp() {
  return "no-bank-conflicts, perfect-coalescing, no-divergence, no-partition-camping, l2-hit=R (0..1), "
         "dram-bw=xF or =GBPS, warps=N, "
         "latency.<class>=CYCLES, issue-interval=CYCLES, l1=off, fma-contraction=off";
}

void applyWhatIf(const std::string& spec, int warpsPerBlock, int residentBlocks, timing::TimingConfig& c) {
  const auto eq = spec.find('=');
  const std::string key = spec.substr(0, eq);
  const std::string value = eq == std::string::npos ? "" : spec.substr(eq + 1);
  auto needValue = [&] {
    if (value.empty()) throw Error(fmt::format("what-if '{}' needs a value ({})", spec, whatIfHelp()));
  };
  if (key == "no-bank-conflicts" && value.empty()) {
    c.noBankConflicts = true;
  } else if (key == "perfect-coalescing" && value.empty()) {
    c.perfectCoalescing = true;
  } else if (key == "no-divergence" && value.empty()) {
    c.noDivergence = true;
  } else if (key == "no-partition-camping" && value.empty()) {
    if (c.dramPartitions <= 1)
      throw Error(fmt::format("what-if '{}': {} has no DRAM partition figures (memory.dram_partitions), so no "
                              "partition skew is modelled to remove",
                              spec, c.deviceName));
    c.dramPartitions = 1;  // one pipe: the traffic spread evenly over the channels (Lai §3.2.3.5)
    c.dramPartitionBytes = 0;
  } else if (key == "l2-hit") {
    needValue();
    const double r = parseNumber(spec, value);
    if (r < 0 || r > 1) throw Error(fmt::format("what-if '{}': the hit rate must be between 0 and 1", spec));
    c.forcedL2HitRate = r;
  } else if (key == "dram-bw") {
    needValue();
    const bool factor = value[0] == 'x' || value[0] == 'X';
    const double v = parseNumber(spec, factor ? value.substr(1) : value);
    if (v <= 0) throw Error(fmt::format("what-if '{}': the bandwidth must be positive", spec));
    const double before = c.dramBytesPerCycle;
    c.dramBytesPerCycle = factor ? c.dramBytesPerCycle * v : v * 1e9 / (c.smCount * c.clockMhz * 1e6);
    // The turnaround keeps its share of the peak: a faster DRAM of the same kind.
    if (before > 0) c.dramMixedBytesPerCycle *= c.dramBytesPerCycle / before;
    c.maxOutstandingSectors = static_cast<int>(std::ceil(c.dramBytesPerCycle * c.dramLatency / c.sectorBytes));
  } else if (key == "warps") {
    needValue();
    const double w = parseNumber(spec, value);
    if (w < 1 || w != std::floor(w)) throw Error(fmt::format("what-if '{}': warps must be a positive integer", spec));
    const int blocks = static_cast<int>(w) / std::max(1, warpsPerBlock);
    if (blocks < 1)
      throw Error(fmt::format("what-if '{}': a block of this kernel has {} warps; at least that many must fit", spec,
                              warpsPerBlock));
    // The switch lowers residency; above what occupancy allows it would change nothing, and a
    // user asking for it expects more warps, not the same prediction under another name.
    if (residentBlocks > 0 && blocks > residentBlocks)
      throw Error(fmt::format("what-if '{}': an SM holds at most {} warps of this kernel ({} blocks of {} warps, the "
                              "occupancy limit); warps=N can only lower that",
                              spec, residentBlocks * warpsPerBlock, residentBlocks, warpsPerBlock));
    c.maxResidentBlocks = blocks;
  } else if (key.rfind("latency.", 0) == 0) {
    needValue();
    const auto cls = device::instructionClassFromName(key.substr(8));
    if (!cls) throw Error(fmt::format("what-if '{}': unknown instruction class '{}'", spec, key.substr(8)));
    const double v = parseNumber(spec, value);
    if (v <= 0) throw Error(fmt::format("what-if '{}': the latency must be positive", spec));
    c.executionLatency[static_cast<std::size_t>(*cls)] = v;
  } else if (key == "issue-interval") {
    needValue();
    const double v = parseNumber(spec, value);
    if (v <= 0) throw Error(fmt::format("what-if '{}': the interval must be positive", spec));
    c.issueIntervalCycles = v;
  } else if (key == "fma-contraction" && value == "off") {
    c.fuseMultiplyAdds = false;  // every PTX mul and add issues on its own, as with nvcc -fmad=false
  } else if (key == "l1" && value == "off") {
    c.l1CachesGlobalLoads = false;
    c.l1Bytes = 0;  // not even loads that ask for L1 (.ca, .nc) find one
  } else {
    throw Error(fmt::format("unknown what-if '{}' (expected one of: {})", spec, whatIfHelp()));
  }
}

}  // namespace teg::analysis
