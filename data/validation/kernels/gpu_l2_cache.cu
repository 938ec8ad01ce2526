// gpu-benches' gpu-l2-cache (te42kyfo/gpu-benches@1c36d509ee717dca9215c27135fa1e611bb03ed1,
// gpu-l2-cache/main.cu), its kernel copied unchanged; the one instance the program runs,
// sumKernel<64, 1024>, is wrapped in a kernel named l2Sum so that a launch file can name it.
//
// The launch (main.cu's measure<64>(blockRun)): 200000 blocks of 1024 threads; block b reads slot
// b mod blockRun of a buffer of blockRun slots, each slot 64 x 1024 doubles (512 KiB): 32 steps of
// two loads 1024 doubles apart, so the grid reads 200000 x 512 KiB while its footprint is
// blockRun x 512 KiB. blockRun runs from 3 up (footprints 1.5 MiB to GiB); the buffer holds 1.1
// everywhere (initKernel) and the sum is stored only if it equals 23.12, which it never does.
// Effective bandwidth = 64 x 1024 x 8 bytes x 200000 / best time (a host timer around one launch).
template <int N, int BLOCKSIZE>
__device__ __forceinline__ void sumKernel(double *__restrict__ A, const double *__restrict__ B, int blockRun) {
  double localSum = double(0);

  for (int i = 0; i < N / 2; i++) {
    int idx = (blockDim.x * blockRun * i + (blockIdx.x % blockRun) * BLOCKSIZE) * 2 + threadIdx.x;
    localSum += B[idx] * B[idx + BLOCKSIZE];
  }

  localSum *= (double)1.3;
  if (threadIdx.x > 1233 || localSum == (double)23.12) A[threadIdx.x] += localSum;
}

__global__ void l2Sum(double *__restrict__ A, const double *__restrict__ B, int blockRun) {
  sumKernel<64, 1024>(A, B, blockRun);
}
