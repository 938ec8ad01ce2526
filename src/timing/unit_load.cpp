#include "unit_load.hpp"

#include <algorithm>
#include <cmath>

namespace teg::timing::detail {

UnitLoad::UnitLoad(int units, int wantedBuckets)
    : wanted_(std::max(1, wantedBuckets)), growAt_(2.0 * wanted_ - 1), busy_(static_cast<std::size_t>(units)),
      wholeStarts_(static_cast<std::size_t>(units)) {}

void UnitLoad::grow(std::size_t buckets) {
  while (buckets > static_cast<std::size_t>(2 * wanted_)) {
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
    buckets = (buckets + 1) / 2;
  }
}

void UnitLoad::addSpanning(int unit, double start, double end) {
  if (end * perCycle_ > growAt_) grow(static_cast<std::size_t>(std::ceil(end * perCycle_)) + 1);
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
  const auto buckets = static_cast<std::size_t>(std::ceil(totalCycles / width_));
  std::vector<double> out(buckets, 0.0);
  double whole = 0;
  for (std::size_t b = 0; b < buckets && b < busy.size(); ++b) {
    whole += starts[b];
    out[b] = (busy[b] + whole * width_) / width_;
  }
  return out;
}

}  // namespace teg::timing::detail
