#include "teg/analysis/baseline_models.hpp"

#include <algorithm>
#include <cmath>

#include "teg/analysis/bounds.hpp"
#include "teg/models/survey_models.hpp"

namespace teg::analysis {

std::vector<std::pair<std::string, double>> baselineModelCycles(const Prediction& p) {
  std::vector<std::pair<std::string, double>> out;
  const BoundReport b = boundsOf(p);
  double fp = 0, dram = 0, dataFlow = 0;
  for (const auto& r : b.bounds) {
    if (r.resource == "fp32_fma unit" || r.resource == "fp64_fma unit" || r.resource == "fp16_fma unit")
      fp = std::max(fp, r.cycles);
    if (r.resource == "DRAM bandwidth") dram = r.cycles;
    if (r.resource != "latency") dataFlow = std::max(dataFlow, r.cycles);
  }
  out.emplace_back("roofline", std::max(fp, dram));
  out.emplace_back("data-flow", dataFlow);

  const timing::TimingResult& r = p.result;
  const timing::TimingConfig& c = p.config;
  const double warpsPerBlock = p.kernel.warpsPerBlock();
  const double warps = static_cast<double>(r.blocksSimulated) * warpsPerBlock;
  if (warps > 0 && r.residentBlocks > 0 && r.warpInstructions > 0) {
    const auto& m = r.memory;
    const double memInsts = static_cast<double>(m.globalLoads + m.globalStores + m.atomics) / warps;
    const double compCycles = static_cast<double>(r.warpInstructions) / warps * c.issueIntervalCycles;
    const double n = static_cast<double>(r.residentBlocks) * warpsPerBlock;
    const double rounds = static_cast<double>(r.blocksOnSm) / r.residentBlocks;
    double exec = compCycles * n;  // no memory: the warps' computation, one after the other
    if (memInsts > 0 && c.dramLatency > 0) {
      const double requestBytes = static_cast<double>(m.sectorsRequested) * c.sectorBytes /
                                  static_cast<double>(m.globalLoads + m.globalStores + m.atomics);
      const double departure = c.dramBytesPerCycle > 0 ? requestBytes / c.dramBytesPerCycle : 0;
      const double mwp = std::clamp(departure > 0 ? c.dramLatency / departure : n, 1.0, n);
      exec = models::mwpCwp({c.dramLatency * memInsts, compCycles, memInsts, c.dramLatency, n, mwp}).cycles;
    }
    out.emplace_back("mwp-cwp", exec * rounds);
  }
  return out;
}

}  // namespace teg::analysis
