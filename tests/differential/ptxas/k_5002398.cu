// teg_differential --count 1 --seed 5002398 --arch sm_75 --source tests/differential/ptxas/k_5002398.cu
// Random kernel 5002398 (full profile, bulk run of the fifth session), reduced: a ptxas folding error
// (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator bug. The PTX
//   cvt.rzi.u32.f32 %r17, %f1;  cvt.rm.f32.u32 %f9, %r17;  cvt.rpi.u32.f32 %r18, %f9;
// is ceil(float(trunc(x))), an integer for every x (5 for x = 5.5); ptxas folds the chain into one
// "F2I.U32.CEIL.NTZ R0, R0" of x itself, ceil(x) = 6. Thread 8's input is 5.5 (the seed's inputs);
// the SASS emulator runs what the SASS says; the expected difference is uo[32] (ptx 5, sass 6).
extern "C" __global__ void k_5002398(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float f0 = fi[gid * 4];
  const unsigned u0 = __float2uint_ru(__uint2float_rd(__float2uint_rz(f0)));
  if (gid == 8u) uo[32] = u0;
}
