// The two emulators check each other (issue 26 point 4): every example kernel
// (examples/kernels/*.cu with its launch.json: the same grid, block, arguments and symbols), for
// every architecture CUDA 13 compiles (sm_75 ... sm_120), run on the PTX emulator and on the SASS
// emulator from the same compile; every buffer must be equal bit for bit. To keep the suite fast
// a launch runs four of its blocks (the first two, one in the middle, the last: the edges of the
// bounds checks) on both emulators. Kernels whose SASS uses MUFU are compared within kMufuUlps on
// their binary32 buffers (bit for bit otherwise). A kernel whose SASS needs an opcode the SASS
// emulator does not have yet is skipped, naming it. One ctest case per kernel; label `nvcc`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <span>

#include <fmt/format.h>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"
#include "teg/sass/ir.hpp"
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

// The bound for kernels whose SASS uses MUFU: the PTX ISA allows ex2.approx 2 ulp, rcp.approx
// 1 ulp, rsqrt 2^-22.9, lg2 2^-22 absolute (PTX ISA 9.7.3); a kernel chains a few of them with
// FMAs and cancellation, so the outputs are compared within 2^7 ulp, a bound that a wrong
// instruction (an error of one bit in the exponent or in the high mantissa bits) far exceeds.
constexpr std::uint64_t kMufuUlps = 128;

bool usesMufu(const sass::Module& sass, const ptx::Module&, const LaunchDescription&) {
  for (const auto& f : sass.functions)
    for (const auto& i : f.instructions)
      if (i.opcode == "MUFU") return true;
  return false;
}

bool isFloatBuffer(const LaunchDescription& launch, const std::string& name) {
  for (const auto& a : launch.args)
    if (a.name == name && a.isBuffer()) return std::get<BufferArg>(a.value).type == ScalarType::F32;
  return false;
}

// Largest distance in binary32 units in the last place between corresponding elements (NaN
// against anything but NaN counts as infinitely far).
std::uint64_t maxUlpDistance(std::span<const std::byte> a, std::span<const std::byte> b) {
  auto ordered = [](std::uint32_t bits) -> std::int64_t {
    return (bits & 0x80000000u) ? -static_cast<std::int64_t>(bits & 0x7fffffffu) : static_cast<std::int64_t>(bits);
  };
  std::uint64_t worst = 0;
  for (std::size_t i = 0; i + 4 <= std::min(a.size(), b.size()); i += 4) {
    std::uint32_t x, y;
    std::memcpy(&x, a.data() + i, 4);
    std::memcpy(&y, b.data() + i, 4);
    if (x == y) continue;
    const bool nx = (x & 0x7fffffffu) > 0x7f800000u, ny = (y & 0x7fffffffu) > 0x7f800000u;
    if (nx || ny) {
      if (!(nx && ny)) worst = ~std::uint64_t{0};
      continue;
    }
    const std::int64_t d = ordered(x) - ordered(y);
    worst = std::max<std::uint64_t>(worst, static_cast<std::uint64_t>(d < 0 ? -d : d));
  }
  return worst;
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
    sassRun.selectSass(c.sass, c.smVersion, c.cubin);
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
    std::uint64_t worstUlps = 0;
    for (const std::string& name : ptxRun.bufferNames()) {
      const long long at = firstDifference(ptxRun.buffer(name), sassRun.buffer(name));
      if (at < 0) continue;
      // Where the SASS uses MUFU (ex2, lg2, rsq, rcp, sin, cos approximations), binary32 results
      // may differ from the PTX emulator's .approx implementations by the approximations' error
      // carried through the kernel's arithmetic: within kMufuUlps units in the last place.
      if (usesMufu(c.sass, c.ptx, launch) && isFloatBuffer(launch, name)) {
        const std::uint64_t ulps = maxUlpDistance(ptxRun.buffer(name), sassRun.buffer(name));
        worstUlps = std::max(worstUlps, ulps);
        EXPECT_LE(ulps, kMufuUlps) << "buffer '" << name << "' differs by " << ulps << " ulp (first at byte " << at << ")";
        continue;
      }
      equal = false;
      EXPECT_EQ(at, -1) << "buffer '" << name << "' differs first at byte " << at;
    }
    if (worstUlps > kMufuUlps) equal = false;
    if (!equal) std::printf("EQUIVALENCE %s %s DIFFERENT\n", GetParam().c_str(), arch);
    else if (worstUlps > 0) std::printf("EQUIVALENCE %s %s within %llu ulp (MUFU)\n", GetParam().c_str(), arch, static_cast<unsigned long long>(worstUlps));
    else std::printf("EQUIVALENCE %s %s equal\n", GetParam().c_str(), arch);
  }
  if (!waiting.empty()) {
    std::string list;
    for (const auto& w : waiting) list += "\n  " + w;
    GTEST_SKIP() << "not run on " << waiting.size() << " architecture(s) (an opcode the SASS emulator lacks, or "
                 << "a known failure):" << list;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SassCorpusEquivalence, ::testing::ValuesIn(corpusNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace teg::emu::sasstest
