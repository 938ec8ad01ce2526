#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2,1,1) clusterK(int* out) {
  __shared__ int s[64];
  cg::cluster_group c = cg::this_cluster();
  s[threadIdx.x] = threadIdx.x; c.sync();
  int* remote = c.map_shared_rank(s, (c.block_rank() + 1) % 2);
  out[threadIdx.x] = remote[threadIdx.x]; c.sync();
}
