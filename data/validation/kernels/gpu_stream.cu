// The streaming kernels of gpu-benches' gpu-stream (te42kyfo/gpu-benches, gpu-stream/main.cu, the
// program behind data/validation/stream_bandwidth_vs_occupancy.csv), written for teg from the
// description in data/validation/README.md: one element (a double) per thread, N / block + 1
// blocks, and a 768-double (6 KiB) shared array behind a flag that is always false at run time.
// The array is never touched; it only makes the block hold 6 KiB of shared memory so that, with
// the carve-out the program prefers (9 %), exactly two blocks fit on an SM.
#define SPOILER 768

__global__ void streamInit(double* A, const double* __restrict__ B, const double* __restrict__ C, size_t n,
                           bool never) {
  __shared__ double spoiler[SPOILER];
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  if (never) spoiler[threadIdx.x] = B[threadIdx.x];
  A[i] = 0.23;
  if (never) A[i] = spoiler[i];
}

__global__ void streamRead(double* A, const double* __restrict__ B, const double* __restrict__ C, size_t n,
                           bool never) {
  __shared__ double spoiler[SPOILER];
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  if (never) spoiler[threadIdx.x] = B[threadIdx.x];
  const double v = B[i];
  if (never || v == 123.0) A[i] = v + spoiler[i];  // never taken: B holds no 123.0
}

__global__ void streamScale(double* A, const double* __restrict__ B, const double* __restrict__ C, size_t n,
                            bool never) {
  __shared__ double spoiler[SPOILER];
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  if (never) spoiler[threadIdx.x] = B[threadIdx.x];
  A[i] = 1.2 * B[i];
  if (never) A[i] = spoiler[i];
}

__global__ void streamTriad(double* A, const double* __restrict__ B, const double* __restrict__ C, size_t n,
                            bool never) {
  __shared__ double spoiler[SPOILER];
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  if (never) spoiler[threadIdx.x] = B[threadIdx.x];
  A[i] = 1.2 * B[i] + C[i];
  if (never) A[i] = spoiler[i];
}

__global__ void streamStencil3(double* A, const double* __restrict__ B, const double* __restrict__ C, size_t n,
                               bool never) {
  __shared__ double spoiler[SPOILER];
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i == 0 || i >= n - 1) return;
  if (never) spoiler[threadIdx.x] = B[threadIdx.x];
  A[i] = 0.5 * B[i - 1] - B[i] + 0.5 * B[i + 1];
  if (never) A[i] = spoiler[i];
}

__global__ void streamStencil5(double* A, const double* __restrict__ B, const double* __restrict__ C, size_t n,
                               bool never) {
  __shared__ double spoiler[SPOILER];
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < 2 || i >= n - 2) return;
  if (never) spoiler[threadIdx.x] = B[threadIdx.x];
  A[i] = 0.25 * B[i - 2] + 0.25 * B[i - 1] - B[i] + 0.5 * B[i + 1] + 0.5 * B[i + 2];
  if (never) A[i] = spoiler[i];
}
