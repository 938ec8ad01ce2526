// Corpus verification, element-wise kernels, stencils and transposes: each kernel of
// examples/kernels runs on the emulator for several launch shapes (including grids that do not
// divide the problem) and its outputs are compared with a CPU reference written from the
// algorithm the kernel's header comment states (not from its PTX). Inputs come from the same
// initialisers (materializeBuffer), so both sides see identical data.
#include <algorithm>
#include <cmath>

#include "corpus_support.hpp"

namespace teg::emu::corpus {
namespace {

// --- vector_add: c[i] = a[i] + b[i] ---
// Tolerance 0: one IEEE single add per element, identical on both sides.
void checkVectorAdd(int n, std::uint32_t block, std::uint32_t grid) {
  TEG_CORPUS_MODULE(m, "vector_add");
  const auto l = launch("vectorAdd", dim(grid), dim(block),
                        {buffer("a", ScalarType::F32, static_cast<std::uint64_t>(n), random(1, -1, 1)),
                         buffer("b", ScalarType::F32, static_cast<std::uint64_t>(n), random(2, -1, 1)),
                         buffer("c", ScalarType::F32, static_cast<std::uint64_t>(n)), i32("n", n)});
  const Emulator e = runLaunch(*m, l);
  const auto a = initial<float>(l, "a"), b = initial<float>(l, "b");
  std::vector<float> c(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) c[static_cast<std::size_t>(i)] = a[static_cast<std::size_t>(i)] + b[static_cast<std::size_t>(i)];
  expectNear(contents<float>(e, "c"), c, 0);
}
TEST(CorpusVerify, VectorAddThousandWith256ThreadBlocks) { checkVectorAdd(1000, 256, 4); }
TEST(CorpusVerify, VectorAddOneElement) { checkVectorAdd(1, 32, 1); }
TEST(CorpusVerify, VectorAddOddBlock) { checkVectorAdd(300, 96, 4); }

// --- saxpy: y = alpha x + y, grid-stride loop ---
// Tolerance: nvcc contracts alpha * x + y into one fma (single rounding); a reference that rounds
// the product first can differ by half an ulp of the product: |alpha x| <= 2, ulp(2)/2 = 1.2e-7.
// The reference uses fma, so the only slack is that contraction choice: 2.5e-7.
void checkSaxpy(int n, std::uint32_t block, std::uint32_t grid) {
  TEG_CORPUS_MODULE(m, "saxpy");
  const float alpha = 2.0f;
  const auto l = launch("saxpy", dim(grid), dim(block),
                        {i32("n", n), f32("alpha", alpha),
                         buffer("x", ScalarType::F32, static_cast<std::uint64_t>(n), random(1, -1, 1)),
                         buffer("y", ScalarType::F32, static_cast<std::uint64_t>(n), random(2, -1, 1))});
  const Emulator e = runLaunch(*m, l);
  const auto x = initial<float>(l, "x");
  auto y = initial<float>(l, "y");
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = std::fma(alpha, x[i], y[i]);
  expectNear(contents<float>(e, "y"), y, 2.5e-7);
}
TEST(CorpusVerify, SaxpyGridStrideCoversMoreThanTheGrid) { checkSaxpy(1000, 128, 3); }  // 384 threads, 3 passes
TEST(CorpusVerify, SaxpyGridLargerThanTheProblem) { checkSaxpy(77, 32, 4); }

// --- black_scholes: SDK formulas with the Abramowitz-Stegun CND (26.2.17) ---
// Reference in double with exact exp/log/sqrt. The kernel uses __expf / __logf (ex2.approx and
// lg2.approx: PTX ISA gives max relative error 2^-22 for ex2.approx.f32 and 2^-22 absolute for
// lg2.approx on [0.5, 2]) and float arithmetic throughout. Prices are <= 100 (strike max), each
// result goes through ~20 float roundings (2^-24 relative each) and the cancellation in put/call:
// 100 x 20 x 2^-24 ~ 1.2e-4; the approximate log perturbs d1 by <= 2^-22 / (V sqrt(T)) ~ 1.6e-6,
// times N'(d) <= 0.4 and S <= 30: 2e-5. Tolerance 5e-4 absolute covers both with margin.
double cndRef(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
  const double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double c = 0.39894228040143267794 * std::exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  return d > 0 ? 1.0 - c : c;
}
void checkBlackScholes(int n, std::uint32_t block, std::uint32_t grid) {
  TEG_CORPUS_MODULE(m, "black_scholes");
  const double R = 0.02, V = 0.30;
  const auto un = static_cast<std::uint64_t>(n);
  const auto l = launch("blackScholes", dim(grid), dim(block),
                        {buffer("call", ScalarType::F32, un), buffer("put", ScalarType::F32, un),
                         buffer("price", ScalarType::F32, un, random(1, 5, 30)),
                         buffer("strike", ScalarType::F32, un, random(2, 1, 100)),
                         buffer("years", ScalarType::F32, un, random(3, 0.25, 10)), f32("riskFree", R),
                         f32("volatility", V), i32("n", n)});
  const Emulator e = runLaunch(*m, l);
  const auto S = initial<float>(l, "price"), X = initial<float>(l, "strike"), T = initial<float>(l, "years");
  std::vector<float> call(un), put(un);
  const double r = static_cast<float>(R), v = static_cast<float>(V);  // the kernel gets them as f32
  for (std::size_t i = 0; i < un; ++i) {
    const double sqrtT = std::sqrt(static_cast<double>(T[i]));
    const double d1 = (std::log(static_cast<double>(S[i]) / X[i]) + (r + 0.5 * v * v) * T[i]) / (v * sqrtT);
    const double d2 = d1 - v * sqrtT;
    const double expRT = std::exp(-r * T[i]);
    call[i] = static_cast<float>(S[i] * cndRef(d1) - X[i] * expRT * cndRef(d2));
    put[i] = static_cast<float>(X[i] * expRT * (1.0 - cndRef(d2)) - S[i] * (1.0 - cndRef(d1)));
  }
  expectNear(contents<float>(e, "call"), call, 5e-4);
  expectNear(contents<float>(e, "put"), put, 5e-4);
}
TEST(CorpusVerify, BlackScholesGridStride) { checkBlackScholes(1000, 128, 3); }
TEST(CorpusVerify, BlackScholesPartialWarp) { checkBlackScholes(50, 64, 1); }

// --- stencil2d: Jacobi 5-point, boundary copied ---
// Reference evaluates 0.25f * (((l + r) + u) + d) in float in the source's order; nvcc neither
// reassociates nor has anything to contract here, so the result is exact (tolerance 0).
void checkStencil2d(int nx, int ny, std::uint32_t gx, std::uint32_t gy) {
  TEG_CORPUS_MODULE(m, "stencil2d");
  const auto count = static_cast<std::uint64_t>(nx) * static_cast<std::uint64_t>(ny);
  const auto l = launch("stencil2d", dim(gx, gy), dim(32, 8),
                        {buffer("in", ScalarType::F32, count, random(1, 0, 1)), buffer("out", ScalarType::F32, count),
                         i32("nx", nx), i32("ny", ny)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<float>(l, "in");
  std::vector<float> out(count);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const auto i = static_cast<std::size_t>(y * nx + x);
      if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) out[i] = in[i];
      else out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - static_cast<std::size_t>(nx)] + in[i + static_cast<std::size_t>(nx)]);
    }
  expectNear(contents<float>(e, "out"), out, 0);
}
TEST(CorpusVerify, Stencil2dRaggedGrid) { checkStencil2d(45, 37, 2, 5); }
TEST(CorpusVerify, Stencil2dTinyAllBoundary) { checkStencil2d(3, 2, 1, 1); }

