// The launch examples beside the corpus (examples/kernels/<name>.launch.json): every kernel has
// one, each parses, names its own .cu, and its arguments match the kernel's parameters (the
// emulator accepts them: same count, pointer for buffers, scalar sizes). Buffers are shrunk to a
// few elements for this check, so the test does not allocate the usual multi-megabyte inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "corpus_support.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::corpus {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> stems(const std::string& extension) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(kernelsDir())) {
    const std::string name = entry.path().filename().string();
    if (name.size() > extension.size() && name.compare(name.size() - extension.size(), extension.size(), extension) == 0)
      out.push_back(name.substr(0, name.size() - extension.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CorpusLaunchFiles, EveryKernelHasALaunchExampleAndViceVersa) {
  const auto kernels = stems(".cu");
  const auto launches = stems(".launch.json");
  EXPECT_GE(kernels.size(), 20u);
  EXPECT_EQ(kernels, launches);
}

TEST(CorpusLaunchFiles, EachParsesAndMatchesItsKernelsParameters) {
  for (const auto& stem : stems(".launch.json")) {
    SCOPED_TRACE(stem);
    LaunchDescription l;
    ASSERT_NO_THROW(l = readLaunchFile(kernelsDir() + "/" + stem + ".launch.json"));
    EXPECT_EQ(fs::path(l.source).filename().string(), stem + ".cu");
    EXPECT_TRUE(fs::exists(l.source));
    // Every initialiser file the launch names exists and has the buffer's size.
    for (const auto& a : l.args) {
      if (!a.isBuffer()) continue;
      const auto& b = std::get<BufferArg>(a.value);
      if (std::holds_alternative<FileInit>(b.init)) {
        EXPECT_NO_THROW((void)materializeBuffer(b.type, b.count, b.init, a.name));
      }
      if (b.expect) {
        EXPECT_NO_THROW((void)materializeBuffer(b.type, b.count, b.expect->values, a.name + " expect"));
      }
    }
    const ptx::Module* m = module(stem);
    if (m == nullptr) GTEST_SKIP() << "nvcc not found: parameters not checked";
    LaunchDescription small = l;
    for (auto& a : small.args)
      if (a.isBuffer()) {
        auto& b = std::get<BufferArg>(a.value);
        b.count = std::min<std::uint64_t>(b.count, 16);
        b.init = ZerosInit{};
        b.expect.reset();
      }
    EXPECT_NO_THROW(Emulator(*m, small)) << "arguments of " << stem << ".launch.json do not fit kernel " << l.kernel;
  }
}

}  // namespace
}  // namespace teg::emu::corpus
