// softmaxRows: row-wise softmax of a rows x cols row-major matrix, one block per row:
// out(r, c) = exp(in(r, c) - m) / sum_c' exp(in(r, c') - m) with m = max_c in(r, c). Each thread
// strides over the row, then the block reduces the max and the sum in shared memory (tree,
// sequential addressing, blockDim a power of two).
//
// Usual launch: 4096 rows x 1000 columns, block 256, grid 4096 (one block per row).
// Sidecar: softmax.launch.json.
#define BLOCK 256

__device__ float blockReduceMax(float* s, float v) {
  s[threadIdx.x] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + stride]);
    __syncthreads();
  }
  const float r = s[0];
  __syncthreads();  // s is reused by the next reduction
  return r;
}

__device__ float blockReduceSum(float* s, float v) {
  s[threadIdx.x] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  const float r = s[0];
  __syncthreads();
  return r;
}

__global__ void softmaxRows(const float* in, float* out, int rows, int cols) {
  __shared__ float scratch[BLOCK];
  const int r = blockIdx.x;
  if (r >= rows) return;  // uniform for the whole block: no barrier is skipped by some threads
  const float* x = in + static_cast<long>(r) * cols;
  float* y = out + static_cast<long>(r) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
  m = blockReduceMax(scratch, m);
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += __expf(x[c] - m);
  sum = blockReduceSum(scratch, sum);
  const float inv = 1.0f / sum;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = __expf(x[c] - m) * inv;
}
