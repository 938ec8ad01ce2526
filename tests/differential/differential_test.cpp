// The bounded differential run for ctest: a few dozen random kernels per architecture on both
// emulators (scripts/differential.sh runs as many as asked). Skips without nvcc or nvdisasm.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "differential.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::differential {
namespace {

bool haveTools() {
  try {
    (void)toolchain::findNvcc();
  } catch (const Error&) {
    return false;
  }
  return toolchain::haveNvdisasm();
}

// The generator is deterministic and its kernels are what the header promises.
TEST(KernelGenerator, SameSeedSameKernelAndInputs) {
  const auto a = generateKernel(42), b = generateKernel(42), c = generateKernel(43);
  EXPECT_EQ(a.source, b.source);
  EXPECT_NE(a.source, c.source);
  EXPECT_EQ(a.name, "k_42");
  EXPECT_NE(a.source.find("extern \"C\" __global__ void k_42("), std::string::npos);
  const auto ia = generateInputs(a), ib = generateInputs(b);
  EXPECT_EQ(ia.ui, ib.ui);
  EXPECT_EQ(ia.ui.size(), threadCount(a) * kInputsPerThread);
  EXPECT_EQ(ia.di.size(), threadCount(a) * kDoublesPerThread);
}

TEST(KernelGenerator, KernelsCoverTheFeaturesOverManySeeds) {
  std::string all;
  for (std::uint64_t s = 0; s < 200; ++s) all += generateKernel(s).source;
  for (const char* feature : {"__syncthreads()", "__shfl_sync", "__shfl_xor_sync", "__ballot_sync", "atomic", "for (",
                              "switch (", "__noinline__", "fmaf(", "sqrtf(", "__fdiv_r", "__float2int_", "__hfma2(",
                              "la[", "fma(", " / ", "ex2.approx", "sin.approx", "__double2uint_"})
    EXPECT_NE(all.find(feature), std::string::npos) << feature;
}

TEST(ApproxBounds, FollowThePtxIsaFigures) {
  EXPECT_EQ(approxBound(Approx::Rcp, 3.0f)->ulps, 1);
  EXPECT_DOUBLE_EQ(approxBound(Approx::Sin, 1.0f)->absolute, std::ldexp(1.0, -20) / std::sqrt(2.0));
  EXPECT_GT(approxBound(Approx::Sin, 100.0f)->absolute, approxBound(Approx::Sin, 1.0f)->absolute);
  EXPECT_EQ(approxBound(Approx::Exp, 10.0f)->ulps, 2 + 11);  // 2 + floor(1.173 x 10)
  EXPECT_FALSE(approxBound(Approx::Divide, 1e38f).has_value());  // |b| > 2^126: no bound
  EXPECT_TRUE(approxBound(Approx::Divide, 1e30f).has_value());
}

// Differences found and not yet fixed, as (seed, architecture) of the bounded full-profile run:
// listed, not failed, and each must still differ (fixing one means taking it off the list).
// 2026-11-27: none (seed 2011 on sm_90, the last one, was the binary16 canonical NaN 0x7e00).
struct Open {
  std::uint64_t seed;
  const char* arch;
};
const std::vector<Open> kOpen = {};

// The bounded run: every kernel compiles, runs on both emulators and agrees (kernels waiting for
// a known gap of the SASS emulator, an unsupported opcode, are listed, not failed; so are the
// open differences above). Two profiles per architecture CUDA 13 compiles, one nvcc run each:
// "float" (float, double, half, conversions and .approx in straight-line code: the float
// handlers) and "full" (everything the generator writes: integer arithmetic, control flow, shared
// memory, warp ops).
void runBounded(const char* arch, bool full, std::uint64_t seed, std::uint64_t count) {
  if (!haveTools()) GTEST_SKIP() << "nvcc or nvdisasm not found";
  RunConfig config;
  config.arch = arch;
  config.generator.integerOps = config.generator.control = config.generator.blockOps = full;
  const Summary s = runDifferential(seed, count, count, config);
  EXPECT_EQ(s.kernels, count);
  std::vector<std::uint64_t> openSeen;
  for (const auto& d : s.differences) {
    const bool open = full && std::any_of(kOpen.begin(), kOpen.end(), [&](const Open& o) {
      return o.seed == d.seed && d.arch == o.arch;
    });
    if (open) {
      std::printf("OPEN seed %llu %s: %s\n", static_cast<unsigned long long>(d.seed), arch, d.what.c_str());
      openSeen.push_back(d.seed);
    } else {
      ADD_FAILURE() << "seed " << d.seed << " " << d.arch << ": " << d.what;
    }
  }
  if (full) {
    for (const Open& o : kOpen) {
      if (o.arch == std::string(arch) && o.seed >= seed && o.seed < seed + count) {
        EXPECT_NE(std::find(openSeen.begin(), openSeen.end(), o.seed), openSeen.end())
            << "seed " << o.seed << " " << arch << " no longer differs: take it off kOpen";
      }
    }
  }
  for (const auto& d : s.bothFailed) ADD_FAILURE() << "both failed, seed " << d.seed << ": " << d.what;
  EXPECT_EQ(s.compared + s.waiting.size(), count);
  for (const auto& d : s.waiting) std::printf("WAITING seed %llu %s: %s\n", static_cast<unsigned long long>(d.seed), arch, d.what.c_str());
}

// Reduced reproducers of differences the random kernels found (tests/differential/reproducers):
// each keeps its kernel's name k_<seed>, so the seed gives the same inputs and launch shape, and
// its first line is the teg_differential command that ran it (its architecture). Both emulators
// must agree on it.
TEST(Reproducers, ReducedKernelsAgreeOnBothEmulators) {
  if (!haveTools()) GTEST_SKIP() << "nvcc or nvdisasm not found";
  const std::filesystem::path dir = std::filesystem::path(TEG_SOURCE_DIR) / "tests" / "differential" / "reproducers";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".cu") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string first;
    std::getline(in, first);
    const auto seedAt = first.find("--seed "), archAt = first.find("--arch ");
    ASSERT_NE(seedAt, std::string::npos) << entry.path();
    ASSERT_NE(archAt, std::string::npos) << entry.path();
    RunConfig config;
    config.arch = first.substr(archAt + 7, first.find(' ', archAt + 7) - archAt - 7);
    config.sourceFile = entry.path().string();
    const std::uint64_t seed = std::stoull(first.substr(seedAt + 7));
    const Summary s = runDifferential(seed, 1, 1, config);
    EXPECT_EQ(s.compared, 1u) << entry.path();
    for (const auto& d : s.differences) ADD_FAILURE() << entry.path().filename() << " " << d.arch << ": " << d.what;
  }
  EXPECT_GE(files, 1);
}

