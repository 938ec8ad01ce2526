// A small kernel for the per-line SASS view test (tests/unit/sass/nvcc/source_lines_test.cpp):
// a 32-bit and a 128-bit global load on their own lines, shared loads of one row (ptxas may fuse
// them) and of one column (it cannot), and an inlined helper called from two lines.
__device__ __forceinline__ float wave(float x) {
  return __sinf(x);
}

__global__ void sourceLines(const float* a, const float4* b, float* out) {
  __shared__ float tile[32][33];
  const int t = threadIdx.x;
  tile[t][0] = a[blockIdx.x * 32 + t];
  const float4 v = b[blockIdx.x * 32 + t];
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) acc += tile[t][k] * tile[k][t];
  acc = wave(acc) + v.x * v.y;
  out[blockIdx.x * 32 + t] = wave(acc) + v.z;
}
