// transposePadded: transposeShared with the tile padded to 33 columns, so a column of the tile
// spans all 32 banks and the column-wise read is conflict-free.
// out[x * rows + y] = in[y * cols + x].
//
// Usual launch: 1000 x 1000 floats, block (32, 8), grid (32, 32).
// Sidecar: transpose_padded.launch.json.
#define TILE 32
#define ROWS 8

__global__ void transposePadded(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
