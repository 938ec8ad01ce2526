#include "run_teg.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace teg::test {

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path tempDir() {
  auto dir = std::filesystem::temp_directory_path() / ("teg-cli-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

std::string writeTempFile(const std::string& name, const std::string& text) {
  const auto path = tempDir() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

CommandResult runTeg(const std::vector<std::string>& args, const std::string& stdinText,
                     const std::string& stdoutPath) {
  static int counter = 0;
  const auto dir = tempDir();
  const std::string tag = std::to_string(++counter);
  const auto inPath = dir / ("stdin" + tag), outPath = dir / ("stdout" + tag),
             errPath = dir / ("stderr" + tag);
  std::ofstream(inPath, std::ios::binary) << stdinText;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, inPath.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, stdoutPath.empty() ? outPath.c_str() : stdoutPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);

  std::vector<std::string> argvStrings{TEG_EXECUTABLE};
  argvStrings.insert(argvStrings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argvStrings) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, TEG_EXECUTABLE, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " TEG_EXECUTABLE);
  int status = 0;
  waitpid(pid, &status, 0);

  CommandResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = stdoutPath.empty() ? slurp(outPath) : "";
  result.err = slurp(errPath);
  return result;
}

double deviceFigure(const std::string& gpu, const std::string& key) {
  const auto r = runTeg({"devices", "show", gpu, "--json"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  if (r.exitCode != 0) return 0;
  const auto device = nlohmann::json::parse(r.out);
  for (const auto& figure : device["figures"])
    if (figure["key"] == key) return figure["value"].get<double>();
  ADD_FAILURE() << gpu << " has no " << key;
  return 0;
}

}  // namespace teg::test
