// Seed 002 (L.-S. Chien, Hand-Tuned SGEMM on GT200 GPU, 2010) §1.1.2: the MAD microbenchmarks of
// Tables 2 and 3. The paper's listings (Figs. 1 and 3) are lost; these follow its text: one block
// of NUM_THREADS threads on one SM, each thread runs a = a * b + c 256 times as a dependent chain
// (read-after-write on a) between two clock() reads, and the time per MAD is
// (end_time - start_time) / 256.
//   madSmem: b[i] is in shared memory -> "MAD dest, [smem], src2, src3" on GT200 (Table 2)
//   madReg:  b is a register           -> "MAD dest, src1, src2, src3"  (Table 3)
#define REPEAT 256

__global__ void madSmem(float* out, unsigned* cycles, float b0, float c) {
  __shared__ float b[REPEAT];
  for (int i = threadIdx.x; i < REPEAT; i += blockDim.x) b[i] = b0 + 1e-3f * i;
  __syncthreads();
  float a = threadIdx.x;
  const unsigned start = clock();
#pragma unroll
  for (int i = 0; i < REPEAT; ++i) a = a * b[i] + c;
  const unsigned end = clock();
  out[threadIdx.x] = a;
  cycles[threadIdx.x] = end - start;
}

__global__ void madReg(float* out, unsigned* cycles, float b, float c) {
  float a = threadIdx.x;
  const unsigned start = clock();
#pragma unroll
  for (int i = 0; i < REPEAT; ++i) a = a * b + c;
  const unsigned end = clock();
  out[threadIdx.x] = a;
  cycles[threadIdx.x] = end - start;
}
