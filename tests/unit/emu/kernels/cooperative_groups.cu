// Kernels written as public CUDA code writes them with warpSize and cooperative groups
// (thread_block, tiled_partition of several sizes, static and dynamic, cg::reduce, sync); the
// emulator tests (cooperative_groups_test.cpp) check their results against a CPU reference.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// out[i] = warpSize * 1000 + lane, where the lane comes from threadIdx.x % warpSize.
__global__ void warpSizeLanes(int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warpSize * 1000 + static_cast<int>(threadIdx.x) % warpSize;
}

// One atomicAdd per warp of the warp's sum, the sum from cg::reduce over a 32-thread tile.
__global__ void tileReduceSum(const float* in, float* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = i < n ? in[i] : 0.0f;
  const float sum = cg::reduce(tile, v, cg::plus<float>());
  block.sync();
  if (tile.thread_rank() == 0) atomicAdd(out, sum);
}

// Per group of 4 threads: the sum by shfl_down in a static 4-thread tile, plus the size of a
// dynamic 8-thread partition, plus the 8-thread tile's maximum by cg::reduce.
__global__ void smallTiles(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<4> four = cg::tiled_partition<4>(block);
  const int v0 = in[block.thread_rank()];
  int v = v0;
  for (int offset = four.size() / 2; offset > 0; offset /= 2) v += four.shfl_down(v, offset);
  cg::thread_group eight = cg::tiled_partition(block, 8);
  const int m = cg::reduce(cg::tiled_partition<8>(block), v0, cg::greater<int>());
  eight.sync();
  if (four.thread_rank() == 0) out[block.thread_rank() / 4] = v + static_cast<int>(eight.size()) * 1000 + m * 100000;
}

// A tile wider than a warp, as cuda-samples' reduction (multi_warp_cg_reduce) builds it: on sm_80
// and later cooperative groups syncs and reduces it in the block's reserved shared memory, found
// through %reserved_smem_offset_1. Per 64-thread tile: the sum of in[] plus the kernel's own
// shared words (written before, read after the tile's reduce, so they must come through intact).
__global__ void multiWarpTileSum(const int* in, int* out) {
  __shared__ int own[8];
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<64>(block);
  if (threadIdx.x < 8) own[threadIdx.x] = static_cast<int>(threadIdx.x) * 10;
  block.sync();
  const int s = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
  tile.sync();
  if (tile.thread_rank() == 0) out[threadIdx.x / 64] = s + own[threadIdx.x / 64];
}

// The five reserved-shared-memory registers beside 16 static and `dynamic` dynamic bytes.
__global__ void reservedSharedOffsets(unsigned* out, int dynamic) {
  __shared__ char own[16];
  extern __shared__ char dyn[];
  unsigned v[5];
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v[0]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v[1]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v[2]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(v[3]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v[4]));
  reinterpret_cast<volatile char*>(own)[threadIdx.x % 16] = 1;  // volatile: keeps the 16 bytes
  if (dynamic) reinterpret_cast<volatile char*>(dyn)[0] = 1;
  if (threadIdx.x == 0)
    for (int i = 0; i < 5; ++i) out[i] = v[i];
}

// A grid-wide barrier, as cuda-samples' reductionMultiBlockCG uses it: valid only under
// cudaLaunchCooperativeKernel, which teg does not run; the GPU aborts it under <<<>>> too.
__global__ void gridSync(int* out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1;
  grid.sync();
  out[grid.thread_rank()] += 1;
}
