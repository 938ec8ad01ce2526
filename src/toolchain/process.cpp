#include "process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "teg/support/error.hpp"

extern char** environ;

namespace teg::toolchain {

namespace {

std::string readWhole(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// posix_spawn_file_actions_t, released on every path out.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_{};
};

}  // namespace

ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::filesystem::path& scratch) {
  if (argv.empty()) throw Error("runProcess: empty argument vector");
  const auto outPath = scratch / "process.stdout";
  const auto errPath = scratch / "process.stderr";

  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(actions.get(), 1, outPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(actions.get(), 2, errPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);

  std::vector<std::string> copies(argv);  // posix_spawn wants char*, not const char*
  std::vector<char*> cargv;
  cargv.reserve(copies.size() + 1);
  for (auto& a : copies) cargv.push_back(a.data());
  cargv.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, copies[0].c_str(), actions.get(), nullptr, cargv.data(), environ);
  if (rc != 0) throw Error("cannot run " + argv[0] + ": " + std::strerror(rc));

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error("waiting for " + argv[0] + ": " + std::strerror(errno));
  }
  ProcessResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = readWhole(outPath);
  result.err = readWhole(errPath);
  return result;
}

}  // namespace teg::toolchain
