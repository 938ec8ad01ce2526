// Corpus verification, dense and sparse linear algebra and all-pairs kernels (see
// corpus_verify_elementwise_test.cpp for the method). References are plain loops in the order
// the kernels' header comments give (k ascending, j ascending).
#include <cmath>
#include <filesystem>
#include <fstream>

#include "corpus_support.hpp"

namespace teg::emu::corpus {
namespace {

// Matrix products: C(i,j) = sum_k A(i,k) B(k,j), k ascending, inputs in [-1, 1].
// The reference accumulates in float with fma in k order, as nvcc's contracted sum += a * b does;
// zero padding of ragged tiles adds exact zeros. Any remaining difference is contraction (one
// rounding of a product <= 1 per term): K x 2^-24 <= 70 x 6e-8 = 4.2e-6. Tolerance 5e-6.
constexpr double kProductTolerance = 5e-6;

struct Gemm {
  int M, N, K;
};

std::vector<float> referenceAB(const std::vector<float>& A, const std::vector<float>& B, const Gemm& g, bool bTransposed) {
  std::vector<float> C(static_cast<std::size_t>(g.M * g.N));
  for (int i = 0; i < g.M; ++i)
    for (int j = 0; j < g.N; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < g.K; ++k) {
        const float b = bTransposed ? B[static_cast<std::size_t>(j * g.K + k)] : B[static_cast<std::size_t>(k * g.N + j)];
        sum = std::fma(A[static_cast<std::size_t>(i * g.K + k)], b, sum);
      }
      C[static_cast<std::size_t>(i * g.N + j)] = sum;
    }
  return C;
}

void checkMatmul(const char* file, const char* kernel, const Gemm& g, Dim3 block, bool bTransposed) {
  TEG_CORPUS_MODULE(m, file);
  const Dim3 grid = dim((static_cast<std::uint32_t>(g.N) + block.x - 1) / block.x,
                        (static_cast<std::uint32_t>(g.M) + block.y - 1) / block.y);
  const auto bCount = static_cast<std::uint64_t>(bTransposed ? g.N * g.K : g.K * g.N);
  const auto l = launch(kernel, grid, block,
                        {buffer("A", ScalarType::F32, static_cast<std::uint64_t>(g.M * g.K), random(1, -1, 1)),
                         buffer("B", ScalarType::F32, bCount, random(2, -1, 1)),
                         buffer("C", ScalarType::F32, static_cast<std::uint64_t>(g.M * g.N)), i32("M", g.M),
                         i32("N", g.N), i32("K", g.K)});
  const Emulator e = runLaunch(*m, l);
  expectNear(contents<float>(e, "C"), referenceAB(initial<float>(l, "A"), initial<float>(l, "B"), g, bTransposed),
             kProductTolerance);
}

TEST(CorpusVerify, MatmulNaiveRagged) { checkMatmul("matmul_naive", "matmulNaive", {37, 45, 29}, dim(16, 16), false); }
TEST(CorpusVerify, MatmulNaiveWideBlock) { checkMatmul("matmul_naive", "matmulNaive", {40, 50, 70}, dim(32, 4), false); }
TEST(CorpusVerify, MatmulNaiveOneTile) { checkMatmul("matmul_naive", "matmulNaive", {16, 16, 16}, dim(16, 16), false); }
TEST(CorpusVerify, MatmulSharedRagged) { checkMatmul("matmul_shared", "matmulShared", {50, 20, 70}, dim(16, 16), false); }
TEST(CorpusVerify, MatmulSharedOneTile) { checkMatmul("matmul_shared", "matmulShared", {16, 16, 16}, dim(16, 16), false); }
TEST(CorpusVerify, MatmulABtConflictRagged) {
  checkMatmul("matmul_abt_conflict", "matmulABtConflict", {37, 45, 29}, dim(16, 16), true);
}
TEST(CorpusVerify, MatmulABtConflictExactTiles) {
  checkMatmul("matmul_abt_conflict", "matmulABtConflict", {32, 32, 48}, dim(16, 16), true);
}
TEST(CorpusVerify, MatmulABtPaddedRagged) {
  checkMatmul("matmul_abt_padded", "matmulABtPadded", {37, 45, 29}, dim(16, 16), true);
}
TEST(CorpusVerify, MatmulABtPaddedExactTiles) {
  checkMatmul("matmul_abt_padded", "matmulABtPadded", {32, 32, 48}, dim(16, 16), true);
}

// --- sgemm_register_blocked: C = alpha A B + beta C, column-major with leading dimensions ---
// Same accumulation (fma, k ascending) then alpha * c + beta * C, which nvcc may contract:
// tolerance as for the products plus one rounding of |alpha c| <= 1.5 x 70: 70 x 1.5 x 2^-24
// ~ 6e-6 -> 2e-5 absolute.
void checkSgemm(int M, int N, int K, int lda, int ldb, int ldc, float alpha, float beta) {
  TEG_CORPUS_MODULE(m, "sgemm_register_blocked");
  const Dim3 grid = dim(static_cast<std::uint32_t>((M + 63) / 64), static_cast<std::uint32_t>((N + 15) / 16));
  const auto l = launch("sgemmRegisterBlocked", grid, dim(64),
                        {i32("M", M), i32("N", N), i32("K", K), f32("alpha", alpha),
                         buffer("A", ScalarType::F32, static_cast<std::uint64_t>(lda * K), random(1, -1, 1)),
                         i32("lda", lda),
                         buffer("B", ScalarType::F32, static_cast<std::uint64_t>(ldb * N), random(2, -1, 1)),
                         i32("ldb", ldb), f32("beta", beta),
                         buffer("C", ScalarType::F32, static_cast<std::uint64_t>(ldc * N), random(3, -1, 1)),
                         i32("ldc", ldc)});
  const Emulator e = runLaunch(*m, l);
  const auto A = initial<float>(l, "A"), B = initial<float>(l, "B");
  auto C = initial<float>(l, "C");  // elements outside M x N (ldc > M) must stay untouched
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      float c = 0.0f;
      for (int k = 0; k < K; ++k)
        c = std::fma(A[static_cast<std::size_t>(i + k * lda)], B[static_cast<std::size_t>(k + j * ldb)], c);
      float& out = C[static_cast<std::size_t>(i + j * ldc)];
      out = std::fma(alpha, c, beta * out);
    }
  expectNear(contents<float>(e, "C"), C, 2e-5);
}
TEST(CorpusVerify, SgemmRegisterBlockedRagged) { checkSgemm(100, 40, 50, 100, 50, 100, 1.5f, 0.5f); }
TEST(CorpusVerify, SgemmRegisterBlockedLeadingDimensionsLargerThanTheMatrix) {
  checkSgemm(70, 17, 33, 73, 35, 72, 1.0f, 0.0f);
}
TEST(CorpusVerify, SgemmRegisterBlockedExactTiles) { checkSgemm(64, 16, 16, 64, 16, 64, 1.0f, 1.0f); }

