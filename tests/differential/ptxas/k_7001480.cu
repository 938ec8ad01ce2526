// teg_differential --count 1 --seed 7001480 --arch sm_75 --source tests/differential/ptxas/k_7001480.cu
// Random kernel 7001480 (full profile, bulk run of the sixth session), reduced: a ptxas
// register-allocation error of 5000551's kind (CUDA 13.0 V13.0.88, every architecture from sm_75
// to sm_120), not an emulator bug. d1 = __hiloint2double(shift, __double2hiint(d1)) moves d1's high
// word into its low word and puts a new high word on top; in the PTX
//   shf.r.wrap.b32 %r7, %r8, %r9, %r9;  mov.b64 {%temp, %r12}, %fd4;  mov.b64 %fd4, {%r12, %r7};
// ptxas keeps d1 in R4:R5 and writes "@!P0 SHF.R.W.U32 R5, R10, R7, R7" before "@!P0 MOV R4, R5"
// (sm_75; the same pair in this order on sm_80 ... sm_120): the low word gets the new high word and
// the old high word is lost.
// Thread 3 (lane 3, u2 = 0x2a, d1 = 0xcc268104268e5542): by hand shf.r.wrap(6, 0x2a, 10) = 0x0a800000,
// so the PTX gives 0x0a800000cc268104 (the PTX emulator's value) and the SASS as written
// 0x0a8000000a800000 (the SASS emulator's); the expected difference is dd[7]
// (thread 3: ptx 0x0a800000cc268104, sass 0x0a8000000a800000).
extern "C" __global__ void k_7001480(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u;
  double d1 = di[gid * 2 + 1];
  if (gid == 3u) d1 = __hiloint2double((int)__funnelshift_r((lane + lane), ui[gid * 4 + 2], ui[gid * 4 + 2]), (int)(unsigned)__double2hiint(d1));
  dd[gid * 2 + 1] = d1;
}
