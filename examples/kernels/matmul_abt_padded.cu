// matmulABtPadded: matmulABtConflict with the B tile padded to 17 columns: Bs[tx][k] is then at
// word 17 * tx + k, so threads tx = 0..15 hit 16 different banks — the "modified" kernel of Lai's
// thesis §3.4.1 (Table 3.3). Same result: C(i, j) = sum_k A(i, k) * B(j, k), k ascending.
//
// Usual launch: M = N = K = 512, block (16, 16), grid (32, 32).
// Sidecar: matmul_abt_padded.launch.json.
#define TILE 16

__global__ void matmulABtPadded(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  const int bRow = blockIdx.x * TILE + ty;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (bRow < N && k0 + tx < K) ? B[bRow * K + k0 + tx] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[tx][k];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
