// Every command the README prints works as printed (issue 24): each `teg ...` line of its ```sh
// blocks (continuation lines joined, comments dropped) runs and exits 0. Commands that name a
// file the repository does not have (kernel.cu, L.json: the user's own), that write files, or
// that use a pipe or a redirection are left out; the test lists what it ran and what it skipped.
// A `teg validate` of every suite (no suite named: `teg validate`, `teg validate --models`) runs
// here on the first 2 rows of each suite (`--rows 2`): its options, every suite's set-up and the
// printing are checked, and the whole run, minutes long, is made once for all the tests that need
// it by the ctest fixture ValidationRun.auto (validation_rows_test.cpp checks every row of it).
// Label "validation" (release pass only): the predictions take minutes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_teg.hpp"

namespace {

namespace fs = std::filesystem;

// Shell-like words: whitespace-separated, single and double quotes group; a '#' that starts a
// word outside quotes starts a comment.
std::vector<std::string> shellWords(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (const char c : line) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
      continue;
    }
    if (c == '\'' || c == '"') { quote = c; inWord = true; continue; }
    if (c == ' ' || c == '\t') {
      if (inWord) words.push_back(word);
      word.clear();
      inWord = false;
      continue;
    }
    if (c == '#' && !inWord) break;
    word += c;
    inWord = true;
  }
  if (inWord) words.push_back(word);
  return words;
}

std::vector<std::string> readmeCommands() {
  std::ifstream in(std::string(TEG_SOURCE_DIR) + "/README.md");
  std::vector<std::string> commands;
  std::string line, pending;
  bool inShell = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      inShell = !inShell && line.rfind("```sh", 0) == 0;
      continue;
    }
    if (!inShell) continue;
    if (!pending.empty()) pending += " " + line;
    else if (line.rfind("teg ", 0) == 0) pending = line;
    else continue;
    if (!pending.empty() && pending.back() == '\\') {
      pending.pop_back();
      continue;
    }
    commands.push_back(pending);
    pending.clear();
  }
  return commands;
}

bool looksLikeFile(const std::string& w) {
  for (const char* ext : {".json", ".cu", ".ptx", ".csv", ".npy", ".bin", ".trace"})
    if (w.size() > std::string(ext).size() && w.ends_with(ext)) return true;
  return w.find('/') != std::string::npos && w.find('=') == std::string::npos;
}

// `validate` with options only (no suite named): every suite.
bool wholeValidation(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "validate") return false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--isa" || args[i] == "--threads") ++i;  // the option's value
    else if (args[i].rfind("--", 0) != 0) return false;
  }
  return true;
}

}  // namespace

TEST(Readme, EveryCommandAsPrintedExitsZero) {
  if (access("/usr/local/cuda/bin/nvcc", X_OK) != 0 && std::getenv("CUDA_HOME") == nullptr)
    GTEST_SKIP() << "nvcc not found: the README's commands compile kernels";
  const auto commands = readmeCommands();
  ASSERT_GE(commands.size(), 30u) << "the README's command blocks were not found";
  int ran = 0, shortened = 0;
  std::string skipped;
  for (const auto& command : commands) {
    auto words = shellWords(command);
    bool skip = command.find('|') != std::string::npos || command.find('>') != std::string::npos;
    for (auto& w : words) {
      if (w == "--dump" || w == "--trace-out" || w == "--ptx-out") skip = true;  // writes files
      if (!looksLikeFile(w)) continue;
      const fs::path p = fs::path(TEG_SOURCE_DIR) / w;
      if (!fs::exists(p)) skip = true;  // the user's own file
      else w = p.string();
    }
    if (skip) {
      skipped += "\n  " + command;
      continue;
    }
    words.erase(words.begin());  // "teg"
    if (wholeValidation(words)) {
      words.insert(words.end(), {"--rows", "2"});
      ++shortened;
    }
    const auto r = teg::test::runTeg(words);
    EXPECT_EQ(r.exitCode, 0) << command << "\n" << r.err.substr(0, 2000);
    ++ran;
  }
  std::cout << "ran " << ran << " README commands (" << shortened
            << " whole validations on 2 rows per suite); skipped:" << skipped << "\n";
  EXPECT_GE(ran, 25);
}
