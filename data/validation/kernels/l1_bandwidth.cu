// L1 load throughput per SM, as the `l1` rows of data/validation/memory_throughput.csv measure it
// (Jia et al. 2019 arXiv:1903.07486 Table 3.2, "L1 load throughput per SM"; Luo et al. IPDPS 2024
// arXiv:2402.13499 Table V, fp32 / fp32.v4 loads): every SM streams loads from a buffer its L1
// holds, with enough warps to saturate the L1. Written for teg from that description; neither
// paper prints its code (as kernels/l2_bandwidth.cu).
//
// l1Read32 / l1Read128: each thread folds 16 elements per pass, `passes` times, of a buffer of
// 16 x 256 4-byte words (16 KiB) or 16-byte uint4 vectors (64 KiB, Luo's fp32.v4 width) with plain
// global loads (cached in the L1 from cc 7.0 on: CUDA C++ Programming Guide, Compute Capability
// 7.x-9.x, Global Memory). Thread t of a 256-thread block reads elements t, t + 256, ... t + 15 x
// 256: a warp asks for 128 bytes per load (512 for uint4), and the 16 loads of a pass are unrolled
// with constant offsets, so that a load costs one instruction and one XOR (a throughput test
// measures the cache, not address arithmetic). The buffer fits every GPU's L1, so after the first
// pass every load hits the L1. The elements are combined with XOR, so that no arithmetic unit
// limits the loop; the result is stored only if it comes out all ones, which the launch's buffer
// contents do not give; `zero` (0) moves the pointer
// each pass, as gpu-benches gpu-cache does, so that the loads stay in the pass loop. Bytes per launch = grid x 256 x 16 x passes x (4 or 16).
constexpr int kBlock = 256;     // the launch's block size (the offsets are compile-time)
constexpr int kPerPass = 16;    // loads per pass, unrolled

__global__ void l1Read32(const unsigned* __restrict__ B, unsigned* out, int zero, int passes) {
  const unsigned* p = B + threadIdx.x;
  unsigned folded = 0;
  for (int n = 0; n < passes; ++n) {
    p += zero;  // gpu-cache's trick: the compiler cannot hoist the loads out of the pass loop
#pragma unroll
    for (int k = 0; k < kPerPass; ++k) folded ^= p[k * kBlock];
  }
  if (folded == ~0u) out[blockIdx.x * blockDim.x + threadIdx.x] = folded;
}

__global__ void l1Read128(const uint4* __restrict__ B, unsigned* out, int zero, int passes) {
  const uint4* p = B + threadIdx.x;
  uint4 folded = make_uint4(0, 0, 0, 0);
  for (int n = 0; n < passes; ++n) {
    p += zero;  // gpu-cache's trick: the compiler cannot hoist the loads out of the pass loop
#pragma unroll
    for (int k = 0; k < kPerPass; ++k) {
      const uint4 v = p[k * kBlock];
      folded.x ^= v.x;
      folded.y ^= v.y;
      folded.z ^= v.z;
      folded.w ^= v.w;
    }
  }
  const unsigned all = folded.x & folded.y & folded.z & folded.w;
  if (all == ~0u) out[blockIdx.x * blockDim.x + threadIdx.x] = all;
}
