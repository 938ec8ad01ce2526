// Runs a program with an argument vector — no shell, so file names with spaces or quotes reach
// it unchanged and nothing is ever interpreted — and captures its stdout and stderr.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace teg::toolchain {

struct ProcessResult {
  int exitCode = -1;  // 128 + signal number when the program was killed
  bool timedOut = false;  // killed (with its process group) because the timeout passed
  std::string out;
  std::string err;
};

// argv[0] is the program's path. Output goes through files in `scratch` (no pipes, so a chatty
// program cannot dead-lock us). The program runs in a process group of its own; when it has not
// finished after `timeout` (zero: no limit), the whole group (nvcc and the cicc/ptxas it started)
// is killed and the result says `timedOut`. Throws teg::Error when the program cannot be started.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::filesystem::path& scratch,
                         std::chrono::milliseconds timeout = std::chrono::milliseconds::zero());

}  // namespace teg::toolchain
