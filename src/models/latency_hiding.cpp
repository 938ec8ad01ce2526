// Little's law warps and the roofline bound.
#include "teg/models/latency_hiding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "teg/support/error.hpp"

namespace teg::models {

namespace {

void requirePositive(double v, const char* what) {
  if (!std::isfinite(v) || !(v > 0))
    throw Error(fmt::format("{} must be a finite number > 0 (got {})", what, v));
}

}  // namespace

LatencyHiding warpsToHideLatency(double latency, double issueInterval) {
  requirePositive(latency, "latency");
  requirePositive(issueInterval, "issue interval");
  const double ratio = latency / issueInterval;
  if (ratio > 1e9) throw Error("latency / issue interval is out of range");
  return {latency, issueInterval, static_cast<int>(std::ceil(ratio))};
}

RoundTime roundTime(int warps, double latency, double issueInterval) {
  if (warps < 1) throw Error(fmt::format("warps must be >= 1 (got {})", warps));
  requirePositive(latency, "latency");
  requirePositive(issueInterval, "issue interval");
  RoundTime r;
  r.warps = warps;
  const double issuing = warps * issueInterval;
  r.cycles = std::max(latency, issuing);
  r.cyclesPerWarp = r.cycles / warps;
  r.utilization = issuing / r.cycles;
  r.latencyBound = latency > issuing;
  return r;
}

Roofline roofline(double peak, double bandwidth, double intensity) {
  requirePositive(peak, "peak");
  requirePositive(bandwidth, "bandwidth");
  if (!std::isfinite(intensity) || intensity < 0)
    throw Error(fmt::format("arithmetic intensity must be >= 0 (got {})", intensity));
  Roofline r;
  r.peak = peak;
  r.bandwidth = bandwidth;
  r.intensity = intensity;
  r.attainable = std::min(peak, intensity * bandwidth);
  r.ridge = peak / bandwidth;
  r.memoryBound = intensity < r.ridge;
  return r;
}

double peakGflops(int smCount, double resultsPerClockPerSm, double flopsPerResult, double clockMhz) {
  if (smCount < 1) throw Error("SM count must be >= 1");
  requirePositive(resultsPerClockPerSm, "results per clock per SM");
  requirePositive(flopsPerResult, "flops per result");
  requirePositive(clockMhz, "clock");
  return smCount * resultsPerClockPerSm * flopsPerResult * clockMhz / 1000.0;
}

}  // namespace teg::models
