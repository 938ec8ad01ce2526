// The expected outputs shipped with the launch examples (examples/kernels/<name>.expected.*.npy,
// named by "expect" in the launch files, used by `teg run --check`) are the CPU references of
// these tests applied to the launch's own inputs — never the emulator's output. This test
// recomputes them and compares with the files (it does not run the emulator on the usual,
// large launches; the kernels themselves are verified in corpus_verify_*_test.cpp).
//
// To regenerate after changing a launch file: TEG_WRITE_EXPECTED=1 test_emu
//   --gtest_filter='CorpusExampleExpected.*'
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>

#include "corpus_support.hpp"
#include "teg/emu/npy.hpp"

namespace teg::emu::corpus {
namespace {

template <typename T>
std::vector<std::byte> asBytes(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<std::byte> blockSums(const LaunchDescription& l, int segment) {
  const auto in = initial<std::int32_t>(l, "in");
  std::vector<std::int32_t> out(l.grid.count(), 0);
  for (std::size_t i = 0; i < in.size(); ++i)
    if (i / static_cast<std::size_t>(segment) < out.size()) out[i / static_cast<std::size_t>(segment)] += in[i];
  return asBytes(out);
}

std::vector<std::byte> histogram(const LaunchDescription& l) {
  std::vector<std::uint32_t> bins(256, 0);
  for (const auto v : initial<std::uint8_t>(l, "data")) ++bins[v];
  return asBytes(bins);
}

std::vector<std::byte> scanTotals(const LaunchDescription& l) {
  const auto in = initial<std::int32_t>(l, "in");
  std::vector<std::int32_t> sums(l.grid.count(), 0);
  for (std::size_t i = 0; i < in.size(); ++i)
    if (i / 512 < sums.size()) sums[i / 512] += in[i];
  return asBytes(sums);
}

std::vector<std::byte> spmv(const LaunchDescription& l) {
  const auto rowPtr = initial<std::int32_t>(l, "rowPtr"), col = initial<std::int32_t>(l, "colIdx");
  const auto val = initial<float>(l, "values"), x = initial<float>(l, "x");
  std::vector<float> y(rowPtr.size() - 1);
  for (std::size_t r = 0; r + 1 < rowPtr.size(); ++r) {
    float sum = 0.0f;  // j ascending with fma, as the kernel's contracted loop
    for (int j = rowPtr[r]; j < rowPtr[r + 1]; ++j)
      sum = std::fma(val[static_cast<std::size_t>(j)], x[static_cast<std::size_t>(col[static_cast<std::size_t>(j)])], sum);
    y[r] = sum;
  }
  return asBytes(y);
}

struct Example {
  const char* stem;
  const char* buffer;
  std::function<std::vector<std::byte>(const LaunchDescription&)> reference;
};

const Example kExamples[] = {
    {"histogram", "bins", histogram},
    {"reduce_interleaved", "out", [](const LaunchDescription& l) { return blockSums(l, 256); }},
    {"reduce_sequential", "out", [](const LaunchDescription& l) { return blockSums(l, 256); }},
    {"reduce_warp_shuffle", "out", [](const LaunchDescription& l) { return blockSums(l, 256); }},
    {"reduce_unrolled", "out", [](const LaunchDescription& l) { return blockSums(l, 512); }},
    {"inclusive_scan", "blockSums", scanTotals},
    {"spmv_csr", "y", spmv},
};

TEST(CorpusExampleExpected, ShippedExpectedOutputsAreTheCpuReferences) {
  const bool write = std::getenv("TEG_WRITE_EXPECTED") != nullptr;
  for (const auto& ex : kExamples) {
    SCOPED_TRACE(ex.stem);
    const LaunchDescription l = readLaunchFile(kernelsDir() + "/" + ex.stem + ".launch.json");
    const BufferArg* out = nullptr;
    for (const auto& a : l.args)
      if (a.name == ex.buffer && a.isBuffer()) out = &std::get<BufferArg>(a.value);
    ASSERT_NE(out, nullptr);
    ASSERT_TRUE(out->expect.has_value()) << ex.buffer << " has no \"expect\"";
    const auto* file = std::get_if<FileInit>(&out->expect->values);
    ASSERT_NE(file, nullptr);
    const auto reference = ex.reference(l);
    ASSERT_EQ(reference.size(), out->count * static_cast<std::uint64_t>(scalarTypeSize(out->type)));
    if (write) writeNpy(file->path, out->type, reference);
    const auto shipped = materializeBuffer(out->type, out->count, out->expect->values, ex.buffer);
    EXPECT_TRUE(shipped == reference) << file->path << " differs from the CPU reference (regenerate it: see top of "
                                      << "this file)";
  }
}

}  // namespace
}  // namespace teg::emu::corpus