// --- apsp_minplus: out(i,j) = min_k in(i,k) + in(k,j); one add per term, min is exact ---
void checkApsp(int n) {
  TEG_CORPUS_MODULE(m, "apsp_minplus");
  const auto g = static_cast<std::uint32_t>((n + 15) / 16);
  const auto count = static_cast<std::uint64_t>(n * n);
  const auto l = launch("apspMinPlus", dim(g, g), dim(16, 16),
                        {buffer("in", ScalarType::F32, count, random(1, 1, 100)), buffer("out", ScalarType::F32, count),
                         i32("n", n)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<float>(l, "in");
  std::vector<float> out(count);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float best = INFINITY;
      for (int k = 0; k < n; ++k)
        best = std::fmin(best, in[static_cast<std::size_t>(i * n + k)] + in[static_cast<std::size_t>(k * n + j)]);
      out[static_cast<std::size_t>(i * n + j)] = best;
    }
  expectNear(contents<float>(e, "out"), out, 0);
}
TEST(CorpusVerify, ApspMinPlusRagged) { checkApsp(40); }
TEST(CorpusVerify, ApspMinPlusOneTile) { checkApsp(16); }
TEST(CorpusVerify, ApspMinPlusSmallerThanATile) { checkApsp(5); }

// --- spmv_csr: y[r] = sum_{j in row r} values[j] * x[colIdx[j]], j ascending ---
// fma in j order as nvcc contracts; |values|, |x| <= 1, <= 16 terms: tolerance 16 x 2^-24 ~ 1e-6.
void checkSpmv(const std::vector<std::int32_t>& rowPtr, int cols, std::uint32_t block, const std::string& tag) {
  TEG_CORPUS_MODULE(m, "spmv_csr");
  const int rows = static_cast<int>(rowPtr.size()) - 1;
  const auto nnz = static_cast<std::uint64_t>(rowPtr.back());
  const std::string path = std::string(TEG_BINARY_DIR) + "/corpus_spmv_rowptr_" + tag + ".bin";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(rowPtr.data()), static_cast<std::streamsize>(rowPtr.size() * 4));
  }
  const auto grid = static_cast<std::uint32_t>((rows + static_cast<int>(block) - 1) / static_cast<int>(block));
  const auto l = launch("spmvCsr", dim(grid), dim(block),
                        {i32("rows", rows),
                         buffer("rowPtr", ScalarType::I32, rowPtr.size(), FileInit{path}),
                         buffer("colIdx", ScalarType::I32, nnz, random(2, 0, cols - 1)),
                         buffer("values", ScalarType::F32, nnz, random(3, -1, 1)),
                         buffer("x", ScalarType::F32, static_cast<std::uint64_t>(cols), random(4, -1, 1)),
                         buffer("y", ScalarType::F32, static_cast<std::uint64_t>(rows))});
  const Emulator e = runLaunch(*m, l);
  const auto col = initial<std::int32_t>(l, "colIdx");
  const auto val = initial<float>(l, "values"), x = initial<float>(l, "x");
  std::vector<float> y(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    float sum = 0.0f;
    for (int j = rowPtr[static_cast<std::size_t>(r)]; j < rowPtr[static_cast<std::size_t>(r) + 1]; ++j)
      sum = std::fma(val[static_cast<std::size_t>(j)], x[static_cast<std::size_t>(col[static_cast<std::size_t>(j)])], sum);
    y[static_cast<std::size_t>(r)] = sum;
  }
  expectNear(contents<float>(e, "y"), y, 1e-6);
  std::filesystem::remove(path);
}
TEST(CorpusVerify, SpmvCsrIrregularRowsIncludingEmptyOnes) {
  // Row r has (r * 7) % 17 nonzeros (0..16): empty rows, divergent loop trip counts in a warp.
  std::vector<std::int32_t> rowPtr{0};
  for (int r = 0; r < 300; ++r) rowPtr.push_back(rowPtr.back() + (r * 7) % 17);
  checkSpmv(rowPtr, 250, 128, "irregular");
}
TEST(CorpusVerify, SpmvCsrSixteenPerRowLikeTheExample) {
  std::vector<std::int32_t> rowPtr;
  for (int r = 0; r <= 100; ++r) rowPtr.push_back(16 * r);
  checkSpmv(rowPtr, 100, 256, "uniform");
}

