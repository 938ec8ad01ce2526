// Counts the blocks an emulation has finished and tells a callback (a progress line). A trace
// listener, so it rides along with the timing engine or the statistics in a TraceFanout.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "teg/trace/trace.hpp"

namespace teg::analysis {

class BlockProgress final : public trace::TraceListener {
 public:
  using Callback = std::function<void(std::uint64_t blocksDone)>;
  explicit BlockProgress(Callback callback) : callback_(std::move(callback)) {}
  void instruction(const trace::WarpInstruction&) override {}
  void endBlock(std::uint32_t) override {
    if (callback_) callback_(++done_);
  }

 private:
  Callback callback_;
  std::uint64_t done_ = 0;
};

}  // namespace teg::analysis
