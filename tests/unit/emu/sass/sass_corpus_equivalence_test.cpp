// The two emulators check each other (issue 26 point 4): every example kernel
// (examples/kernels/*.cu with its launch.json: the same grid, block, arguments and symbols), for
// every architecture CUDA 13 compiles (sm_75 ... sm_120), run on the PTX emulator and on the SASS
// emulator from the same compile; every buffer must be equal bit for bit. To keep the suite fast
// a launch runs four of its blocks (the first two, one in the middle, the last: the edges of the
// bounds checks) on both emulators. A kernel whose SASS needs an opcode the SASS emulator does not
// have yet is skipped, naming it. One ctest case per kernel; label `nvcc`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"
#include "teg/support/error.hpp"

namespace fs = std::filesystem;

namespace teg::emu::sasstest {
namespace {

fs::path corpusDir() { return fs::path(TEG_SOURCE_DIR) / "examples" / "kernels"; }

std::vector<std::string> corpusNames() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(corpusDir()))
    if (e.path().extension() == ".cu") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::uint64_t> sampleBlocks(std::uint64_t total) {
  std::vector<std::uint64_t> b = {0, 1, total / 2, total - 1};
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  b.erase(std::remove_if(b.begin(), b.end(), [&](std::uint64_t x) { return x >= total; }), b.end());
  return b;
}

class SassCorpusEquivalence : public ::testing::TestWithParam<std::string> {};

TEST_P(SassCorpusEquivalence, BuffersEqualThePtxEmulatorsOnEveryArchitecture) {
  TEG_SASS_TOOLS_OR_SKIP();
  const LaunchDescription launch = readLaunchFile((corpusDir() / (GetParam() + ".launch.json")).string());
  std::vector<std::string> waiting;
  for (const char* arch : kArchs) {
    SCOPED_TRACE(arch);
    const Compiled& c = compile(launch.source, arch, launch.defines, launch.includeDirs);
    RunOptions options;
    options.blockList = sampleBlocks(launch.grid.count());
    options.threads = 1;
    Emulator ptxRun(c.ptx, launch);
    ptxRun.run(options);
    Emulator sassRun(c.ptx, launch);
    sassRun.selectSass(c.sass, c.smVersion);
    try {
      sassRun.run(options);
    } catch (const Error& e) {
      const std::string what = e.what();
      if (what.rfind("unsupported SASS instruction", 0) == 0) {
        waiting.push_back(fmt::format("{}: {}", arch, what.substr(0, what.find(" in block"))));
        std::printf("EQUIVALENCE %s %s skipped (%s)\n", GetParam().c_str(), arch, what.substr(0, what.find(" in block")).c_str());
        continue;
      }
      ADD_FAILURE() << what;
      continue;
    }
    bool equal = true;
    for (const std::string& name : ptxRun.bufferNames()) {
      const long long at = firstDifference(ptxRun.buffer(name), sassRun.buffer(name));
      if (at >= 0) equal = false;
      EXPECT_EQ(at, -1) << "buffer '" << name << "' differs first at byte " << at;
    }
    std::printf("EQUIVALENCE %s %s %s\n", GetParam().c_str(), arch, equal ? "equal" : "DIFFERENT");
  }
  if (!waiting.empty()) {
    std::string list;
    for (const auto& w : waiting) list += "\n  " + w;
    GTEST_SKIP() << "waiting for SASS handlers (float/conversion/MUFU: the float work) on " << waiting.size()
                 << " architecture(s):" << list;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SassCorpusEquivalence, ::testing::ValuesIn(corpusNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace teg::emu::sasstest
