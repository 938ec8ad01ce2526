// GPUDIAG model (seed 004 ch. 3.1): N_slot, T(g, b), fu(c), bottleneck throughput.
#include "teg/models/gpudiag.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "teg/support/error.hpp"

namespace teg::models {

std::int64_t roundUpTo(std::int64_t a, std::int64_t unit) {
  if (unit < 1) throw Error(fmt::format("allocation unit must be >= 1 (got {})", unit));
  if (a <= 0) return 0;
  if (a > INT64_MAX - unit) throw Error(fmt::format("{} is out of range", a));
  return (a + unit - 1) / unit * unit;
}

const char* slotLimitName(SlotLimit limit) {
  switch (limit) {
    case SlotLimit::Barriers: return "barriers";
    case SlotLimit::WarpSlots: return "warp_slots";
    case SlotLimit::SharedMemory: return "shared_memory";
    case SlotLimit::Registers: return "registers";
  }
  return "?";
}

SlotCount slotCount(const StateBuffers& buf, const BlockUsage& use) {
  if (use.warps < 1) throw Error(fmt::format("warps per block must be >= 1 (got {})", use.warps));
  if (use.sharedMemory < 0) throw Error("shared memory per block cannot be negative");
  if (buf.barrierSlots < 1 || buf.warpSlots < 1)
    throw Error("barrier slots N1 and warp slots N2 must be >= 1");
  if (buf.sharedMemory < 0 || buf.sharedMemoryGranularity < 1)
    throw Error("shared memory S must be >= 0 and its granularity s_min >= 1");
  if (use.registersPerWarp.size() > buf.registerFiles.size())
    throw Error(fmt::format("the block uses {} register files, the SM has {}",
                            use.registersPerWarp.size(), buf.registerFiles.size()));

  constexpr std::int64_t kNoLimit = INT_MAX;
  SlotCount out;
  out.byBarriers = buf.barrierSlots;       // N1
  out.byWarpSlots = buf.warpSlots / use.warps;  // ⌊N2/b⌋
  const std::int64_t smem = roundUpTo(use.sharedMemory, buf.sharedMemoryGranularity);
  out.bySharedMemory = smem > 0 ? buf.sharedMemory / smem : kNoLimit;  // ⌊S/⌈s, s_min⌉⌋

  std::int64_t best = out.byBarriers;
  out.limiter = SlotLimit::Barriers;
  if (out.byWarpSlots < best) best = out.byWarpSlots, out.limiter = SlotLimit::WarpSlots;
  if (out.bySharedMemory < best) best = out.bySharedMemory, out.limiter = SlotLimit::SharedMemory;
  for (std::size_t i = 0; i < buf.registerFiles.size(); ++i) {
    const auto& file = buf.registerFiles[i];
    if (file.size < 0 || file.granularity < 1)
      throw Error(fmt::format("register file {}: size must be >= 0 and granularity >= 1", i));
    const std::int64_t r = i < use.registersPerWarp.size() ? use.registersPerWarp[i] : 0;
    if (r < 0) throw Error("registers per warp cannot be negative");
    const std::int64_t perWarp = roundUpTo(r, file.granularity);
    // b·⌈r_i, r_i,min⌉; a product beyond 64 bits cannot fit in any register file.
    const bool huge = perWarp > INT64_MAX / use.warps;
    const std::int64_t perBlock = huge ? INT64_MAX : use.warps * perWarp;
    const std::int64_t term = perBlock > 0 ? file.size / perBlock : kNoLimit;
    out.byRegisters.push_back(term);
    if (term < best) {
      best = term;
      out.limiter = SlotLimit::Registers;
      out.registerFile = static_cast<int>(i);
    }
  }
  out.slots = static_cast<int>(best);
  return out;
}

namespace {

void checkUnit(const FunctionalUnit& u) {
  if (!(u.inverseThroughput > 0) || !std::isfinite(u.inverseThroughput))
    throw Error(fmt::format("unit '{}': inverse throughput t must be > 0", u.name));
  if (!(u.replicas > 0)) throw Error(fmt::format("unit '{}': replicas m must be > 0", u.name));
  if (u.groups < 1) throw Error(fmt::format("unit '{}': groups s must be >= 1", u.name));
}

// t_u/(m_u P_1) · ⌈c/s_u⌉: the unit's period with c warps, relative to P_1.
double unitLoad(const FunctionalUnit& u, int c, double p1) {
  const double warpsPerGroup = std::ceil(static_cast<double>(c) / u.groups);
  return u.inverseThroughput / (u.replicas * p1) * warpsPerGroup;
}

}  // namespace

double FunctionalUnitModel::fu(int c) const {
  if (c < 0) throw Error(fmt::format("warp count must be >= 0 (got {})", c));
  if (!(singleWarpPeriod > 0)) throw Error("single-warp period P_1 must be > 0");
  if (c == 0) return 0;
  double v = 1;  // P(c) >= P_1: dependencies inside {insts} (eq. 3.5)
  for (const auto& u : units) {
    checkUnit(u);
    v = std::max(v, unitLoad(u, c, singleWarpPeriod));
  }
  return v;
}

std::string FunctionalUnitModel::bottleneckAt(int c) const {
  const double v = fu(c);
  if (v <= 1) return {};
  for (const auto& u : units)
    if (unitLoad(u, c, singleWarpPeriod) == v) return u.name;
  return {};
}

double FunctionalUnitModel::bottleneckThroughput() const {
  if (units.empty()) throw Error("no functional units given");
  double best = INFINITY;
  for (const auto& u : units) {
    checkUnit(u);
    best = std::min(best, u.replicas * u.groups / u.inverseThroughput);  // m_u s_u / t_u
  }
  return best;
}

double bottleneckThroughputFromFu(const std::vector<double>& fuValues, double singleWarpPeriod) {
  if (fuValues.empty()) throw Error("no fu(c) values");
  if (!(singleWarpPeriod > 0)) throw Error("single-warp period P_1 must be > 0");
  double best = 0;
  for (std::size_t k = 0; k < fuValues.size(); ++k) {
    if (!(fuValues[k] > 0)) throw Error(fmt::format("fu({}) must be > 0", k + 1));
    best = std::max(best, static_cast<double>(k + 1) / fuValues[k]);  // c / fu(c)
  }
  return best / singleWarpPeriod;  // eq. 3.7
}

std::int64_t blocksPerMultiprocessor(std::int64_t gridBlocks, int multiprocessors) {
  if (gridBlocks < 0) throw Error("grid blocks G cannot be negative");
  if (multiprocessors < 1) throw Error("multiprocessor count n_mp must be >= 1");
  return (gridBlocks + multiprocessors - 1) / multiprocessors;
}

double kernelTime(std::int64_t g, int b, int nSlot, const FunctionalUnitModel& model) {
  if (nSlot < 1) throw Error("N_slot is 0: the block does not fit on a multiprocessor");
  if (g < 0) throw Error("blocks per multiprocessor g cannot be negative");
  if (b < 1) throw Error("warps per block b must be >= 1");
  const std::int64_t fullRounds = g / nSlot;  // ⌊g/N_slot⌋
  const std::int64_t rest = g % nSlot;        // g mod N_slot
  const std::int64_t fullWarps = static_cast<std::int64_t>(b) * nSlot;
  if (fullWarps > INT_MAX) throw Error("b × N_slot warps is out of range");
  return static_cast<double>(fullRounds) * model.fu(static_cast<int>(fullWarps)) +
         model.fu(static_cast<int>(b * rest));  // eq. 3.2
}

}  // namespace teg::models
