// floydWarshallStep: step k of Floyd-Warshall all-pairs shortest paths, in place on the n x n
// row-major distance matrix: d(i, j) = min(d(i, j), d(i, k) + d(k, j)). The host launches it for
// k = 0 .. n-1 in order. In-place is safe within one step: row k and column k do not change at
// step k (d(i, k) + d(k, k) >= d(i, k) since d(k, k) = 0).
//
// Usual launch: n = 1000, block (32, 8), grid (32, 125), n launches with k = 0, 1, ..., n - 1
// (the sidecar describes the launch with k = 0).
// Sidecar: floyd_warshall.launch.json.
__global__ void floydWarshallStep(float* d, int n, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  const float viaK = d[i * n + k] + d[k * n + j];
  if (viaK < d[i * n + j]) d[i * n + j] = viaK;
}
