// The CUDA Occupancy Calculator's three curves — occupancy against threads per block, registers
// per thread and shared memory per block, the other two held — with the cliffs marked, and the
// block size of highest occupancy (cudaOccMaxPotentialOccupancyBlockSize).
#pragma once

#include <string>
#include <vector>

#include "teg/occupancy/cliffs.hpp"
#include "teg/occupancy/occupancy.hpp"

namespace teg::occupancy {

struct SweepPoint {
  long long value = 0;      // threads per block, registers per thread, or shared bytes per block
  Occupancy result;         // zero blocks and a violation when the launch cannot run
  bool cliff = false;       // fewer blocks per SM than the previous point
};

// threads: warp_size, 2*warp_size, ... max_threads_per_block (plus the launch's own size);
// registers: 0 .. max_registers_per_thread; shared memory: 0 .. the opt-in per-block limit in
// steps of the allocation unit (plus the launch's own size). The sweep varies the dynamic shared
// memory on top of the launch's static size (values below it lower the static size).
std::vector<SweepPoint> sweep(const device::Device& device, const Launch& launch, Knob knob);

struct Suggestion {
  long long blockSize = 0;   // 0 when no block size can run
  int blocksPerSm = 0;
  double occupancy = 0;
  long long minGridSize = 0; // blocksPerSm x sm_count: the smallest grid that fills the GPU
};

// Like cudaOccMaxPotentialOccupancyBlockSize: tries block sizes from the largest multiple of the
// warp size down, keeps the first with the most resident threads; threadsPerBlock is ignored.
Suggestion suggestBlockSize(const device::Device& device, const Launch& launch);

}  // namespace teg::occupancy
