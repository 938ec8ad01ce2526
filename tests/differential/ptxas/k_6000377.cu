// teg_differential --count 1 --seed 6000377 --arch sm_75 --source tests/differential/ptxas/k_6000377.cu
// Random kernel 6000377 (full profile, bulk run of the fifth session), reduced: a ptxas error of
// 200225's kind (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator bug.
// The PTX negates a half pair {rn(-0.46), rn(f1)} (neg.f16x2 %r27, %r26) before fma.rn.f16x2. ptxas
// folds the negation into the constant (the low half comes from "HADD2 R5, -RZ.H0_H0, c[0x2][0x0].F32")
// and drops it from the high half: "@!P0 F2F.F16.F32 R6, R6", "PRMT R5, R5, 0x5410, R6", then
// "@!P0 HFMA2 R8, R5, R3, R0" multiplies by +rn(f1). Thread 1's f1 is -1033855 (-inf as a half), so
// the PTX's high half is -(-inf) * x + y = +inf and the SASS's -inf. The SASS emulator runs what the
// SASS says; the expected difference is uo[7] (thread 1: ptx 0x00007c00, sass 0x0000fc00).
#include <cuda_fp16.h>

extern "C" __global__ void k_6000377(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  const float f1 = fi[gid * 4 + 1], f2 = fi[gid * 4 + 2];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  if (f2 < 0.0f)
    h0 = __hfma2(__hneg2(__floats2half2_rn(__uint_as_float(0xbeeb86d4u), f1)), __halves2half2(__ushort_as_half((unsigned short)(unsigned)__float2int_rd(f2)), __low2half(__hmul2(h0, h0))), __lowhigh2highlow(h0));
  if (gid == 1u) uo[7] = __half_as_ushort(__high2half(h0));
}
