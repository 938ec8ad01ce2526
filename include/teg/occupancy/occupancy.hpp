// Residency of one launch on one SM: how many blocks of a kernel an SM holds at once, which
// resource stops it from holding more, and what each block really costs in registers and shared
// memory after the allocation rules round it up.
//
// The limit checker is GPUDIAG's eq. 3.1 (Kim 2023, ch. 3.1: a launch runs only if threads,
// registers and shared memory per block fit the per-block limits); the residency is
// N_slot = min over resources of (resource per SM / resource per block) (GPUDIAG eq. 3.3,
// Ma et al. eq. 4 `B_a`), with the allocation rules of the CUDA Occupancy Calculator:
//   cc >= 2.0: registers are allocated per warp in units of `register_allocation_unit`, out of a
//              register file split evenly between the warp schedulers; shared memory in units of
//              `shared_memory_allocation_unit`, plus the driver's reserved bytes per block (>= 8.0);
//   cc 1.x:    registers are allocated per block (for an even number of warps).
// For cc >= 3.0 the result equals cudaOccMaxActiveBlocksPerMultiprocessor (cuda_occupancy.h,
// default device state, the function allowed to opt in to the largest shared-memory size);
// tests/unit/occupancy/oracle_test.cpp checks that exhaustively.
//
// Not modelled: partitioned global caching (sm_52/6x, off by default), "virtual resources"
// (cc >= 10, none unless a kernel uses them), the cache-config API of Kepler (the carve-out
// percent is applied to every generation's carve-out list instead).
//
// Everything here is pure and allocation-free: computeOccupancy runs in tens of nanoseconds.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <string>

#include "teg/device/device.hpp"

namespace teg::occupancy {

// A per-resource block limit that does not limit (the resource is not used).
inline constexpr int kUnlimited = INT_MAX;

// What the kernel asks of each block.
struct Launch {
  long long threadsPerBlock = 0;
  long long registersPerThread = 0;
  long long staticSharedBytes = 0;   // __shared__ arrays (ptxas "smem")
  long long dynamicSharedBytes = 0;  // the third <<<>>> argument
  int carveoutPercent = -1;          // preferred shared-memory carve-out 0..100; -1: the default
                                     // (cc >= 7.0: the driver's choice, the smallest carve-out
                                     // that holds the resident blocks; before: the largest)
  int barriersPerBlock = 1;          // hardware barriers a block holds (__syncthreads uses one)
};

enum class Resource : std::uint8_t { Warps, Registers, SharedMemory, Blocks, Barriers };
inline constexpr int kResourceCount = 5;
inline constexpr std::array<Resource, kResourceCount> kAllResources{
    Resource::Warps, Resource::Registers, Resource::SharedMemory, Resource::Blocks,
    Resource::Barriers};

// "warps", "registers", "shared_memory", "blocks", "barriers" (JSON keys and limiter names).
const char* resourceName(Resource r);
// For people: "warps (threads per SM)", "registers", "shared memory", "blocks per SM", "barriers".
const char* resourceLabel(Resource r);

// The rule a launch breaks (GPUDIAG eq. 3.1 and the Programming Guide's per-block limits).
enum class Violation : std::uint8_t {
  None,
  ThreadsNotPositive,          // threads per block < 1
  ThreadsPerBlock,             // threads per block > max_threads_per_block
  RegistersNegative,
  RegistersPerThread,          // registers per thread > max_registers_per_thread
  RegistersPerBlock,           // allocated registers of a block > max_registers_per_block
  SharedMemoryNegative,
  StaticSharedMemoryPerBlock,  // static __shared__ > shared_memory_per_block (no opt-in for it)
  SharedMemoryPerBlock,        // static + dynamic (+ reserved) > opt-in per-block limit
  CarveoutPercent,             // carve-out outside 0..100
  BarriersPerBlock,            // more barriers than the SM has
  DoesNotFit,                  // every rule holds, yet some resource admits 0 blocks
  DeviceIncomplete,            // the device lacks a limit the calculation needs
};

struct Occupancy {
  Violation violation = Violation::None;
  int blocksPerSm = 0;
  int warpsPerSm = 0;
  int threadsPerSm = 0;
  double occupancy = 0;   // warpsPerSm / max warps per SM, 0..1
  int warpsPerBlock = 0;
  int maxWarpsPerSm = 0;
  // Blocks per SM each resource alone would allow (kUnlimited: not limited by it).
  std::array<int, kResourceCount> blockLimit{kUnlimited, kUnlimited, kUnlimited, kUnlimited,
                                             kUnlimited};
  unsigned limiters = 0;              // bit (1 << Resource): resources whose limit is blocksPerSm
  long long registersPerBlock = 0;    // allocated, after the allocation unit
  long long sharedMemoryPerBlock = 0; // allocated: static + dynamic + reserved, rounded up
  long long sharedMemoryPerSm = 0;    // the shared-memory carve-out the launch runs with
  // True when the launch states no carve-out and the driver picks it (cc >= 7.0): the smallest
  // carve-out that holds blocksPerSm blocks. False: the launch's preference (or, before Volta,
  // the largest).
  bool carveoutChosenByDriver = false;

