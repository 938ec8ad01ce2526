// A one-line progress indicator for work that may run longer than a second (emulating blocks,
// replaying what-ifs, validation suites): "emulating blocks 120/400 (30 %)" rewritten in place
// on stderr. It shows only where a person is watching: the caller enables it when stderr is a
// terminal and the output is not --json (progressWanted), so pipes, files and tools see nothing.
// It stays quiet for the first second (short runs never flicker) and then redraws at most every
// `interval`; finish() (or the destructor) erases the line so the report starts on a clean one.
// The clock is injected so the rules are testable without waiting.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace teg {

// True when stderr is a terminal and the command does not print JSON.
bool progressWanted(bool json);

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  struct Timing {
    std::chrono::milliseconds delay{1000};    // quiet this long after construction
    std::chrono::milliseconds interval{100};  // then at most one redraw per interval
  };

  Progress(std::ostream& out, bool enabled, Clock clock = &std::chrono::steady_clock::now);
  Progress(std::ostream& out, bool enabled, Clock clock, Timing timing);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  // `what` has done `done` of `total` (total 0: unknown).
  void update(std::string_view what, std::uint64_t done, std::uint64_t total);
  // Erases the line if one was drawn.
  void finish();
  [[nodiscard]] bool enabled() const { return enabled_; }

 private:
  std::ostream& out_;
  bool enabled_;
  Clock clock_;
  Timing timing_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point lastDraw_{};
  bool drawn_ = false;
  std::size_t width_ = 0;  // characters of the line on screen
};

}  // namespace teg
