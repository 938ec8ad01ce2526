// A small comma-separated table reader for the models' measurement files (eq. 15 runtimes,
// GPUDIAG N_slot measurements). Header row first; blank lines and lines starting with '#' are
// skipped; cells are trimmed; no quoting (the files hold numbers and short names). Every error
// names file:line:col. Private to the models module.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace teg::models::detail {

struct CsvCell {
  std::string text;
  int column = 0;  // 1-based column of the cell's first character
};

struct CsvRow {
  int line = 0;
  std::vector<CsvCell> cells;
};

class CsvTable {
 public:
  // Throws teg::Error (file:line:col) on an empty file, a duplicate column name or a row whose
  // cell count differs from the header's.
  static CsvTable parse(const std::string& text, const std::string& file);

  [[nodiscard]] std::optional<int> column(const std::string& name) const;
  // Throws teg::Error naming the file and the missing column.
  [[nodiscard]] int requireColumn(const std::string& name) const;
  [[nodiscard]] const std::vector<CsvRow>& rows() const { return rows_; }
  // The cell as a finite number; throws teg::Error at file:line:col otherwise.
  [[nodiscard]] double number(const CsvRow& row, int column) const;
  [[nodiscard]] long long integer(const CsvRow& row, int column) const;
  [[nodiscard]] const std::string& text(const CsvRow& row, int column) const;
  [[nodiscard]] const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<std::string> header_;
  std::vector<CsvRow> rows_;
};

}  // namespace teg::models::detail
