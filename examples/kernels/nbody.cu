// nbodyForces: all-pairs gravitational acceleration with shared-memory tiles (Nyland, Harris &
// Prins, GPU Gems 3 ch. 31): each thread owns one body; the block walks over all bodies one tile
// of blockDim.x at a time, staging their positions in shared memory.
// pos[i] = (x, y, z, mass); acc[i] = sum_j m_j * r_ij / (|r_ij|^2 + eps2)^(3/2), r_ij = p_j - p_i,
// j ascending, including j = i (its term is 0 thanks to eps2 > 0). acc[i].w = 0.
//
// Usual launch: n = 4096 bodies, eps2 = 0.01, block 256, grid 16, dynamic shared memory
// 256 * sizeof(float4) = 4096 bytes (n need not divide: the missing bodies of the last tile are
// given zero mass).
// Sidecar: nbody.launch.json.
__device__ float3 bodyInteraction(float4 bi, float4 bj, float3 ai, float eps2) {
  const float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
  const float d2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
  const float inv = rsqrtf(d2);
  const float s = bj.w * inv * inv * inv;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

__global__ void nbodyForces(const float4* pos, float4* acc, int n, float eps2) {
  extern __shared__ float4 tile[];  // blockDim.x bodies: dynamic shared memory
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 me = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int base = 0; base < n; base += blockDim.x) {
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) a = bodyInteraction(me, tile[k], a, eps2);
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.0f);
}
