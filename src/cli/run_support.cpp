// teg run: block selection, buffer comparison and dumps.
#include "run_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "teg/emu/npy.hpp"
#include "teg/support/error.hpp"
#include "teg/support/output_file.hpp"

namespace teg::cli {

namespace {

std::uint64_t parseIndex(const std::string& spec, const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw Error(fmt::format("--blocks '{}': '{}' is not a block index (expected e.g. 0-15, 0,5,9 or first-wave)",
                            spec, text));
  return value;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

std::vector<emu::BlockRange> parseBlockSpec(const std::string& spec, std::uint64_t gridBlocks,
                                            std::optional<std::uint64_t> firstWave) {
  const std::string s = trim(spec);
  if (s.empty()) throw Error("--blocks: empty (expected e.g. first-wave, 0-15 or 0,5,9)");
  if (s == "all") return {emu::BlockRange{0, gridBlocks}};
  if (s == "first-wave") {
    if (!firstWave || *firstWave == 0)
      throw Error("--blocks first-wave: the GPU's first wave is unknown (it needs an SM count: choose a product "
                  "GPU with --gpu, not a generic sm_XY entry)");
    return {emu::BlockRange{0, std::min(*firstWave, gridBlocks)}};
  }
  std::vector<emu::BlockRange> ranges;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = std::min(s.find(',', start), s.size());
    const std::string item = trim(s.substr(start, comma - start));
    const std::size_t dash = item.find('-');
    const std::uint64_t lo = parseIndex(spec, dash == std::string::npos ? item : trim(item.substr(0, dash)));
    const std::uint64_t hi = dash == std::string::npos ? lo : parseIndex(spec, trim(item.substr(dash + 1)));
    if (hi < lo) throw Error(fmt::format("--blocks '{}': range {} ends before it starts", spec, item));
    if (hi >= gridBlocks)
      throw Error(fmt::format("--blocks '{}': block {} is outside the grid (blocks 0-{})", spec, hi, gridBlocks - 1));
    ranges.push_back(emu::BlockRange{lo, hi - lo + 1});
    start = comma + 1;
  }
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<emu::BlockRange> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().first + merged.back().count) {
      auto& m = merged.back();
      m.count = std::max(m.first + m.count, r.first + r.count) - m.first;
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

std::string describeBlocks(const std::vector<emu::BlockRange>& ranges) {
  std::string out;
  for (const auto& r : ranges) {
    if (!out.empty()) out += ",";
    out += r.count == 1 ? fmt::format("{}", r.first) : fmt::format("{}-{}", r.first, r.first + r.count - 1);
  }
  return out;
}

std::uint64_t countBlocks(const std::vector<emu::BlockRange>& ranges) {
  std::uint64_t n = 0;
  for (const auto& r : ranges) n += r.count;
  return n;
}

namespace {

template <typename T>
T load(std::span<const std::byte> bytes, std::uint64_t index) {
  T v;
  std::memcpy(&v, bytes.data() + index * sizeof(T), sizeof(T));
  return v;
}

// Value as double (floats, and integers for the difference); exact integers separately.
double asDouble(emu::ScalarType type, std::span<const std::byte> b, std::uint64_t i) {
  using emu::ScalarType;
  switch (type) {
    case ScalarType::I8: return load<std::int8_t>(b, i);
    case ScalarType::U8:
    case ScalarType::Bool: return load<std::uint8_t>(b, i);
    case ScalarType::I16: return load<std::int16_t>(b, i);
    case ScalarType::U16: return load<std::uint16_t>(b, i);
    case ScalarType::I32: return load<std::int32_t>(b, i);
    case ScalarType::U32: return load<std::uint32_t>(b, i);
    case ScalarType::I64: return static_cast<double>(load<std::int64_t>(b, i));
    case ScalarType::U64: return static_cast<double>(load<std::uint64_t>(b, i));
    case ScalarType::F16: return emu::halfToFloat(load<std::uint16_t>(b, i));
    case ScalarType::F32: return load<float>(b, i);
    case ScalarType::F64: return load<double>(b, i);
  }
  return 0;
}

bool bytesEqual(std::span<const std::byte> a, std::span<const std::byte> b, std::size_t size, std::uint64_t i) {
  return std::memcmp(a.data() + i * size, b.data() + i * size, size) == 0;
}

}  // namespace

std::string formatElement(emu::ScalarType type, std::span<const std::byte> bytes, std::uint64_t index) {
  using emu::ScalarType;
  switch (type) {
    case ScalarType::I64: return fmt::format("{}", load<std::int64_t>(bytes, index));
    case ScalarType::U64: return fmt::format("{}", load<std::uint64_t>(bytes, index));
    case ScalarType::F32: return fmt::format("{:.9g}", load<float>(bytes, index));
    case ScalarType::F64: return fmt::format("{:.17g}", load<double>(bytes, index));
    case ScalarType::F16: return fmt::format("{:.5g}", asDouble(type, bytes, index));
    default: return fmt::format("{}", static_cast<long long>(asDouble(type, bytes, index)));
  }
}

BufferComparison compareBuffer(emu::ScalarType type, std::span<const std::byte> actual,
                               std::span<const std::byte> expected, double tolerance) {
  const auto size = static_cast<std::size_t>(emu::scalarTypeSize(type));
  if (actual.size() != expected.size())
    throw Error(fmt::format("expected values hold {} bytes, the buffer {}", expected.size(), actual.size()));
  BufferComparison c;
  c.elements = actual.size() / size;
  const bool isFloat = emu::isFloatingPoint(type);
  for (std::uint64_t i = 0; i < c.elements; ++i) {
    if (bytesEqual(actual, expected, size, i)) continue;
    // The difference is measured for every type (the report's "max |diff|"), but only a float or
    // a nonzero tolerance lets a pair that differs in its bytes match.
    bool match = false;
    const double a = asDouble(type, actual, i), e = asDouble(type, expected, i);
    if (std::isnan(a) || std::isnan(e)) {
      match = isFloat && std::isnan(a) && std::isnan(e);
    } else if (std::isinf(a) || std::isinf(e)) {
      match = isFloat && a == e;
    } else {
      const double d = std::fabs(a - e);
      c.maxAbsDifference = std::max(c.maxAbsDifference, d);
      match = (isFloat || tolerance > 0) && d <= tolerance;
    }
    if (match) continue;
    if (c.mismatches++ == 0) {
      c.firstIndex = i;
      c.firstActual = formatElement(type, actual, i);
      c.firstExpected = formatElement(type, expected, i);
    }
  }
  return c;
}

void writeDump(const std::string& path, emu::ScalarType type, std::span<const std::byte> bytes) {
  if (std::filesystem::path(path).extension() == ".npy") {
    emu::writeNpy(path, type, std::vector<std::byte>(bytes.begin(), bytes.end()));
    return;
  }
  writeOutputFile(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace teg::cli
