// convolution2dTiled: 2-D convolution with a 5 x 5 mask in constant memory and a shared-memory
// input tile with its halo (Kirk & Hwu, "Programming Massively Parallel Processors", tiled 2-D
// convolution, strategy 1: the block is the size of the input tile, only the inner 12 x 12 threads
// write outputs). Zero padding outside the image:
// out(x, y) = sum_{dy, dx in -2..2} mask(dy + 2, dx + 2) * in(x + dx, y + dy) (dy, then dx
// ascending), in(...) = 0 outside [0, width) x [0, height). Row-major images.
//
// Usual launch: 1920 x 1080 floats, block (16, 16) (must equal IN_TILE), grid
// (ceil(1920 / 12), ceil(1080 / 12)) = (160, 90). The mask lives in the __constant__ symbol
// c_mask; its initialiser (the 5 x 5 binomial blur, outer product of (1 4 6 4 1) / 16 with itself)
// is part of the module, so no host upload is needed (a host may still cudaMemcpyToSymbol another).
// Sidecar: convolution2d.launch.json.
#define MASK 5
#define RADIUS (MASK / 2)
#define IN_TILE 16
#define OUT_TILE (IN_TILE - 2 * RADIUS)

// c_mask(dy, dx) = b[dy] * b[dx] / 256 with b = (1, 4, 6, 4, 1); the weights sum to 1.
__constant__ float c_mask[MASK * MASK] = {
    1 / 256.0f, 4 / 256.0f,  6 / 256.0f,  4 / 256.0f,  1 / 256.0f,   //
    4 / 256.0f, 16 / 256.0f, 24 / 256.0f, 16 / 256.0f, 4 / 256.0f,   //
    6 / 256.0f, 24 / 256.0f, 36 / 256.0f, 24 / 256.0f, 6 / 256.0f,   //
    4 / 256.0f, 16 / 256.0f, 24 / 256.0f, 16 / 256.0f, 4 / 256.0f,   //
    1 / 256.0f, 4 / 256.0f,  6 / 256.0f,  4 / 256.0f,  1 / 256.0f};

__global__ void convolution2dTiled(const float* in, float* out, int width, int height) {
  __shared__ float tile[IN_TILE][IN_TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * OUT_TILE + tx - RADIUS;  // the input pixel this thread loads
  const int y = blockIdx.y * OUT_TILE + ty - RADIUS;
  tile[ty][tx] = (x >= 0 && x < width && y >= 0 && y < height) ? in[y * width + x] : 0.0f;
  __syncthreads();
  const bool inner = tx >= RADIUS && tx < IN_TILE - RADIUS && ty >= RADIUS && ty < IN_TILE - RADIUS;
  if (!inner || x >= width || y >= height) return;
  float sum = 0.0f;
#pragma unroll
  for (int dy = 0; dy < MASK; ++dy)
#pragma unroll
    for (int dx = 0; dx < MASK; ++dx)
      sum += c_mask[dy * MASK + dx] * tile[ty - RADIUS + dy][tx - RADIUS + dx];
  out[y * width + x] = sum;
}
