// The limit checker (GPUDIAG eq. 3.1) and the residency N_slot (GPUDIAG eq. 3.3, Ma et al. eq. 4)
// with the CUDA Occupancy Calculator's allocation rules. Every limit comes from the device data;
// the only constants here are rules of the allocators, each cited where it is used.
#include "teg/occupancy/occupancy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "teg/occupancy/small_divide.hpp"
#include "teg/support/error.hpp"

namespace teg::occupancy {

namespace {

using device::Device;
using device::RegisterGranularity;

// Arithmetic on validated launches: every quantity fits in 32 bits (threads <= 1024 or so,
// registers <= 255, shared memory <= the per-block limit). A power-of-two divisor (warp size,
// allocation units, sub-partitions) becomes a shift, a small one a multiplication (smallDivide),
// and floor(a / (k u)) is taken as floor(floor(a / u) / k) so that divisors stay small.
unsigned divide(unsigned x, unsigned y) {
  return (y & (y - 1)) == 0 ? x >> std::countr_zero(y) : smallDivide(x, y);
}
unsigned divideRoundUp(unsigned x, unsigned y) { return divide(x + y - 1, y); }
unsigned roundUp(unsigned x, unsigned y) {
  return (y & (y - 1)) == 0 ? (x + y - 1) & ~(y - 1) : (x + y - 1) / y * y;
}

int clampToInt(unsigned v) { return v > static_cast<unsigned>(kUnlimited) ? kUnlimited : static_cast<int>(v); }

// cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor): a launch that cannot run on the
// 4-partition GP10x SM is refused on every Pascal part, GP100 (2 partitions) included, "for
// forward compatibility within the Pascal family".
constexpr int kPascalFamilyMajor = 6;
constexpr unsigned kPascalGp10xRegisterPartitions = 4;

// The smallest carve-out (bytes per SM) that holds `bytes`, or -1 when none does. A device whose
// data lists no carve-outs has one: its shared_memory_per_sm.
long long alignUpToCarveout(long long bytes, const device::Limits& limits) {
  if (limits.sharedMemoryCarveouts.empty())
    return bytes <= limits.sharedMemoryPerSm ? limits.sharedMemoryPerSm : -1;
  for (int c : limits.sharedMemoryCarveouts)
    if (c >= bytes) return c;
  return -1;
}

int maxWarpsPerSm(const device::Limits& l) {
  return l.maxWarpsPerSm > 0 ? l.maxWarpsPerSm : l.maxThreadsPerSm / l.warpSize;
}

int sharedMemoryPerBlockLimit(const device::Limits& l) {
  return std::max(l.sharedMemoryPerBlock, l.sharedMemoryPerBlockOptin);
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

OccupancyCalculator::OccupancyCalculator(const Device& d) noexcept : device_(&d) {
  const auto& l = d.limits;
  complete_ = l.warpSize > 0 && l.maxThreadsPerBlock > 0 && (l.maxWarpsPerSm > 0 || l.maxThreadsPerSm > 0) &&
              l.maxBlocksPerSm > 0 && l.registersPerSm > 0 && l.maxRegistersPerBlock > 0 &&
              l.maxRegistersPerThread > 0 && l.registerAllocationUnit > 0 && l.sharedMemoryPerSm > 0 &&
              l.sharedMemoryPerBlock > 0 && l.sharedMemoryAllocationUnit > 0 && l.barriersPerSm >= 0 &&
              l.reservedSharedMemoryPerBlock >= 0;
  if (!complete_) return;
  blockGranularity_ = l.registerAllocationGranularity == RegisterGranularity::Block;
  warpSize_ = static_cast<unsigned>(l.warpSize);
  maxThreadsPerBlock_ = static_cast<unsigned>(l.maxThreadsPerBlock);
  maxRegistersPerThread_ = static_cast<unsigned>(l.maxRegistersPerThread);
  maxWarpsPerSm_ = static_cast<unsigned>(maxWarpsPerSm(l));
  maxBlocksPerSm_ = static_cast<unsigned>(l.maxBlocksPerSm);
  barriersPerSm_ = static_cast<unsigned>(l.barriersPerSm);
  registerUnit_ = static_cast<unsigned>(l.registerAllocationUnit);
  // cc 1.x: a block's registers are allocated for its warps rounded to the warp allocation
  // granularity (2; Occupancy Calculator, cc 1.x).
  warpAllocationGranularity_ = static_cast<unsigned>(std::max(1, l.warpAllocationGranularity));
  // cc >= 2.0: the register file is split evenly into sub-partitions (4 from Kepler on, 2 on
  // GP100; cudaOccMaxBlocksPerSMRegsLimit).
  partitions_ = static_cast<unsigned>(std::max(1, d.issue.subPartitions));
  checkPartitions_ = partitions_;
  if (d.cc.major == kPascalFamilyMajor) checkPartitions_ = std::max(checkPartitions_, kPascalGp10xRegisterPartitions);
  // floor(a / (k u)) = floor(floor(a / u) / k): count registers in allocation units.
  registerUnitsPerPartition_ = static_cast<unsigned>(l.registersPerSm) / partitions_ / registerUnit_;
  registerUnitsPerSm_ = static_cast<unsigned>(l.registersPerSm) / registerUnit_;
  maxRegistersPerBlock_ = static_cast<unsigned>(l.maxRegistersPerBlock);
  staticSharedLimit_ = static_cast<unsigned>(l.sharedMemoryPerBlock);
  sharedLimit_ = static_cast<unsigned>(sharedMemoryPerBlockLimit(l));
  reservedShared_ = static_cast<unsigned>(l.reservedSharedMemoryPerBlock);
  sharedUnit_ = static_cast<unsigned>(l.sharedMemoryAllocationUnit);
  sharedPerSm_ = static_cast<unsigned>(l.sharedMemoryPerSm);
  // cc 7.0 on: one array split by a per-kernel carve-out the driver picks (cc 5.x/6.x have a
  // separate L1; Kepler and Fermi take the context's cache configuration, largest shared by
  // default).
  driverPicksCarveout_ = d.cc.major >= 7 && l.sharedMemoryCarveouts.size() > 1;
  // warps / max warps, divided once here (the same IEEE division as at the point of use).
  for (unsigned w = 0; w < occupancyOfWarps_.size() && w <= maxWarpsPerSm_; ++w)
    occupancyOfWarps_[w] = static_cast<double>(w) / static_cast<double>(maxWarpsPerSm_);
}

// Registers a block is given and the blocks per SM they allow; sets `violation` if a block's
// registers exceed the per-block limit.
int OccupancyCalculator::applyRegisters(unsigned regs, unsigned warpsPerBlock, Occupancy& out) const noexcept {
  if (blockGranularity_) {
    // cc 1.x: one allocation per block, rounded to the allocation unit (Occupancy Calculator).
    const unsigned warps = roundUp(warpsPerBlock, warpAllocationGranularity_);
    const unsigned perBlock = roundUp(warps * warpSize_ * regs, registerUnit_);
    out.registersPerBlock = perBlock;
    if (perBlock > maxRegistersPerBlock_) {
      out.violation = Violation::RegistersPerBlock;
      return 0;
    }
    return perBlock > 0 ? clampToInt(smallDivide(registerUnitsPerSm_, perBlock / registerUnit_)) : kUnlimited;
  }
  // cc >= 2.0: per warp, rounded to the allocation unit.
  const unsigned perWarp = roundUp(regs * warpSize_, registerUnit_);
  const unsigned perBlock = perWarp * warpsPerBlock;
  out.registersPerBlock = perBlock;
  // The hardware's per-block check assumes a warp's registers are taken in every partition, so
  // it rounds the warps up to the partitions (cuda_occupancy.h, "hardware check").
  if (perBlock > maxRegistersPerBlock_ || perWarp * roundUp(warpsPerBlock, checkPartitions_) > maxRegistersPerBlock_) {
    out.violation = Violation::RegistersPerBlock;
    return 0;
  }
  if (perWarp == 0) return kUnlimited;  // no registers
  const unsigned warpsPerPartition = smallDivide(registerUnitsPerPartition_, perWarp / registerUnit_);
  return clampToInt(smallDivide(warpsPerPartition * partitions_, warpsPerBlock));
}

int OccupancyCalculator::applySharedMemory(const Launch& launch, Occupancy& out) const noexcept {
  if (launch.staticSharedBytes > staticSharedLimit_) {
    out.violation = Violation::StaticSharedMemoryPerBlock;
    return 0;
  }
  if (launch.dynamicSharedBytes > sharedLimit_) {  // also keeps the sum below in 32 bits
    out.violation = Violation::SharedMemoryPerBlock;
    return 0;
  }
  // Since cc 8.0 the driver reserves shared memory per block and adds it to the per-block limit
  // (Programming Guide, "Technical Specifications": 1 KB reserved; 0 before 8.0 in the data).
  const unsigned total =
      static_cast<unsigned>(launch.staticSharedBytes + launch.dynamicSharedBytes) + reservedShared_;
  const unsigned allocated = roundUp(total, sharedUnit_);
  out.sharedMemoryPerBlock = allocated;
  if (allocated > sharedLimit_ + reservedShared_) {
    out.violation = Violation::SharedMemoryPerBlock;
    return 0;
  }
  // The carve-out: the preferred one (a percent of the largest, rounded up to a configuration the
  // SM has), or, when one block would not fit it, the smallest that holds a block
  // (cudaOccSMemPreferenceVoltaPlus / cudaOccMaxBlocksPerSMSmemLimit).
  unsigned perSm = sharedPerSm_;
  if (launch.carveoutPercent >= 0) {
    const auto& l = device_->limits;
    long long preferred = alignUpToCarveout(launch.carveoutPercent * static_cast<long long>(sharedPerSm_) / 100, l);
    if (preferred < static_cast<long long>(allocated)) {
      preferred = alignUpToCarveout(allocated, l);
      if (preferred < 0) preferred = sharedPerSm_;
    }
    perSm = static_cast<unsigned>(preferred);
  }
  out.sharedMemoryPerSm = perSm;
  return allocated > 0 ? clampToInt(smallDivide(divide(perSm, sharedUnit_), allocated / sharedUnit_)) : kUnlimited;
}

Occupancy OccupancyCalculator::operator()(const Launch& launch) const noexcept {
  Occupancy out;
  if (!complete_) {
    out.violation = Violation::DeviceIncomplete;
    return out;
  }
  out.maxWarpsPerSm = static_cast<int>(maxWarpsPerSm_);
  // GPUDIAG eq. 3.1: the per-block limits, checked before anything is allocated.
  if (launch.threadsPerBlock < 1) { out.violation = Violation::ThreadsNotPositive; return out; }
  if (launch.threadsPerBlock > maxThreadsPerBlock_) { out.violation = Violation::ThreadsPerBlock; return out; }
  if (launch.registersPerThread < 0) { out.violation = Violation::RegistersNegative; return out; }
  if (launch.registersPerThread > maxRegistersPerThread_) { out.violation = Violation::RegistersPerThread; return out; }
  if (launch.staticSharedBytes < 0 || launch.dynamicSharedBytes < 0) {
    out.violation = Violation::SharedMemoryNegative;
    return out;
  }
  if (launch.carveoutPercent < -1 || launch.carveoutPercent > 100) {
    out.violation = Violation::CarveoutPercent;
    return out;
  }
  if (launch.barriersPerBlock < 0 || (barriersPerSm_ > 0 && static_cast<unsigned>(launch.barriersPerBlock) > barriersPerSm_)) {
    out.violation = Violation::BarriersPerBlock;
    return out;
  }

  const unsigned warpsPerBlock = divideRoundUp(static_cast<unsigned>(launch.threadsPerBlock), warpSize_);
  out.warpsPerBlock = static_cast<int>(warpsPerBlock);

  // The per-resource limits are kept in registers and stored once (reading the array back right
  // after storing its elements stalls on store forwarding).
  const int regsLimit = applyRegisters(static_cast<unsigned>(launch.registersPerThread), warpsPerBlock, out);
  if (!out.ok()) return out;
  const int smemLimit = applySharedMemory(launch, out);
  if (!out.ok()) return out;
  const int warpsLimit = clampToInt(smallDivide(maxWarpsPerSm_, warpsPerBlock));
  const int blocksLimit = static_cast<int>(maxBlocksPerSm_);
  const int barriersLimit = barriersPerSm_ > 0 && launch.barriersPerBlock > 0
                                ? static_cast<int>(smallDivide(barriersPerSm_, static_cast<unsigned>(launch.barriersPerBlock)))
                                : kUnlimited;
  out.blockLimit = {warpsLimit, regsLimit, smemLimit, blocksLimit, barriersLimit};
  const int blocks = std::min({warpsLimit, regsLimit, smemLimit, blocksLimit, barriersLimit});
  // Resources at the limit (all those at 0 when nothing fits).
  out.limiters = (warpsLimit == blocks ? 1u << static_cast<unsigned>(Resource::Warps) : 0u) |
                 (regsLimit == blocks ? 1u << static_cast<unsigned>(Resource::Registers) : 0u) |
                 (smemLimit == blocks ? 1u << static_cast<unsigned>(Resource::SharedMemory) : 0u) |
                 (blocksLimit == blocks ? 1u << static_cast<unsigned>(Resource::Blocks) : 0u) |
                 (barriersLimit == blocks ? 1u << static_cast<unsigned>(Resource::Barriers) : 0u);
  if (blocks == 0) {
    out.violation = Violation::DoesNotFit;
    return out;
  }
  out.blocksPerSm = blocks;
  if (launch.carveoutPercent < 0 && driverPicksCarveout_) {
    // No preference: from Volta on the driver configures the carve-out per kernel "to avoid
    // shared memory occupancy bottlenecks" (Volta Tuning Guide, "Unified Shared Memory/L1/Texture
    // Cache"; the preference API is "only a hint", CUDA Runtime API cudaFuncSetAttribute): the
    // smallest configuration that still holds the blocks the other resources allow, the rest of
    // the array being L1. The residency is the same as with the largest carve-out (what
    // cuda_occupancy.h assumes for the default), the L1 as large as that allows: a kernel without
    // shared memory gets the whole array on sm_70, 192 - 32 KB on sm_80 (32 blocks x the 1 KB the
    // driver reserves per block).
    const long long needed = static_cast<long long>(blocks) * out.sharedMemoryPerBlock;
    const long long chosen = alignUpToCarveout(needed, device_->limits);
    if (chosen >= 0) out.sharedMemoryPerSm = chosen;
    out.carveoutChosenByDriver = true;
  }
  out.warpsPerSm = static_cast<int>(static_cast<unsigned>(blocks) * warpsPerBlock);
  out.threadsPerSm = static_cast<int>(blocks * launch.threadsPerBlock);
  out.occupancy = static_cast<unsigned>(out.warpsPerSm) < occupancyOfWarps_.size() &&
                          static_cast<unsigned>(out.warpsPerSm) <= maxWarpsPerSm_
                      ? occupancyOfWarps_[static_cast<unsigned>(out.warpsPerSm)]
                      : static_cast<double>(out.warpsPerSm) / out.maxWarpsPerSm;
  return out;
}

Occupancy computeOccupancy(const Device& d, const Launch& launch) noexcept {
  return OccupancyCalculator(d)(launch);
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
