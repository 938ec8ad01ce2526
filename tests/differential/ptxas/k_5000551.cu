// teg_differential --count 1 --seed 5000551 --arch sm_75 --source tests/differential/ptxas/k_5000551.cu
// Random kernel 5000551 (full profile, bulk run of the fifth session), reduced: a ptxas register
// allocation error (CUDA 13.0 V13.0.88; with the PTX nvcc writes for sm_75, ptxas for sm_75, sm_86,
// sm_89 and sm_120 get it wrong, sm_80, sm_90 and sm_100 right), not an emulator bug. The loop carries
// d1 in a register pair; case 1 keeps d1's high word and replaces its low word:
//   mov.b64 {%temp, %r20}, %fd7;  mul.hi.s32 %r22, %r10, %r2;  shr.u32 %r23, %r22, %r5;
//   mov.b64 %fd7, {%r23, %r20};
// ptxas (sm_75) holds d1 in R6:R7 (LDG.E.64.CONSTANT.SYS R6, [R6+0x8]) and writes the product over
// the high word it must keep: "IMAD.HI R7, R13, R5, RZ" then "SHF.R.W.U32.HI R6, RZ, R4, R7", so the
// stored d1 is {product >> s, product} instead of {product >> s, old high word}. sm_100's SASS writes
// "IMAD.HI R2, R0, R9, RZ" into the low word of its pair R2:R3 and agrees. The SASS emulator runs what
// the SASS says; the expected difference is dd[85] (thread 42: ptx 0x3e7e3c6500000000, sass 0).
#include <cuda_fp16.h>

extern "C" __global__ void k_5000551(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31u;
  unsigned u0 = ui[gid * 4], u1 = ui[gid * 4 + 1], u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  float f0 = fi[gid * 4], f1 = fi[gid * 4 + 1], f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  double d0 = di[gid * 2], d1 = di[gid * 2 + 1];
  __half2 h0 = __halves2half2(__ushort_as_half((unsigned short)u2), __ushort_as_half((unsigned short)(u3 >> 16)));
  for (unsigned i1 = 0; i1 < (((unsigned)__popc(u3) - (unsigned)__float2ll_rz(f0)) & 7u); ++i1) {
    switch ((u3 >> (u2 & 31u)) & 3u) {
      case 0: {
        f0 = __int2float_rz((int)u0);
      } break;
      case 1: {
        d1 = __hiloint2double((int)(unsigned)__double2hiint(d1), (int)((unsigned)__mulhi((int)tid, (int)u2) >> (u0 & 31u)));
      }
      case 2: {
      } break;
      default: {
      }
    }
  }
  if (gid == 42u) dd[gid * 2 + 1] = d1;
}

