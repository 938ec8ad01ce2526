// Runs the built `teg` binary with arguments (and optional stdin) and captures what it prints.
#pragma once

#include <string>
#include <vector>

namespace teg::test {

struct CommandResult {
  int exitCode = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs TEG_EXECUTABLE with `args` (no shell: arguments are passed as they are). With
// `stdoutPath`, its standard output goes there (e.g. /dev/full) and `out` stays empty.
CommandResult runTeg(const std::vector<std::string>& args, const std::string& stdinText = "",
                     const std::string& stdoutPath = "");

// Writes `text` to a fresh file under the test temp directory and returns its path.
std::string writeTempFile(const std::string& name, const std::string& text);

// The value of a device figure as `teg devices show <gpu> --json` gives it (a test failure, and 0,
// when the device has no such figure).
double deviceFigure(const std::string& gpu, const std::string& key);

}  // namespace teg::test
