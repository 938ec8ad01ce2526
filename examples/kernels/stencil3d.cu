// stencil3d: one step of the 7-point stencil on an nx x ny x nz grid (x fastest), marching in z
// ("2.5-D" blocking): each thread owns one (x, y) column and keeps the values below, at and above
// the current plane in registers, so each input value is loaded from global memory once per thread.
// out(x,y,z) = c0 * in(x,y,z) + c1 * (sum of the 6 face neighbours) for interior points,
// out = in on the boundary. c0 = 0.4, c1 = 0.1 (arguments).
//
// Usual launch: 128 x 128 x 128 floats, c0 = 0.4, c1 = 0.1, block (32, 8), grid (4, 16).
// Sidecar: stencil3d.launch.json.
__global__ void stencil3d(const float* in, float* out, int nx, int ny, int nz, float c0, float c1) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  const long plane = static_cast<long>(nx) * ny;
  const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
  long i = y * nx + x;
  float below = 0.0f, here = in[i], above = nz > 1 ? in[i + plane] : 0.0f;
  for (int z = 0; z < nz; ++z, i += plane) {
    if (edge || z == 0 || z == nz - 1) {
      out[i] = here;
    } else {
      out[i] = c0 * here +
               c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + below + above);
    }
    below = here;
    here = above;
    above = z + 2 < nz ? in[i + 2 * plane] : 0.0f;
  }
}
