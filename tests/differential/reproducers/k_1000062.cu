// teg_differential --count 1 --seed 1000062 --arch sm_80 --source tests/differential/reproducers/k_1000062.cu
// Random kernel 1000062 (full profile; differed on sm_80 ... sm_120), not reduced. Lane 27 waited
// at a subroutine's BSYNC B1 when another group's BSSY B1 reset B1 to its own lanes; nothing
// released it until the enclosing BSYNC B0 was let go without it, and the __any_sync after it
// gave u1 one less than the PTX emulator did (u1 += any + 2 x all). Fixed in sass_block_runner.cpp
// (release: a BSYNC's waiting lanes that the barrier no longer expects go on).
#include <cuda_fp16.h>

extern "C" __global__ void k_1000062(const unsigned* __restrict__ ui, const float* __restrict__ fi,
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
  u3 = u0;
  f0 += f0;
  lf[(unsigned)(f1 == f0) & 7u] = __saturatef(f3); f1 = lf[(lane % (lane | 1u)) & 7u];
  if (__hlt(__low2half(__hfma2(h0, h0, h0)), __high2half(__halves2half2(__ushort_as_half((unsigned short)u3), __low2half(h0))))) {
    f1 += f0;
  }
  d0 = __shfl_down_sync(0xffffffffu, __uint2double_rn(u2), 18u);
  u0 += (unsigned)__any_sync(0xffffffffu, (f2 <= f2)) + 2u * (unsigned)__all_sync(0xffffffffu, (__longlong_as_double(0x3e419d07de15d2c3ll) < d0));
  for (unsigned w0 = 0; ((f1 < f0)) && w0 < 6u; ++w0) {
    d1 = __hiloint2double((int)(max(u0, 0xbeea5964u) * (unsigned)__double2hiint(d0)), (int)(unsigned)__mulhi((int)max(u2, blockIdx.x), (int)__float_as_uint(f3)));
    if ((blockIdx.x == min(u3, u3))) {
      lf[__byte_perm(u0, 0xffffffdeu, u2) & 7u] = ((f3 - f2) / f1); f0 = lf[u2 & 7u];
    } else {
      if (!(sqrtf(f1) > roundf(f0))) {
        f0 = f3;
        d0 = ((ceil(__longlong_as_double(0x41321dd5df29a9a5ll)) / fmin(d0, d0)) / __dadd_ru(fma(d1, d0, __longlong_as_double(0x42138b2f2338ab93ll)), rint(d1)));
      } else {
        u2 = tid;
      }
      if (((unsigned)(((long long)(int)u1 * (long long)(int)u2) >> 17) == (u0 % (u3 | 1u)))) {
        d1 = fmax((d0 - (double)f0), fabs(__fma_ru(d0, d0, d0)));
        lf[(unsigned)__half_as_ushort(__high2half(h0)) & 7u] = floorf(f0); f2 = lf[u3 & 7u];
        u3 = u1;
      } else {
        f0 = __uint_as_float(((unsigned)(__double2ll_ru(d1) >> 3) << ((unsigned)__double2hiint(d0) & 31u)));
        u2 = u1;
        u3 = min(max((unsigned)__float2int_ru(f3), u1), ((gid * u0) + (unsigned)(((long long)(int)u0 << 20) / (long long)(int)((u0 & 0xfffu) + 1u))));
      }
    }
  }
  u0 = __shfl_sync(0xffffffffu, u3, (unsigned)__float2int_ru(f0), 16);
  lf[__byte_perm(u0, tid, tid) & 7u] = fmaf(-f0, __fsqrt_rd(f3), __double2float_rd(d1)); f2 = lf[(0xfffffffbu << (u3 & 31u)) & 7u];
  u2 = lane;
  h0 = __hsub2(__hmul2_sat(__hadd2(h0, h0), __halves2half2(__ushort_as_half((unsigned short)u1), __low2half(h0))), __hneg2(__floats2half2_rn(f0, f0)));
  for (unsigned w1 = 0; ((0xfffffffcu < u2)) && w1 < 6u; ++w1) {
    if (((unsigned)((int)u2 >> (u1 & 31u)) < (!(f0 >= f2) ? u2 : u0))) {
      for (unsigned w2 = 0; (isnan(f3)) && w2 < 6u; ++w2) {
        f2 = __saturatef(__ll2float_rn((long long)(int)(unsigned)((int)u2 >> (u1 & 31u)) * 0x10001ll));
      }
      if (((unsigned)__half_as_ushort(__high2half(h0)) == (u0 + tid))) {
        d0 = d1;
        d1 = sqrt(fabs(trunc(d1)));
      }
    } else {
      d0 = (-(d0 / __int2double_rn((int)u2)));
      if (((__uint_as_float(0x44862524u) < f1) && (gid == u2))) {
        f2 = __fsqrt_rd(f2);
        f3 = fdimf(f0, truncf(__fdiv_ru(__uint_as_float(0xb926bba9u), f1)));
      } else {
        f0 = (__fsqrt_rd(f2) / f0);
        u2 = la[__brev(u0) & 7u] + u2;
        u3 = la[((u3 < u3) ? u0 : 0xc652721cu) & 7u] + (lane - u1);
      }
    }
  }
  f1 = __double2float_rn(__uint2double_rn((u3 ^ u0)));
  u1 += (unsigned)__any_sync(0xffffffffu, ((int)gid < (int)u3)) + 2u * (unsigned)__all_sync(0xffffffffu, __hlt(__low2half(h0), __high2half(h0)));
  u3 ^= (__hisnan(__low2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h0))) | ((__hisnan(__high2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__high2half(h0))) << 16);
  u2 ^= la[u1 & 7u] + __float_as_uint(lf[u0 & 7u]);
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