// --- nbody: acc_i = sum_j m_j r_ij / (|r_ij|^2 + eps2)^(3/2), j ascending, acc.w = 0 ---
// Reference in double. The kernel uses rsqrtf (rsqrt.approx.f32, PTX ISA: max relative error
// 2^-22.9) and float accumulation over n terms: error <= (n x 2^-24 + 3 x 2^-22.9) x sum_j |t_j|
// (the standard summation bound), i.e. ~2.2e-5 x sum|t| for n = 300. Tolerance per component:
// 3e-5 x sum_j |t_j| + 1e-6.
void checkNbody(int n, std::uint32_t block) {
  TEG_CORPUS_MODULE(m, "nbody");
  const float eps2 = 0.01f;
  const auto grid = static_cast<std::uint32_t>((n + static_cast<int>(block) - 1) / static_cast<int>(block));
  const auto l = launch("nbodyForces", dim(grid), dim(block),
                        {buffer("pos", ScalarType::F32, static_cast<std::uint64_t>(4 * n), random(1, 0, 1)),
                         buffer("acc", ScalarType::F32, static_cast<std::uint64_t>(4 * n)), i32("n", n),
                         f32("eps2", eps2)},
                        block * 16);
  const Emulator e = runLaunch(*m, l);
  const auto p = initial<float>(l, "pos");
  const auto acc = contents<float>(e, "acc");
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0}, mag[3] = {0, 0, 0};
    for (int j = 0; j < n; ++j) {
      double r[3];
      for (int c = 0; c < 3; ++c) r[c] = static_cast<double>(p[static_cast<std::size_t>(4 * j + c)]) - p[static_cast<std::size_t>(4 * i + c)];
      const double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + eps2;
      const double s = p[static_cast<std::size_t>(4 * j + 3)] / (d2 * std::sqrt(d2));
      for (int c = 0; c < 3; ++c) {
        a[c] += r[c] * s;
        mag[c] += std::fabs(r[c] * s);
      }
    }
    for (int c = 0; c < 3; ++c) {
      const double got = acc[static_cast<std::size_t>(4 * i + c)];
      if (std::fabs(got - a[c]) > 3e-5 * mag[c] + 1e-6 && bad++ < 5)
        ADD_FAILURE() << "body " << i << " component " << c << ": emulated " << got << ", reference " << a[c];
    }
    EXPECT_EQ(acc[static_cast<std::size_t>(4 * i + 3)], 0.0f);
  }
  EXPECT_EQ(bad, 0);
}
TEST(CorpusVerify, NbodyRaggedLastTile) { checkNbody(300, 128); }
TEST(CorpusVerify, NbodyOneBlock) { checkNbody(64, 64); }

}  // namespace
}  // namespace teg::emu::corpus
