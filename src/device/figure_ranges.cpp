#include "figure_ranges.hpp"

#include <fmt/format.h>

#include "figure_table.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::device::detail {

namespace {

using nlohmann::json;

bool matches(const std::string& pattern, const std::string& key) {
  if (!pattern.empty() && pattern.back() == '*')
    return key.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  return pattern == key;
}

const FigureRange* findRange(const std::vector<FigureRange>& ranges, const std::string& key) {
  for (const auto& r : ranges)
    for (const auto& p : r.patterns)
      if (matches(p, key)) return &r;
  return nullptr;
}

bool isNumericKind(FigureKind kind) {
  return kind != FigureKind::Text && kind != FigureKind::ComputeCapability && kind != FigureKind::Granularity;
}

std::vector<FigureRange> load(const std::string& path) {
  const json doc = readJsonFile(path);
  const SourceLocation where{path, 0, 0};
  if (!doc.is_object() || !doc.contains("ranges") || !doc["ranges"].is_array())
    throw Error(where, "expected an object with an array \"ranges\"");
  std::vector<FigureRange> ranges;
  for (std::size_t i = 0; i < doc["ranges"].size(); ++i) {
    const json& r = doc["ranges"][i];
    const std::string field = fmt::format("ranges[{}]", i);
    FigureRange range;
    try {
      range.patterns = r.at("figures").get<std::vector<std::string>>();
      range.min = r.at("min").get<double>();
      range.max = r.at("max").get<double>();
      range.unit = r.at("unit").get<std::string>();
      range.why = r.at("why").get<std::string>();
      range.zeroMeansAbsent = r.value("zero_means_absent", false);
    } catch (const json::exception& e) {
      throw Error(where, fmt::format("{}: expected figures, min, max, unit and why ({})", field, e.what()));
    }
    if (range.patterns.empty() || !(range.min <= range.max) || range.why.empty())
      throw Error(where, fmt::format("{}: needs at least one figure, min <= max and a reason", field));
    ranges.push_back(std::move(range));
  }
  // Every numeric figure is bounded: an unlisted one would reach the models unchecked.
  for (const auto& spec : figureSpecs())
    if (isNumericKind(spec.kind) && findRange(ranges, spec.key) == nullptr)
      throw Error(where, fmt::format("no range for figure '{}'", spec.key));
  if (findRange(ranges, std::string(kMeasuredPrefix) + "x") == nullptr)
    throw Error(where, fmt::format("no range for the measured figures '{}*'", kMeasuredPrefix));
  return ranges;
}

std::string rangeText(const FigureRange& r) {
  return fmt::format("{}{} to {}{}{}", r.zeroMeansAbsent ? "0 (absent) or " : "", r.min, r.max,
                     r.unit.empty() ? "" : " ", r.unit);
}

}  // namespace

std::string figureRangesFile() { return dataDirectory() + "/devices/ranges/figure_ranges.json"; }

const std::vector<FigureRange>& figureRanges() {
  static const std::vector<FigureRange> ranges = load(figureRangesFile());
  return ranges;
}

std::string checkFigureRange(const std::string& key, const json& value) {
  const json& number = value.is_object() && value.contains("value") ? value["value"] : value;
  if (!number.is_number() && !number.is_array()) return "";
  const FigureRange* range = findRange(figureRanges(), key);
  if (range == nullptr) return "";  // figureRanges() guarantees one for every numeric figure
  const auto check = [&](const json& v) -> std::string {
    if (!v.is_number()) return "";
    const double x = v.get<double>();
    if ((x >= range->min && x <= range->max) || (range->zeroMeansAbsent && x == 0)) return "";
    return fmt::format("{} is outside the possible range {} ({}; {})", v.dump(), rangeText(*range), range->why,
                       figureRangesFile());
  };
  if (number.is_array()) {
    for (const auto& v : number)
      if (auto reason = check(v); !reason.empty()) return reason;
    return "";
  }
  return check(number);
}

}  // namespace teg::device::detail