// --- stencil3d: 7-point, marching in z, boundary copied ---
// Tolerance: nvcc may contract c0 * here + c1 * (...) into fma(c0, here, c1 * (...)); the
// reference is in float in the source's order, so the results may differ by one rounding of a
// product <= 0.4: 2^-24 x 0.5 ~ 3e-8, plus that rounding feeding nothing else. 1e-7 absolute.
void checkStencil3d(int nx, int ny, int nz, std::uint32_t gx, std::uint32_t gy) {
  TEG_CORPUS_MODULE(m, "stencil3d");
  const float c0 = 0.4f, c1 = 0.1f;
  const auto count = static_cast<std::uint64_t>(nx) * static_cast<std::uint64_t>(ny) * static_cast<std::uint64_t>(nz);
  const auto l = launch("stencil3d", dim(gx, gy), dim(32, 8),
                        {buffer("in", ScalarType::F32, count, random(1, 0, 1)), buffer("out", ScalarType::F32, count),
                         i32("nx", nx), i32("ny", ny), i32("nz", nz), f32("c0", c0), f32("c1", c1)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<float>(l, "in");
  std::vector<float> out(count);
  const auto at = [&](int x, int y, int z) { return in[static_cast<std::size_t>((z * ny + y) * nx + x)]; };
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const auto i = static_cast<std::size_t>((z * ny + y) * nx + x);
        const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1 || z == 0 || z == nz - 1;
        out[i] = edge ? at(x, y, z)
                      : c0 * at(x, y, z) + c1 * (at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) +
                                                 at(x, y + 1, z) + at(x, y, z - 1) + at(x, y, z + 1));
      }
  expectNear(contents<float>(e, "out"), out, 1e-7);
}
TEST(CorpusVerify, Stencil3dRaggedGrid) { checkStencil3d(37, 19, 7, 2, 3); }
TEST(CorpusVerify, Stencil3dSinglePlane) { checkStencil3d(20, 10, 1, 1, 2); }

