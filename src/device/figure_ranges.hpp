// The physically possible range of each numeric figure, read from
// data/devices/ranges/figure_ranges.json (each range there says why). The loader checks every
// figure of every device file against it, so that no model ever computes with a clock of 0 MHz,
// a latency of 1e18 cycles or a bandwidth of 1e-300 GB/s.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace teg::device::detail {

struct FigureRange {
  std::vector<std::string> patterns;  // keys, or prefixes ending in '*'
  double min = 0, max = 0;
  bool zeroMeansAbsent = false;       // exactly 0 is also allowed ("not present")
  std::string unit, why;
};

// The ranges file, read once. Throws teg::Error naming the file if it is missing or malformed,
// or if a numeric figure of the figure table has no range.
const std::vector<FigureRange>& figureRanges();
std::string figureRangesFile();

// A one-line reason why `value` (a number, an array of numbers, or a measured figure's object)
// lies outside the range of `key`, naming the range and why; "" when it is inside.
std::string checkFigureRange(const std::string& key, const nlohmann::json& value);

}  // namespace teg::device::detail
