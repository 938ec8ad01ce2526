// reduceInterleaved: per-block sum with interleaved addressing and a divergent branch
// (M. Harris, "Optimizing Parallel Reduction in CUDA", kernel 1): at step s only threads with
// tid % (2s) == 0 work, so warps stay half idle and the modulo is slow.
// out[blockIdx.x] = sum of in[blockIdx.x * blockDim.x .. + blockDim.x) (elements past n count 0).
// Integers, so the result is exact whatever the order of the additions.
//
// Usual launch: n = 1 << 22 ints, block 256 (a power of two, required), grid n / 256 = 16384,
// dynamic shared memory 0 (the buffer is static: 256 ints).
// Sidecar: reduce_interleaved.launch.json.
#define BLOCK 256

__global__ void reduceInterleaved(const int* in, int* out, int n) {
  __shared__ int sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
