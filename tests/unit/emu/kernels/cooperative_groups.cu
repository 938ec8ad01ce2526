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
