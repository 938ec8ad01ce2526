// The figures a Nsight Compute user reads first, derived from a timing prediction: achieved
// bandwidth per memory level and the % of peak ("speed of light") of each unit and level, the
// kernel's place on the roofline, and the occupancy the launch achieves once its last, partial
// wave is counted (the tail). Every peak comes from the device database (through TimingConfig or
// models::peakOf), never from a literal.
//
// Scope: a field ending in `Sm` counts the simulated SM (its sampled blocks: the engine's
// simulated part); one ending in `Gpu` counts the whole GPU, where the SMs that run blocks each
// move what the simulated SM moves (blocks go round-robin, every SM gets an equal share) and the
// peaks are the GPU's. The JSON view keeps the suffixes (`_sm`, `_gpu`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "teg/analysis/flop_counter.hpp"
#include "teg/device/device.hpp"
#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"

namespace teg::analysis {

struct UnitRate {
  std::string name;             // "issue", "fp32_fma unit"
  double fractionOfPeakSm = 0;  // the simulated SM's busy share of the unit's peak
  double fractionOfPeakGpu = 0; // over every SM of the GPU (idle SMs count as idle)
};

struct MemoryLevelRate {
  std::string level;  // "L1", "shared", "L2", "DRAM"
  std::string what;   // what the bytes count
  std::string peakOrigin;
  double bytesSm = 0;
  double achievedGBsSm = 0, peakGBsSm = 0, fractionOfPeakSm = 0;
  double achievedGBsGpu = 0, peakGBsGpu = 0, fractionOfPeakGpu = 0;
  bool hasPeak = false;  // false: the device gives no figure for this level's bandwidth
};

struct RooflinePlace {
  bool available = false;   // false: no FLOPs counted, or no peak figure (see note)
  std::string precision;    // "fp32" (the precision with the most FLOPs)
  std::string note;
  double flopsSm = 0;       // FLOPs of the simulated blocks in that precision
  double dramBytesSm = 0;
  bool noDramTraffic = false;  // intensity is unbounded: the compute roof binds
  double intensity = 0;     // FLOP per DRAM byte
  double ridge = 0;         // peak / bandwidth: where the roofs meet
  double peakGflopsGpu = 0, dramGBsGpu = 0;
  double attainableGflopsGpu = 0;  // min(peak, intensity x bandwidth)
  double achievedGflopsGpu = 0;
  std::string binding;      // "memory" (DRAM bandwidth roof) or "compute"
};

// The last wave (Nsight Compute's "waves per SM" and tail effect). Blocks go round-robin to the
// SMs, each SM holds `blocksPerSm` at once; waves are taken as equally long.
struct TailEffect {
  std::uint64_t gridBlocks = 0;
  int sms = 0;
  int blocksPerSm = 0;
  std::uint64_t blocksPerWave = 0;     // sms x blocksPerSm
  double wavesPerSm = 0;               // gridBlocks / blocksPerWave
  std::uint64_t waves = 0;             // rounded up
  std::uint64_t lastWaveBlocks = 0;    // blocks of the last wave (a full wave when it divides)
  int idleSmsInLastWave = 0;           // SMs without a block in the last wave
  double lastWaveIdleFraction = 0;     // block slots idle in the last wave
  double idleFraction = 0;             // SM block-slot time idle over the whole launch
  double theoreticalOccupancy = 0;     // resident warps / max warps per SM (occupancy calculator)
  double achievedOccupancy = 0;        // theoretical x (1 - idleFraction): the tail counted
};

TailEffect tailEffect(std::uint64_t gridBlocks, int sms, int blocksPerSm, double theoreticalOccupancy);

struct Achieved {
  int sms = 0;                 // SMs of the GPU
  int activeSms = 0;           // SMs that run blocks: min(grid blocks, SMs)
  double simulatedSeconds = 0; // the simulated part's time (simulated cycles / clock)
  std::vector<UnitRate> units;
  std::vector<MemoryLevelRate> memory;
  RooflinePlace roofline;
  TailEffect tail;
};

// `config` is the configuration the prediction was simulated with (the engine's base config).
Achieved achievedFigures(const device::Device& gpu, const timing::TimingConfig& config,
                         const timing::TimingResult& result, const FlopCount& flops, std::uint64_t gridBlocks,
                         double theoreticalOccupancy);

}  // namespace teg::analysis
