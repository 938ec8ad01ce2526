// reduceUnrolled: per-block sum, Harris kernels 4-6: each thread first adds two elements while
// loading (halving the blocks), the tree is fully unrolled for the compile-time block size, and
// the last warp runs without __syncthreads through a volatile pointer.
// out[blockIdx.x] = sum of in[2 * blockIdx.x * BLOCK .. + 2 * BLOCK) (elements past n count 0).
//
// Usual launch: n = 1 << 22 ints, block 256 (must equal BLOCK), grid n / 512 = 8192.
// Sidecar: reduce_unrolled.launch.json.
#define BLOCK 256

__device__ __forceinline__ void warpReduce(volatile int* sdata, unsigned tid) {
  // Harris' last-warp unrolling; volatile keeps every store visible to the next step. Correct on
  // Volta+ only because all 32 lanes execute these statements together after the last barrier.
  sdata[tid] += sdata[tid + 32];
  __syncwarp();
  sdata[tid] += sdata[tid + 16];
  __syncwarp();
  sdata[tid] += sdata[tid + 8];
  __syncwarp();
  sdata[tid] += sdata[tid + 4];
  __syncwarp();
  sdata[tid] += sdata[tid + 2];
  __syncwarp();
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduceUnrolled(const int* in, int* out, int n) {
  __shared__ int sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * (2 * BLOCK) + threadIdx.x;
  int sum = i < n ? in[i] : 0;
  if (i + BLOCK < n) sum += in[i + BLOCK];
  sdata[tid] = sum;
  __syncthreads();
#pragma unroll
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
