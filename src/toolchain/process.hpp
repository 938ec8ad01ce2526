// Runs a program with an argument vector — no shell, so file names with spaces or quotes reach
// it unchanged and nothing is ever interpreted — and captures its stdout and stderr.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace teg::toolchain {

struct ProcessResult {
  int exitCode = -1;  // 128 + signal number when the program was killed
  std::string out;
  std::string err;
};

// argv[0] is the program's path. Output goes through files in `scratch` (no pipes, so a chatty
// program cannot dead-lock us). Throws teg::Error when the program cannot be started.
ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::filesystem::path& scratch);

}  // namespace teg::toolchain
