// matmulNaive: C = A·B, row-major, A is M x K, B is K x N, one C element per thread reading its
// row of A and column of B straight from global memory.
// C[i * N + j] = sum_k A[i * K + k] * B[k * N + j] (k ascending).
//
// Usual launch: M = N = K = 500 (not a multiple of 16: bounds checks), block (16, 16), grid
// (32, 32).
// Sidecar: matmul_naive.launch.json.
__global__ void matmulNaive(const float* A, const float* B, float* C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}
