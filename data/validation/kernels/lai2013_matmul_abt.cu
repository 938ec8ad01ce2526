// C = A·Bᵀ with 16 x 16 shared tiles: the dense-matrix-multiplication experiment of seed 000
// (C.-Y. Lai's thesis, §3.4.1, Tables 3.2, 3.3 and 3.6), reconstructed for teg.
//
//   C(i, j) = sum_k A(i, k) * B(j, k)        A is M x K, B is N x K, C is M x N, row-major,
//                                             k ascending, float accumulation.
//
// What the thesis says: the CUDA SDK matrixMul changed to C = ABᵀ; 16x16 sub-matrices; a block of
// 16x16 threads, one C element per thread; each step loads an A and a B sub-matrix into shared
// memory, barrier, accumulate; the main loop runs 10 iterations (§3.5, so K = 10 * 16 = 160);
// with B[16][16] the half-warp reads B(j..j+15, k) from one bank (a 16-way conflict on the 16
// banks of GT200). It runs 1, 2, 4, 8 and 16 warps per SM "with the same amount of workload per
// warp": 30 blocks (one per SM of the GTX 280) and, for 16 warps, 60 blocks (two per SM).
//
// What is reconstructed here (the thesis does not print its code):
//  * Fewer than 8 warps per SM: the block is 16 x ROWS threads (ROWS = blockDim.y = 2, 4, 8 for
//    1, 2, 4 warps) and computes a ROWS x 16 tile of C. Every thread still computes one C element
//    over K = 160 in 10 tile steps and reads the full 16 x 16 B tile and its row of the A tile
//    from shared memory, exactly as in the 16 x 16 block — the per-warp inner loop is identical.
//    The B tile is still 16 x 16, so a block of ROWS rows loads it in 16 / ROWS passes (rows
//    ty, ty + ROWS, ...; all loads of a step are issued before the shared stores so that their
//    latencies overlap): with fewer warps each warp loads more of B (8 B loads per thread and
//    step for 1 warp, 1 for 8 warps). Correct results need this — any 32-thread tile of C needs
//    more than 64 A and B elements per step — but the thesis's "same workload per warp" may
//    instead have meant the identical instruction stream (each warp loading only its own rows),
//    which its near-equal 1- and 2-warp times suggest; this difference in the load phase is the
//    main uncertainty of the reconstruction. ROWS = 16 takes a uniform branch to the SDK load
//    (one A and one B element per thread), so the 8- and 16-warp cases are the SDK kernel.
//  * The matrix sizes follow the launch: M = gridDim.y * blockDim.y, N = gridDim.x * 16; only K
//    (a multiple of 16; there are no bounds checks) is an argument. Grid (30, 1) gives 30 blocks
//    (1, 2, 4, 8 warps); grid (30, 2) with block (16, 16) gives 60 blocks (16 warps). The buffers
//    are sized for the largest case (M = 32, N = 480, K = 160), so every kernel argument is the
//    same for all warp counts; rows of C beyond M stay as initialised (zero).
//
// matmulABtConflict: Bs[16][16] read as Bs[tx][k]: the 16 threads of a half-warp read words
//   16 apart — all in one bank of GT200's 16 (Table 3.2). On 32-bank GPUs the two half-warps read
//   the same word (broadcast) and tx, tx + 2 share a bank: 8-way.
// matmulABtModified: Bs padded to [16][17] (Tables 3.3 and 3.6). Bs[tx][k] is then word
//   17 * tx + k: 16 different banks, conflict-free. Padding was chosen over storing the B tile
//   transposed because it leaves every instruction and every other address of the kernel
//   unchanged — only the bank mapping of the Bs reads differs, which is the comparison the thesis
//   makes (Table 3.6: TEG with conflicts switched off against the modified kernel). A transposed
//   store (Bs[tx][ty] = ...) would move a 16-way conflict to the tile stores instead.
//
// Registers: ptxas for sm_75 gives these kernels 64-66 registers per thread (the unrolled inner
// loop keeps the shared operands in registers); a 256-thread block then exceeds GT200's 16384
// registers. The thesis ran two 256-thread blocks per SM (16 warps), i.e. at most 32 registers, as
// cc 1.x code takes shared operands directly; predict the GTX 280 with --regs (e.g. 16).
// Sidecars: lai2013_matmul_abt.{conflict,modified}_{1,2,4,8,16}warp.launch.json.
#define TILE 16

