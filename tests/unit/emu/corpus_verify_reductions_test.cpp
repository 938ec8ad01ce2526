// Corpus verification, reductions, scans, histograms, sorting and softmax (see
// corpus_verify_elementwise_test.cpp for the method). Integer kernels must match exactly.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "corpus_support.hpp"

namespace teg::emu::corpus {
namespace {

// Per-block sums of `in` over segments of `segment` elements (elements past n count 0).
std::vector<std::int32_t> segmentSums(const std::vector<std::int32_t>& in, int segment, std::uint32_t blocks) {
  std::vector<std::int32_t> out(blocks, 0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t b = i / static_cast<std::size_t>(segment);
    if (b < blocks) out[b] += in[i];
  }
  return out;
}

void checkReduce(const char* file, const char* kernel, int n, std::uint32_t block, std::uint32_t grid, int segment) {
  TEG_CORPUS_MODULE(m, file);
  const auto l = launch(kernel, dim(grid), dim(block),
                        {buffer("in", ScalarType::I32, static_cast<std::uint64_t>(n), random(1, -100, 100)),
                         buffer("out", ScalarType::I32, grid), i32("n", n)});
  const Emulator e = runLaunch(*m, l);
  expectExact(contents<std::int32_t>(e, "out"), segmentSums(initial<std::int32_t>(l, "in"), segment, grid));
}

// out[b] = sum of in[b * blockDim .. + blockDim).
TEST(CorpusVerify, ReduceInterleaved1000With256) { checkReduce("reduce_interleaved", "reduceInterleaved", 1000, 256, 4, 256); }
TEST(CorpusVerify, ReduceInterleavedBlock64) { checkReduce("reduce_interleaved", "reduceInterleaved", 500, 64, 8, 64); }
TEST(CorpusVerify, ReduceSequential1000With256) { checkReduce("reduce_sequential", "reduceSequential", 1000, 256, 4, 256); }
TEST(CorpusVerify, ReduceSequentialBlock128) { checkReduce("reduce_sequential", "reduceSequential", 1000, 128, 8, 128); }
TEST(CorpusVerify, ReduceWarpShuffle1000With256) {
  checkReduce("reduce_warp_shuffle", "reduceWarpShuffle", 1000, 256, 4, 256);
}
TEST(CorpusVerify, ReduceWarpShuffleBlock96) { checkReduce("reduce_warp_shuffle", "reduceWarpShuffle", 1000, 96, 11, 96); }
TEST(CorpusVerify, ReduceWarpShuffleOneWarp) { checkReduce("reduce_warp_shuffle", "reduceWarpShuffle", 20, 32, 1, 32); }
// reduce_unrolled: block 256 is required, each block sums 2 x 256 elements.
TEST(CorpusVerify, ReduceUnrolled1000) { checkReduce("reduce_unrolled", "reduceUnrolled", 1000, 256, 2, 512); }
TEST(CorpusVerify, ReduceUnrolled5000) { checkReduce("reduce_unrolled", "reduceUnrolled", 5000, 256, 10, 512); }

// --- inclusive_scan: out[i] = in[seg] + ... + in[i] per 512-element segment; blockSums = totals ---
void checkScan(int n, std::uint32_t grid) {
  TEG_CORPUS_MODULE(m, "inclusive_scan");
  const auto l = launch("inclusiveScanBlock", dim(grid), dim(512),
                        {buffer("in", ScalarType::I32, static_cast<std::uint64_t>(n), random(1, -100, 100)),
                         buffer("out", ScalarType::I32, static_cast<std::uint64_t>(n)),
                         buffer("blockSums", ScalarType::I32, grid), i32("n", n)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<std::int32_t>(l, "in");
  std::vector<std::int32_t> out(in.size()), sums(grid, 0);
  for (std::uint32_t b = 0; b < grid; ++b) {
    std::int32_t running = 0;
    for (std::size_t i = b * 512u; i < std::min<std::size_t>(in.size(), (b + 1) * 512u); ++i) {
      running += in[i];
      out[i] = running;
    }
    sums[b] = running;  // elements past n count 0
  }
  expectExact(contents<std::int32_t>(e, "out"), out);
  expectExact(contents<std::int32_t>(e, "blockSums"), sums);
}
TEST(CorpusVerify, InclusiveScanRaggedLastSegment) { checkScan(1000, 2); }
TEST(CorpusVerify, InclusiveScanOneSegment) { checkScan(512, 1); }

// --- histogram256: bins[v] = count of data[i] == v (integer atomics: order-independent) ---
void checkHistogram(int n, std::uint32_t block, std::uint32_t grid, double max) {
  TEG_CORPUS_MODULE(m, "histogram");
  const auto l = launch("histogram256", dim(grid), dim(block),
                        {buffer("data", ScalarType::U8, static_cast<std::uint64_t>(n), random(1, 0, max)),
                         i32("n", n), buffer("bins", ScalarType::U32, 256)});
  const Emulator e = runLaunch(*m, l);
  std::vector<std::uint32_t> bins(256, 0);
  for (const auto v : initial<std::uint8_t>(l, "data")) ++bins[v];
  expectExact(contents<std::uint32_t>(e, "bins"), bins);
}
TEST(CorpusVerify, HistogramGridStride) { checkHistogram(1000, 256, 2, 255); }
TEST(CorpusVerify, HistogramHeavyContentionOnFewBins) { checkHistogram(5000, 128, 3, 3); }
TEST(CorpusVerify, HistogramBlockSmallerThanTheBins) { checkHistogram(700, 64, 5, 255); }

// --- bitonic_sort: each 1024-key segment sorted ascending; keys past n untouched ---
void checkBitonic(int n, std::uint32_t grid) {
  TEG_CORPUS_MODULE(m, "bitonic_sort");
  const auto l = launch("bitonicSortShared", dim(grid), dim(512),
                        {buffer("keys", ScalarType::U32, static_cast<std::uint64_t>(n), random(1, 0, 4294967295.0)),
                         i32("n", n)});
  const Emulator e = runLaunch(*m, l);
  auto keys = initial<std::uint32_t>(l, "keys");
  for (std::size_t s = 0; s < keys.size(); s += 1024)
    std::sort(keys.begin() + static_cast<std::ptrdiff_t>(s),
              keys.begin() + static_cast<std::ptrdiff_t>(std::min(keys.size(), s + 1024)));
  expectExact(contents<std::uint32_t>(e, "keys"), keys);
}
TEST(CorpusVerify, BitonicSortPartialLastSegment) { checkBitonic(2000, 2); }
TEST(CorpusVerify, BitonicSortOneSegment) { checkBitonic(1024, 1); }

// --- softmax: out(r,c) = exp(in(r,c) - m) / sum_c' exp(in(r,c') - m), m = row max ---
// Reference in double. The kernel uses __expf (ex2.approx.ftz.f32 of x * log2(e): the product's
// rounding, |x log2 e| <= 14.5 -> 2^-24 x 14.5 ~ 8.6e-7 absolute in the exponent, i.e. 6e-7
// relative in the result, plus 2^-22 for ex2.approx itself), a float tree sum of <= 1000 terms
// (relative error <= log2(256) x 2^-24 + strided partial sums <= 4 terms x 2^-24 ~ 7e-7) and the
// reciprocal: ~2e-6 relative in all. Tolerance 1e-5 relative + 1e-9 absolute.
void checkSoftmax(int rows, int cols, std::uint32_t block, std::uint32_t grid) {
  TEG_CORPUS_MODULE(m, "softmax");
  const auto count = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols);
  const auto l = launch("softmaxRows", dim(grid), dim(block),
                        {buffer("in", ScalarType::F32, count, random(1, -5, 5)), buffer("out", ScalarType::F32, count),
                         i32("rows", rows), i32("cols", cols)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<float>(l, "in");
  std::vector<float> out(count);
  for (int r = 0; r < rows; ++r) {
    const float* x = in.data() + static_cast<std::ptrdiff_t>(r) * cols;
    const double mx = *std::max_element(x, x + cols);
    double sum = 0;
    for (int c = 0; c < cols; ++c) sum += std::exp(x[c] - mx);
    for (int c = 0; c < cols; ++c)
      out[static_cast<std::size_t>(r * cols + c)] = static_cast<float>(std::exp(x[c] - mx) / sum);
  }
  expectNear(contents<float>(e, "out"), out, 1e-9, 1e-5);
}
TEST(CorpusVerify, SoftmaxRowsLongerThanTheBlock) { checkSoftmax(5, 1000, 256, 5); }
TEST(CorpusVerify, SoftmaxMoreBlocksThanRows) { checkSoftmax(3, 100, 128, 4); }
TEST(CorpusVerify, SoftmaxRowsShorterThanTheBlock) { checkSoftmax(2, 20, 64, 2); }

}  // namespace
}  // namespace teg::emu::corpus
