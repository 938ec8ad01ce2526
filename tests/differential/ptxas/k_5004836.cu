// teg_differential --count 1 --seed 5004836 --arch sm_75 --source tests/differential/ptxas/k_5004836.cu
// Random kernel 5004836 (full profile, bulk run of the sixth session), reduced: a ptxas folding error
// of 5003070's kind (CUDA 13.0 V13.0.88, every architecture from sm_75 to sm_120), not an emulator
// bug. fdimf(floorf(7.2e-12f), fabsf(f0)) is, in the PTX,
//   cvt.rmi.f32.f32 %f2, %f1;  abs.f32 %f4, %f3;  setp.le.f32 %p2, %f2, %f4;
//   sub.rn.f32 %f5, %f2, %f4;  selp.f32 %f6, 0f00000000, %f5, %p2;
// with %f2 = floor(7.2e-12) = +0. setp.le is an ordered comparison: false for a NaN |f0|, so the PTX
// selects %f5 = 0 - NaN = NaN there (and fdimf of a NaN is NaN, CUDA Math API). ptxas takes
// 0 <= |f0| as always true: the SASS stores "STG.E.SYS [UR4+0x10], RZ" (no FSETP, no FADD).
// Thread 1's f0 is the NaN 0x7fc00000 (the seed's inputs; threads 10 and 91 too): by hand the PTX
// gives the canonical NaN 0x7fffffff (the PTX emulator's value), the SASS as written +0 (the SASS
// emulator's); the expected difference is fo[4] (ptx 0x7fffffff, sass 0x00000000).
extern "C" __global__ void k_5004836(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float f0 = fdimf(floorf(__double2float_rn(__longlong_as_double(0x3d9fbddb5da0409ell))), fabsf(fi[gid * 4]));
  if (gid == 1u) fo[4] = f0;
}
