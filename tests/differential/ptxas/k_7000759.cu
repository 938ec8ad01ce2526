// teg_differential --count 1 --seed 7000759 --arch sm_75 --source tests/differential/ptxas/k_7000759.cu
// Random kernel 7000759 (full profile, bulk run of the sixth session), reduced: a ptxas error of
// 200225's kind (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator bug.
// The PTX builds the half pair {-1.084 (mov.u16 %rs4, -17322: 0xbc56), low(fma(h0, rn(f3), h0))}
// and multiplies it by {high(h0), low(h0)} in "fma.rn.f16x2 %r38, %r20, %r21, %r28". ptxas stores the
// constant positive (c[0x2][0x4] = 0x3f8ac000, +1.084), loads it with "HADD2 R8, -RZ.H0_H0,
// c[0x2] [0x4].F32", packs it with "PRMT R8, R8, 0x5410, R3" and runs "HFMA2 R6, R3, R6, R5"
// without the negation it writes when the branch is not there (HADD2 R4, -R2.H0_H0, -RZ.H0_H0).
// Thread 18 (h0 = {52.28 (0x5289), 546.5 (0x6045)}, f2 = 1242.73, f3 = -4.186): by hand
// (binary16 fma and mul, round to nearest even; rz/rm conversions as written) the PTX gives
// low = fma(-1.084, 546.5, -1345 (0xe541)) = 0xe791 and the SASS as written fma(+1.084, ...) =
// 0xe1e1, the high half +inf in both: the PTX emulator's 0x7c00e791 and the SASS emulator's
// 0x7c00e1e1; the expected difference is uo[75] (thread 18: ptx 0x7c00e791, sass 0x7c00e1e1).
#include <cuda_fp16.h>

extern "C" __global__ void k_7000759(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  const float f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  if ((gid & 3u) == 2u)
    h0 = __hfma2(__halves2half2(__ushort_as_half((unsigned short)0xbc56u), __low2half(__hfma2(h0, __float2half2_rn(f3), h0))), __lowhigh2highlow(h0),
                 __hmul2(__hfma2(h0, h0, h0), __halves2half2(__float2half_rz(__uint_as_float(0xbef73cd0u)), __float2half_rd(f2))));
  if (gid == 18u) uo[75] = (unsigned)__half_as_ushort(__low2half(h0)) | ((unsigned)__half_as_ushort(__high2half(h0)) << 16);
}
