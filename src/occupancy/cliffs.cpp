// Levers and cliffs by bisection over computeOccupancy (blocks per SM never rise when a knob
// rises, so "fits more blocks" holds on a prefix of values and "fits fewer" on a suffix).
#include "teg/occupancy/cliffs.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace teg::occupancy {

namespace {

using device::Device;

long long knobValue(const Launch& launch, Knob knob) {
  switch (knob) {
    case Knob::Registers: return launch.registersPerThread;
    case Knob::SharedMemory: return launch.staticSharedBytes + launch.dynamicSharedBytes;
    case Knob::Threads: return launch.threadsPerBlock;
  }
  return 0;
}

long long knobMin(Knob knob) { return knob == Knob::Threads ? 1 : 0; }

long long knobMax(const Device& d, Knob knob) {
  const auto& l = d.limits;
  switch (knob) {
    case Knob::Registers: return l.maxRegistersPerThread;
    case Knob::SharedMemory: return std::max(l.sharedMemoryPerBlock, l.sharedMemoryPerBlockOptin);
    case Knob::Threads: return l.maxThreadsPerBlock;
  }
  return 0;
}

int blocksAt(const OccupancyCalculator& calc, const Launch& launch, Knob knob, long long value) {
  const Occupancy r = calc(withKnob(launch, knob, value));
  return r.ok() ? r.blocksPerSm : 0;
}

Lever findLever(const OccupancyCalculator& calc, const Launch& launch, const Occupancy& base, Knob knob) {
  const Device& d = calc.device();
  Lever lever;
  lever.knob = knob;
  lever.current = knobValue(launch, knob);
  const int blocks = base.blocksPerSm;

  // Reduce: the largest v < current with more blocks; true on a prefix [min, v*].
  long long lo = knobMin(knob), hi = lever.current - 1;
  if (hi >= lo && blocksAt(calc, launch, knob, lo) > blocks) {
    while (lo < hi) {
      const long long mid = lo + (hi - lo + 1) / 2;
      if (blocksAt(calc, launch, knob, mid) > blocks) lo = mid; else hi = mid - 1;
    }
    const Occupancy r = calc(withKnob(launch, knob, lo));
    lever.reduceTo = lo;
    lever.blocksAfterReduce = r.blocksPerSm;
    lever.warpsAfterReduce = r.warpsPerSm;
  }

  // Cliff: the smallest v > current with fewer blocks; true on a suffix [v*, max].
  lo = lever.current + 1;
  hi = knobMax(d, knob);
  if (lo <= hi && blocksAt(calc, launch, knob, hi) < blocks) {
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      if (blocksAt(calc, launch, knob, mid) < blocks) hi = mid; else lo = mid + 1;
    }
    lever.cliffAt = lo;
    lever.blocksAfterCliff = blocksAt(calc, launch, knob, lo);
  }
  return lever;
}

const Lever& leverOf(const CliffReport& report, Knob knob) {
  return report.levers[static_cast<int>(knob)];
}

std::string warpChange(const Occupancy& base, int warpsAfter) {
  const double pct = 100.0 * (warpsAfter - base.warpsPerSm) / base.warpsPerSm;
  return fmt::format("{:+.0f} % warps", pct);
}

std::string othersBinding(const Occupancy& base, Resource except) {
  std::string s;
  for (Resource r : kAllResources)
    if (r != except && base.limitedBy(r)) s += (s.empty() ? "" : ", ") + std::string(resourceLabel(r));
  return s;
}

const char* unitOf(Knob knob, long long n) {
  switch (knob) {
    case Knob::Registers: return n == 1 ? "register per thread" : "registers per thread";
    case Knob::SharedMemory: return n == 1 ? "byte of shared memory per block" : "bytes of shared memory per block";
    case Knob::Threads: return n == 1 ? "thread per block" : "threads per block";
  }
  return "";
}

