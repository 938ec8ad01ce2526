// The limit checker (GPUDIAG eq. 3.1) and the residency N_slot (GPUDIAG eq. 3.3, Ma et al. eq. 4)
// with the CUDA Occupancy Calculator's allocation rules. Every limit comes from the device data;
// the only constants here are rules of the allocators, each cited where it is used.
#include "teg/occupancy/occupancy.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "teg/support/error.hpp"

namespace teg::occupancy {

namespace {

using device::Device;
using device::RegisterGranularity;

long long divideRoundUp(long long x, long long y) { return (x + y - 1) / y; }
long long roundUp(long long x, long long y) { return y * divideRoundUp(x, y); }

int clampToInt(long long v) { return v > kUnlimited ? kUnlimited : static_cast<int>(v); }

// cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor): a launch that cannot run on the
// 4-partition GP10x SM is refused on every Pascal part, GP100 (2 partitions) included, "for
// forward compatibility within the Pascal family".
constexpr int kPascalFamilyMajor = 6;
constexpr long long kPascalGp10xRegisterPartitions = 4;

// The smallest carve-out (bytes per SM) that holds `bytes`, or -1 when none does. A device whose
// data lists no carve-outs has one: its shared_memory_per_sm.
long long alignUpToCarveout(long long bytes, const device::Limits& limits) {
  if (limits.sharedMemoryCarveouts.empty())
    return bytes <= limits.sharedMemoryPerSm ? limits.sharedMemoryPerSm : -1;
  for (int c : limits.sharedMemoryCarveouts)
    if (c >= bytes) return c;
  return -1;
}

long long maxWarpsPerSm(const device::Limits& l) {
  return l.maxWarpsPerSm > 0 ? l.maxWarpsPerSm : l.maxThreadsPerSm / l.warpSize;
}

long long sharedMemoryPerBlockLimit(const device::Limits& l) {
  return std::max(l.sharedMemoryPerBlock, l.sharedMemoryPerBlockOptin);
}

// Registers a block is given and the blocks per SM they allow; sets `violation` if a block's
// registers exceed the per-block limit.
void applyRegisters(const Device& d, const Launch& launch, long long warpsPerBlock,
                    Occupancy& out) {
  const auto& l = d.limits;
  const long long regs = launch.registersPerThread;
  if (l.registerAllocationGranularity == RegisterGranularity::Block) {
    // cc 1.x: one allocation per block, for the warps rounded to the warp allocation granularity
    // (2), rounded to the allocation unit (Occupancy Calculator, cc 1.x).
    const long long warps = roundUp(warpsPerBlock, std::max(1, l.warpAllocationGranularity));
    const long long perBlock = roundUp(warps * l.warpSize * regs, l.registerAllocationUnit);
    out.registersPerBlock = perBlock;
    if (perBlock > l.maxRegistersPerBlock) {
      out.violation = Violation::RegistersPerBlock;
      return;
    }
    out.blockLimit[static_cast<int>(Resource::Registers)] =
        perBlock > 0 ? clampToInt(l.registersPerSm / perBlock) : kUnlimited;
    return;
  }
  // cc >= 2.0: per warp, rounded to the allocation unit, out of a register file split evenly
  // into sub-partitions (4 from Kepler on, 2 on GP100; cudaOccMaxBlocksPerSMRegsLimit).
  const long long perWarp = roundUp(regs * l.warpSize, l.registerAllocationUnit);
  const long long partitions = std::max(1, d.issue.subPartitions);
  out.registersPerBlock = perWarp * warpsPerBlock;
  // The hardware's per-block check assumes a warp's registers are taken in every partition, so
  // it rounds the warps up to the partitions (cuda_occupancy.h, "hardware check").
  long long checkPartitions = partitions;
  if (d.cc.major == kPascalFamilyMajor)
    checkPartitions = std::max(checkPartitions, kPascalGp10xRegisterPartitions);
  if (out.registersPerBlock > l.maxRegistersPerBlock ||
      perWarp * roundUp(warpsPerBlock, checkPartitions) > l.maxRegistersPerBlock) {
    out.violation = Violation::RegistersPerBlock;
    return;
  }
  if (perWarp == 0) return;  // no registers: unlimited
  const long long warpsPerPartition = (l.registersPerSm / partitions) / perWarp;
  out.blockLimit[static_cast<int>(Resource::Registers)] =
      clampToInt(warpsPerPartition * partitions / warpsPerBlock);
}

void applySharedMemory(const Device& d, const Launch& launch, Occupancy& out) {
  const auto& l = d.limits;
  if (launch.staticSharedBytes > l.sharedMemoryPerBlock) {
    out.violation = Violation::StaticSharedMemoryPerBlock;
    return;
  }
  const long long limit = sharedMemoryPerBlockLimit(l);
  if (launch.dynamicSharedBytes > limit) {  // also keeps the sum below from overflowing
    out.violation = Violation::SharedMemoryPerBlock;
    return;
  }
  // Since cc 8.0 the driver reserves shared memory per block and adds it to the per-block limit
  // (Programming Guide, "Technical Specifications": 1 KB reserved; 0 before 8.0 in the data).
  const long long total =
      launch.staticSharedBytes + launch.dynamicSharedBytes + l.reservedSharedMemoryPerBlock;
  const long long allocated = roundUp(total, l.sharedMemoryAllocationUnit);
  out.sharedMemoryPerBlock = allocated;
  if (allocated > limit + l.reservedSharedMemoryPerBlock) {
    out.violation = Violation::SharedMemoryPerBlock;
    return;
  }
  // The carve-out: the preferred one (a percent of the largest, rounded up to a configuration the
  // SM has), or, when one block would not fit it, the smallest that holds a block
  // (cudaOccSMemPreferenceVoltaPlus / cudaOccMaxBlocksPerSMSmemLimit).
  long long preferred = l.sharedMemoryPerSm;
  if (launch.carveoutPercent >= 0)
    preferred = alignUpToCarveout(launch.carveoutPercent * static_cast<long long>(l.sharedMemoryPerSm) / 100, l);
  long long perSm = preferred;
  if (preferred < allocated) {
    perSm = alignUpToCarveout(allocated, l);
    if (perSm < 0) perSm = l.sharedMemoryPerSm;
  }
  out.sharedMemoryPerSm = perSm;
  out.blockLimit[static_cast<int>(Resource::SharedMemory)] =
      allocated > 0 ? clampToInt(perSm / allocated) : kUnlimited;
}

bool deviceComplete(const device::Limits& l) {
  return l.warpSize > 0 && l.maxThreadsPerBlock > 0 && (l.maxWarpsPerSm > 0 || l.maxThreadsPerSm > 0) &&
         l.maxBlocksPerSm > 0 && l.registersPerSm > 0 && l.maxRegistersPerBlock > 0 &&
         l.maxRegistersPerThread > 0 && l.registerAllocationUnit > 0 && l.sharedMemoryPerSm > 0 &&
         l.sharedMemoryPerBlock > 0 && l.sharedMemoryAllocationUnit > 0;
}

}  // namespace

const char* resourceName(Resource r) {
  switch (r) {
    case Resource::Warps: return "warps";
    case Resource::Registers: return "registers";
    case Resource::SharedMemory: return "shared_memory";
    case Resource::Blocks: return "blocks";
    case Resource::Barriers: return "barriers";
  }
  return "?";
}

const char* resourceLabel(Resource r) {
  switch (r) {
    case Resource::Warps: return "warps per SM";
    case Resource::Registers: return "registers";
    case Resource::SharedMemory: return "shared memory";
    case Resource::Blocks: return "blocks per SM";
    case Resource::Barriers: return "barriers";
  }
  return "?";
}

Occupancy computeOccupancy(const Device& d, const Launch& launch) noexcept {
  Occupancy out;
  const auto& l = d.limits;
  if (!deviceComplete(l)) {
    out.violation = Violation::DeviceIncomplete;
    return out;
  }
  out.maxWarpsPerSm = static_cast<int>(maxWarpsPerSm(l));
  // GPUDIAG eq. 3.1: the per-block limits, checked before anything is allocated.
  if (launch.threadsPerBlock < 1) { out.violation = Violation::ThreadsNotPositive; return out; }
  if (launch.threadsPerBlock > l.maxThreadsPerBlock) { out.violation = Violation::ThreadsPerBlock; return out; }
  if (launch.registersPerThread < 0) { out.violation = Violation::RegistersNegative; return out; }
  if (launch.registersPerThread > l.maxRegistersPerThread) { out.violation = Violation::RegistersPerThread; return out; }
  if (launch.staticSharedBytes < 0 || launch.dynamicSharedBytes < 0) {
    out.violation = Violation::SharedMemoryNegative;
    return out;
  }
  if (launch.carveoutPercent < -1 || launch.carveoutPercent > 100) {
    out.violation = Violation::CarveoutPercent;
    return out;
  }
  if (launch.barriersPerBlock < 0 || (l.barriersPerSm > 0 && launch.barriersPerBlock > l.barriersPerSm)) {
    out.violation = Violation::BarriersPerBlock;
    return out;
  }

  const long long warpsPerBlock = divideRoundUp(launch.threadsPerBlock, l.warpSize);
  out.warpsPerBlock = static_cast<int>(warpsPerBlock);

  applyRegisters(d, launch, warpsPerBlock, out);
  if (!out.ok()) return out;
  applySharedMemory(d, launch, out);
  if (!out.ok()) return out;

  out.blockLimit[static_cast<int>(Resource::Warps)] = clampToInt(out.maxWarpsPerSm / warpsPerBlock);
  out.blockLimit[static_cast<int>(Resource::Blocks)] = l.maxBlocksPerSm;
  if (l.barriersPerSm > 0 && launch.barriersPerBlock > 0)
    out.blockLimit[static_cast<int>(Resource::Barriers)] = l.barriersPerSm / launch.barriersPerBlock;

  int blocks = kUnlimited;
  for (int v : out.blockLimit) blocks = std::min(blocks, v);
  if (blocks == 0) {
    out.violation = Violation::DoesNotFit;
    for (Resource r : kAllResources)
      if (out.limit(r) == 0) out.limiters |= 1u << static_cast<unsigned>(r);
    return out;
  }
  for (Resource r : kAllResources)
    if (out.limit(r) == blocks) out.limiters |= 1u << static_cast<unsigned>(r);

  out.blocksPerSm = blocks;
  out.warpsPerSm = static_cast<int>(blocks * warpsPerBlock);
  out.threadsPerSm = static_cast<int>(blocks * launch.threadsPerBlock);
  out.occupancy = static_cast<double>(out.warpsPerSm) / out.maxWarpsPerSm;
  return out;
}

std::string violationMessage(const Device& d, const Launch& launch, const Occupancy& result) {
  const auto& l = d.limits;
  const std::string gpu = d.generic ? d.cc.smName() : fmt::format("{} (sm_{})", d.name, d.cc.code());
  switch (result.violation) {
    case Violation::None:
      return "";
    case Violation::ThreadsNotPositive:
      return fmt::format("threads per block must be at least 1 (got {})", launch.threadsPerBlock);
    case Violation::ThreadsPerBlock:
      return fmt::format("threads per block {} > {}, the maximum of {}", launch.threadsPerBlock,
                         l.maxThreadsPerBlock, gpu);
    case Violation::RegistersNegative:
      return fmt::format("registers per thread must not be negative (got {})", launch.registersPerThread);
    case Violation::RegistersPerThread:
      return fmt::format("registers per thread {} > {}, the maximum of {}", launch.registersPerThread,
                         l.maxRegistersPerThread, gpu);
    case Violation::RegistersPerBlock:
      return fmt::format(
          "registers per block: {} threads x {} registers need {} registers as allocated, more than "
          "the {} a block may have on {}",
          launch.threadsPerBlock, launch.registersPerThread, result.registersPerBlock,
          l.maxRegistersPerBlock, gpu);
    case Violation::SharedMemoryNegative:
      return "shared memory per block must not be negative";
    case Violation::StaticSharedMemoryPerBlock:
      return fmt::format(
          "static shared memory {} B > {} B, the static per-block limit of {} (only dynamic shared "
          "memory can opt in to more)",
          launch.staticSharedBytes, l.sharedMemoryPerBlock, gpu);
    case Violation::SharedMemoryPerBlock: {
      const long long total = launch.staticSharedBytes + launch.dynamicSharedBytes;
      const long long optin = sharedMemoryPerBlockLimit(l);
      if (optin > l.sharedMemoryPerBlock)
        return fmt::format(
            "shared memory per block {} B > {} B, the opt-in per-block limit of {} (the default "
            "limit is {} B; more needs cudaFuncSetAttribute(..., "
            "cudaFuncAttributeMaxDynamicSharedMemorySize, ...))",
            total, optin, gpu, l.sharedMemoryPerBlock);
      return fmt::format("shared memory per block {} B > {} B, the per-block limit of {}", total,
                         l.sharedMemoryPerBlock, gpu);
    }
    case Violation::CarveoutPercent:
      return fmt::format("carve-out must be a percent 0..100 (got {})", launch.carveoutPercent);
    case Violation::BarriersPerBlock:
      return fmt::format("barriers per block {} > {}, the barriers of an SM of {}",
                         launch.barriersPerBlock, l.barriersPerSm, gpu);
    case Violation::DoesNotFit: {
      std::string which;
      for (Resource r : kAllResources)
        if (result.limitedBy(r)) which += (which.empty() ? "" : ", ") + std::string(resourceLabel(r));
      return fmt::format("not even one block fits on an SM of {} (out of {})", gpu, which);
    }
    case Violation::DeviceIncomplete:
      return fmt::format("device '{}' lacks launch limits (warp size, registers, shared memory, "
                         "blocks per SM) needed for occupancy",
                         d.id);
  }
  return "unknown violation";
}

Occupancy computeOccupancyOrThrow(const Device& d, const Launch& launch) {
  Occupancy r = computeOccupancy(d, launch);
  if (!r.ok()) throw Error(violationMessage(d, launch, r));
  return r;
}

}  // namespace teg::occupancy
