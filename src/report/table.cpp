#include "teg/report/table.hpp"

#include <algorithm>
#include <cctype>

namespace teg::report {

namespace {

// UTF-8 aware width: count code points, not bytes, so "×" or "²" do not skew columns.
std::size_t displayWidth(const std::string& s) {
  std::size_t width = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++width;
  return width;
}

bool looksNumeric(const std::string& s) {
  if (s.empty()) return false;
  const char c = s.front();
  return std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '+' || c == '.') && s.size() > 1);
}

void pad(std::string& out, std::size_t n) { out.append(n, ' '); }

}  // namespace

Table::Table(std::vector<std::string> header, std::vector<Align> align)
    : header_(std::move(header)), align_(std::move(align)) {
  align_.resize(header_.size(), Align::Auto);
}

void Table::addRow(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string Table::render() const {
  const std::size_t n = header_.size();
  std::vector<std::size_t> width(n);
  std::vector<bool> right(n);
  for (std::size_t c = 0; c < n; ++c) {
    width[c] = displayWidth(header_[c]);
    bool numeric = !rows_.empty();
    for (const auto& row : rows_) {
      width[c] = std::max(width[c], displayWidth(row[c]));
      if (!row[c].empty() && !looksNumeric(row[c])) numeric = false;
    }
    right[c] = align_[c] == Align::Right || (align_[c] == Align::Auto && numeric);
  }
  std::string out;
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t gap = width[c] - displayWidth(cells[c]);
      if (right[c]) pad(line, gap);
      line += cells[c];
      if (!right[c] && c + 1 < n) pad(line, gap);
      if (c + 1 < n) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  emit(header_);
  std::vector<std::string> rule(n);
  for (std::size_t c = 0; c < n; ++c) rule[c] = std::string(width[c], '-');
  emit(rule);
  for (const auto& row : rows_) emit(row);
  return out;
}

std::string renderKeyValues(const std::vector<std::pair<std::string, std::string>>& items) {
  std::size_t width = 0;
  for (const auto& [key, value] : items) width = std::max(width, displayWidth(key));
  std::string out;
  for (const auto& [key, value] : items) {
    out += key;
    out += ':';
    pad(out, width - displayWidth(key) + 1);
    out += value;
    out += '\n';
  }
  return out;
}

}  // namespace teg::report
