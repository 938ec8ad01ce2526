#include "teg/models/device_figures.hpp"

#include <fmt/format.h>

#include "teg/models/latency_hiding.hpp"
#include "teg/support/error.hpp"

namespace teg::models {

namespace {

template <typename T>
T require(T value, const device::Device& gpu, const char* key) {
  if (!(value > 0))
    throw Error(fmt::format("device '{}' has no figure '{}' (needed by this model)", gpu.id, key));
  return value;
}

}  // namespace

StateBuffers stateBuffersOf(const device::Device& gpu) {
  if (gpu.limits.registerAllocationGranularity == device::RegisterGranularity::Block)
    throw Error(fmt::format("device '{}' allocates registers per block (cc {}); GPUDIAG's "
                            "per-warp register model does not apply — give the buffers explicitly",
                            gpu.id, gpu.cc.str()));
  StateBuffers b;
  b.barrierSlots = require(gpu.limits.maxBlocksPerSm, gpu, "max_blocks_per_sm");
  b.warpSlots = require(gpu.limits.maxWarpsPerSm, gpu, "max_warps_per_sm");
  b.sharedMemory = require(gpu.limits.sharedMemoryPerSm, gpu, "shared_memory_per_sm");
  b.sharedMemoryGranularity =
      require(gpu.limits.sharedMemoryAllocationUnit, gpu, "shared_memory_allocation_unit");
  b.registerFiles.push_back(
      {require(gpu.limits.registersPerSm, gpu, "registers_per_sm"),
       require(gpu.limits.registerAllocationUnit, gpu, "register_allocation_unit")});
  return b;
}

double coresPerSmOf(const device::Device& gpu) {
  return require(gpu.throughputOf(device::InstructionClass::Fp32Fma), gpu, "throughput.fp32_fma");
}

const char* precisionName(Precision p) {
  switch (p) {
    case Precision::Fp16: return "fp16";
    case Precision::Fp32: return "fp32";
    case Precision::Fp64: return "fp64";
  }
  return "?";
}

DevicePeak peakOf(const device::Device& gpu, Precision precision) {
  device::InstructionClass cls = device::InstructionClass::Fp32Fma;
  switch (precision) {
    case Precision::Fp16: cls = device::InstructionClass::Fp16Fma; break;
    case Precision::Fp32: cls = device::InstructionClass::Fp32Fma; break;
    case Precision::Fp64: cls = device::InstructionClass::Fp64Fma; break;
  }
  const std::string key = std::string("throughput.") + device::instructionClassName(cls);
  const double perClock = require(gpu.throughputOf(cls), gpu, key.c_str());
  DevicePeak p;
  p.clockMhz = gpu.clocks.shaderMhz > 0 ? gpu.clocks.shaderMhz
                                        : require(gpu.clocks.coreMhz, gpu, "clocks.core_mhz");
  const int sms = require(gpu.smCount, gpu, "sm_count");
  p.gflops = peakGflops(sms, perClock, 2.0 /* an FMA is two flops */, p.clockMhz);
  p.bandwidthGBs = require(gpu.memory.dramBandwidthGBs, gpu, "memory.dram_bandwidth_gbs");
  return p;
}

}  // namespace teg::models
