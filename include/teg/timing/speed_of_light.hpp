// "Speed of light" (Nsight Compute's SOL section): how close the simulated SM came to the peak
// rate of each unit and memory level. A row's fraction is the cycles the simulated work needs at
// the level's nominal peak rate over the simulated cycles; the peaks are the TimingConfig's (each
// derived from a device figure, see timingConfigFor), so a row at 1.0 is a saturated resource and
// the largest row is the bound the report names. Everything here counts ONE SM: the simulated
// SM's sampled blocks (analysis/achieved.hpp scales it to the GPU).
#pragma once

#include <string>
#include <vector>

#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"

namespace teg::timing {

struct UnitThroughput {
  std::string name;           // "issue", "fp32_fma unit", ...
  double busyCycles = 0;      // cycles the work needs at the unit's peak rate
  double fractionOfPeak = 0;  // busyCycles / simulated cycles
};

struct MemoryThroughput {
  std::string level;               // "L1", "shared", "L2", "DRAM"
  double bytes = 0;                // moved by the simulated blocks
  double bytesPerCycle = 0;        // achieved: bytes / simulated cycles
  double peakBytesPerCycle = 0;    // the SM's peak (share); 0 = the device gives no figure
  double fractionOfPeak = 0;       // bytesPerCycle / peakBytesPerCycle (0 without a peak)
  std::string what;                // what the bytes count
  std::string peakOrigin;          // the device figures the peak derives from
};

struct SpeedOfLight {
  std::vector<UnitThroughput> units;     // largest first
  std::vector<MemoryThroughput> memory;  // L1, shared, L2, DRAM (levels the device describes)
};

// `config` is the configuration the result was simulated with, before the engine divides the
// DRAM share by a partition skew: the peaks are nominal.
SpeedOfLight speedOfLight(const TimingConfig& config, const TimingResult& result);

}  // namespace teg::timing
