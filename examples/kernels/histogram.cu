// histogram256: 256-bin histogram of bytes with atomics, privatised per block: each block counts
// into a shared-memory histogram (shared atomicAdd), then adds it to the global one (one global
// atomicAdd per bin per block). Counts are integers, so the result does not depend on the order
// of the atomics. bins[v] = number of i < n with data[i] == v; bins must start at zero.
//
// Usual launch: n = 1 << 24 bytes, block 256, grid 240 (a grid-stride loop covers any n).
// Sidecar: histogram.launch.json.
#define BINS 256

__global__ void histogram256(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
