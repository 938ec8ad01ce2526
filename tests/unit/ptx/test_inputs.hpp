// Shared helpers for the ptx tests: the committed PTX inputs (tests/unit/ptx/inputs/*.ptx).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace teg::ptx::test {

inline std::string inputsDir() { return std::string(TEG_SOURCE_DIR) + "/tests/unit/ptx/inputs"; }

inline std::vector<std::string> inputFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(inputsDir()))
    if (e.path().extension() == ".ptx") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace teg::ptx::test
