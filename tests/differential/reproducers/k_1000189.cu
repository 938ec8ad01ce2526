// teg_differential --count 1 --seed 1000189 --arch sm_75 --source tests/differential/reproducers/k_1000189.cu
// Random kernel 1000189 (full profile; differed on all 7 architectures), reduced. The caller passes
// (unsigned)(((long long)(int)u0 * -8) >> 17) to the noinline helper; ptxas negates the 64-bit
// u0 << 3 as "LEA R16, P1, -R9, RZ, 0x3" and "IMAD.X R13, RZ, RZ, ~R13, P1": the LEA's carry out
// of ~(u0 << 3) + 1 is set when u0 << 3 is 0 (the adder's -x, as IADD3's), and the emulator never
// set it, so the high word was one short. Fixed in sass_exec_integer.cpp (lea).
#include <cuda_fp16.h>

__device__ __noinline__ unsigned h_1000189(unsigned u0, float f0) {
  unsigned u1 = u0 * 0x9e3779b9u, u2 = u0 >> 3, u3 = ~u0;
  float f1 = f0 * 0.5f, f2 = -f0, f3 = 1.0f;
  double d0 = (double)f0, d1 = (double)u0;
  __half2 h0 = __floats2half2_rn(f0, f1);
  return u0 ^ u1 ^ u2 ^ u3 ^ __float_as_uint(f0 + f1 + f2 + f3) ^ __double2loint(d0 + d1) ^ (__hisnan(__low2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h0)));
}
extern "C" __global__ void k_1000189(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  __shared__ unsigned su[128];
  __shared__ float sf[128];
  const unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31u;
  unsigned u0 = ui[gid * 4], u1 = ui[gid * 4 + 1], u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  float f0 = fi[gid * 4], f1 = fi[gid * 4 + 1], f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  double d0 = di[gid * 2], d1 = di[gid * 2 + 1];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  unsigned la[8];
  float lf[8];
  su[tid] = u1; sf[tid] = fminf((__uint_as_float(0xfa6e7620u) * f2 + f1), fmaf(f0, __uint_as_float(0x41100000u), __uint_as_float(0x40600000u)));
  __syncthreads();
  u3 = su[(tid + 2u) % blockDim.x]; f3 = sf[(tid + 2u) % blockDim.x];
  __syncthreads();
  for (unsigned i2 = 0; i2 < ((unsigned)__ffs((int)gid) & 7u); ++i2) {
    f2 = __fmul_rn(f0, __low2float(__halves2half2(__float2half_rz(f0), __float2half_rd(f0))));
  }
  su[tid] = (unsigned)(__double2ll_ru((d1 + d1)) >> 3); sf[tid] = __int2float_rz((int)tid);
  __syncthreads();
  u1 = su[(tid + 108u) % blockDim.x]; f0 = sf[(tid + 108u) % blockDim.x];
  __syncthreads();
  u3 = h_1000189((unsigned)(((long long)(int)u0 * (long long)(int)0xfffffff8u) >> 17), f2);
  u3 ^= (__hisnan(__low2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__low2half(h0))) | ((__hisnan(__high2half(h0)) ? 0x7fffu : (unsigned)__half_as_ushort(__high2half(h0))) << 16);
  { const float x = __uint2float_rz(u1); float r; asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); ai[gid * 4 + 0] = x; ao[gid * 4 + 0] = r; }
  { const float x = __ll2float_rd((long long)(int)u0 * 0x10001ll); ai[gid * 4 + 1] = x; ao[gid * 4 + 1] = __expf(x); }
  { const float x = (f1 + f1); float r; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); ai[gid * 4 + 2] = x; ao[gid * 4 + 2] = r; }
  { const float x = (-f3); float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); ai[gid * 4 + 3] = x; ao[gid * 4 + 3] = r; }
  uo[gid * 4 + 0] = u0;
  uo[gid * 4 + 1] = u1;
  uo[gid * 4 + 2] = u2;
  uo[gid * 4 + 3] = u3;
  fo[gid * 4 + 0] = f0;
  fo[gid * 4 + 1] = f1;
  fo[gid * 4 + 2] = f2;
  fo[gid * 4 + 3] = f3;
  dd[gid * 2 + 0] = d0;
  dd[gid * 2 + 1] = d1;
}

