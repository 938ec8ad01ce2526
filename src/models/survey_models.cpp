// MWP-CWP (seed 000 eqs. 1.1-1.2) and Ryoo's metrics (eqs. 1.5-1.6) with the Pareto subset.
#include "teg/models/survey_models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "teg/support/error.hpp"

namespace teg::models {

namespace {

void requirePositive(const char* what, double v) {
  if (!(v > 0) || !std::isfinite(v)) throw Error(fmt::format("{} must be > 0", what));
}

}  // namespace

MwpCwp mwpCwp(const MwpCwpInput& in) {
  requirePositive("MWP-CWP: Comp_cycles", in.compCycles);
  requirePositive("MWP-CWP: #Mem_insts", in.memInsts);
  requirePositive("MWP-CWP: Mem_L", in.memLatency);
  requirePositive("MWP-CWP: N (warps)", in.warps);
  requirePositive("MWP-CWP: MWP", in.mwp);
  if (!(in.memCycles >= 0)) throw Error("MWP-CWP: Mem_cycles must be >= 0");
  if (in.mwp > in.warps) throw Error(fmt::format("MWP-CWP: MWP {} exceeds the {} warps", in.mwp, in.warps));
  MwpCwp r;
  r.cwp = std::min((in.memCycles + in.compCycles) / in.compCycles, in.warps);
  r.compPeriod = in.compCycles / in.memInsts;
  r.memoryBound = r.cwp >= in.mwp;
  r.cycles = r.memoryBound ? in.memCycles * in.warps / in.mwp + r.compPeriod * in.mwp  // eq. 1.1
                           : in.memLatency + in.compCycles * in.warps;                // eq. 1.2
  return r;
}

RyooMetrics ryooMetrics(const RyooConfig& c) {
  requirePositive("Ryoo: Instr", c.instructions);
  requirePositive("Ryoo: Threads", c.threads);
  requirePositive("Ryoo: Regions", c.regions);
  requirePositive("Ryoo: W_TB", c.warpsPerBlock);
  requirePositive("Ryoo: B_SM", c.blocksPerSm);
  RyooMetrics m;
  m.efficiency = 1.0 / (c.instructions * c.threads);                                       // eq. 1.5
  m.utilization = c.instructions / c.regions *
                  ((c.warpsPerBlock - 1) / 2 + (c.blocksPerSm - 1) * c.warpsPerBlock);  // eq. 1.6
  return m;
}

std::vector<RyooMetrics> ryooPareto(const std::vector<RyooConfig>& configs) {
  std::vector<RyooMetrics> out;
  for (const auto& c : configs) out.push_back(ryooMetrics(c));
  for (std::size_t i = 0; i < out.size(); ++i) {
    bool dominated = false;
    for (std::size_t j = 0; j < out.size() && !dominated; ++j)
      dominated = j != i && out[j].efficiency >= out[i].efficiency && out[j].utilization >= out[i].utilization &&
                  (out[j].efficiency > out[i].efficiency || out[j].utilization > out[i].utilization);
    out[i].pareto = !dominated;
  }
  return out;
}

}  // namespace teg::models
