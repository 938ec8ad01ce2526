// Corpus test helpers (see corpus_support.hpp).
#include "corpus_support.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <mutex>

#include "teg/ptx/parser.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::emu::corpus {

std::string kernelsDir() { return std::string(TEG_SOURCE_DIR) + "/examples/kernels"; }

const ptx::Module* module(const std::string& name) {
  // Compiled once per test process: nvcc takes about a second per kernel.
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<ptx::Module>> cache;
  static const bool haveNvcc = [] {
    try {
      (void)toolchain::findNvcc();
      return true;
    } catch (const Error&) {
      return false;
    }
  }();
  if (!haveNvcc) return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[name];
  if (!slot) {
    toolchain::CompileOptions options;
    options.arch = "sm_80";
    // A plain name is a corpus kernel; a path (with a '/') is relative to the source tree.
    const std::string path = name.find('/') == std::string::npos ? kernelsDir() + "/" + name + ".cu"
                                                                  : std::string(TEG_SOURCE_DIR) + "/" + name + ".cu";
    const auto compiled = toolchain::compileCuda(path, options);
    slot = std::make_unique<ptx::Module>(ptx::parseModule(compiled.ptx, name + ".ptx"));
  }
  return slot.get();
}

LaunchArg i32(const std::string& name, std::int64_t value) {
  ScalarArg s;
  s.type = ScalarType::I32;
  s.value = value;
  return LaunchArg{name, s};
}

LaunchArg f32(const std::string& name, double value) {
  ScalarArg s;
  s.type = ScalarType::F32;
  s.value = value;
  return LaunchArg{name, s};
}

LaunchDescription launch(const std::string& kernel, Dim3 grid, Dim3 block, std::vector<LaunchArg> args,
                         std::uint32_t dynamicSmem) {
  LaunchDescription l;
  l.kernel = kernel;
  l.grid = grid;
  l.block = block;
  l.dynamicSmem = dynamicSmem;
  l.args = std::move(args);
  return l;
}

Emulator runLaunch(const ptx::Module& module, const LaunchDescription& l, unsigned threads) {
  Emulator e(module, l);
  RunOptions options;
  options.threads = threads;
  const RunSummary s = e.run(options);
  EXPECT_EQ(s.blocksRun, l.grid.count());
  EXPECT_FALSE(s.partialGrid);
  return e;
}

namespace {

template <typename T>
void exact(const std::vector<T>& actual, const std::vector<T>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  int reported = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] == expected[i]) continue;
    ++bad;
    if (reported++ < 5) ADD_FAILURE() << "index " << i << ": emulated " << actual[i] << ", reference " << expected[i];
  }
  EXPECT_EQ(bad, 0u) << "elements that differ out of " << actual.size();
}

}  // namespace

void expectExact(const std::vector<std::int32_t>& actual, const std::vector<std::int32_t>& expected) {
  exact(actual, expected);
}
void expectExact(const std::vector<std::uint32_t>& actual, const std::vector<std::uint32_t>& expected) {
  exact(actual, expected);
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected, double absTol, double relTol) {
  ASSERT_EQ(actual.size(), expected.size());
  int reported = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double a = actual[i], e = expected[i];
    bool ok;
    if (std::isnan(a) || std::isnan(e)) ok = std::isnan(a) && std::isnan(e);
    else if (std::isinf(a) || std::isinf(e)) ok = a == e;
    else ok = std::fabs(a - e) <= absTol + relTol * std::fabs(e);
    if (ok) continue;
    ++bad;
    if (reported++ < 5)
      ADD_FAILURE() << "index " << i << ": emulated " << a << ", reference " << e << " (|diff| " << std::fabs(a - e)
                    << ")";
  }
  EXPECT_EQ(bad, 0u) << "elements outside the tolerance out of " << actual.size();
}

}  // namespace teg::emu::corpus
