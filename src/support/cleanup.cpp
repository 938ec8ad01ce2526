#include "teg/support/cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace teg {

namespace {

// Fixed slots so that the signal handler reads them without locks or allocation. A slot's path
// is complete before its state says so (release/acquire), and is only reused after it is freed.
constexpr int kFileSlots = 64;     // open outputs at once: a handful per command
constexpr int kPathBytes = 4096;   // PATH_MAX on Linux
constexpr int kGroupSlots = 16;    // children at once: one nvcc per compiling thread

enum SlotState : int { kFree = 0, kFilling = 1, kInUse = 2 };

struct FileSlot {
  std::atomic<int> state{kFree};
  char path[kPathBytes]{};
};

std::array<FileSlot, kFileSlots> fileSlots;
std::array<std::atomic<pid_t>, kGroupSlots> groupSlots{};

void onSignal(int sig) {
  runPendingCleanup();
  // End the process the way the signal would have, so the parent sees "killed by SIGINT".
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void atExit() { runPendingCleanup(); }

}  // namespace

void installCleanupHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction previous {};
      // A signal the parent set to be ignored (nohup, a background job) stays ignored.
      if (::sigaction(sig, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
      ::sigaction(sig, &action, nullptr);
    }
    std::atexit(atExit);
  });
}

int registerTempFile(const std::string& path) {
  if (path.size() + 1 > static_cast<std::size_t>(kPathBytes)) return -1;
  for (int i = 0; i < kFileSlots; ++i) {
    int expected = kFree;
    if (fileSlots[i].state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) {
      std::memcpy(fileSlots[i].path, path.c_str(), path.size() + 1);
      fileSlots[i].state.store(kInUse, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregisterTempFile(int ticket) {
  if (ticket >= 0 && ticket < kFileSlots) fileSlots[ticket].state.store(kFree, std::memory_order_release);
}

int registerChildGroup(pid_t group) {
  for (int i = 0; i < kGroupSlots; ++i) {
    pid_t expected = 0;
    if (groupSlots[i].compare_exchange_strong(expected, group)) return i;
  }
  return -1;
}

void unregisterChildGroup(int ticket) {
  if (ticket >= 0 && ticket < kGroupSlots) groupSlots[ticket].store(0);
}

void runPendingCleanup() noexcept {
  for (auto& group : groupSlots)
    if (const pid_t g = group.load(); g > 0) ::kill(-g, SIGKILL);
  for (auto& slot : fileSlots)
    if (slot.state.load(std::memory_order_acquire) == kInUse) ::unlink(slot.path);
}

}  // namespace teg
