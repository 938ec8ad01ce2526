// The figure keys a device file may use, one row per key: its JSON type, the group it is shown
// under, whether every device must have it, and how it is stored in teg::device::Device. This is
// the single place that ties a JSON key to a field; the loader rejects any key not listed here
// (a typo in a device file is an error, never a silently ignored figure).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "teg/device/device.hpp"

namespace teg::device::detail {

enum class FigureKind {
  PositiveInt,        // integer >= 1
  NonNegativeInt,     // integer >= 0
  PositiveNumber,     // number > 0
  NonNegativeNumber,  // number >= 0
  Text,               // non-empty string
  ComputeCapability,  // "X.Y"
  IntTriple,          // [x, y, z] of positive integers
  AscendingInts,      // non-empty array of non-negative integers, strictly ascending
  Granularity,        // "warp" | "block"
  Measured,           // {"value", "unit", "method", "source"}
};

// Groups `teg devices show` prints the figures under.
enum class FigureGroup { Identity, Limits, Issue, Clocks, Memory, Throughput, Timing, Measured };
const char* figureGroupName(FigureGroup group);

enum class Required { Always, ProductOnly, No };

struct FigureSpec {
  std::string key;
  FigureKind kind;
  FigureGroup group;
  Required required;
  // Stores an already type-checked value into the device.
  void (*apply)(Device& device, const std::string& key, const nlohmann::json& value);
};

// Every fixed key, in display order. Measured figures ("latency.<what>") are matched by prefix.
const std::vector<FigureSpec>& figureSpecs();

// The spec of `key` (including "latency.<what>"), or nullptr for an unknown key.
const FigureSpec* findFigureSpec(const std::string& key);

// Position of `key` in figureSpecs() (measured figures after all of them), for display order.
std::size_t figureOrder(const std::string& key);

// A one-line reason why `value` does not fit `kind`, or "" when it fits.
std::string checkFigureValue(FigureKind kind, const nlohmann::json& value);

// Human-readable text of a figure's value ("65536", "[1024, 1024, 64]", "8.0").
std::string figureValueText(const nlohmann::json& value);

// The prefix that marks measured figures.
inline constexpr const char* kMeasuredPrefix = "latency.";

}  // namespace teg::device::detail
