// Dependent FMA chains, the method of the dependent_latency rows of
// data/validation/instruction_latency.csv (Jia et al. 2019; Arafa et al. 2019): one thread runs
// a = a * b + c 256 times, each FMA waiting for the previous one's result, between two clock
// reads; cycles / 256 is the FMA's dependent-issue latency.
#define CHAIN 256

template <typename T>
__device__ void chain(T* out, long long* cycles, T b, T c) {
  T a = static_cast<T>(threadIdx.x);
  const long long start = clock64();
#pragma unroll
  for (int i = 0; i < CHAIN; ++i) a = a * b + c;
  const long long end = clock64();
  out[threadIdx.x] = a;
  cycles[threadIdx.x] = end - start;
}

__global__ void fmaChainF32(float* out, long long* cycles, float b, float c) { chain(out, cycles, b, c); }
__global__ void fmaChainF64(double* out, long long* cycles, double b, double c) { chain(out, cycles, b, c); }
