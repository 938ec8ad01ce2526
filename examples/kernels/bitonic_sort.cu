// bitonicSortShared: sorts each segment of SEG = 1024 keys in ascending order with a bitonic
// network in shared memory (Batcher; the CUDA SDK sortingNetworks "bitonicSortShared"). Each of
// the 512 threads owns one compare-exchange per step; log2(1024) * (log2(1024) + 1) / 2 = 55
// steps, each followed by a barrier. Keys past n are padded with UINT_MAX and not written back.
// After the launch every segment keys[s * 1024 .. + 1024) is sorted (a full sort then merges them).
//
// Usual launch: n = 1 << 20 unsigned keys, block 512 (= SEG / 2, required), grid n / 1024 = 1024.
// Sidecar: bitonic_sort.launch.json.
#define SEG 1024

__global__ void bitonicSortShared(unsigned int* keys, int n) {
  __shared__ unsigned int s[SEG];
  const int base = blockIdx.x * SEG;
  for (int t = threadIdx.x; t < SEG; t += blockDim.x)
    s[t] = base + t < n ? keys[base + t] : 0xffffffffu;
  __syncthreads();
  for (int size = 2; size <= SEG; size <<= 1) {
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      const int t = threadIdx.x;
      const int lo = 2 * t - (t & (stride - 1));  // the first element of this thread's pair
      const int hi = lo + stride;
      const bool ascending = (lo & size) == 0;
      const unsigned a = s[lo], b = s[hi];
      if ((a > b) == ascending) {
        s[lo] = b;
        s[hi] = a;
      }
      __syncthreads();
    }
  }
  for (int t = threadIdx.x; t < SEG; t += blockDim.x)
    if (base + t < n) keys[base + t] = s[t];
}