std::string reduceSentence(const Occupancy& base, Resource limiter, const Lever& lever) {
  const char* what = resourceLabel(limiter);
  if (!lever.reduceTo) {
    const std::string others = othersBinding(base, limiter);
    return others.empty()
               ? fmt::format("limited by {}", what)
               : fmt::format("limited by {} (lowering it alone fits no more blocks: also limited by {})",
                             what, others);
  }
  return fmt::format("limited by {}: at most {} {} gives {} blocks, {}", what, *lever.reduceTo,
                     unitOf(lever.knob, 2), lever.blocksAfterReduce,
                     warpChange(base, lever.warpsAfterReduce));
}

std::string cliffSentence(const Occupancy& base, const Lever& lever) {
  if (!lever.cliffAt)
    return fmt::format("{}: no cliff above {} up to the per-block limit", knobName(lever.knob),
                       lever.current);
  const long long n = *lever.cliffAt - lever.current;
  const std::string lead = n == 1 ? fmt::format("one more {}", unitOf(lever.knob, 1))
                                  : fmt::format("{} more {}", n, unitOf(lever.knob, n));
  return fmt::format("{} here {} {} (at {}: {} -> {} blocks)", lead, n == 1 ? "costs" : "cost",
                     base.blocksPerSm - lever.blocksAfterCliff == 1 ? std::string("a block")
                         : fmt::format("{} blocks", base.blocksPerSm - lever.blocksAfterCliff),
                     *lever.cliffAt, base.blocksPerSm, lever.blocksAfterCliff);
}

}  // namespace

Launch withKnob(const Launch& launch, Knob knob, long long value) {
  Launch l = launch;
  switch (knob) {
    case Knob::Registers: l.registersPerThread = value; break;
    case Knob::SharedMemory:
      l.staticSharedBytes = std::min(launch.staticSharedBytes, value);
      l.dynamicSharedBytes = value - l.staticSharedBytes;
      break;
    case Knob::Threads: l.threadsPerBlock = value; break;
  }
  return l;
}

const char* knobName(Knob k) {
  switch (k) {
    case Knob::Registers: return "registers";
    case Knob::SharedMemory: return "shared_memory";
    case Knob::Threads: return "threads";
  }
  return "?";
}

CliffReport findCliffs(const Device& d, const Launch& launch, const Occupancy& base) {
  CliffReport report;
  if (!base.ok()) return report;
  const OccupancyCalculator calc(d);
  for (Knob k : {Knob::Registers, Knob::SharedMemory, Knob::Threads})
    report.levers.push_back(findLever(calc, launch, base, k));

  if (base.occupancy >= 1.0) {
    std::string binding;
    for (Resource r : kAllResources)
      if (base.limitedBy(r)) binding += (binding.empty() ? "" : ", ") + std::string(resourceLabel(r));
    report.sentences.push_back(
        fmt::format("the SM is full: 100 % of its warps are resident (at the limit: {})", binding));
  }
  for (Resource r : kAllResources) {
    if (base.occupancy >= 1.0) break;  // nothing left to gain

    if (!base.limitedBy(r)) continue;
    switch (r) {
      case Resource::Registers:
        report.sentences.push_back(reduceSentence(base, r, leverOf(report, Knob::Registers)));
        break;
      case Resource::SharedMemory:
        report.sentences.push_back(reduceSentence(base, r, leverOf(report, Knob::SharedMemory)));
        break;
      case Resource::Warps:
        if (base.occupancy < 1.0)
          report.sentences.push_back(reduceSentence(base, r, leverOf(report, Knob::Threads)));
        break;
      case Resource::Blocks:
        if (base.occupancy < 1.0)
          report.sentences.push_back(fmt::format(
              "limited by blocks per SM ({}): larger blocks would hold more warps",
              d.limits.maxBlocksPerSm));
        break;
      case Resource::Barriers:
        report.sentences.push_back(fmt::format("limited by barriers ({} per SM)", d.limits.barriersPerSm));
        break;
    }
  }
  for (const Lever& lever : report.levers) report.sentences.push_back(cliffSentence(base, lever));
  return report;
}

}  // namespace teg::occupancy
