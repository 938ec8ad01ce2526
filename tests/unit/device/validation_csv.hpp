// Reading data/validation/*.csv in tests: one place for the small CSV splitter.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace teg::test {

// Splits one CSV line; fields may be double-quoted (with "" for a quote inside).
inline std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// Reads data/validation/<name> into rows of fields (header dropped).
inline std::vector<std::vector<std::string>> readValidationCsv(const std::string& name) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(std::string(TEG_SOURCE_DIR) + "/data/validation/" + name);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line))
    if (!line.empty()) rows.push_back(splitCsv(line));
  return rows;
}

}  // namespace teg::test
