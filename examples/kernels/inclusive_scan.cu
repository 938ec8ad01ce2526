// inclusiveScanBlock: inclusive prefix sum of each block's segment (Hillis-Steele, double
// buffered in shared memory: log2(BLOCK) steps, O(n log n) work), plus each segment's total in
// blockSums so that a second pass (scan blockSums, add to each segment) finishes a full scan.
// out[i] = in[seg] + ... + in[i] within segment seg = blockIdx.x * BLOCK; integers, exact.
//
// Usual launch: n = 1 << 20 ints, block 512 (must equal BLOCK), grid n / 512 = 2048.
// Sidecar: inclusive_scan.launch.json.
#define BLOCK 512

__global__ void inclusiveScanBlock(const int* in, int* out, int* blockSums, int n) {
  __shared__ int buf[2][BLOCK];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * BLOCK + tid;
  int src = 0;
  buf[src][tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset *= 2) {
    const int v = buf[src][tid] + (tid >= offset ? buf[src][tid - offset] : 0);
    buf[1 - src][tid] = v;
    src = 1 - src;
    __syncthreads();
  }
  if (i < n) out[i] = buf[src][tid];
  if (tid == BLOCK - 1) blockSums[blockIdx.x] = buf[src][tid];
}
