// L2 load throughput, as the `l2` rows of data/validation/memory_throughput.csv measure it (Jia et
// al. 2019 Table 3.4, Luo et al. 2024 Table V: every SM streams loads from a buffer that fits the
// L2 but not the L1, with enough warps to saturate the L2). Written for teg from that description;
// neither paper prints its code.
//
// l2Read32: each thread folds `reads` 4-byte words of a small buffer through the L2 only (__ldcg:
// PTX ld.global.cg, "cache at global level", so the L1 does not serve the repeats) — Luo's fp32
// access width, the one the device files' L2 figures come from. Consecutive threads read
// consecutive words (a warp asks for 128 bytes: four 32-byte sectors), and each step moves on by
// one block's worth, wrapping round the buffer (`mask` = words - 1, a power of two). The words are
// combined with XOR, so that no arithmetic unit limits the loop. The buffer (16 KiB in the launch)
// fits every GPU's L2 share per SM, so after the first pass every load hits the L2. The result is
// stored only if it comes out all ones, which the launch's buffer contents do not give (the
// prediction counts no stores).
// Bytes per launch = grid x block x reads x 4.
__global__ void l2Read32(const unsigned* __restrict__ B, unsigned* out, int mask, int reads) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned folded = 0;
  for (int k = 0; k < reads; ++k) folded ^= __ldcg(B + ((tid + k * blockDim.x) & mask));
  if (folded == ~0u) out[tid] = folded;  // not with these contents: the prediction shows no stores
}
