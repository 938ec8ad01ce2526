// teg_differential --count 1 --seed 5000899 --arch sm_86 --source tests/differential/reproducers/k_5000899.cu
// Random kernel 5000899 (full profile, --one-ptx, sm_86 ... sm_120), reduced. ptxas builds the half
// pair {rz(1.0f), rz(-3.4506f)} of two converted constants with "F2FP.MERGE_C.RZ R5, 1, RZ" then
// "F2FP.MERGE_C.RZ R5, -3.4506003856658935547, R5": MERGE_C rounds a into the low half and puts c's
// low half into the high half. The SASS emulator refused MERGE_C ("unsupported form of"); keeping
// c's high half instead gives other bits in uo (checked), so the kernel tells the two apart.
#include <cuda_fp16.h>

__device__ __noinline__ unsigned h_5000899(unsigned u0, float f0) {
  float f1 = f0 * 0.5f, f3 = 1.0f;
  __half2 h0 = __floats2half2_rn(f0, f1);
  float f2 = copysignf(fmaxf((f1 / f1), (f0 * f0 + f1)), f1);
  h0 = __hsub2(__halves2half2(__float2half_rz(__uint_as_float(0xc05cd6a3u)), __float2half_rd(fminf(f3, f2))), __hsub2(__halves2half2(__float2half_rz(f3), __float2half_rd(f3)), h0));
  return u0 ^ (unsigned)__half_as_ushort(__low2half(h0));
}

extern "C" __global__ void k_5000899(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  uo[gid * 4] = h_5000899(ui[gid * 4], fi[gid * 4]);
}
