// reduceSequential: per-block sum with sequential addressing (Harris kernel 3): at step s the
// first s threads add sdata[tid + s], so active threads are contiguous (no divergence inside a
// warp until s < 32) and shared-memory accesses are conflict-free.
// out[blockIdx.x] = sum of in[blockIdx.x * blockDim.x .. + blockDim.x) (elements past n count 0).
//
// Usual launch: n = 1 << 22 ints, block 256 (a power of two, required), grid 16384.
// Sidecar: reduce_sequential.launch.json.
#define BLOCK 256

__global__ void reduceSequential(const int* in, int* out, int n) {
  __shared__ int sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
