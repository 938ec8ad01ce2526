// Which of a sorted list of candidate values lies in the most of a set of intervals: the
// estimators of GPUDIAG's buffers (eqs. 3.12-3.13) look for the buffer size that reproduces the
// most N_slot measurements, and the sizes one measurement agrees with form an interval. A
// segment tree over the candidates with range add and "leftmost maximum" makes adding or
// removing an interval O(log n) and the query O(1), where testing every candidate against every
// measurement was quadratic. Private to the models module.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace teg::models::detail {

class IntervalVotes {
 public:
  // `candidates` sorted ascending, without repeats.
  explicit IntervalVotes(std::vector<std::int64_t> candidates)
      : values_(std::move(candidates)), max_(4 * std::max<std::size_t>(1, values_.size()), 0),
        add_(max_.size(), 0), arg_(max_.size(), 0) {
    if (!values_.empty()) build(1, 0, values_.size() - 1);
  }

  // Adds `delta` votes to every candidate v with lo <= v <= hi.
  void add(std::int64_t lo, std::int64_t hi, int delta) {
    const auto first = static_cast<std::size_t>(std::lower_bound(values_.begin(), values_.end(), lo) - values_.begin());
    const auto last = static_cast<std::size_t>(std::upper_bound(values_.begin(), values_.end(), hi) - values_.begin());
    if (first < last) update(1, 0, values_.size() - 1, first, last - 1, delta);
  }

  [[nodiscard]] bool empty() const { return values_.empty(); }
  // The most votes any candidate has, and the smallest candidate that has them.
  [[nodiscard]] int bestVotes() const { return max_[1]; }
  [[nodiscard]] std::int64_t bestValue() const { return values_[arg_[1]]; }

 private:
  void build(std::size_t node, std::size_t lo, std::size_t hi) {
    arg_[node] = lo;
    if (lo == hi) return;
    const std::size_t mid = lo + (hi - lo) / 2;
    build(2 * node, lo, mid);
    build(2 * node + 1, mid + 1, hi);
  }
  void update(std::size_t node, std::size_t lo, std::size_t hi, std::size_t from, std::size_t to, int delta) {
    if (from <= lo && hi <= to) {
      add_[node] += delta;
      max_[node] += delta;
      return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    if (from <= mid) update(2 * node, lo, mid, from, to, delta);
    if (to > mid) update(2 * node + 1, mid + 1, hi, from, to, delta);
    // A node's maximum is its own pending add plus its better child's; ties go left (smaller).
    const bool left = max_[2 * node] >= max_[2 * node + 1];
    max_[node] = add_[node] + (left ? max_[2 * node] : max_[2 * node + 1]);
    arg_[node] = left ? arg_[2 * node] : arg_[2 * node + 1];
  }

  std::vector<std::int64_t> values_;
  std::vector<int> max_, add_;
  std::vector<std::size_t> arg_;
};

}  // namespace teg::models::detail
