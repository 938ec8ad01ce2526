#include "teg/analysis/achieved.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "teg/models/device_figures.hpp"
#include "teg/models/latency_hiding.hpp"
#include "teg/support/error.hpp"
#include "teg/timing/speed_of_light.hpp"

namespace teg::analysis {

TailEffect tailEffect(std::uint64_t gridBlocks, int sms, int blocksPerSm, double theoreticalOccupancy) {
  TailEffect t;
  t.gridBlocks = gridBlocks;
  t.sms = std::max(1, sms);
  t.blocksPerSm = std::max(1, blocksPerSm);
  t.theoreticalOccupancy = theoreticalOccupancy;
  t.blocksPerWave = static_cast<std::uint64_t>(t.sms) * static_cast<std::uint64_t>(t.blocksPerSm);
  if (gridBlocks == 0) return t;
  t.wavesPerSm = static_cast<double>(gridBlocks) / static_cast<double>(t.blocksPerWave);
  t.waves = (gridBlocks - 1) / t.blocksPerWave + 1;
  t.lastWaveBlocks = gridBlocks - (t.waves - 1) * t.blocksPerWave;
  // Round-robin: each SM gets a block of the wave before any gets a second.
  t.idleSmsInLastWave = static_cast<int>(static_cast<std::uint64_t>(t.sms) -
                                         std::min<std::uint64_t>(static_cast<std::uint64_t>(t.sms), t.lastWaveBlocks));
  t.lastWaveIdleFraction = 1 - static_cast<double>(t.lastWaveBlocks) / static_cast<double>(t.blocksPerWave);
  t.idleFraction = 1 - static_cast<double>(gridBlocks) / (static_cast<double>(t.waves) * static_cast<double>(t.blocksPerWave));
  t.achievedOccupancy = theoreticalOccupancy * (1 - t.idleFraction);
  return t;
}

namespace {

RooflinePlace rooflineOf(const device::Device& gpu, const FlopCount& flops, double dramBytesSm, double seconds,
                         int activeSms) {
  RooflinePlace r;
  models::Precision precision = models::Precision::Fp32;
  r.flopsSm = flops.fp32;
  if (flops.fp64 > r.flopsSm) {
    precision = models::Precision::Fp64;
    r.flopsSm = flops.fp64;
  }
  if (flops.fp16 > r.flopsSm) {
    precision = models::Precision::Fp16;
    r.flopsSm = flops.fp16;
  }
  r.precision = models::precisionName(precision);
  r.dramBytesSm = dramBytesSm;
  if (r.flopsSm <= 0) {
    r.note = "the simulated blocks do no floating-point add, multiply or fma";
    return r;
  }
  models::DevicePeak peak;
  try {
    peak = models::peakOf(gpu, precision);
  } catch (const Error& e) {
    r.note = e.what();
    return r;
  }
  r.available = true;
  r.peakGflopsGpu = peak.gflops;
  r.dramGBsGpu = peak.bandwidthGBs;
  r.ridge = peak.gflops / peak.bandwidthGBs;
  r.achievedGflopsGpu = seconds > 0 ? r.flopsSm * activeSms / seconds / 1e9 : 0;
  if (dramBytesSm <= 0) {
    r.noDramTraffic = true;
    r.attainableGflopsGpu = peak.gflops;
    r.binding = "compute";
    return r;
  }
  r.intensity = r.flopsSm / dramBytesSm;
  const models::Roofline roof = models::roofline(peak.gflops, peak.bandwidthGBs, r.intensity);
  r.attainableGflopsGpu = roof.attainable;
  r.binding = roof.memoryBound ? "memory" : "compute";
  return r;
}

}  // namespace

Achieved achievedFigures(const device::Device& gpu, const timing::TimingConfig& config,
                         const timing::TimingResult& result, const FlopCount& flops, std::uint64_t gridBlocks,
                         double theoreticalOccupancy) {
  Achieved a;
  a.sms = std::max(1, config.smCount);
  a.activeSms = static_cast<int>(std::min<std::uint64_t>(std::max<std::uint64_t>(gridBlocks, 1),
                                                         static_cast<std::uint64_t>(a.sms)));
  a.simulatedSeconds = config.clockMhz > 0 ? result.simulatedCycles / (config.clockMhz * 1e6) : 0;
  const double activeShare = static_cast<double>(a.activeSms) / a.sms;
  const timing::SpeedOfLight sol = timing::speedOfLight(config, result);
  for (const auto& u : sol.units) a.units.push_back({u.name, u.fractionOfPeak, u.fractionOfPeak * activeShare});
  const double bytesPerCycleToGBs = config.clockMhz * 1e6 / 1e9;
  for (const auto& m : sol.memory) {
    MemoryLevelRate l;
    l.level = m.level;
    l.what = m.what;
    l.peakOrigin = m.peakOrigin;
    l.hasPeak = m.peakBytesPerCycle > 0;
    l.bytesSm = m.bytes;
    l.achievedGBsSm = m.bytesPerCycle * bytesPerCycleToGBs;
    l.peakGBsSm = m.peakBytesPerCycle * bytesPerCycleToGBs;
    l.fractionOfPeakSm = m.fractionOfPeak;
    l.achievedGBsGpu = l.achievedGBsSm * a.activeSms;
    l.peakGBsGpu = l.peakGBsSm * a.sms;
    l.fractionOfPeakGpu = m.fractionOfPeak * activeShare;
    a.memory.push_back(std::move(l));
  }
  a.roofline = rooflineOf(gpu, flops, result.memory.dramBytes, a.simulatedSeconds, a.activeSms);
  a.tail = tailEffect(gridBlocks, a.sms, result.residentBlocks, theoreticalOccupancy);
  return a;
}

}  // namespace teg::analysis
