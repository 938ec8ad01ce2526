// The atomic hotspot microbenchmark behind data/validation/atomic_contention.csv
// (azusayamaguchi/Atomic-Contention-on-GPUs-From-Throughput-Saturation-to-Design-Implications,
// src/atomic_stress_v3.cu), written for teg from the repository's description: every thread adds
// 1 to data[idx % K] N times with a 64-bit atomicAdd. K = 1: every thread of the grid on one
// address. The program times one launch with CUDA events around it.
__global__ void atomicStress(unsigned long long* data, int n, int k) {
  const int idx = threadIdx.x + blockIdx.x * blockDim.x;
  const int target = idx % k;
  for (int i = 0; i < n; i++) atomicAdd(&data[target], 1ULL);
}
