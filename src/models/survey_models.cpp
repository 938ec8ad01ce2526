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

MwpCwpExtended mwpCwpExtended(const MwpCwpExtendedInput& in) {
  requirePositive("extended MWP-CWP: #insts", in.insts);
  requirePositive("extended MWP-CWP: #total_warps", in.totalWarps);
  requirePositive("extended MWP-CWP: #active_SMs", in.activeSms);
  requirePositive("extended MWP-CWP: N (warps)", in.warps);
  requirePositive("extended MWP-CWP: avg_inst_lat", in.avgInstLatency);
  requirePositive("extended MWP-CWP: ILP", in.ilp);
  requirePositive("extended MWP-CWP: MLP", in.mlp);
  requirePositive("extended MWP-CWP: warp size", in.warpSize);
  requirePositive("extended MWP-CWP: SIMD width", in.simdWidth);
  requirePositive("extended MWP-CWP: MWP", in.mwp);
  requirePositive("extended MWP-CWP: MWP_peak_bw", in.mwpPeakBw);
  if (!(in.memInsts >= 0)) throw Error("extended MWP-CWP: #mem_insts must be >= 0");
  if (!(in.missRatio >= 0 && in.missRatio <= 1)) throw Error("extended MWP-CWP: the miss ratio must be in [0, 1]");
  if (!(in.dramLatency >= 0 && in.hitLatency >= 0)) throw Error("extended MWP-CWP: latencies must be >= 0");
  for (const double o : {in.oSync, in.oSfu, in.oCfDiv, in.oBank})
    if (!(o >= 0)) throw Error("extended MWP-CWP: the overheads must be >= 0");
  MwpCwpExtended r;
  const double warpsPerSm = in.totalWarps / in.activeSms;
  r.itilp = std::min(in.ilp * in.warps, in.avgInstLatency / (in.warpSize / in.simdWidth));  // eqs. 4, 5
  r.wParallel = in.insts * warpsPerSm * in.avgInstLatency / r.itilp;                        // eq. 3
  r.wSerial = in.oSync + in.oSfu + in.oCfDiv + in.oBank;                                     // eq. 6
  r.tComp = r.wParallel + r.wSerial;                                                         // eq. 2
  r.amat = in.dramLatency * in.missRatio + in.hitLatency;                                    // eq. 12
  const double memCycles = in.memInsts * r.amat / in.mlp;                                    // A.4
  const double compCycles = in.insts * in.avgInstLatency / r.itilp;                          // A.3
  r.cwp = std::min((memCycles + compCycles) / compCycles, in.warps);                         // A.1, A.2
  r.mwpCp = std::min(std::max(1.0, r.cwp - 1), in.mwp);                                      // eq. 15
  r.itmlp = std::min(in.mlp * r.mwpCp, in.mwpPeakBw);                                        // eq. 14
  r.tMem = in.memInsts * warpsPerSm / r.itmlp * r.amat;                                      // eq. 11
  r.fOverlap = (in.warps - (r.cwp <= in.mwp ? 1.0 : 0.0)) / in.warps;                        // eq. 17
  r.tOverlap = std::min(r.tComp * r.fOverlap, r.tMem);                                       // eq. 16
  r.tExec = r.tComp + r.tMem - r.tOverlap;                                                   // eq. 1
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
