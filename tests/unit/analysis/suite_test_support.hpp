// Helpers of the tests that check validation suites against their published files.
// A published-results CSV (data/validation/*.csv) as rows of column -> cell, for the tests that
// check a suite's rows against the file they were copied from. The files hold no quoted commas in
// the columns these tests read, so a plain split is enough.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "teg/analysis/validation.hpp"

namespace teg::test {

inline std::vector<std::map<std::string, std::string>> csvRows(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    if (header.empty()) {
      header = f;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < f.size(); ++i) row[header[i]] = f[i];
    rows.push_back(row);
  }
  return rows;
}

// Each suite named is in exactly one group of groups.json, the one given (a suite's group is
// decided before teg is run on it).
inline void expectEachSuiteInItsGroup(const std::string& groupsJson, const std::map<std::string, std::string>& expected) {
  const auto groups = teg::analysis::loadValidationGroups(groupsJson);
  for (const auto& [suite, group] : expected) {
    int found = 0;
    for (const auto& g : groups)
      for (const auto& s : g.suites)
        if (s == suite) {
          EXPECT_EQ(g.name, group) << suite;
          ++found;
        }
    EXPECT_EQ(found, 1) << suite;
  }
}

}  // namespace teg::test
