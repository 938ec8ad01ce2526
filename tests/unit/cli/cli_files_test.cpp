// Files in and out of the real binary: an input that is a FIFO or a directory is refused at once
// with what it is; an output is whole or absent (a failed, full or interrupted run leaves no file
// and no temporary file); a failed write to stdout or an output file is an error, not exit 0.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "run_teg.hpp"

extern char** environ;

namespace fs = std::filesystem;
using teg::test::runTeg;

namespace {

// y[i] = x[i] + 1 for i < n; with n = 0 and a loop that never ends when `endless`.
std::string copyPtx(bool endless) {
  return std::string(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry inc(.param .u64 x, .param .u64 y, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<3>;
)") + (endless ? "SPIN:\n  bra SPIN;\n" : "") + R"(
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5];
  add.f32 %f2, %f1, 0f3F800000;
  cvta.to.global.u64 %rd3, %rd2;
  add.s64 %rd5, %rd3, %rd4;
  st.global.f32 [%rd5], %f2;
DONE:
  ret;
}
)";
}

class CliFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("teg-cli-files-" + std::to_string(getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "out");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return path(name);
  }
  // A launch of `inc` over 32 elements; `source` relative to the launch file.
  std::string launch(const std::string& name, const std::string& source, const std::string& xInit = "\"iota\"") const {
    return write(name, R"({"source": ")" + source + R"(", "kernel": "inc", "grid": [1], "block": [32], "args": [
      {"name": "x", "buffer": {"type": "f32", "count": 32, "init": )" + xInit + R"(}},
      {"name": "y", "buffer": {"type": "f32", "count": 32, "init": "zeros"}},
      {"name": "n", "scalar": {"type": "u32", "value": 32}}]})");
  }
  std::vector<std::string> outputs() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_ / "out")) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

TEST_F(CliFiles, StdoutThatCannotBeWrittenIsAnError) {
  // Before: exit 0 with nothing written.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"devices"}, {"occupancy", "--gpu", "a100", "--threads", "256", "--regs", "32"}}) {
    const auto r = runTeg(args, "", "/dev/full");
    EXPECT_EQ(r.exitCode, 1) << args[0];
    EXPECT_EQ(r.err, "teg: error: cannot write standard output: No space left on device\n") << args[0];
  }
}

TEST_F(CliFiles, TraceOutToAFullDeviceIsAnErrorNotACrash) {
  write("inc.ptx", copyPtx(false));
  const auto r = runTeg({"run", "--launch", launch("inc.launch.json", "inc.ptx"), "--trace-out", "/dev/full"});
  // Before: the trace writer's destructor threw during unwinding (std::terminate, exit 134).
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(r.err, "teg: error: cannot write /dev/full: No space left on device\n");
  const auto dump = runTeg({"run", "--launch", path("inc.launch.json"), "--dump", "y=/dev/full"});
  EXPECT_EQ(dump.exitCode, 1) << dump.err;
  EXPECT_EQ(dump.err, "teg: error: cannot write /dev/full: No space left on device\n");
}

