// The numbers the analytical models take, read from a device of the database. The models
// themselves only take numbers; this is the one place that maps a Device onto them, so every
// figure comes from data/devices/ with its source.
#pragma once

#include "teg/device/device.hpp"
#include "teg/models/gpudiag.hpp"

namespace teg::models {

// GPUDIAG's state buffers from a device's residency limits: N1 = max blocks per SM (one
// barrier-buffer entry per resident block), N2 = max warps per SM, S = shared memory per SM
// (largest carve-out) with its allocation unit, one register file of registers per SM with the
// per-warp allocation unit. Throws teg::Error naming the missing figure; for cc 1.x (registers
// allocated per block) the per-warp unit is only an approximation, so it is refused.
StateBuffers stateBuffersOf(const device::Device& gpu);

// Cores per SM for the TMM model (P = SMs × cores per SM): the fp32 results per clock per SM
// of the CUDA guide's throughput table. Throws if the device lacks it.
double coresPerSmOf(const device::Device& gpu);

enum class Precision { Fp16, Fp32, Fp64 };
const char* precisionName(Precision p);

struct DevicePeak {
  double gflops = 0;        // SMs × FMA results/clock/SM × 2 × clock
  double bandwidthGBs = 0;  // theoretical DRAM bandwidth
  double clockMhz = 0;      // the clock the throughput is counted in
};

// The figures of a roofline (peak FMA rate and DRAM bandwidth). The clock is the shader clock
// on parts that have one (pre-Kepler: the throughput table counts per shader clock), else the
// boost clock. Throws teg::Error naming a missing figure.
DevicePeak peakOf(const device::Device& gpu, Precision precision);

}  // namespace teg::models
