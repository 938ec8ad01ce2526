#include "teg/support/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace teg {

bool progressWanted(bool json) { return !json && isatty(fileno(stderr)) == 1; }

Progress::Progress(std::ostream& out, bool enabled, Clock clock) : Progress(out, enabled, std::move(clock), Timing{}) {}

Progress::Progress(std::ostream& out, bool enabled, Clock clock, Timing timing)
    : out_(out), enabled_(enabled), clock_(std::move(clock)), timing_(timing), start_(enabled_ ? clock_() : decltype(start_){}) {}

Progress::~Progress() {
  try {
    finish();
  } catch (...) {  // a destructor must not throw; an unwritable stderr loses only the progress line
  }
}

void Progress::update(std::string_view what, std::uint64_t done, std::uint64_t total) {
  if (!enabled_) return;
  const auto now = clock_();
  if (now - start_ < timing_.delay) return;
  if (drawn_ && now - lastDraw_ < timing_.interval) return;
  std::string line = total > 0 ? fmt::format("{} {}/{} ({:.0f} %)", what, done, total,
                                             100.0 * static_cast<double>(done) / static_cast<double>(total))
                               : fmt::format("{} {}", what, done);
  const std::size_t width = line.size();
  if (width < width_) line.append(width_ - width, ' ');  // cover the longer previous line
  out_ << '\r' << line << std::flush;
  width_ = std::max(width, width_);
  lastDraw_ = now;
  drawn_ = true;
}

void Progress::finish() {
  if (!drawn_) return;
  out_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
  drawn_ = false;
  width_ = 0;
}

}  // namespace teg
