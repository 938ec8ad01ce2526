// sgemmRegisterBlocked: C = alpha·A·B + beta·C in the style of Volkov & Demmel's SGEMM (the
// baseline of Chien's hand-tuned SGEMM, seed 002 §2.1, and the register blocking of Lai's thesis
// ch. 4): column-major matrices, a block of 64 threads computes a 64 x 16 tile of C; each thread
// keeps one row of that tile (16 accumulators) in registers, holds A(row, k) in a register and
// reads B from a 16 x 16 shared tile (all threads read the same word: a broadcast), so each value
// of A loaded from global memory feeds 16 FFMAs (register blocking B_R, Lai ch. 4).
// Column-major: A(i, k) = A[i + k * lda] (M x K), B(k, j) = B[k + j * ldb] (K x N),
// C(i, j) = C[i + j * ldc] (M x N); C(i, j) = alpha * sum_k A(i, k) * B(k, j) + beta * C(i, j)
// with k ascending. Out-of-range rows / columns / k are handled (zeros in, no stores out).
//
// Usual launch: M = N = K = 512 (lda = ldb = ldc = 512), alpha = 1, beta = 0, block 64,
// grid (M / 64, N / 16) = (8, 32).
// Sidecar: sgemm_register_blocked.launch.json.
#define BM 64  // rows of C per block = threads per block
#define BN 16  // columns of C per block = accumulators per thread
#define BK 16  // depth of one shared tile of B

__global__ void sgemmRegisterBlocked(int M, int N, int K, float alpha, const float* A, int lda,
                                     const float* B, int ldb, float beta, float* C, int ldc) {
  __shared__ float bs[BN][BK + 1];  // bs[j][k] = B(k0 + k, col0 + j); +1 avoids bank conflicts
  const int tid = threadIdx.x;
  const int row = blockIdx.x * BM + tid;
  const int col0 = blockIdx.y * BN;
  // 64 threads load the 16 x 16 tile of B, 4 elements each, along k (contiguous, coalesced).
  const int loadK = tid % BK, loadJ = tid / BK;  // loadJ in 0..3

  float c[BN];
#pragma unroll
  for (int j = 0; j < BN; ++j) c[j] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int r = 0; r < BN; r += BM / BK) {
      const int j = loadJ + r, k = k0 + loadK;
      bs[j][loadK] = (k < K && col0 + j < N) ? B[k + (col0 + j) * ldb] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float a = (row < M && k0 + k < K) ? A[row + (k0 + k) * lda] : 0.0f;
#pragma unroll
      for (int j = 0; j < BN; ++j) c[j] += a * bs[j][k];  // rank-1 update of the thread's row
    }
    __syncthreads();
  }
  if (row >= M) return;
#pragma unroll
  for (int j = 0; j < BN; ++j)
    if (col0 + j < N) C[row + (col0 + j) * ldc] = alpha * c[j] + beta * C[row + (col0 + j) * ldc];
}
