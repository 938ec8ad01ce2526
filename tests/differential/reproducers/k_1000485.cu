// teg_differential --count 1 --seed 1000485 --arch sm_90 --source tests/differential/reproducers/k_1000485.cu
// Random kernel 1000485 (full profile, sm_90), reduced. Lanes 0x0c042000 of warp 2 waited at the
// f32 division slow path's BSYNC B2 while lanes 0x00010800 ran the caller's BSSY B2 / CALL sqrt.rz
// slow path / BSYNC B2 (B2 then expected both sets); once the second set had gone past its BSYNC,
// the first still waited for it, every group was parked, and the stuck-barrier rule let the
// enclosing BSYNC B0 go on without the slow-path lanes. The rest of the warp then ran ahead and
// reloaded UR6:UR7 (a pointer from c[0x0][0x248]) over blockDim.x, which the parked lanes' `% blockDim.x`
// still needed: 'LDS R9, [R9]' read shared memory out of bounds. Fixed in sass_block_runner.cpp
// (release: a BSYNC waits only for the expected lanes still inside a region of that barrier).
#include <cuda_fp16.h>

extern "C" __global__ void k_1000485(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  __shared__ unsigned su[128];
  __shared__ float sf[128];
  const unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31u;
  unsigned u0 = ui[gid * 4], u1 = ui[gid * 4 + 1], u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  float f0 = fi[gid * 4], f1 = fi[gid * 4 + 1], f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  double d0 = di[gid * 2], d1 = di[gid * 2 + 1];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  unsigned la[8];
  float lf[8];
  for (int i = 0; i < 8; ++i) { la[i] = u0 + 7u * i; lf[i] = f0 * (float)i; }
  if (((unsigned)__clz((int)u3) < (unsigned)min((int)0x00000015u, (int)u3))) {
    f3 = sqrtf(((d0 < d0) ? __frcp_rn(f2) : f0));
    f0 += ((f3 != f2) ? __fmul_rn(f1, f1) : f2);
  } else {
    f0 = (f3 / __fmaf_rd(f1, __fsub_rd(f0, f1), __uint_as_float(0xb7dc1322u)));
    for (unsigned i0 = 0; i0 < (((tid + u0) ^ ((u3 << (u1 & 31u)) | (u1 >> 5))) & 7u); ++i0) {
      f0 = __fsub_rn(roundf(f1), fmaf(((f3 <= f1) ? f0 : f2), __fsqrt_rz(f2), __ull2float_rz((unsigned long long)u2 << (0xffffffe2u & 31u))));
    }
  }
  u1 = la[__byte_perm(0xbd2c8300u, 0xfffffff9u, lane) & 7u] + u1;
  su[tid] = __brev(u1); sf[tid] = f0;
  __syncthreads();
  u1 = su[((u2 << (0x60a6eca5u & 31u)) | (u3 >> 5)) % blockDim.x]; f3 = sf[((u2 << (0x60a6eca5u & 31u)) | (u3 >> 5)) % blockDim.x];
  __syncthreads();
  { const float x = f3; float r; asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); ai[gid * 4 + 0] = x; ao[gid * 4 + 0] = r; }
  { const float x = __fsqrt_rn(f0); float r; asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); ai[gid * 4 + 3] = x; ao[gid * 4 + 3] = r; }
  uo[gid * 4 + 0] = u0;
  uo[gid * 4 + 1] = u1;
  uo[gid * 4 + 2] = u2;
  uo[gid * 4 + 3] = u3;
  fo[gid * 4 + 0] = f0;
  fo[gid * 4 + 1] = f1;
  fo[gid * 4 + 2] = f2;
  fo[gid * 4 + 3] = f3;
  dd[gid * 2 + 0] = d0;
  dd[gid * 2 + 1] = d1;
}

