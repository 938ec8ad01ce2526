// stencil2d: one Jacobi step of the 5-point Laplace stencil on an nx x ny row-major grid:
// out(x, y) = 0.25 * (in(x-1, y) + in(x+1, y) + in(x, y-1) + in(x, y+1)) for interior points,
// out = in on the boundary (fixed, Dirichlet). Each thread reads its neighbours from global
// memory (the caches catch the reuse).
//
// Usual launch: nx = ny = 1000 (not a multiple of the block: bounds checks), block (32, 8),
// grid (32, 125).
// Sidecar: stencil2d.launch.json.
__global__ void stencil2d(const float* in, float* out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  const int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}
