#include <mma.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
using namespace nvcuda;
namespace cg = cooperative_groups;
__global__ void wmmaK(const half* a, const half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void asyncCopy(const float* g, float* o) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float));
  __pipeline_commit(); __pipeline_wait_prior(0); __syncthreads();
  o[threadIdx.x] = s[255 - threadIdx.x];
}
__global__ void inl(int* p) {
  int v = p[threadIdx.x], r;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %1, 0;\n\tselp.s32 %0, 1, 2, q;\n}" : "=r"(r) : "r"(v));
  asm volatile("{\n\t.reg .pred q;\n\tsetp.eq.s32 q, %1, 0;\nLOOP:\n\t@q bra DONE;\n\tadd.s32 %0, %0, 1;\n\tbra LOOP;\nDONE:\n}" : "+r"(r) : "r"(v));
  asm volatile("{\n\t.reg .pred q;\n\tsetp.eq.s32 q, %1, 0;\nLOOP:\n\t@q bra DONE;\n\tadd.s32 %0, %0, 2;\n\tbra LOOP;\nDONE:\n}" : "+r"(r) : "r"(v));
  unsigned lane; asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned long long gt; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
  p[threadIdx.x] = r + lane + (int)gt + __reduce_add_sync(0xffffffff, v) + __match_any_sync(0xffffffff, v);
}
__global__ void grid(float* x) {
  cg::grid_group g = cg::this_grid();
  x[g.thread_rank()] += 1; g.sync(); x[0] = 2;
}
__device__ __noinline__ int f1(int a) { return a * 3; }
__device__ __noinline__ int f2(int a) { return a + 7; }
__global__ void fptr(int* p, int k) {
  int (*fs[2])(int) = {f1, f2};
  p[threadIdx.x] = fs[k & 1](p[threadIdx.x]);
}
__global__ void __launch_bounds__(256, 2) bounded(float* __restrict__ x, const float* __restrict__ y) {
  float a = __ldg(y + threadIdx.x); float b = __ldcs(y + 2*threadIdx.x);
  __stcg(x + threadIdx.x, a * b); atomicMax((int*)x, (int)a); atomicExch(x + 1, b);
  x[3] = __shfl_xor_sync(0xffffffff, a, 1) + __shfl_up_sync(0xffffffff, b, 2) + __shfl_sync(0xffffffff, a, 3);
  x[4] = __any_sync(0xffffffff, a > 0) + __all_sync(0xffffffff, b > 0); x[5] = __sinf(a) + __cosf(b) + __expf(a) + __logf(b) + tanhf(a) + erff(b);
  x[6] = (double)a / b;
}
