// teg_differential --count 1 --seed 5003070 --arch sm_75 --source tests/differential/ptxas/k_5003070.cu
// Random kernel 5003070 (full profile, bulk run of the fifth session), reduced: a ptxas folding error
// (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator bug. The PTX
//   abs.f32 %f2, %f1;  setp.gt.f32 %p1, %f2, 0fB3B4E65B;  @%p1 bra $L__BB0_2;  (else: d1 = trunc(d0) + d0)
// compares |f2| with a negative constant. setp.gt is an ordered comparison: false for a NaN f2, so
// the PTX runs the else branch there. ptxas takes |f2| > -8.4e-8 as always true and drops the branch
// and the double arithmetic (no FSETP, FRND or DADD in the SASS): the stored d1 is the input's.
// Thread 159's f2 is the NaN 0x7fffffff (the seed's inputs); the expected difference is dd[319]
// (ptx 0xea74c8ce5362266c, sass 0x46d4b76aa0000000).
extern "C" __global__ void k_5003070(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float f2 = fi[gid * 4 + 2];
  double d0 = di[gid * 2], d1 = di[gid * 2 + 1];
  if (!((-__uint_as_float(0x33b4e65bu)) < fabsf(f2))) d1 = (trunc(d0) + d0);
  if (gid == 159u) dd[319] = d1;
}
