// The "Streaming" memory test of binbinsh/gpu-bench
// (binbinsh/gpu-bench@b9ecb273d7e476c4931429a7da68f9679792ef8c:benchmarks/quantized_benchmark.cu,
// streamingKernel and runMemory), written for teg from that source: each thread walks the arrays
// with a grid-stride loop, reads one float of src and writes it plus one to dst. The program
// launches it with 256 threads per block and min(ceil(n / 256), 4096) blocks, back to back in one
// stream between two CUDA events (30 launches per batch, batches until 120 s have passed), and
// reports 2 x n x 4 bytes per launch / time. Suites: gpubench-stream-rtx5090 (the measurement on
// an RTX 5090 D) and gpubench-stream-rtx4090.
__global__ void streamingKernel(const float* src, float* dst, size_t n) {
  const size_t first = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t stride = blockDim.x * gridDim.x;
  for (size_t i = first; i < n; i += stride) dst[i] = src[i] + 1.0f;
}