// Both kernels: PITCH 16 gives Bs[16][16] (the conflicts), 17 the padded tile.
template <int PITCH>
__device__ void tiledABt(const float* A, const float* B, float* C, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][PITCH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int rows = blockDim.y;                      // ROWS: 2, 4, 8 or 16
  const int N = gridDim.x * TILE;
  const int row = blockIdx.y * rows + ty;           // i
  const int col = blockIdx.x * TILE + tx;           // j
  const float* aRow = A + row * K;                  // this thread's row of A
  const float* bTile = B + blockIdx.x * TILE * K;   // the 16 rows of B this block needs
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    if (rows == TILE) {  // 16 x 16 block: the SDK load, one A and one B element per thread
      As[ty][tx] = aRow[k0 + tx];
      Bs[ty][tx] = bTile[ty * K + k0 + tx];
    } else {  // rows ty, ty + ROWS, ... of the B tile; loads first, then stores, so that the
              // loads of a step are in flight together (load-store pairs would wait for each)
      const float a = aRow[k0 + tx];
      float b[TILE / 2];
#pragma unroll
      for (int p = 0; p < TILE / 2; ++p)
        if (ty + p * rows < TILE) b[p] = bTile[(ty + p * rows) * K + k0 + tx];
      As[ty][tx] = a;
#pragma unroll
      for (int p = 0; p < TILE / 2; ++p)
        if (ty + p * rows < TILE) Bs[ty + p * rows][tx] = b[p];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[tx][k];  // Bs[tx][k]: word PITCH * tx + k
    __syncthreads();
  }
  C[row * N + col] = sum;
}

__global__ void matmulABtConflict(const float* A, const float* B, float* C, int K) { tiledABt<TILE>(A, B, C, K); }
__global__ void matmulABtModified(const float* A, const float* B, float* C, int K) { tiledABt<TILE + 1>(A, B, C, K); }

// The other reading of "the same amount of workload per warp" (see the header): every warp runs
// the instruction stream of the 16 x 16 SDK kernel — one A and one B element loaded per thread
// and step, then the 16-step inner product — whatever the number of warps. With fewer than 8
// warps the tile rows beyond blockDim.y are never loaded, so C is not A·Bᵀ there; the thesis
// measured time, and this is the stream each of its warps would run. It is the reading
// teg validate uses: the thesis's near-equal 1- and 2-warp times (55605 / 55803 and 17511 /
// 17291 cycles) fit warps that work independently, not a load phase that shrinks as warps grow.
template <int PITCH>
__device__ void sameCodePerWarp(const float* A, const float* B, float* C, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][PITCH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int N = gridDim.x * TILE;
  const int row = blockIdx.y * blockDim.y + ty;
  const int col = blockIdx.x * TILE + tx;
  const float* aRow = A + row * K;
  const float* bTile = B + blockIdx.x * TILE * K;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = aRow[k0 + tx];
    Bs[ty][tx] = bTile[ty * K + k0 + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[tx][k];
    __syncthreads();
  }
  C[row * N + col] = sum;
}

__global__ void matmulABtConflictSameCode(const float* A, const float* B, float* C, int K) {
  sameCodePerWarp<TILE>(A, B, C, K);
}
__global__ void matmulABtModifiedSameCode(const float* A, const float* B, float* C, int K) {
  sameCodePerWarp<TILE + 1>(A, B, C, K);
}
