// GPUDIAG state-buffer estimators (seed 004 eqs. 3.9-3.13), tolerant of a few wrong samples.
#include "teg/models/gpudiag_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "csv_table.hpp"
#include "interval_votes.hpp"
#include "teg/models/gpudiag.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::models {

int WarpSlotEstimate::slotsFor(int warps) const {
  return std::min(barrierSlots, warps > 0 ? warpSlots / warps : 0);  // eq. 3.9
}

namespace {

std::vector<std::int64_t> sortedUnique(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// One N_slot measurement of eq. 3.10 or 3.11: the block takes warps·⌈amount, g⌉ of the buffer,
// and at most `cap` blocks fit for the other reasons (N_slot,wsb).
// Keeps u·N within 64 bits: real buffers are far below these bounds.
void checkMagnitude(std::int64_t amount, int warps, int slots) {
  if (amount > (std::int64_t{1} << 32) || warps > (1 << 12) || slots > (1 << 12))
    throw Error(fmt::format("measurement out of range (amount {}, warps {}, N_slot {})", amount,
                            warps, slots));
}

struct BufferObservation {
  std::int64_t amount = 0;
  int warps = 1;
  int cap = 0;
  int slots = 0;
};

constexpr std::int64_t kNoUpperBound = INT64_MAX;

// a·b, or "no bound" where it would not fit 64 bits (only an absurd cap gets there).
std::int64_t productOrUnbounded(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_mul_overflow(a, b, &out) ? kNoUpperBound : out;
}

// min(cap, ⌊size / u⌋) == slots holds for the sizes of one interval: ⌊size / u⌋ == slots when
// the measurement is below the cap, ⌊size / u⌋ >= cap when it is at the cap, none above it.
// Returns false when no size agrees.
bool agreeingSizes(std::int64_t u, int cap, int slots, std::int64_t& lo, std::int64_t& hi) {
  if (slots > cap) return false;
  lo = productOrUnbounded(u, slots);
  hi = slots < cap ? productOrUnbounded(u, std::int64_t{slots} + 1) - 1 : kNoUpperBound;
  return true;
}

BufferEstimate fitBuffer(const std::vector<BufferObservation>& obs,
                         std::vector<std::int64_t> candidates) {
  candidates = sortedUnique(std::move(candidates));
  BufferEstimate best;
  best.mismatches = INT_MAX;
  const int total = static_cast<int>(obs.size());
  for (const std::int64_t g : candidates) {
    if (g < 1 || g > (std::int64_t{1} << 34))
      throw Error(fmt::format("candidate granularity must be in 1..2^34 (got {})", g));
    // The size boundaries the data imply: a sample needs size >= u·N (u = b·⌈x, g⌉), so the
    // smallest consistent size is one of the u·N.
    std::vector<std::int64_t> sizes;
    for (const auto& o : obs) {
      const std::int64_t u = o.warps * roundUpTo(o.amount, g);
      if (u > 0) sizes.push_back(u * o.slots);
    }
    detail::IntervalVotes votes(sortedUnique(std::move(sizes)));
    if (votes.empty()) continue;
    int everywhere = 0;  // measurements that do not use the buffer agree with any size or none
    for (const auto& o : obs) {
      const std::int64_t u = o.warps * roundUpTo(o.amount, g);
      std::int64_t lo = 0, hi = 0;
      if (u == 0)
        everywhere += o.cap == o.slots;
      else if (agreeingSizes(u, o.cap, o.slots, lo, hi))
        votes.add(lo, hi, 1);
    }
    // Fewest mismatches wins; on a tie the earlier (smaller granularity, then smaller size).
    const int miss = total - everywhere - votes.bestVotes();
    if (miss < best.mismatches) best = {votes.bestValue(), g, miss};
  }
  if (best.mismatches == INT_MAX)
    throw Error("the measurements never use the buffer (all amounts are 0)");
  return best;
}

}  // namespace

WarpSlotEstimate estimateWarpSlots(const std::vector<WarpSlotSample>& samples) {
  if (samples.empty()) throw Error("no warp-slot measurements");
  std::vector<std::int64_t> n1s, n2s;
  for (const auto& s : samples) {
    if (s.warps < 1) throw Error(fmt::format("warps per block must be >= 1 (got {})", s.warps));
    if (s.slots < 0) throw Error(fmt::format("N_slot cannot be negative (got {})", s.slots));
    checkMagnitude(0, s.warps, s.slots);
    if (s.slots > 0) n1s.push_back(s.slots);
    n2s.push_back(static_cast<std::int64_t>(s.warps) * s.slots);  // eq. 3.12 candidates b·N
  }
  if (n1s.empty()) throw Error("every warp-slot measurement is 0: no block ever fits");
  // A consistent N2 is at least b·N for every sample (capped samples give b·N1), so the
  // smallest consistent N2 is one of the b·N values.
  n1s = sortedUnique(std::move(n1s));
  n2s = sortedUnique(std::move(n2s));

  // Candidates N2 that are not a warp count an int holds are never chosen.
  n2s.erase(std::remove_if(n2s.begin(), n2s.end(), [](std::int64_t n2) { return n2 < 1 || n2 > INT_MAX; }),
            n2s.end());

  // For a fixed N1, the N2 a sample (b, N) agrees with (min(N1, ⌊N2 / b⌋) == N) form an
  // interval: [b·N, b·N + b - 1] when N < N1, [b·N1, ∞) when N == N1, none when N > N1. Sweep
  // N1 upwards, moving each sample between these cases once, and ask the vote tree for the best
  // N2 at each N1: n log n where trying every (N1, N2) pair on every sample was cubic.
  std::vector<const WarpSlotSample*> byslots;
  for (const auto& s : samples) byslots.push_back(&s);
  std::sort(byslots.begin(), byslots.end(), [](auto* a, auto* b) { return a->slots < b->slots; });
  detail::IntervalVotes votes(n2s);
  auto below = [&](const WarpSlotSample& s, int delta) {
    const std::int64_t lo = std::int64_t{s.warps} * s.slots;
    votes.add(lo, lo + s.warps - 1, delta);
  };
  std::size_t next = 0;
  for (; next < byslots.size() && byslots[next]->slots == 0; ++next) below(*byslots[next], 1);
  WarpSlotEstimate best;
  best.mismatches = INT_MAX;
  const int total = static_cast<int>(samples.size());
  for (const auto n1 : n1s) {
    std::size_t end = next;
    for (; end < byslots.size() && byslots[end]->slots == n1; ++end)
      votes.add(std::int64_t{byslots[end]->warps} * n1, INT64_MAX, 1);
    // Fewest mismatches wins; on a tie the smaller N1, then the smaller N2.
    if (!votes.empty() && total - votes.bestVotes() < best.mismatches)
      best = {static_cast<int>(n1), static_cast<int>(votes.bestValue()), total - votes.bestVotes()};
    for (; next < end; ++next) {
      votes.add(std::int64_t{byslots[next]->warps} * n1, INT64_MAX, -1);
      below(*byslots[next], 1);
    }
  }
  return best;
}

std::vector<std::int64_t> powerOfTwoCandidates(std::int64_t maxValue) {
  std::vector<std::int64_t> out;
  for (std::int64_t g = 1;; g *= 2) {
    out.push_back(g);
    if (g >= maxValue || g > (INT64_MAX / 4)) break;
  }
  return out;
}

BufferEstimate estimateSharedMemory(const std::vector<SharedMemorySample>& samples,
                                    const WarpSlotEstimate& warpSlots,
                                    std::vector<std::int64_t> candidates) {
  if (samples.empty()) throw Error("no shared-memory measurements");
  std::vector<BufferObservation> obs;
  std::int64_t largest = 1;
  const int cap = warpSlots.slotsFor(1);  // N_slot,wsb(1) in eq. 3.10
  for (const auto& s : samples) {
    if (s.bytes < 0 || s.slots < 0)
      throw Error("shared memory and N_slot in a measurement cannot be negative");
    checkMagnitude(s.bytes, 1, s.slots);
    obs.push_back({s.bytes, 1, cap, s.slots});  // eq. 3.10: b = 1
    largest = std::max(largest, s.bytes);
  }
  if (candidates.empty()) candidates = powerOfTwoCandidates(largest);
  return fitBuffer(obs, std::move(candidates));
}

BufferEstimate estimateRegisterFile(const std::vector<RegisterSample>& samples,
                                    const WarpSlotEstimate& warpSlots,
                                    std::vector<std::int64_t> candidates) {
  if (samples.empty()) throw Error("no register measurements");
  std::vector<BufferObservation> obs;
  std::int64_t largest = 1;
  for (const auto& s : samples) {
    if (s.warps < 1 || s.registersPerWarp < 0 || s.slots < 0)
      throw Error("a register measurement needs warps >= 1, registers >= 0 and N_slot >= 0");
    checkMagnitude(s.registersPerWarp, s.warps, s.slots);
    obs.push_back({s.registersPerWarp, s.warps, warpSlots.slotsFor(s.warps), s.slots});  // eq. 3.11
    largest = std::max(largest, s.registersPerWarp);
  }
  if (candidates.empty()) candidates = powerOfTwoCandidates(largest);
  return fitBuffer(obs, std::move(candidates));
}

SlotMeasurements parseSlotMeasurements(const std::string& csvText, const std::string& file) {
  const auto table = detail::CsvTable::parse(csvText, file);
  const int testCol = table.requireColumn("test");
  const int nCol = table.requireColumn("nslot");
  SlotMeasurements m;
  auto toInt = [&](const detail::CsvRow& row, int col, long long lo) {
    const long long v = table.integer(row, col);
    if (v < lo || v > INT_MAX)
      throw Error({file, row.line, row.cells[static_cast<std::size_t>(col)].column},
                  fmt::format("value {} out of range (must be >= {})", v, lo));
    return v;
  };
  for (const auto& row : table.rows()) {
    const std::string& test = table.text(row, testCol);
    const int slots = static_cast<int>(toInt(row, nCol, 0));
    if (test == "warp_slots") {
      m.warpSlots.push_back({static_cast<int>(toInt(row, table.requireColumn("warps"), 1)), slots});
    } else if (test == "shared_memory") {
      m.sharedMemory.push_back({toInt(row, table.requireColumn("smem"), 0), slots});
    } else if (test == "registers") {
      m.registers.push_back({static_cast<int>(toInt(row, table.requireColumn("warps"), 1)),
                             toInt(row, table.requireColumn("regs"), 0), slots});
    } else {
      throw Error({file, row.line, row.cells[static_cast<std::size_t>(testCol)].column},
                  fmt::format("unknown test '{}' (expected warp_slots, shared_memory or registers)",
                              test));
    }
  }
  if (m.warpSlots.empty())
    throw Error({file, 0, 0}, "no warp_slots rows: N1 and N2 (eq. 3.12) are needed first");
  return m;
}

SlotMeasurements readSlotMeasurementsCsv(const std::string& path) {
  return parseSlotMeasurements(readTextFile(path), path);
}

}  // namespace teg::models
