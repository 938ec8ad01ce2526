// reduceWarpShuffle: per-block sum with warp shuffles: each warp reduces its 32 values in
// registers with __shfl_down_sync, warp 0 reduces the per-warp sums (only 32 ints of shared
// memory, one barrier).
// out[blockIdx.x] = sum of in[blockIdx.x * blockDim.x .. + blockDim.x) (elements past n count 0).
//
// Usual launch: n = 1 << 22 ints, block 256 (a multiple of 32, at most 1024), grid 16384.
// Sidecar: reduce_warp_shuffle.launch.json.
__device__ __forceinline__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduceWarpShuffle(const int* in, int* out, int n) {
  __shared__ int warpSums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = warpSum(i < n ? in[i] : 0);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warpSums[lane] : 0;
    v = warpSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
