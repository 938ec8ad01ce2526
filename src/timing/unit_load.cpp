#include "unit_load.hpp"

#include <algorithm>
#include <cmath>

namespace teg::timing::detail {

UnitLoad::UnitLoad(int units, int wantedBuckets)
    : wanted_(std::max(1, wantedBuckets)), busy_(static_cast<std::size_t>(units)) {}

void UnitLoad::grow(std::size_t buckets) {
  while (buckets > static_cast<std::size_t>(2 * wanted_)) {
    for (auto& unit : busy_) {
      std::vector<double> merged((unit.size() + 1) / 2, 0.0);
      for (std::size_t i = 0; i < unit.size(); ++i) merged[i / 2] += unit[i];
      unit.swap(merged);
    }
    width_ *= 2;
    perCycle_ = 1.0 / width_;
    buckets = (buckets + 1) / 2;
  }
}

void UnitLoad::add(int unit, double start, double end) {
  if (end <= start) return;
  // grow() is needed only when ceil(end / width) + 1 > 2 x wanted, i.e. end / width > 2 x wanted - 1.
  if (end * perCycle_ > 2.0 * wanted_ - 1) grow(static_cast<std::size_t>(std::ceil(end * perCycle_)) + 1);
  auto& series = busy_[static_cast<std::size_t>(unit)];
  const auto last = static_cast<std::size_t>(end * perCycle_);
  if (series.size() <= last) series.resize(last + 1, 0.0);
  for (auto b = static_cast<std::size_t>(start * perCycle_); b <= last; ++b) {
    const double lo = std::max(start, static_cast<double>(b) * width_);
    const double hi = std::min(end, static_cast<double>(b + 1) * width_);
    if (hi > lo) series[b] += hi - lo;
  }
}

std::vector<double> UnitLoad::series(int unit, double totalCycles) const {
  const auto& busy = busy_[static_cast<std::size_t>(unit)];
  const auto buckets = static_cast<std::size_t>(std::ceil(totalCycles / width_));
  std::vector<double> out(buckets, 0.0);
  for (std::size_t b = 0; b < buckets && b < busy.size(); ++b) out[b] = busy[b] / width_;
  return out;
}

}  // namespace teg::timing::detail