// Differences that are ptxas's, not an emulator's (tests/differential/ptxas): the SASS does not do
// what the PTX says, the SASS emulator runs the SASS as written, so each kernel must still differ,
// and only in the output its header names (a fixed ptxas makes it agree: move it to reproducers/).
TEST(PtxasMiscompilations, StillDifferOnlyWhereDocumented) {
  if (!haveTools()) GTEST_SKIP() << "nvcc or nvdisasm not found";
  const std::filesystem::path dir = std::filesystem::path(TEG_SOURCE_DIR) / "tests" / "differential" / "ptxas";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".cu") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string first, line, expected;
    std::getline(in, first);
    while (std::getline(in, line) && line.rfind("//", 0) == 0)
      if (const auto at = line.find("expected difference is "); at != std::string::npos) {
        expected = line.substr(at + 23);
        expected = expected.substr(0, expected.find(' '));  // "uo[67]"
      }
    // EXPECT and go on: one malformed header must not hide whether the other files still differ.
    const auto seedAt = first.find("--seed "), archAt = first.find("--arch ");
    EXPECT_FALSE(expected.empty()) << entry.path() << ": no 'expected difference is BUF[i]' line (on one line)";
    EXPECT_NE(seedAt, std::string::npos) << entry.path() << ": the first line has no --seed";
    EXPECT_NE(archAt, std::string::npos) << entry.path() << ": the first line has no --arch";
    if (expected.empty() || seedAt == std::string::npos || archAt == std::string::npos) continue;
    RunConfig config;
    config.arch = first.substr(archAt + 7, first.find(' ', archAt + 7) - archAt - 7);
    config.sourceFile = entry.path().string();
    const Summary s = runDifferential(std::stoull(first.substr(seedAt + 7)), 1, 1, config);
    EXPECT_EQ(s.compared, 1u) << entry.path();
    EXPECT_FALSE(s.differences.empty()) << entry.path().filename() << " agrees now: ptxas fixed? move it to reproducers/";
    for (const auto& d : s.differences)
      EXPECT_EQ(d.what.rfind(expected + " ", 0), 0u) << entry.path().filename() << ": " << d.what;
  }
  EXPECT_GE(files, 1);
}

class Differential : public ::testing::TestWithParam<const char*> {};

// Both profiles run in CI: 12 float and 24 full kernels per architecture, one nvcc run each
// (~3-5 s and ~10 s of one core per architecture without the compile cache). scripts/differential.sh
// runs any number (tests/differential/README.md has the runs so far).
TEST_P(Differential, FloatKernelsAgreeOnBothEmulators) { runBounded(GetParam(), false, 1000, 12); }
TEST_P(Differential, RandomKernelsAgreeOnBothEmulators) { runBounded(GetParam(), true, 2000, 24); }

INSTANTIATE_TEST_SUITE_P(Architectures, Differential,
                         ::testing::Values("sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace teg::differential
