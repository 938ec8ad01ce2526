// A plain-text table for terminal reports: columns sized to their widest cell, numbers right-
// aligned, an optional title. Views build one and print it; nothing here knows about GPUs.
//
//   Table t({"resource", "blocks/SM", "limit"});
//   t.addRow({"registers", "5", "32768 regs/SM"});
//   std::cout << t.render();
//
//   resource   blocks/SM  limit
//   ---------  ---------  -------------
//   registers          5  32768 regs/SM
#pragma once

#include <string>
#include <vector>

namespace teg::report {

enum class Align { Left, Right, Auto };  // Auto: right if the column's cells look numeric

class Table {
 public:
  explicit Table(std::vector<std::string> header, std::vector<Align> align = {});

  void addRow(std::vector<std::string> cells);
  [[nodiscard]] std::size_t rows() const { return rows_.size(); }
  [[nodiscard]] std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

// "key: value" lines with the keys padded to one width.
std::string renderKeyValues(const std::vector<std::pair<std::string, std::string>>& items);

}  // namespace teg::report
