// The load of each functional unit over time: the mean number of warp instructions in flight in
// it per time bucket (Lai §3.5, Figs. 3.9-3.15: "workload refers to the warp instructions
// executing concurrently in the function units"). Buckets start narrow and double in width
// (merging pairs) whenever there would be more than twice the wanted number, so memory stays
// bounded however long the run is.
#pragma once

#include <vector>

namespace teg::timing::detail {

class UnitLoad {
 public:
  UnitLoad(int units, int wantedBuckets);

  // An instruction of `unit` in flight during [start, end). Inline for the common case, an
  // interval inside one existing bucket: it is called once per simulated warp instruction.
  void add(int unit, double start, double end) {
    if (end <= start) return;
    auto& series = busy_[static_cast<std::size_t>(unit)];
    const double last = end * perCycle_;
    if (last < static_cast<double>(series.size()) && last <= growAt_) {
      const auto first = static_cast<std::size_t>(start * perCycle_);
      if (first == static_cast<std::size_t>(last)) {
        series[first] += end - start;
        return;
      }
    }
    addSpanning(unit, start, end);
  }
  // `wantedBuckets` (or fewer) values covering [0, totalCycles).
  [[nodiscard]] std::vector<double> series(int unit, double totalCycles) const;
  [[nodiscard]] double bucketCycles() const { return width_; }

 private:
  void grow(double buckets);
  void addSpanning(int unit, double start, double end);
  int wanted_;
  double width_ = 16;
  // 1 / width_: widths are powers of two, so multiplying by it is exactly dividing by width_
  // (and much cheaper, once per instruction).
  double perCycle_ = 1.0 / width_;
  // grow() is needed only when ceil(end / width) + 1 > 2 x wanted, i.e. end / width > 2 x wanted - 1.
  double growAt_;
  std::vector<std::vector<double>> busy_;  // per unit: in-flight cycles per bucket, except...
  // ...the buckets an interval covers whole, counted in a difference array (an interval adds +1
  // where its whole buckets start and -1 where they end): an instruction waiting hundreds of
  // cycles for memory costs two entries, not one per bucket.
  std::vector<std::vector<double>> wholeStarts_;
};

}  // namespace teg::timing::detail
