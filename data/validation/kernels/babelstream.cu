// BabelStream 4.0's CUDA kernels (UoB-HPC/BabelStream@e21134d53814147595aa2d96fcb94800b77a35dc,
// tag v4.0: src/cuda/CUDAStream.cu and CUDAStream.h, src/Stream.h), copied for teg with the
// program's template parameter T fixed to double (its default precision) so that the kernels
// have plain names; the bodies are the program's. TBSIZE 1024 and DOT_NUM_BLOCKS 256 are
// CUDAStream.h's, startScalar 0.4 is Stream.h's. The program launches copy, mul, add and triad
// with array_size / TBSIZE blocks of TBSIZE threads (one element per thread), dot with
// DOT_NUM_BLOCKS blocks of TBSIZE threads (a grid-stride loop, then a shared-memory tree);
// main.cpp times each call (launch, cudaDeviceSynchronize; dot: launch, then a cudaMemcpy of the
// DOT_NUM_BLOCKS partial sums to the host) with std::chrono, 100 times in the order copy, mul,
// add, triad, dot, and reports bytes / the fastest time of calls 2-100 (copy, mul, dot:
// 2 x 8 x array_size bytes; add, triad: 3 x 8 x array_size). Suite: babelstream-rtx2080ti.
#define TBSIZE 1024
#define DOT_NUM_BLOCKS 256
#define startScalar (0.4)

__global__ void copy_kernel(const double* a, double* c) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  c[i] = a[i];
}

__global__ void mul_kernel(double* b, const double* c) {
  const double scalar = startScalar;
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  b[i] = scalar * c[i];
}

__global__ void add_kernel(const double* a, const double* b, double* c) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

__global__ void triad_kernel(double* a, const double* b, const double* c) {
  const double scalar = startScalar;
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  a[i] = b[i] + scalar * c[i];
}

__global__ void dot_kernel(const double* a, const double* b, double* sum, int array_size) {
  __shared__ double tb_sum[TBSIZE];

  int i = blockDim.x * blockIdx.x + threadIdx.x;
  const size_t local_i = threadIdx.x;

  tb_sum[local_i] = 0.0;
  for (; i < array_size; i += blockDim.x * gridDim.x) tb_sum[local_i] += a[i] * b[i];

  for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (local_i < offset) {
      tb_sum[local_i] += tb_sum[local_i + offset];
    }
  }

  if (local_i == 0) sum[blockIdx.x] = tb_sum[local_i];
}
