// A handful of corpus kernels (examples/kernels), compiled by nvcc when it is installed, run end
// to end and compared with straightforward CPU loops. The full corpus is verified elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "emu_test_util.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::emu::test {
namespace {

// PTX of a corpus kernel, or empty when nvcc is not installed.
std::optional<ptx::Module> corpusModule(const std::string& stem) {
  try {
    (void)toolchain::findNvcc();
  } catch (const Error&) {
    return std::nullopt;
  }
  const std::string path = std::string(TEG_SOURCE_DIR) + "/examples/kernels/" + stem + ".cu";
  const toolchain::CompileResult r = toolchain::compileCuda(path, {});
  return ptx::parseModule(r.ptx, stem + ".ptx");
}

template <class T>
void addScalarValue(Emulator& e, const std::string& name, T v) {
  e.addScalar(name, std::as_bytes(std::span(&v, 1)));
}

TEST(CorpusKernels, MatmulSharedMatchesCpuOnRaggedTiles) {
  const auto m = corpusModule("matmul_shared");
  if (!m) GTEST_SKIP() << "nvcc not found";
  const int M = 37, N = 45, K = 29;  // none a multiple of the 16 x 16 tile
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> A(M * K), B(K * N);
  for (auto& x : A) x = dist(rng);
  for (auto& x : B) x = dist(rng);
  Emulator e(*m, "matmulShared", Dim3{(N + 15) / 16, (M + 15) / 16, 1}, Dim3{16, 16, 1});
  e.addBuffer("A", bytesOf(A));
  e.addBuffer("B", bytesOf(B));
  e.addBuffer("C", bytesOf(zeros<float>(M * N)));
  addScalarValue(e, "M", M);
  addScalarValue(e, "N", N);
  addScalarValue(e, "K", K);
  e.run();
  const auto C = readAs<float>(e.buffer("C"));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float sum = 0;  // k ascending with fma, as the kernel (zeros from padding tiles add exactly)
      for (int k = 0; k < K; ++k) sum = std::fma(A[i * K + k], B[k * N + j], sum);
      ASSERT_NEAR(C[i * N + j], sum, 1e-5f) << i << "," << j;
    }
}

TEST(CorpusKernels, ReduceWarpShuffleSumsEachBlockExactly) {
  const auto m = corpusModule("reduce_warp_shuffle");
  if (!m) GTEST_SKIP() << "nvcc not found";
  const int n = 1000, block = 256, grid = (n + block - 1) / block;
  std::vector<std::int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 201 - 100;
  for (unsigned threads : {1u, 2u}) {
    Emulator e(*m, "reduceWarpShuffle", Dim3{static_cast<std::uint32_t>(grid), 1, 1}, Dim3{256, 1, 1});
    e.addBuffer("in", bytesOf(in));
    e.addBuffer("out", bytesOf(zeros<std::int32_t>(grid)));
    addScalarValue(e, "n", n);
    RunOptions o;
    o.threads = threads;
    e.run(o);
    const auto out = readAs<std::int32_t>(e.buffer("out"));
    for (int b = 0; b < grid; ++b) {
      std::int32_t s = 0;
      for (int i = b * block; i < std::min(n, (b + 1) * block); ++i) s += in[i];
      EXPECT_EQ(out[b], s) << "block " << b << " threads " << threads;
    }
  }
}

TEST(CorpusKernels, HistogramWithSharedAndGlobalAtomicsAcrossParallelBlocks) {
  const auto m = corpusModule("histogram");
  if (!m) GTEST_SKIP() << "nvcc not found";
  const int n = 50000;
  std::vector<std::uint8_t> data(n);
  std::mt19937 rng(3);
  for (auto& x : data) x = static_cast<std::uint8_t>(rng() & 0xff);
  std::vector<std::uint32_t> expect(256, 0);
  for (auto x : data) ++expect[x];
  Emulator e(*m, "histogram256", Dim3{12, 1, 1}, Dim3{128, 1, 1});
  e.addBuffer("data", bytesOf(data));
  addScalarValue(e, "n", n);
  e.addBuffer("bins", bytesOf(zeros<std::uint32_t>(256)));
  RunOptions o;
  o.threads = 2;
  e.run(o);
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("bins")), expect);
}

TEST(CorpusKernels, BitonicSortSortsEachSegment) {
  const auto m = corpusModule("bitonic_sort");
  if (!m) GTEST_SKIP() << "nvcc not found";
  const int n = 2048;  // two segments of 1024
  std::vector<std::uint32_t> keys(n);
  std::mt19937 rng(11);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  Emulator e(*m, "bitonicSortShared", Dim3{2, 1, 1}, Dim3{512, 1, 1});
  e.addBuffer("keys", bytesOf(keys));
  addScalarValue(e, "n", n);
  e.run();
  auto expect = keys;
  std::sort(expect.begin(), expect.begin() + 1024);
  std::sort(expect.begin() + 1024, expect.end());
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("keys")), expect);
}

}  // namespace
}  // namespace teg::emu::test
