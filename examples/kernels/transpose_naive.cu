// transposeNaive: out = inᵀ for a rows x cols row-major matrix, one element per thread: reads are
// coalesced, writes stride by `rows` floats (uncoalesced). (NVIDIA "Optimizing Matrix Transpose
// in CUDA", the baseline.)
// out[x * rows + y] = in[y * cols + x].
//
// Usual launch: 1000 x 1000 floats (not a multiple of the 32 x 32 tile: bounds checks), block
// (32, 8), grid (32, 32); each thread handles TILE / 8 = 4 rows of its tile.
// Sidecar: transpose_naive.launch.json.
#define TILE 32
#define ROWS 8

__global__ void transposeNaive(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y0 = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    const int y = y0 + j;
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
  }
}
