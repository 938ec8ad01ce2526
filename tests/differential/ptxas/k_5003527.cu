// teg_differential --count 1 --seed 5003527 --arch sm_75 --source tests/differential/ptxas/k_5003527.cu
// Random kernel 5003527 (full profile, bulk run of the fifth session), reduced: a ptxas error of
// 200225's kind (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator bug.
// Each iteration of the loop builds the half pair {-9.1648e-4 (mov.u16 %rs8, -27773: 0x9383), low(h0)}
// for fma.rn.f16x2. ptxas unrolls the loop by 4, 2 and 1 and stores the constant positive
// (c[0x2][0x0] = 0x3a706000, +9.1648e-4). The first iteration of each unrolled copy takes it as it
// is ("HADD2 R7, -RZ.H0_H0, c[0x2] [0x0].F32", two PRMTs, then the HFMA2, sm_75), the others negate
// it ("HADD2 R6, -R7.H0_H0, -RZ.H0_H0" and two PRMTs): the SASS multiplies by
// +9.1648e-4 where the PTX says -9.1648e-4 in iterations 1 and 5 of thread 5 (the loop runs lane & 7
// times). A hand computation of the SASS as written (binary16 fma, round to nearest even) gives the
// SASS emulator's 0xaf282c37, and of the PTX the PTX emulator's 0x28aea6b8;
// the expected difference is uo[23] (thread 5: ptx 0x28aea6b8, sass 0xaf282c37).
#include <cuda_fp16.h>

extern "C" __global__ void k_5003527(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u;
  const unsigned u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  const float f1 = fi[gid * 4 + 1], f2 = fi[gid * 4 + 2];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  for (unsigned i = 0; i < (lane & 7u); ++i)
    h0 = __hsub2(__hfma2(__halves2half2(__ushort_as_half((unsigned short)0x24d09383u), __low2half(h0)), __float2half2_rn(fmaf(f1, f1, f2)), __lowhigh2highlow(h0)),
                 __hfma2(__lowhigh2highlow(h0), __float2half2_rn(__uint_as_float(0xb40d7dabu)), h0));
  if (gid == 5u) uo[23] = (unsigned)__half_as_ushort(__low2half(h0)) | ((unsigned)__half_as_ushort(__high2half(h0)) << 16);
}
