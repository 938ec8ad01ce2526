// transposeShared: out = inᵀ through a 32 x 32 shared tile so both the global read and the global
// write are coalesced; the tile is read column-wise, so the 32 threads of a warp hit the same
// shared-memory bank (32-way bank conflict). transpose_padded.cu removes it.
// out[x * rows + y] = in[y * cols + x].
//
// Usual launch: 1000 x 1000 floats, block (32, 8), grid (32, 32).
// Sidecar: transpose_shared.launch.json.
#define TILE 32
#define ROWS 8

__global__ void transposeShared(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;  // swapped block indices: the output tile
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
