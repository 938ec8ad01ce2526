// The Occupancy Calculator's curves and the block-size suggestion, both by evaluating
// computeOccupancy point by point (it is exact and cheap).
#include "teg/occupancy/sweep.hpp"

#include <algorithm>

namespace teg::occupancy {

namespace {

using device::Device;

std::vector<long long> sweepValues(const Device& d, const Launch& launch, Knob knob) {
  const auto& l = d.limits;
  std::vector<long long> values;
  switch (knob) {
    case Knob::Threads:
      for (long long t = l.warpSize; t <= l.maxThreadsPerBlock; t += l.warpSize) values.push_back(t);
      if (launch.threadsPerBlock > 0 && launch.threadsPerBlock <= l.maxThreadsPerBlock)
        values.push_back(launch.threadsPerBlock);
      break;
    case Knob::Registers:
      for (long long r = 0; r <= l.maxRegistersPerThread; ++r) values.push_back(r);
      break;
    case Knob::SharedMemory: {
      const long long limit = std::max(l.sharedMemoryPerBlock, l.sharedMemoryPerBlockOptin);
      for (long long s = 0; s <= limit; s += l.sharedMemoryAllocationUnit) values.push_back(s);
      const long long own = launch.staticSharedBytes + launch.dynamicSharedBytes;
      if (own >= 0 && own <= limit) values.push_back(own);
      break;
    }
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace

std::vector<SweepPoint> sweep(const Device& d, const Launch& launch, Knob knob) {
  std::vector<SweepPoint> points;
  if (d.limits.warpSize <= 0 || d.limits.sharedMemoryAllocationUnit <= 0) return points;
  const OccupancyCalculator calc(d);
  int previousBlocks = -1;
  for (long long v : sweepValues(d, launch, knob)) {
    SweepPoint p;
    p.value = v;
    p.result = calc(withKnob(launch, knob, v));
    p.cliff = previousBlocks >= 0 && p.result.blocksPerSm < previousBlocks;
    previousBlocks = p.result.blocksPerSm;
    points.push_back(p);
  }
  return points;
}

Suggestion suggestBlockSize(const Device& d, const Launch& launch) {
  Suggestion best;
  const auto& l = d.limits;
  if (l.warpSize <= 0 || l.maxThreadsPerBlock <= 0) return best;
  const long long occupancyLimit =
      static_cast<long long>(l.maxWarpsPerSm > 0 ? l.maxWarpsPerSm * l.warpSize : l.maxThreadsPerSm);
  long long bestThreads = 0;
  const OccupancyCalculator calc(d);
  const long long limitAligned =
      (l.maxThreadsPerBlock + l.warpSize - 1) / l.warpSize * static_cast<long long>(l.warpSize);
  for (long long aligned = limitAligned; aligned > 0; aligned -= l.warpSize) {
    Launch trial = launch;
    trial.threadsPerBlock = std::min<long long>(aligned, l.maxThreadsPerBlock);
    const Occupancy r = calc(trial);
    const long long threads = r.ok() ? trial.threadsPerBlock * r.blocksPerSm : 0;
    if (threads > bestThreads) {
      bestThreads = threads;
      best.blockSize = trial.threadsPerBlock;
      best.blocksPerSm = r.blocksPerSm;
      best.occupancy = r.occupancy;
    }
    if (bestThreads == occupancyLimit) break;
  }
  best.minGridSize = static_cast<long long>(best.blocksPerSm) * d.smCount;
  return best;
}

}  // namespace teg::occupancy
