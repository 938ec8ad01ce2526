// teg_differential --count 1 --seed 7000937 --arch sm_75 --source tests/differential/ptxas/k_7000937.cu
// Random kernel 7000937 (full profile, bulk run of the sixth session), reduced: a ptxas error of
// 6000377's kind (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator bug.
// The PTX negates the pair, h' = neg.f16x2 h0 = {-lo, -hi}, then computes
//   sub.f16x2 %r28, %r19, %r20   with %r19 = {x, h'.hi} = {x, -hi}, %r20 = {h'.hi, h'.lo} = {-hi, -lo},
// i.e. {x + hi, lo - hi}. ptxas folds the negation into the subtraction ("HADD2 R8, R7, R0" with
// R0 = {hi, lo}) but builds %r19's high half from h0 itself ("PRMT R7, R7, 0x7610, R8": +hi), so the
// SASS computes {x + hi, hi + lo}: the negation is dropped from the half that went into the other pair.
// Thread 52 (h0 = {27.66 (0x4eea), 29280 (0x7726)}, f0 = -1635804.5, x = cvt.rni.u64 saturated to 0):
// by hand (binary16, round to nearest even) the PTX gives {0x7726, 27.66 - 29280 = -29248 (0xf724)}
// and the SASS as written {0x7726, 29280 + 27.66 = 29312 (0x7728)}, the two emulators' values;
// the expected difference is uo[211] (thread 52: ptx 0xf7247726, sass 0x77287726).
#include <cuda_fp16.h>

extern "C" __global__ void k_7000937(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  const float f0 = fi[gid * 4];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  if ((gid & 3u) == 0u) {
    h0 = __hneg2(h0);
    h0 = __hsub2(__halves2half2(__ushort_as_half((unsigned short)(unsigned)(__float2ull_rn(f0) >> 7)), __low2half(__lowhigh2highlow(h0))), __lowhigh2highlow(h0));
  }
  if (gid == 52u) uo[211] = (unsigned)__half_as_ushort(__low2half(h0)) | ((unsigned)__half_as_ushort(__high2half(h0)) << 16);
}
