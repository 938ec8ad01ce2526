// matmulABtConflict: C = A·Bᵀ with 16 x 16 shared tiles, the kernel of Lai's thesis §3.4.1 (the
// SDK matrixMul changed to C = ABᵀ): C(i, j) = sum_k A(i, k) * B(j, k). Both tiles are loaded
// row-wise (coalesced), but the inner loop reads Bs[tx][k]: threads tx = 0..15 read addresses
// 16 words apart, so with 32 banks threads tx and tx + 2 share a bank — an 8-way bank conflict
// on every Bs read (16-way on the 16-bank GPUs of the thesis). matmul_abt_padded.cu removes it.
// A is M x K, B is N x K, C is M x N, all row-major; k ascending.
//
// Usual launch: M = N = K = 512, block (16, 16) (must equal TILE x TILE), grid (32, 32).
// Sidecar: matmul_abt_conflict.launch.json.
#define TILE 16

__global__ void matmulABtConflict(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;   // i
  const int col = blockIdx.x * TILE + tx;   // j
  const int bRow = blockIdx.x * TILE + ty;  // the row of B this thread loads
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (bRow < N && k0 + tx < K) ? B[bRow * K + k0 + tx] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[tx][k];  // Bs[tx][k]: bank conflicts
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
