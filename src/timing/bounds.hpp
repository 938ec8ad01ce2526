// Analytical lower bounds of a simulated run (uiCA style: small pure functions used to explain a
// simulated result): issue, each functional unit, the shared-memory pipeline, the LD/ST path,
// the L2 and the DRAM bandwidth share, and the memory pipeline's concurrency C_mem where L2 hits
// hold its slots. The largest bound that comes within 80 % of the simulated
// cycles names the bottleneck; when none does, the run is latency-bound (too few warps or too
// little independent work to hide latency — Little's law, seed 002 §1.1.2).
#pragma once

#include <string>
#include <vector>

#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"

namespace teg::timing::detail {

inline constexpr const char* kConcurrencyBoundName = "memory concurrency (C_mem)";
// Global atomics on one address, performed one after another by the L2 atomic unit that owns it.
inline constexpr const char* kAtomicUnitBoundName = "same-address atomics";

struct Bound {
  std::string name;
  double cycles = 0;
};

// The cycles the SM's DRAM share needs to move `memory`'s sectors: the peak rate plus the
// read/write turnaround of its mix of reads and write-backs (as MemorySystem::dramTransfer).
double dramBoundCycles(const TimingConfig& config, const MemoryCounters& memory);

// The cycles the SM's L2 share needs to move `memory`'s sectors (every global/local access the L1
// did not serve: loads, stores, atomics) at its bandwidth; 0 without an L2 bandwidth figure.
double l2BoundCycles(const TimingConfig& config, const MemoryCounters& memory);

// Every bound of the simulated part of `result`, largest first.
std::vector<Bound> simulatedBounds(const TimingConfig& config, const TimingResult& result);

// Sets result.bound and result.boundExplanation.
void explainBound(const TimingConfig& config, TimingResult& result);

}  // namespace teg::timing::detail
