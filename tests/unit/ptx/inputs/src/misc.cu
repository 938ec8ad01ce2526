#include <cstdio>
#include <cuda_fp16.h>
__constant__ float coeffs[16] = {1,2,3,4};
__device__ int counter;
__device__ __noinline__ float helper(float a, float b) { return a * b + sinf(a); }
__global__ void vecAdd(const float* __restrict__ a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void reduceShfl(const float* in, float* out, int n) {
  __shared__ float s[32];
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) s[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? s[threadIdx.x] : 0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}
__global__ void misc(double* d, half* h, float4* v4, int* hist, unsigned long long* t) {
  int i = threadIdx.x;
  d[i] = sqrt(d[i]) * 2.0 + exp(d[i]);
  h[i] = __hadd(h[i], __float2half(1.0f));
  float4 x = v4[i]; x.x += x.w; x.y = helper(x.y, coeffs[i & 15]); v4[i] = x;
  atomicAdd(&hist[i % 7], 1);
  atomicCAS(&counter, 0, i);
  t[i] = clock64();
  if (i == 0) printf("hello %d %f\n", i, x.x);
  unsigned m = __ballot_sync(0xffffffff, i & 1);
  hist[i] += __popc(m) + __clz(i) + __brev(i);
  __threadfence();
  float f = __fdividef(x.x, x.y) + rsqrtf(x.z) + __saturatef(x.w);
  d[i+1] = f;
}
__global__ void tex(cudaTextureObject_t t, float* o) { o[threadIdx.x] = tex2D<float>(t, threadIdx.x, 0.5f); }
__global__ void sw(int* a, int k) {
  switch (a[threadIdx.x] + k) { case 0: a[0]=1; break; case 1: a[1]=5; break; case 2: a[2]=7; break; case 3: a[3]=9; break; case 4: a[4]=9; break; case 5: a[8]=3; break; default: a[5]=2; }
}
