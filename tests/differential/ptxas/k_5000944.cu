// teg_differential --count 1 --seed 5000944 --arch sm_75 --source tests/differential/ptxas/k_5000944.cu
// Random kernel 5000944 (full profile, bulk run of the fifth session), reduced: a ptxas constant
// folding error (CUDA 13.0 V13.0.88; the sm_75 PTX below, assembled for every architecture from
// sm_75 to sm_120, gets it wrong; nvcc's own PTX for sm_86 packs the pair differently and agrees),
// not an emulator bug. The PTX converts the constant -1577907.0 into the high half:
//   mov.f32 %f7, 0fC9C07D98;  {.reg .f16 low,high; cvt.rn.f16.f32 low, %f1;
//   cvt.rn.f16.f32 high, %f7; mov.b32 %r13, {low,high};}  ...  add.sat.f16x2 %r22, %r13, %r14;
// which overflows to -inf (0xfc00), so the saturated sum's high half is +0. ptxas folds it to +inf:
// "IMAD.MOV.U32 R7, RZ, RZ, 0x7c00", "@P0 PRMT R3, R3, 0x5410, R7", "@P0 HADD2.SAT R9, R3, R0",
// so the SASS gives 1.0 (0x3c00). (The same conversion alone folds to 0xfc00; here the guard's
// "abs.f32 %f5, %f4" is the other float in play.) The SASS emulator runs what the SASS says; the
// expected difference is uo[3] (thread 0: ptx 0x00000000, sass 0x00003c00).
#include <cuda_fp16.h>

extern "C" __global__ void k_5000944(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
  unsigned u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  float f0 = fi[gid * 4], f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  if (!isinf(((f3 != f2) ? f3 : __uint_as_float(0xba840f7eu))))
    h0 = __hadd2_sat(__floats2half2_rn(f0, __uint_as_float(0xc9c07d98u)), __lowhigh2highlow(h0));
  if (gid == 0u) uo[3] = __half_as_ushort(__high2half(h0));
}
