#include "csv_table.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <unordered_set>

#include "teg/support/error.hpp"

namespace teg::models::detail {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Splits one line at commas; each cell trimmed, with the 1-based column of its first character.
std::vector<CsvCell> splitLine(const std::string& line) {
  std::vector<CsvCell> cells;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    const std::size_t end = comma == std::string::npos ? line.size() : comma;
    std::size_t b = start, e = end;
    while (b < e && isSpace(line[b])) ++b;
    while (e > b && isSpace(line[e - 1])) --e;
    cells.push_back({line.substr(b, e - b), static_cast<int>((b < end ? b : start) + 1)});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cells;
}

}  // namespace

CsvTable CsvTable::parse(const std::string& text, const std::string& file) {
  CsvTable t;
  t.file_ = file;
  std::size_t pos = 0;
  int lineNo = 0;
  bool haveHeader = false;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    ++lineNo;
    pos = nl == std::string::npos ? text.size() + 1 : nl + 1;
    std::size_t first = 0;
    while (first < line.size() && isSpace(line[first])) ++first;
    if (first == line.size() || line[first] == '#') continue;
    auto cells = splitLine(line);
    if (!haveHeader) {
      std::unordered_set<std::string> seen;  // a set: a header of many columns stays linear
      for (const auto& c : cells) {
        if (c.text.empty())
          throw Error({file, lineNo, c.column}, "empty column name in the header");
        if (!seen.insert(c.text).second)
          throw Error({file, lineNo, c.column}, fmt::format("duplicate column '{}'", c.text));
        t.header_.push_back(c.text);
      }
      haveHeader = true;
      continue;
    }
    if (cells.size() != t.header_.size())
      throw Error({file, lineNo, 1}, fmt::format("{} cells, the header has {} columns",
                                                 cells.size(), t.header_.size()));
    t.rows_.push_back({lineNo, std::move(cells)});
  }
  if (!haveHeader) throw Error({file, 0, 0}, "no header row (the file is empty)");
  return t;
}

std::optional<int> CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

int CsvTable::requireColumn(const std::string& name) const {
  if (auto c = column(name)) return *c;
  throw Error({file_, 1, 0}, fmt::format("missing column '{}'", name));
}

const std::string& CsvTable::text(const CsvRow& row, int column) const {
  return row.cells.at(static_cast<std::size_t>(column)).text;
}

double CsvTable::number(const CsvRow& row, int column) const {
  const auto& cell = row.cells.at(static_cast<std::size_t>(column));
  double v = 0;
  const char* b = cell.text.data();
  const char* e = b + cell.text.size();
  const auto r = std::from_chars(b, e, v);
  if (cell.text.empty() || r.ec != std::errc() || r.ptr != e || !std::isfinite(v))
    throw Error({file_, row.line, cell.column},
                fmt::format("column '{}': '{}' is not a number", header_[column], cell.text));
  return v;
}

long long CsvTable::integer(const CsvRow& row, int column) const {
  const auto& cell = row.cells.at(static_cast<std::size_t>(column));
  long long v = 0;
  const char* b = cell.text.data();
  const char* e = b + cell.text.size();
  const auto r = std::from_chars(b, e, v);
  if (cell.text.empty() || r.ec != std::errc() || r.ptr != e)
    throw Error({file_, row.line, cell.column},
                fmt::format("column '{}': '{}' is not an integer", header_[column], cell.text));
  return v;
}

}  // namespace teg::models::detail