// --- transposes: out[x * rows + y] = in[y * cols + x]; data movement only, exact ---
void checkTranspose(const char* file, const char* kernel, int rows, int cols) {
  TEG_CORPUS_MODULE(m, file);
  const auto count = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols);
  const auto gx = static_cast<std::uint32_t>((cols + 31) / 32), gy = static_cast<std::uint32_t>((rows + 31) / 32);
  const auto l = launch(kernel, dim(gx, gy), dim(32, 8),
                        {buffer("in", ScalarType::F32, count, random(1, -1, 1)), buffer("out", ScalarType::F32, count),
                         i32("rows", rows), i32("cols", cols)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<float>(l, "in");
  std::vector<float> out(count);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      out[static_cast<std::size_t>(x * rows + y)] = in[static_cast<std::size_t>(y * cols + x)];
  expectNear(contents<float>(e, "out"), out, 0);
}
TEST(CorpusVerify, TransposeNaiveRectangularRagged) { checkTranspose("transpose_naive", "transposeNaive", 45, 70); }
TEST(CorpusVerify, TransposeNaiveOneTile) { checkTranspose("transpose_naive", "transposeNaive", 32, 32); }
TEST(CorpusVerify, TransposeSharedRectangularRagged) { checkTranspose("transpose_shared", "transposeShared", 45, 70); }
TEST(CorpusVerify, TransposeSharedTallThin) { checkTranspose("transpose_shared", "transposeShared", 100, 3); }
TEST(CorpusVerify, TransposePaddedRectangularRagged) { checkTranspose("transpose_padded", "transposePadded", 45, 70); }
TEST(CorpusVerify, TransposePaddedOneTile) { checkTranspose("transpose_padded", "transposePadded", 32, 32); }

// --- floyd_warshall: d(i,j) = min(d(i,j), d(i,k) + d(k,j)) ---
// One float add and a compare per element: exact. The whole algorithm (k = 0 .. n-1, one launch
// each, memory carried over) is checked too.
std::vector<float> floydStep(std::vector<float> d, int n, int k) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const float via = d[static_cast<std::size_t>(i * n + k)] + d[static_cast<std::size_t>(k * n + j)];
      if (via < d[static_cast<std::size_t>(i * n + j)]) d[static_cast<std::size_t>(i * n + j)] = via;
    }
  return d;
}
TEST(CorpusVerify, FloydWarshallSingleStepsOnARaggedGrid) {
  TEG_CORPUS_MODULE(m, "floyd_warshall");
  const int n = 45;
  for (const int k : {0, 17, 44}) {
    const auto l = launch("floydWarshallStep", dim(2, 6), dim(32, 8),
                          {buffer("d", ScalarType::F32, n * n, random(1, 1, 100)), i32("n", n), i32("k", k)});
    const Emulator e = runLaunch(*m, l);
    expectNear(contents<float>(e, "d"), floydStep(initial<float>(l, "d"), n, k), 0);
  }
}
TEST(CorpusVerify, FloydWarshallWholeAlgorithm) {
  TEG_CORPUS_MODULE(m, "floyd_warshall");
  const int n = 20;
  const auto first = launch("floydWarshallStep", dim(1, 3), dim(32, 8),
                            {buffer("d", ScalarType::F32, n * n, random(5, 1, 100)), i32("n", n), i32("k", 0)});
  std::vector<float> expected = initial<float>(first, "d");
  for (int i = 0; i < n; ++i) expected[static_cast<std::size_t>(i * n + i)] = 0.0f;  // d(k,k) = 0 (kernel comment)
  std::vector<float> d = expected;
  for (int k = 0; k < n; ++k) {
    Emulator e(*m, "floydWarshallStep", dim(1, 3), dim(32, 8));
    e.addBuffer("d", std::as_bytes(std::span<const float>(d)));
    const std::int32_t nn = n, kk = k;
    e.addScalar("n", std::as_bytes(std::span<const std::int32_t>(&nn, 1)));
    e.addScalar("k", std::as_bytes(std::span<const std::int32_t>(&kk, 1)));
    e.run();
    d = contents<float>(e, "d");
    expected = floydStep(expected, n, k);
  }
  expectNear(d, expected, 0);
}

