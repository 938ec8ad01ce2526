// Wave quantisation (Ma et al. eq. 3) and active blocks (eq. 4).
#include "teg/models/waves.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "teg/support/error.hpp"

namespace teg::models {

WaveSchedule scheduleWaves(std::int64_t requestedBlocks, int activeBlocksPerSm, int smCount) {
  if (requestedBlocks < 1)
    throw Error(fmt::format("requested blocks must be at least 1 (got {})", requestedBlocks));
  if (activeBlocksPerSm < 1)
    throw Error(fmt::format("active blocks per SM must be at least 1 (got {})", activeBlocksPerSm));
  if (smCount < 1) throw Error(fmt::format("SM count must be at least 1 (got {})", smCount));

  WaveSchedule w;
  w.requestedBlocks = requestedBlocks;
  w.activeBlocksPerSm = activeBlocksPerSm;
  w.smCount = smCount;
  w.slots = static_cast<std::int64_t>(activeBlocksPerSm) * smCount;
  // ceil(B_r / (B_a · P/Q)) — eq. 3's numerator, without floating point.
  w.waves = requestedBlocks / w.slots + (requestedBlocks % w.slots != 0);  // no B_r + slots overflow
  w.tailBlocks = requestedBlocks - (w.waves - 1) * w.slots;
  w.tailFill = static_cast<double>(w.tailBlocks) / static_cast<double>(w.slots);
  const double slotTime = static_cast<double>(w.waves) * static_cast<double>(w.slots);
  w.fSched = slotTime / static_cast<double>(requestedBlocks);  // Ma et al. eq. 3
  w.efficiency = static_cast<double>(requestedBlocks) / slotTime;
  return w;
}

const char* activeBlockLimitName(ActiveBlockLimit limit) {
  switch (limit) {
    case ActiveBlockLimit::SharedMemory: return "shared_memory";
    case ActiveBlockLimit::Registers: return "registers";
    case ActiveBlockLimit::Blocks: return "blocks";
    case ActiveBlockLimit::Threads: return "threads";
  }
  return "?";
}

ActiveBlocks activeBlocksMa(const ActiveBlockInputs& in) {
  if (in.threadsPerBlock < 1)
    throw Error(fmt::format("threads per block must be at least 1 (got {})", in.threadsPerBlock));
  if (in.maxBlocksPerSm < 1 || in.maxThreadsPerSm < 1)
    throw Error("the block and thread limits per SM must be at least 1");
  if (in.sharedMemoryPerBlock < 0 || in.registersPerThread < 0)
    throw Error("shared memory and registers per block cannot be negative");
  if (in.sharedMemoryPerBlock > 0 && in.sharedMemoryPerSm <= 0)
    throw Error("shared memory per SM (Z) must be positive when a block uses shared memory");
  if (in.registersPerThread > 0 && in.registersPerSm <= 0)
    throw Error("registers per SM (R) must be positive when a thread uses registers");

  constexpr double kNoLimit = std::numeric_limits<int>::max();
  // Each term of eq. 4 in the seed's order; a resource the block does not use does not limit.
  const double bySmem = in.sharedMemoryPerBlock > 0
                            ? std::floor(in.sharedMemoryPerSm / in.sharedMemoryPerBlock)
                            : kNoLimit;
  const double byRegs =
      in.registersPerThread > 0
          ? std::floor(static_cast<double>(in.registersPerSm) /
                       (static_cast<double>(in.registersPerThread) * in.threadsPerBlock))
          : kNoLimit;
  const double byBlocks = in.maxBlocksPerSm;
  const double byThreads = std::floor(static_cast<double>(in.maxThreadsPerSm) / in.threadsPerBlock);

  ActiveBlocks out;
  double best = byBlocks;
  out.limiter = ActiveBlockLimit::Blocks;
  if (bySmem < best) best = bySmem, out.limiter = ActiveBlockLimit::SharedMemory;
  if (byRegs < best) best = byRegs, out.limiter = ActiveBlockLimit::Registers;
  if (byThreads < best) best = byThreads, out.limiter = ActiveBlockLimit::Threads;
  out.blocks = static_cast<int>(best);
  if (out.blocks < 1)
    throw Error(fmt::format("a block does not fit on an SM: its {} exceed the SM's",
                            activeBlockLimitName(out.limiter)));
  return out;
}

}  // namespace teg::models
