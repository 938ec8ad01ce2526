// The matrix-transpose kernels of "Optimizing GPU Matrix Transpose: From 14% to 88% of Peak
// Bandwidth" (yencal, 2025-12-24, yencal/yencal.github.io
// _posts/2025-12-24-gpu-matrix-transpose-optimization.md; benchmark program yencal/gpu-matrix-transpose
// main.cu), written for teg from the kernels the post prints. The post measured them on an H100
// (theoretical peak 3352.3 GB/s: the H100 SXM5 80GB) with a 32768 x 32768 float matrix.
//
// What each kernel does, as the post prints it (N x N row-major floats, out = in^T):
// - transposeNaive: one element per thread, read in[y][x] (coalesced), write out[x][y] (a warp's
//   32 stores land in 32 rows: uncoalesced). Block 32 x 32.
// - transposeTiled<T> / transposeTiledPadded<T>: a T x T tile through shared memory,
//   smem[T][T] (column reads: 32-way bank conflicts) or smem[T][T + 1]; both global accesses
//   coalesced. Block T x T.
// - transposeCoarsened<T, R>: padded tile, each thread moves T / R rows (block T x R).
// - transposeVec4Coarsened<T, R>: float4 loads unpacked into the padded tile, gathered and
//   repacked into float4 stores, T / R rows per thread (block T/4 x R).
//
// How the program runs them (main.cu): one validating launch, 10 warm-up launches, then 100
// launches back to back between two CUDA events; the time is the mean, the bandwidth
// 2 x N^2 x 4 bytes / time (10^9 bytes per GB).
#include <cuda_runtime.h>

__global__ void transposeNaive(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < n && row < n) out[col * n + row] = in[row * n + col];
}

// kPad 0: the tile's columns are 32 floats apart (every column read hits one bank); kPad 1: 33.
template <int kTile, int kPad>
__device__ void transposeOneTile(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTile][kTile + kPad];
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < n && row < n) tile[threadIdx.y][threadIdx.x] = in[row * n + col];
  __syncthreads();
  col = blockIdx.y * blockDim.x + threadIdx.x;
  row = blockIdx.x * blockDim.y + threadIdx.y;
  if (col < n && row < n) out[row * n + col] = tile[threadIdx.x][threadIdx.y];
}

template <int kTile>
__global__ void transposeTiled(const float* __restrict__ in, float* __restrict__ out, int n) {
  transposeOneTile<kTile, 0>(in, out, n);
}

template <int kTile>
__global__ void transposeTiledPadded(const float* __restrict__ in, float* __restrict__ out, int n) {
  transposeOneTile<kTile, 1>(in, out, n);
}

template <int kTile, int kRows>
__global__ void transposeCoarsened(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  int col = blockIdx.x * kTile + threadIdx.x;
  int row = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(row + j) * n + col];
  __syncthreads();
  col = blockIdx.y * kTile + threadIdx.x;
  row = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(row + j) * n + col] = tile[threadIdx.x][threadIdx.y + j];
}

template <int kTile, int kRows>
__global__ void transposeVec4Coarsened(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  const int quads = n / 4;  // float4 per matrix row
  int quad = blockIdx.x * (kTile / 4) + threadIdx.x;
  int row = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
  for (int j = 0; j < kTile; j += kRows) {
    const float4 v = reinterpret_cast<const float4*>(in)[(row + j) * quads + quad];
    tile[threadIdx.y + j][threadIdx.x * 4 + 0] = v.x;
    tile[threadIdx.y + j][threadIdx.x * 4 + 1] = v.y;
    tile[threadIdx.y + j][threadIdx.x * 4 + 2] = v.z;
    tile[threadIdx.y + j][threadIdx.x * 4 + 3] = v.w;
  }
  __syncthreads();
  quad = blockIdx.y * (kTile / 4) + threadIdx.x;
  row = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
  for (int j = 0; j < kTile; j += kRows) {
    float4 v;
    v.x = tile[threadIdx.x * 4 + 0][threadIdx.y + j];
    v.y = tile[threadIdx.x * 4 + 1][threadIdx.y + j];
    v.z = tile[threadIdx.x * 4 + 2][threadIdx.y + j];
    v.w = tile[threadIdx.x * 4 + 3][threadIdx.y + j];
    reinterpret_cast<float4*>(out)[(row + j) * quads + quad] = v;
  }
}

template __global__ void transposeTiled<32>(const float*, float*, int);
template __global__ void transposeTiledPadded<32>(const float*, float*, int);
template __global__ void transposeCoarsened<32, 16>(const float*, float*, int);
template __global__ void transposeCoarsened<32, 8>(const float*, float*, int);
template __global__ void transposeCoarsened<32, 4>(const float*, float*, int);
template __global__ void transposeVec4Coarsened<32, 16>(const float*, float*, int);
template __global__ void transposeVec4Coarsened<32, 8>(const float*, float*, int);
template __global__ void transposeVec4Coarsened<32, 4>(const float*, float*, int);
template __global__ void transposeVec4Coarsened<64, 32>(const float*, float*, int);
template __global__ void transposeVec4Coarsened<64, 16>(const float*, float*, int);
template __global__ void transposeVec4Coarsened<64, 8>(const float*, float*, int);