// --- convolution2d: 5x5 binomial blur, zero padding ---
// out(x,y) = sum over dy then dx of mask(dy,dx) * in(x+dx-2, y+dy-2). The reference accumulates
// in float in the same order with fma (nvcc contracts sum += a * b); the masks are exact binary
// fractions (k/256), so the only freedom is contraction: values <= 1, 25 terms, one rounding each
// of a product <= 36/256 if not contracted: 25 x 2^-24 x 0.15 ~ 2.2e-7. Tolerance 5e-7.
void checkConvolution(int width, int height) {
  TEG_CORPUS_MODULE(m, "convolution2d");
  const auto count = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
  const auto gx = static_cast<std::uint32_t>((width + 11) / 12), gy = static_cast<std::uint32_t>((height + 11) / 12);
  const auto l = launch("convolution2dTiled", dim(gx, gy), dim(16, 16),
                        {buffer("in", ScalarType::F32, count, random(1, 0, 1)), buffer("out", ScalarType::F32, count),
                         i32("width", width), i32("height", height)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<float>(l, "in");
  const float b[5] = {1, 4, 6, 4, 1};
  std::vector<float> out(count);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float sum = 0.0f;
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx) {
          const int sx = x + dx - 2, sy = y + dy - 2;
          const float v = sx >= 0 && sx < width && sy >= 0 && sy < height ? in[static_cast<std::size_t>(sy * width + sx)] : 0.0f;
          sum = std::fma(b[dy] * b[dx] / 256.0f, v, sum);
        }
      out[static_cast<std::size_t>(y * width + x)] = sum;
    }
  expectNear(contents<float>(e, "out"), out, 5e-7);
}
TEST(CorpusVerify, Convolution2dRaggedImage) { checkConvolution(30, 25); }
TEST(CorpusVerify, Convolution2dOneOutputTile) { checkConvolution(12, 12); }
TEST(CorpusVerify, Convolution2dSmallerThanTheMask) { checkConvolution(3, 2); }

}  // namespace
}  // namespace teg::emu::corpus
