// An nvcc that never exits: compileCuda stops it (and what it started) after the timeout and
// says so, instead of waiting forever. A fake "nvcc" script on $PATH stands in for the hung one.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace fs = std::filesystem;
using namespace teg::toolchain;

namespace {

// Sets an environment variable for one test and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value->c_str(), 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class NvccTimeout : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("teg-nvcc-timeout-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "bin");
    // Never exits: a child that sleeps, which the script waits for (the child must die too).
    const auto nvcc = dir_ / "bin" / "nvcc";
    std::ofstream(nvcc) << "#!/bin/sh\nsleep 1000 &\necho $! > '" << (dir_ / "child.pid").string()
                        << "'\nwait\n";
    chmod(nvcc.c_str(), 0755);
    std::ofstream(dir_ / "k.cu") << "__global__ void k() {}\n";
    path_.emplace("PATH", (dir_ / "bin").string() + ":" + std::getenv("PATH"));
  }
  void TearDown() override {
    path_.reset();
    fs::remove_all(dir_);
  }
  std::string errorOf(const CompileOptions& options) const {
    try {
      compileCuda((dir_ / "k.cu").string(), options);
    } catch (const teg::Error& e) {
      return e.what();
    }
    return "(no error)";
  }
  // The script's sleeping child is gone (or a zombie nobody reaped yet): it was killed.
  bool childGone() const {
    std::ifstream in(dir_ / "child.pid");
    long pid = 0;
    if (!(in >> pid)) return true;  // killed before it started the child
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return true;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
  }

  // SIGKILL takes effect asynchronously: on a loaded machine the killed child may still show as
  // running for a moment after compileCuda returns. Waits for it (up to 10 s), so the test checks
  // that it was killed, not how fast the kernel reaps it.
  bool childGoneSoon() const {
    for (int i = 0; i < 200; ++i) {
      if (childGone()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return childGone();
  }

  fs::path dir_;
  std::optional<ScopedEnv> path_;
};

TEST_F(NvccTimeout, AHungCompileIsStoppedWithItsChildrenAndNamed) {
  CompileOptions options;
  options.timeout = std::chrono::milliseconds(1500);
  options.useCache = false;
  const std::string nvcc = (dir_ / "bin" / "nvcc").string();
  EXPECT_EQ(errorOf(options), nvcc + " did not finish within 1500 ms and was stopped with the processes it "
                                     "started (raise the limit with TEG_NVCC_TIMEOUT=SECONDS, 0 for none)");
  EXPECT_TRUE(childGoneSoon());
}

TEST_F(NvccTimeout, TheVersionQueryOfTheCacheIsBoundedToo) {
  const ScopedEnv cacheDir("TEG_CACHE_DIR", (dir_ / "cache").string());
  const ScopedEnv limit("TEG_NVCC_TIMEOUT", "1");
  EXPECT_NE(errorOf(CompileOptions{}).find("nvcc did not finish within 1 s"), std::string::npos);
  EXPECT_TRUE(childGoneSoon());
}

TEST(NvccTimeoutSetting, FromTheOptionsTheEnvironmentOrTheDefault) {
  CompileOptions options;
  {
    const ScopedEnv unset("TEG_NVCC_TIMEOUT", std::nullopt);
    EXPECT_EQ(nvccTimeout(options), kDefaultNvccTimeout);
  }
  {
    const ScopedEnv set("TEG_NVCC_TIMEOUT", "2.5");
    EXPECT_EQ(nvccTimeout(options), std::chrono::milliseconds(2500));
    options.timeout = std::chrono::milliseconds(0);  // the option wins: no limit
    EXPECT_EQ(nvccTimeout(options), std::chrono::milliseconds(0));
  }
  for (const char* bad : {"abc", "-1", "10s", "1e99", "nan"}) {
    const ScopedEnv set("TEG_NVCC_TIMEOUT", bad);
    try {
      nvccTimeout(CompileOptions{});
      ADD_FAILURE() << bad << " accepted";
    } catch (const teg::Error& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("TEG_NVCC_TIMEOUT='") + bad + "': expected the seconds nvcc may run, e.g. 600 (0 for no limit)");
    }
  }
}

}  // namespace
