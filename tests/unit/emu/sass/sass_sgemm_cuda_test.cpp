// Real code as ptxas compiles it: siboehm/SGEMM_CUDA's kernels 1-12 (tests/data/sgemm_cuda, the
// register-blocked, vectorised, warp-tiled and double-buffered SGEMMs many users start from), each
// launched as the repository's runner.cu launches it on an RTX A6000 (sm_86), at M = N = K = 256,
// run on the SASS emulator. Expected: C = alpha A B + beta C computed here from the buffers the
// emulator started with. The sums are of 256 positive products, so float accumulation in any order
// stays within 256 x 2^-24 (1.5e-5) of the exact value relative to it; one product missing or
// counted twice moves an element by about 1/256 (4e-3).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"

namespace teg::emu::sasstest {
namespace {

constexpr int kSize = 256;

struct SgemmLaunch {
  const char* kernel;
  Dim3 grid;
  Dim3 block;
};

// src/runner.cu's launches at M = N = K = 256 (CEIL_DIV of its tile sizes).
const SgemmLaunch kLaunches[] = {
    {"sgemm_naive", {8, 8, 1}, {32, 32, 1}},
    {"sgemm_global_mem_coalesce", {8, 8, 1}, {1024, 1, 1}},
    {"sgemm_shared_mem_block", {8, 8, 1}, {1024, 1, 1}},
    {"sgemm1DBlocktiling", {4, 4, 1}, {512, 1, 1}},
    {"sgemm2DBlocktiling", {2, 2, 1}, {256, 1, 1}},
    {"sgemmVectorize", {2, 2, 1}, {256, 1, 1}},
    {"sgemmResolveBankConflicts", {2, 2, 1}, {256, 1, 1}},
    {"sgemmResolveBankExtraCol", {2, 2, 1}, {256, 1, 1}},
    {"sgemmAutotuned", {2, 2, 1}, {256, 1, 1}},
    {"sgemmWarptiling", {2, 2, 1}, {128, 1, 1}},
    {"sgemmDoubleBuffering", {1, 2, 1}, {256, 1, 1}},
};

std::vector<float> floats(std::span<const std::byte> bytes) {
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

LaunchArg matrix(const char* name, std::uint64_t seed) {
  BufferArg b;
  b.type = ScalarType::F32;
  b.count = std::uint64_t{kSize} * kSize;
  b.init = RandomInit{seed, 0, 1};
  return LaunchArg{name, b};
}

LaunchDescription sgemmLaunch(const SgemmLaunch& k) {
  LaunchDescription l;
  l.kernel = k.kernel;
  l.grid = k.grid;
  l.block = k.block;
  const float alpha = 0.5f, beta = 3.0f;  // sgemm.cu's
  l.args = {LaunchArg{"M", ScalarArg{ScalarType::I32, std::int64_t{kSize}}},
            LaunchArg{"N", ScalarArg{ScalarType::I32, std::int64_t{kSize}}},
            LaunchArg{"K", ScalarArg{ScalarType::I32, std::int64_t{kSize}}},
            LaunchArg{"alpha", ScalarArg{ScalarType::F32, double{alpha}}},
            matrix("A", 1),
            matrix("B", 2),
            LaunchArg{"beta", ScalarArg{ScalarType::F32, double{beta}}},
            matrix("C", 3)};
  return l;
}

void runAndCheck(Emulator& e, const char* kernel) {
  const double alpha = 0.5, beta = 3.0;
  const auto a = floats(e.buffer("A"));
  const auto b = floats(e.buffer("B"));
  const auto c0 = floats(e.buffer("C"));
  e.run();
  const auto got = floats(e.buffer("C"));
  int wrong = 0;
  for (int i = 0; i < kSize && wrong < 5; ++i)
    for (int j = 0; j < kSize && wrong < 5; ++j) {
      double sum = 0;
      for (int p = 0; p < kSize; ++p) sum += double{a[i * kSize + p]} * double{b[p * kSize + j]};
      const double want = alpha * sum + beta * double{c0[i * kSize + j]};
      const double have = got[i * kSize + j];
      if (std::abs(have - want) > 1e-4 * std::abs(want)) {
        ADD_FAILURE() << kernel << ": C[" << i << "][" << j << "] = " << have << ", expected " << want;
        ++wrong;
      }
    }
}

class SgemmCuda : public ::testing::TestWithParam<SgemmLaunch> {};

TEST_P(SgemmCuda, TheSassEmulatorComputesAlphaABPlusBetaC) {
  TEG_SASS_TOOLS_OR_SKIP();
  const auto cu = std::filesystem::path(TEG_SOURCE_DIR) / "tests" / "data" / "sgemm_cuda" / "sgemm_cuda.cu";
  const Compiled& c = compile(cu.string(), "sm_86");
  const SgemmLaunch& k = GetParam();
  LaunchDescription l = sgemmLaunch(k);
  Emulator e(c.ptx, l);
  e.selectSass(c.sass, c.smVersion, c.cubin);
  runAndCheck(e, k.kernel);
}

// Kernel 12 (cuda::memcpy_async into shared memory completing on a cuda::barrier) on the PTX
// emulator. For sm_86 the library compiles it to cp.async, cp.async.mbarrier.arrive and
// mbarrier init/arrive/test_wait; for sm_90 the float4 copies become cp.async.bulk completing
// transaction bytes, with mbarrier.expect_tx and try_wait.
class SgemmCudaAsync : public ::testing::TestWithParam<const char*> {};

TEST_P(SgemmCudaAsync, KernelTwelveOnThePtxEmulatorComputesAlphaABPlusBetaC) {
  TEG_SASS_TOOLS_OR_SKIP();
  const auto cu = std::filesystem::path(TEG_SOURCE_DIR) / "tests" / "data" / "sgemm_cuda" / "sgemm_cuda.cu";
  const Compiled& c = compile(cu.string(), GetParam());
  LaunchDescription l = sgemmLaunch({"runSgemmDoubleBuffering2", {2, 2, 1}, {128, 1, 1}});
  Emulator e(c.ptx, l);
  runAndCheck(e, "runSgemmDoubleBuffering2");
}

// The same kernel on its SASS (sm_80/86: LDGSTS, ARRIVES.LDGSTSBAR, ATOMS.ARRIVE and the mbarrier
// word in shared memory; sm_90: SYNCS.*, UBLKCP in an ELECT loop, ARRIVES .ARVCNT/.TRANSCNT),
// checked against the same expectation and against the PTX emulator bit for bit.
TEST_P(SgemmCudaAsync, KernelTwelveOnTheSassEmulatorEqualsThePtxEmulator) {
  TEG_SASS_TOOLS_OR_SKIP();
  const auto cu = std::filesystem::path(TEG_SOURCE_DIR) / "tests" / "data" / "sgemm_cuda" / "sgemm_cuda.cu";
  const Compiled& c = compile(cu.string(), GetParam());
  LaunchDescription l = sgemmLaunch({"runSgemmDoubleBuffering2", {2, 2, 1}, {128, 1, 1}});
  Emulator sass(c.ptx, l), ptx(c.ptx, l);
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  runAndCheck(sass, "runSgemmDoubleBuffering2");
  ptx.run();
  EXPECT_EQ(firstDifference(sass.buffer("C"), ptx.buffer("C")), -1);
}

INSTANTIATE_TEST_SUITE_P(Archs, SgemmCudaAsync, ::testing::Values("sm_80", "sm_86", "sm_90"),
                         [](const auto& info) { return std::string(info.param); });

INSTANTIATE_TEST_SUITE_P(Kernels, SgemmCuda, ::testing::ValuesIn(kLaunches),
                         [](const auto& info) { return std::string(info.param.kernel); });

}  // namespace
}  // namespace teg::emu::sasstest
