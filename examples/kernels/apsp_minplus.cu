// apspMinPlus: one min-plus "squaring" step of all-pairs shortest paths by repeated squaring
// (Ma, Chamberlain & Agrawal, ASAP 2014, §III — the APSP case study of the TMM model):
// out(i, j) = min_k (in(i, k) + in(k, j)), with sub-blocks of dimension S_D = 16 staged in shared
// memory like a tiled matrix multiply (each element read n / S_D times, fully coalesced).
// Starting from the adjacency matrix (in(i, i) = 0, no edge = a large weight), ceil(lg(n - 1))
// launches, swapping in and out, give the shortest-path lengths. Row-major n x n; min is exact.
//
// Usual launch: n = 1000 vertices (not a multiple of 16: bounds checks), block (16, 16)
// (S_D x S_D, must equal TILE), grid (63, 63); one squaring step per launch.
// Sidecar: apsp_minplus.launch.json.
#define TILE 16

__global__ void apspMinPlus(const float* in, float* out, int n) {
  __shared__ float rowTile[TILE][TILE];  // in(i, k0 + tx)
  __shared__ float colTile[TILE][TILE];  // in(k0 + ty, j)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * TILE + ty, j = blockIdx.x * TILE + tx;
  float best = INFINITY;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    rowTile[ty][tx] = (i < n && k0 + tx < n) ? in[i * n + k0 + tx] : INFINITY;
    colTile[ty][tx] = (k0 + ty < n && j < n) ? in[(k0 + ty) * n + j] : INFINITY;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) best = fminf(best, rowTile[ty][k] + colTile[k][tx]);
    __syncthreads();
  }
  if (i < n && j < n) out[i * n + j] = best;
}
