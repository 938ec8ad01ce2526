// matmulShared: C = A·B with 16 x 16 tiles of A and B staged in shared memory (the CUDA SDK
// matrixMul): each block computes a 16 x 16 tile of C, each thread one element; per step the block
// loads one tile of A and one of B, synchronises, and accumulates 16 products.
// C[i * N + j] = sum_k A[i * K + k] * B[k * N + j] (k ascending); out-of-range tiles load zeros.
//
// Usual launch: M = N = K = 500, block (16, 16) (must equal TILE x TILE), grid (32, 32).
// Sidecar: matmul_shared.launch.json.
#define TILE 16

__global__ void matmulShared(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