TEST_F(CliFiles, OutputsAreWholeFilesWithNothingElseBeside) {
  write("inc.ptx", copyPtx(false));
  const auto r = runTeg({"run", "--launch", launch("inc.launch.json", "inc.ptx"), "--trace-out", path("out/t.trace"),
                         "--dump", "y=" + path("out/y.npy"), "--dump", "x=" + path("out/x.bin")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(outputs(), (std::vector<std::string>{"t.trace", "x.bin", "y.npy"}));
  EXPECT_EQ(fs::file_size(path("out/x.bin")), 32u * 4);
  EXPECT_EQ(fs::file_size(path("out/y.npy")), 128u + 32 * 4);
  // The trace replays: predict reads it back through the same format (a whole file).
  std::ifstream trace(path("out/t.trace"), std::ios::binary);
  std::string magic(8, '\0');
  trace.read(magic.data(), 8);
  EXPECT_EQ(magic, "TEGTRACE");
}

TEST_F(CliFiles, AFailedRunLeavesNoOutputFile) {
  write("inc.ptx", copyPtx(true));
  const auto r = runTeg({"run", "--launch", launch("spin.launch.json", "inc.ptx"), "--max-instructions", "1000",
                         "--trace-out", path("out/t.trace"), "--dump", "y=" + path("out/y.bin")});
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(outputs(), std::vector<std::string>{});
}

TEST_F(CliFiles, AnInterruptedRunLeavesNoOutputFile) {
  write("inc.ptx", copyPtx(true));
  const std::string launchFile = launch("spin.launch.json", "inc.ptx");
  std::vector<std::string> args{TEG_EXECUTABLE, "run", "--launch", launchFile, "--max-instructions", "1000000000000000",
                                "--trace-out", path("out/t.trace")};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, TEG_EXECUTABLE, nullptr, nullptr, argv.data(), environ), 0);
  // Wait (bounded) until the unfinished trace exists, then interrupt the run.
  for (int i = 0; i < 6000 && outputs().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(outputs().size(), 1u) << "the run never started its trace";
  EXPECT_EQ(outputs()[0].rfind(".t.trace.teg-", 0), 0u) << outputs()[0] << " is not a temporary name";
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(outputs(), std::vector<std::string>{});
}

// A process that is gone, or a zombie nobody reaped yet: it is not running.
bool notRunning(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

TEST_F(CliFiles, AnInterruptedCompileStopsNvccToo) {
  // nvcc runs in a process group of its own (so that its timeout can kill what it started), so
  // the terminal's Ctrl-C no longer reaches it: teg's handler must kill the group.
  fs::create_directories(dir_ / "bin");
  const auto nvcc = dir_ / "bin" / "nvcc";
  std::ofstream(nvcc) << "#!/bin/sh\nsleep 1000 &\necho $! > '" << path("child.pid") << ".tmp'\nmv '"
                      << path("child.pid") << ".tmp' '" << path("child.pid") << "'\nwait\n";
  fs::permissions(nvcc, fs::perms::owner_all);
  write("k.cu", "__global__ void k() {}\n");
  std::vector<std::string> args{TEG_EXECUTABLE, "compile", path("k.cu")};
  std::vector<std::string> env{"PATH=" + (dir_ / "bin").string() + ":/usr/bin:/bin", "TEG_CACHE_DIR=" + path("cache")};
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, TEG_EXECUTABLE, nullptr, nullptr, argv.data(), envp.data()), 0);
  for (int i = 0; i < 6000 && !fs::exists(path("child.pid")); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(path("child.pid"))) << "the fake nvcc never started";
  long child = 0;
  std::ifstream(path("child.pid")) >> child;
  ASSERT_GT(child, 0);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  // SIGKILL is delivered before kill() returns in the handler; the process may take a moment
  // to be torn down, so look a few times (bounded).
  for (int i = 0; i < 500 && !notRunning(child); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(notRunning(child)) << "nvcc's child " << child << " still runs";
}

TEST_F(CliFiles, AFifoAsAnyInputIsRefusedWithoutBlocking) {
  // Before: each of these blocked forever in open() waiting for a writer.
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  const std::string fifoMessage = ": is not a regular file (a FIFO)\n";
  auto r = runTeg({"run", "--launch", path("fifo")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, "teg: error: " + path("fifo") + fifoMessage);
  r = runTeg({"--device-file", path("fifo"), "devices"});
  EXPECT_EQ(r.err, "teg: error: " + path("fifo") + fifoMessage);
  r = runTeg({"ptx", "check", path("fifo")});
  EXPECT_EQ(r.err, "teg: error: " + path("fifo") + fifoMessage);
  r = runTeg({"model", "fit", "--csv", path("fifo")});
  EXPECT_EQ(r.err, "teg: error: " + path("fifo") + fifoMessage);
  r = runTeg({"occupancy", "--batch", path("fifo")});
  EXPECT_EQ(r.err, "teg: error: " + path("fifo") + fifoMessage);
  // The launch's source, and a buffer's file.
  ASSERT_EQ(mkfifo(path("fifo.ptx").c_str(), 0600), 0);
  r = runTeg({"run", "--launch", launch("src.launch.json", "fifo.ptx")});
  EXPECT_EQ(r.err, "teg: error: " + path("fifo.ptx") + fifoMessage);
  write("inc.ptx", copyPtx(false));
  r = runTeg({"run", "--launch", launch("buf.launch.json", "inc.ptx", "{\"file\": \"fifo\"}")});
  EXPECT_NE(r.err.find(path("fifo") + ": is not a regular file (a FIFO)"), std::string::npos) << r.err;
  r = runTeg({"compile", path("fifo")});
  EXPECT_EQ(r.err, "teg: error: " + path("fifo") + fifoMessage);
}

TEST_F(CliFiles, ADirectoryIsADirectoryNotAMissingFile) {
  fs::create_directories(path("k.cu"));
  auto r = runTeg({"compile", path("k.cu")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.err, "teg: error: " + path("k.cu") + ": is a directory\n");  // was "no such file"
  r = runTeg({"run", "--launch", launch("dir.launch.json", "k.cu")});
  EXPECT_EQ(r.err, "teg: error: " + path("k.cu") + ": is a directory\n");
}

}  // namespace
