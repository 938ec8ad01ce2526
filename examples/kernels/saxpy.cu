// saxpy: y[i] = alpha * x[i] + y[i] (BLAS level 1), one element per thread, a grid-stride loop so
// any grid size covers any n.
//
// Usual launch: n = 1 << 20 floats, alpha = 2, block 256, grid 1024 (each thread handles 4
// elements through the grid-stride loop).
// Sidecar: saxpy.launch.json.
__global__ void saxpy(int n, float alpha, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = alpha * x[i] + y[i];
}
