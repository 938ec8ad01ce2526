// teg_differential --count 1 --seed 1000188 --arch sm_80 --source tests/differential/reproducers/k_1000188.cu
// Random kernel 1000188 (full profile; differed on sm_80 ... sm_120), reduced. Lanes 0x40000040 ran
// main code's BSSY B5 while lanes 0x602880b4 were inside the f32 division slow path's BSSY B5
// region (the same barrier register, another convergence point); the BSSY joined the two sets, so
// the lanes at either BSYNC B5 waited for the others, every group was parked, and the stuck-barrier
// rule let the enclosing BSYNC B0 go on without the slow path's lanes: the __shfl_up_sync after it
// read lanes that had not computed their value. Fixed in sass_block_runner.cpp (a BSSY keeps the
// lanes of its own region only, those that reached the same BSSY).
#include <cuda_fp16.h>
extern "C" __global__ void k_1000188(const unsigned* __restrict__ ui, const float* __restrict__ fi,
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
  if (!(__fsqrt_ru(f1) >= ceilf(f3))) {
    for (unsigned i2 = 0; i2 < ((unsigned)((((unsigned long long)((f0 <= f2) ? u2 : blockIdx.x) << 32) | (u0 ^ u2)) / ((unsigned long long)(unsigned)__half_as_ushort(__high2half(h0)) | 1ull)) & 7u); ++i2) {
      if (isinf((f3 + f0))) {
        f2 = __fadd_rd(((__uint_as_float(0xc195b96bu) / f0) * __frcp_rz(f1)), __fmaf_ru(copysignf(f0, f2), fmaf(f0, f2, f0), (((u0 & 0x4000000u) != 0u) ? f3 : __uint_as_float(0xc8f24c33u))));
        f0 += (__fdiv_rn(__uint_as_float(0xbf800000u), f1) - sqrtf(f3));
      }
    }
  } else {
    f1 = __double2float_rd(__hiloint2double((int)u2, (int)(unsigned)__double2hiint(d0)));
    for (unsigned i0 = 0; i0 < (((unsigned)((((unsigned long long)0xffffffeeu << 32) | blockIdx.x) / ((unsigned long long)gid | 1ull)) ^ (!(f0 > __uint_as_float(0x4120b67au)) ? u3 : u0)) & 7u); ++i0) {
      f2 = (copysignf(roundf(f3), __fmul_rd(f2, f1)) * __fmaf_rz(fminf(f3, f3), (-f0), (__uint_as_float(0xff7fffffu) / f3)));
      for (unsigned i1 = 0; i1 < (u2 & 7u); ++i1) {
        f0 = __fdiv_rz(f0, __fadd_rn(truncf(f2), __fdiv_rd(__uint_as_float(0xbf800000u), f2)));
      }
      u3 = (unsigned)(__float2ull_ru(sqrtf(f0)) >> 7);
    }
  }
  h0 = h0;
  u0 = __shfl_up_sync(0xffffffffu, (unsigned)(__double2ll_rd(__fma_rd(d0, __longlong_as_double(0xbd9b2b4a5cfc47b7ll), d1)) >> 3), 25u);
  { const float x = f0; float r; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); ai[gid * 4 + 0] = x; ao[gid * 4 + 0] = r; }
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

