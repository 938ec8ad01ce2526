// teg_differential --count 1 --seed 5006058 --arch sm_75 --source tests/differential/ptxas/k_5006058.cu
// Random kernel 5006058 (full profile, bulk run of the sixth session), reduced: a ptxas folding error
// (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator bug.
// rintf(__uint_as_float((unsigned)(f3 != f2))) is, in the PTX,
//   setp.neu.f32 %p3, %f3, %f2;  selp.u32 %r26, 1, 0, %p3;  mov.b32 %f5, %r26;  cvt.rni.f32.f32 %f4, %f5;
// a bit reinterpretation: %f5 is the subnormal 2^-149 (or +0) and its rint is +0 either way. ptxas
// writes "FSET.BF.NEU.AND R11, R4, R11, PT", which gives 1.0f when f3 != f2, as if the PTX had
// converted the integer 1 to float (cvt.rn.f32.u32). The loop guard f0 <= %f4 then holds in the
// SASS and not in the PTX (in nearby kernels, e.g. this one storing h0 without the NaN fold, ptxas
// writes "SEL R11, RZ, 0x1, !P0" and "FRND R11, R11", and the two emulators agree).
// Thread 7 (f0 = 0.5087, f2 = -1.16e-5, f3 = -2.06e-7, d0 + d1 = 6.4e10, h0 = {0x002c, NaN 0xffff}):
// by hand the PTX skips the inner loop (0.5087 <= +0 is false) and keeps h0, stored with its NaN
// half folded to 0x7fff: 0x7fff002c (the PTX emulator's value); the SASS as written runs it
// (0.5087 <= 1.0), and HMUL2.SAT of h0 by -h0 clamps -tiny and the NaN to +0: 0x00000000 (the SASS
// emulator's); the expected difference is uo[31] (thread 7: ptx 0x7fff002c, sass 0x00000000).
#include <cuda_fp16.h>

extern "C" __global__ void k_5006058(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  const float f0 = fi[gid * 4], f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  const double d0 = di[gid * 2], d1 = di[gid * 2 + 1];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  const float f1 = rintf(__uint_as_float((unsigned)(f3 != f2)));
  for (unsigned w0 = 0; f2 < f0 && w0 < 6u; ++w0)
    if (__longlong_as_double(0x412745f25789566ell) < (d1 + d0))
      for (unsigned w1 = 0; f0 <= f1 && w1 < 6u; ++w1)
        h0 = __lowhigh2highlow(__hmul2_sat(h0, __hneg2(h0)));
  if (gid == 7u)
    uo[31] = (__hisnan(__low2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h0))) |
             ((__hisnan(__high2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__high2half(h0))) << 16);
}
