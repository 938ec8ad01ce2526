// vectorAdd: c[i] = a[i] + b[i] — the "hello world" of CUDA, one element per thread.
//
// Usual launch: n = 1,000,000 floats, block 256, grid ceil(n/256) = 3907 (n is not a multiple of
// the block: the last block is partly idle, hence the bounds check).
// Sidecar: vector_add.launch.json.
__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