  [[nodiscard]] bool ok() const { return violation == Violation::None; }
  [[nodiscard]] int limit(Resource r) const { return blockLimit[static_cast<int>(r)]; }
  [[nodiscard]] bool limitedBy(Resource r) const {
    return (limiters >> static_cast<unsigned>(r)) & 1u;
  }
};

// The residency of `launch` on one SM of `device`. Never throws, never allocates; a launch that
// cannot run comes back with `violation` set and zero blocks (use violationMessage for why).
Occupancy computeOccupancy(const device::Device& device, const Launch& launch) noexcept;

// The same calculation with the device's figures prepared once (unit shifts, register units per
// sub-partition, shared-memory units per SM): for many launches on one device (batch, sweeps).
// Holds a pointer to `device`, which must outlive it.
class OccupancyCalculator {
 public:
  explicit OccupancyCalculator(const device::Device& device) noexcept;
  [[nodiscard]] Occupancy operator()(const Launch& launch) const noexcept;
  [[nodiscard]] const device::Device& device() const { return *device_; }

 private:
  // Blocks per SM allowed by registers / shared memory (kUnlimited: not used); set
  // out.violation and return 0 when a block does not fit the per-block limit.
  int applyRegisters(unsigned regs, unsigned warpsPerBlock, Occupancy& out) const noexcept;
  int applySharedMemory(const Launch& launch, Occupancy& out) const noexcept;

  const device::Device* device_;
  bool complete_ = false;
  bool blockGranularity_ = false;
  unsigned warpSize_ = 0;
  unsigned maxThreadsPerBlock_ = 0;
  unsigned maxRegistersPerThread_ = 0;
  unsigned maxWarpsPerSm_ = 0;
  unsigned maxBlocksPerSm_ = 0;
  unsigned barriersPerSm_ = 0;
  unsigned registerUnit_ = 0;
  unsigned warpAllocationGranularity_ = 1;
  unsigned partitions_ = 1;
  unsigned checkPartitions_ = 1;
  unsigned registerUnitsPerPartition_ = 0;  // registers per sub-partition / allocation unit
  unsigned registerUnitsPerSm_ = 0;         // cc 1.x: registers per SM / allocation unit
  unsigned maxRegistersPerBlock_ = 0;
  unsigned staticSharedLimit_ = 0;          // shared_memory_per_block
  unsigned sharedLimit_ = 0;                // the opt-in per-block limit
  unsigned reservedShared_ = 0;
  unsigned sharedUnit_ = 0;
  unsigned sharedPerSm_ = 0;                // the largest carve-out
  bool driverPicksCarveout_ = false;        // cc >= 7.0: the default carve-out is the driver's choice
  std::array<double, 129> occupancyOfWarps_{};  // w / max warps per SM, for w up to 128
};

// One line naming the violated rule with the numbers, e.g. "shared memory per block 70000 B >
// 49152 B, the default per-block limit of sm_75; up to 65536 B with opt-in
// (cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...))".
std::string violationMessage(const device::Device& device, const Launch& launch,
                             const Occupancy& result);

// computeOccupancy, throwing teg::Error with violationMessage when the launch cannot run.
Occupancy computeOccupancyOrThrow(const device::Device& device, const Launch& launch);

}  // namespace teg::occupancy
