#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include "teg/support/cleanup.hpp"
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

// posix_spawnattr_t, released on every path out.
class SpawnAttributes {
 public:
  SpawnAttributes() { posix_spawnattr_init(&attributes_); }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  posix_spawnattr_t* get() { return &attributes_; }

 private:
  posix_spawnattr_t attributes_{};
};

// Registered for the cleanup handlers while it runs, so that a SIGINT to teg also ends nvcc:
// in its own group, it no longer gets the terminal's signals.
class ChildGroup {
 public:
  explicit ChildGroup(pid_t pid) : ticket_(registerChildGroup(pid)) {}
  ~ChildGroup() { unregisterChildGroup(ticket_); }
  ChildGroup(const ChildGroup&) = delete;
  ChildGroup& operator=(const ChildGroup&) = delete;

 private:
  int ticket_;
};

// waitpid that retries on EINTR; throws on any other failure.
int waitFor(pid_t pid, const std::string& program) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error("waiting for " + program + ": " + std::strerror(errno));
  }
  return status;
}

// Waits until `pid` exits or `timeout` passes; true when it exited (not yet reaped). A pidfd
// makes the wait one poll() with no busy loop; kernels without pidfd_open (before 5.3) poll
// waitid every 10 ms instead.
bool exitsWithin(pid_t pid, std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  for (;;) {
    siginfo_t info{};
    // WNOWAIT: only look, the caller reaps.
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
      if (pidfd >= 0) close(pidfd);
      return true;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      if (pidfd >= 0) close(pidfd);
      return false;
    }
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    } else {
      usleep(10000);
    }
  }
}

}  // namespace

ProcessResult runProcess(const std::vector<std::string>& argv, const std::filesystem::path& scratch,
                         std::chrono::milliseconds timeout) {
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

  // A group of its own (pgid = pid), so that a timeout can kill everything it started.
  SpawnAttributes attributes;
  posix_spawnattr_setflags(attributes.get(), POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(attributes.get(), 0);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, copies[0].c_str(), actions.get(), attributes.get(), cargv.data(), environ);
  if (rc != 0) throw Error("cannot run " + argv[0] + ": " + std::strerror(rc));
  const ChildGroup group(pid);

  ProcessResult result;
  if (timeout.count() > 0 && !exitsWithin(pid, timeout)) {
    kill(-pid, SIGKILL);
    result.timedOut = true;
  }
  const int status = waitFor(pid, argv[0]);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = readWhole(outPath);
  result.err = readWhole(errPath);
  return result;
}

}  // namespace teg::toolchain
