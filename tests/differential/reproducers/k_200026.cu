// teg_differential --count 1 --seed 200026 --arch sm_75 --source tests/differential/reproducers/k_200026.cu
// Reduced from random kernel 200026 (sm_75, full profile). Both sides of the `if (isinf(...))`
// have a convergence region on B1; the taken side calls ptxas's __fdiv_rd subroutine, whose
// regions B2/B3 diverge (BREAK B3), and reaches it in two groups: the second group's BSSY B2 reset
// B2 to itself while lanes of the first waited at the subroutine's BSYNC B2, which then waited
// for lanes that were never coming. The block runner released the warp at the enclosing BSYNC B0
// in parts, and the SHFL.BFLY after it ran on part of the warp, shuffling stale registers (the
// PTX emulator, converged, gave every lane its partner's value). Fixed in sass_block_runner.cpp:
// a BSYNC none of whose lanes the barrier still expects goes on.
extern "C" __global__ void k_200026(const unsigned* __restrict__ ui, const float* __restrict__ fi,
    const double* __restrict__ di, unsigned* uo, float* fo, double* dd, float* ai, float* ao) {
  const unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31u;
  unsigned u0 = ui[gid * 4], u1 = ui[gid * 4 + 1], u2 = ui[gid * 4 + 2], u3 = ui[gid * 4 + 3];
  float f0 = fi[gid * 4], f1 = fi[gid * 4 + 1], f2 = fi[gid * 4 + 2], f3 = fi[gid * 4 + 3];
  double d0 = di[gid * 2], d1 = di[gid * 2 + 1];
  unsigned la[8];
  float lf[8];
  for (int i = 0; i < 8; ++i) { la[i] = u0 + 7u * i; lf[i] = f0 * (float)i; }
  f2 = fmaf(__double2float_rn(d1), f2, f0);
  if (((int)(unsigned)__double2int_rn(d0) < (int)((f1 <= f1) ? u0 : u0))) {
    if (isinf(fmaf(__uint_as_float(0x6ad660ceu), f2, f3))) {
      switch (u3 & 3u) {
        case 0: {
          f1 = (fmaxf(__frcp_rd(f1), __fdiv_rd(f0, f2)) - f3);
          lf[(unsigned)min((int)tid, (int)u0) & 7u] = roundf((f2 * f1 + f0)); f2 = lf[(unsigned)(((long long)(int)lane << 20) / (long long)(int)((u2 & 0xfffu) + 1u)) & 7u];
        }
        default: {
        }
      }
    } else {
      if ((f2 <= (f3 * f1))) {
        d1 = ((ceil(d1) * (d0 + d0)) / (double)(f3 * f0));
      }
    }
  }
  f2 = __shfl_xor_sync(0xffffffffu, f2, 2u);
  fo[gid * 4 + 2] = f2;
  dd[gid * 2 + 1] = d1;
}