#include "unit_load.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace teg::timing::detail {

UnitLoad::UnitLoad(int units, int wantedBuckets)
    : wanted_(std::max(1, wantedBuckets)), growAt_(2.0 * wanted_ - 1), busy_(static_cast<std::size_t>(units)),
      wholeStarts_(static_cast<std::size_t>(units)) {}

// `buckets` is a double: a time far beyond 2^64 buckets of the current width must widen them,
// not wrap a size_t (the device figures are bounded, so it stays finite).
void UnitLoad::grow(double buckets) {
  if (!std::isfinite(buckets)) throw std::logic_error("timing engine: a unit busy until a non-finite time");
  while (buckets > 2.0 * wanted_) {
    for (std::size_t u = 0; u < busy_.size(); ++u) {
      auto& unit = busy_[u];
      auto& starts = wholeStarts_[u];
      std::vector<double> merged((unit.size() + 1) / 2, 0.0);
      double whole = 0;
      for (std::size_t i = 0; i < unit.size(); ++i) {
        whole += starts[i];
        merged[i / 2] += unit[i] + whole * width_;
      }
      unit.swap(merged);
      starts.assign(unit.size(), 0.0);
    }
    width_ *= 2;
    perCycle_ = 1.0 / width_;
    buckets = std::ceil(buckets / 2);
  }
}

void UnitLoad::addSpanning(int unit, double start, double end) {
  if (end * perCycle_ > growAt_) grow(std::ceil(end * perCycle_) + 1);
  auto& series = busy_[static_cast<std::size_t>(unit)];
  auto& starts = wholeStarts_[static_cast<std::size_t>(unit)];
  const auto first = static_cast<std::size_t>(start * perCycle_);
  const auto last = static_cast<std::size_t>(end * perCycle_);
  if (series.size() <= last) {
    series.resize(last + 1, 0.0);
    starts.resize(last + 1, 0.0);
  }
  if (first == last) {
    series[first] += end - start;
    return;
  }
  series[first] += static_cast<double>(first + 1) * width_ - start;
  series[last] += end - static_cast<double>(last) * width_;
  if (last > first + 1) {
    starts[first + 1] += 1;
    starts[last] -= 1;
  }
}

std::vector<double> UnitLoad::series(int unit, double totalCycles) const {
  const auto& busy = busy_[static_cast<std::size_t>(unit)];
  const auto& starts = wholeStarts_[static_cast<std::size_t>(unit)];
  // Past the last interval every bucket is 0: a total far beyond it (a long wait that no unit
  // was busy for) is capped there rather than allocated bucket by bucket.
  const double cap = static_cast<double>(std::max(busy.size(), static_cast<std::size_t>(2 * wanted_)));
  const double wanted = std::ceil(totalCycles / width_);
  const auto buckets = wanted > 0 ? static_cast<std::size_t>(std::min(wanted, cap)) : std::size_t{0};
  std::vector<double> out(buckets, 0.0);
  double whole = 0;
  for (std::size_t b = 0; b < buckets && b < busy.size(); ++b) {
    whole += starts[b];
    out[b] = (busy[b] + whole * width_) / width_;
  }
  return out;
}

}  // namespace teg::timing::detail
