// teg_differential --count 1 --seed 200225 --arch sm_75 --source tests/differential/ptxas/k_200225.cu
// Random kernel 200225 (full profile), reduced: a ptxas miscompilation (CUDA 13.0 V13.0.88, sm_75
// only), not an emulator bug, so it is kept here and not in reproducers/ (whose kernels must agree).
// The PTX multiplies h0 by {u3's low half, -2.1953125}: cvt.rn.f16.f32 of 0fC00C83CA into the high
// half of %r23, then fma.rn.f16x2 %r40, %r40, %r23, %r25. ptxas loads +2.1953125 with
// "HADD2 R5, -RZ.H0_H0, c[0x2][0x8].F32" (c[0x2][0x8] = 0x400c8000) and, where it negates it
// elsewhere ("HADD2 R5, -R3.H1_H1, -RZ.H0_H0" then two PRMTs, as in the unpredicated form of the
// same expression), here leaves "PRMT R5, R5, 0x7610, R5", which is the identity: the HFMA2 multiplies
// by +2.1953125. The SASS emulator runs what the SASS says (the high half's sign and last bit differ
// from the PTX emulator's); the expected difference is uo[67] (thread 16) 0x9c82b329 vs 0x1c83b329.
#include <cuda_fp16.h>
extern "C" __global__ void k_200225(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31u;
  unsigned u0 = ui[gid * 4], u1 = ui[gid * 4 + 1], u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  float f0 = fi[gid * 4], f1 = fi[gid * 4 + 1], f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  double d0 = di[gid * 2], d1 = di[gid * 2 + 1];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  unsigned la[8];
  float lf[8];
  for (int i = 0; i < 8; ++i) { la[i] = u0 + 7u * i; lf[i] = f0 * (float)i; }
  switch (blockIdx.x & 3u) {
    case 0: {
      for (unsigned i2 = 0; i2 < ((unsigned)(((long long)(int)(u1 * 0x00000020u) * (long long)(int)(u1 ^ 0x0000001eu)) >> 17) & 7u); ++i2) {
      }
      for (unsigned i0 = 0; i0 < ((unsigned)(__float2ull_ru(f1) >> 7) & 7u); ++i0) {
      }
    } break;
  }
  if (isinf((__uint_as_float(0x4a18ad38u) * __uint_as_float(0xff7fffffu) + f3))) {
    if ((blockIdx.x == max(u2, 0xffffffe1u))) {
    } else {
      switch (__umulhi(gid, 0x80000000u) & 3u) {
        case 0: {
          h0 = __hfma2(h0, __halves2half2(__ushort_as_half((unsigned short)max(u3, u3)), __low2half(__floats2half2_rn(__uint_as_float(0xc00c83cau), __uint_as_float(0xba3974f9u)))), __halves2half2(__ushort_as_half((unsigned short)(unsigned)(__double2ll_rd(__longlong_as_double(0x404e1a88c85b7fd5ll)) >> 3)), __low2half(h0)));
        } break;
        default: {
        }
      }
    }
  }
  u3 ^= (__hisnan(__low2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h0))) | ((__hisnan(__high2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__high2half(h0))) << 16);
  uo[gid * 4 + 3] = u3;
}