// The SGEMM step-by-step family of github.com/Kabir-K/GEMM-Worklog (its README at commit
// 2c1bee74f74018e404d8e0de9dbf6e378beed847 gives the RTX 4060 measurements), written again
// kernel by kernel for teg's validation: the same tile sizes, thread counts, index arithmetic and
// launch shapes as the measured programs, including their quirks, because the timing depends on
// them:
//   s02 launches 32x32 threads but indexes with threadIdx.x only: the 32 warps of a block compute
//       the same 32 elements (same FLOPs as a full SGEMM, one row of C per block);
//   s06 loads A's float4 at column threadCol*4 (not innerColA*4) and s07 at innerColB*4: reads
//       up to 63 and 127 floats to the right, past the end of A in the last block row (on the GPU
//       into the next allocation; in teg into A's launch-file margin);
//   s10 takes the lane as warpId % 32, so the 32 lanes of a warp share one lane index (broadcast
//       shared-memory reads, the same C elements written 32 times).
// M = N = K = 4096 throughout; each program times 20 launches after 1-20 warm-up launches (s01,
// s02: host clock around launch + cudaDeviceSynchronize; the others: cudaEvent pairs) and reports
// 2 M N K / mean time.
constexpr int kM = 4096, kN = 4096, kK = 4096;

// s01, "naive": one thread per element of C, 32x32 blocks, x along the columns.
__global__ void s01_naive(float* A, float* B, float* C, int m, int k, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int l = 0; l < k; l++) sum += A[row * k + l] * B[l * n + col];
    C[row * n + col] = sum;
  }
}

// s02, "coalesced": the row from threadIdx.x / 32 (always 0 in a 32-wide block), the column from
// threadIdx.x % 32, blockIdx.x picking the row block.
__global__ void s02_coalesced(float* A, float* B, float* C, int m, int k, int n) {
  const int cRow = blockIdx.x * 32 + (threadIdx.x / 32);
  const int cCol = blockIdx.y * 32 + (threadIdx.x % 32);
  if (cRow < m && cCol < n) {
    float tmp = 0.0;
    for (int i = 0; i < k; ++i) tmp += A[cRow * k + i] * B[i * n + cCol];
    C[cRow * n + cCol] = tmp;
  }
}

// s03, shared-memory cache blocking: 32x32 tiles, 1024 threads, C = 1 * acc + 0 * C.
__global__ void s03_shared_tiles(const float* A, const float* B, float* C) {
  constexpr unsigned T = 32;
  __shared__ float As[T * T];
  __shared__ float Bs[T * T];
  const unsigned cRow = blockIdx.x, cCol = blockIdx.y;
  const unsigned threadCol = threadIdx.x % T, threadRow = threadIdx.x / T;
  A += cRow * T * kK;
  B += cCol * T;
  C += cRow * T * kN + cCol * T;
  float tmp = 0.0;
  for (int bk = 0; bk < kK; bk += T) {
    As[threadRow * T + threadCol] = A[threadRow * kK + threadCol];
    Bs[threadRow * T + threadCol] = B[threadRow * kN + threadCol];
    __syncthreads();
    A += T;
    B += T * kN;
    for (int d = 0; d < T; ++d) tmp += As[threadRow * T + d] * Bs[d * T + threadCol];
    __syncthreads();
  }
  C[threadRow * kN + threadCol] = 1 * tmp + 0 * C[threadRow * kN + threadCol];
}

// s04, 1-D block tiling: 64x64 block tile, BK = 8, 8 results per thread in a column, 512 threads.
__global__ void s04_blocktile_1d(const float* A, const float* B, float* C) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const unsigned cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
  A += cRow * BM * kK;
  B += cCol * BN;
  C += cRow * BM * kN + cCol * BN;
  const unsigned innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const unsigned innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  float acc[TM] = {0.0};
  for (unsigned bk = 0; bk < kK; bk += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * kK + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * kN + innerColB];
    __syncthreads();
    A += BK;
    B += BK * kN;
    for (unsigned d = 0; d < BK; ++d) {
      const float b = Bs[d * BN + threadCol];
      for (unsigned r = 0; r < TM; ++r) acc[r] += As[(threadRow * TM + r) * BK + d] * b;
    }
    __syncthreads();
  }
  for (unsigned r = 0; r < TM; ++r)
    C[(threadRow * TM + r) * kN + threadCol] = 1 * acc[r] + 0 * C[(threadRow * TM + r) * kN + threadCol];
}

// s05, 2-D block tiling: 128x128 block tile, BK = 8, 8x8 results per thread, 256 threads,
// __launch_bounds__(256, 1).
__global__ void __launch_bounds__(256, 1) s05_blocktile_2d(float* A, float* B, float* C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);
  A += cRow * BM * kK;
  B += cCol * BN;
  C += cRow * BM * kK + cCol * BN;
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK, strideA = blockDim.x / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN, strideB = blockDim.x / BN;
  float acc[TM * TN] = {0};
  float a[TM] = {0};
  float b[TN] = {0};
  for (int bk = 0; bk < kK; bk += BK) {
    for (int o = 0; o < BM; o += strideA) As[innerRowA * BK + o * BK + innerColA] = A[innerRowA * kK + o * kK + innerColA];
    for (int o = 0; o < BK; o += strideB) Bs[innerRowB * BN + o * BN + innerColB] = B[innerRowB * kN + o * kN + innerColB];
    __syncthreads();
    A += BK;
    B += BK * kN;
    for (int d = 0; d < BK; d++) {
      for (int i = 0; i < TM; i++) a[i] = As[threadRow * TM * BK + i * BK + d];
      for (int i = 0; i < TN; i++) b[i] = Bs[threadCol * TN + i + d * BN];
      for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) acc[i * TN + j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TN; j++) C[threadRow * TM * kN + i * kN + threadCol * TN + j] = acc[i * TN + j];
}

// s06, vectorised loads: s05 with float4 global loads, A stored transposed in shared memory, and
// float4 stores of C.
__global__ void s06_vectorized(float* A, float* B, float* C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const unsigned cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);
  A += cRow * BM * kK;
  B += cCol * BN;
  C += cRow * BM * kN + cCol * BN;
  const unsigned innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const unsigned innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
  float acc[TM * TN] = {0.0};
  float a[TM] = {0.0};
  float b[TN] = {0.0};
  for (unsigned bk = 0; bk < kK; bk += BK) {
    const float4 t = reinterpret_cast<float4*>(&A[innerRowA * kK + threadCol * 4])[0];  // sic: threadCol
    As[(innerColA * 4 + 0) * BM + innerRowA] = t.x;
    As[(innerColA * 4 + 1) * BM + innerRowA] = t.y;
    As[(innerColA * 4 + 2) * BM + innerRowA] = t.z;
    As[(innerColA * 4 + 3) * BM + innerRowA] = t.w;
    reinterpret_cast<float4*>(&Bs[innerRowB * BN + innerColB * 4])[0] =
        reinterpret_cast<float4*>(&B[innerRowB * kN + innerColB * 4])[0];
    __syncthreads();
    A += BK;
    B += BK * kN;
    for (unsigned d = 0; d < BK; ++d) {
      for (unsigned i = 0; i < TM; ++i) a[i] = As[d * BM + threadRow * TM + i];
      for (int i = 0; i < TN; i++) b[i] = Bs[d * BN + threadCol * TN + i];
      for (unsigned i = 0; i < TM; ++i)
        for (unsigned j = 0; j < TN; ++j) acc[i * TN + j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (unsigned i = 0; i < TM; i += 1)
    for (unsigned j = 0; j < TN; j += 4) {
      float4* p = reinterpret_cast<float4*>(&C[(threadRow * TM + i) * kN + threadCol * TN + j]);
      float4 t = p[0];
      t.x = 1 * acc[i * TN + j] + 0 * t.x;
      t.y = 1 * acc[i * TN + j + 1] + 0 * t.y;
      t.z = 1 * acc[i * TN + j + 2] + 0 * t.z;
      t.w = 1 * acc[i * TN + j + 3] + 0 * t.w;
      p[0] = t;
    }
}

// s07, "decrease shared-memory conflicts": s06 with B scattered into shared memory so that a
// thread's 8 columns are 16 floats apart.
__global__ void s07_smem_layout(float* A, float* B, float* C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BN * BK];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  A += cRow * BM * kK;
  B += cCol * BN;
  C += cRow * BM * kN + cCol * BN;
  const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
  float acc[TM * TN] = {0.0};
  float a[TM] = {0.0};
  float b[TN] = {0.0};
  for (int bk = 0; bk < kK; bk += BK) {
    float4 t = reinterpret_cast<float4*>(&A[innerRowA * kK + innerColB * 4])[0];  // sic: innerColB
    As[(innerColA * 4 + 0) * BM + innerRowA] = t.x;
    As[(innerColA * 4 + 1) * BM + innerRowA] = t.y;
    As[(innerColA * 4 + 2) * BM + innerRowA] = t.z;
    As[(innerColA * 4 + 3) * BM + innerRowA] = t.w;
    t = reinterpret_cast<float4*>(&B[innerRowB * kN + innerColB * 4])[0];
    const int at = innerRowB * 8 * 16 + innerColB / 2 + (innerColB % 2) * 4 * 16;
    Bs[16 * 0 + at] = t.x;
    Bs[16 * 1 + at] = t.y;
    Bs[16 * 2 + at] = t.z;
    Bs[16 * 3 + at] = t.w;
    __syncthreads();
    A += BK;
    B += BK * kN;
    for (int d = 0; d < BK; d++) {
      for (int i = 0; i < TM; i++) a[i] = As[threadRow * TM + d * BM + i];
      for (int i = 0; i < TM; i++) b[i] = Bs[threadCol + i * 16 + d * 8 * 16];
      for (unsigned i = 0; i < TM; ++i)
        for (unsigned j = 0; j < TN; ++j) acc[i * TN + j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (unsigned i = 0; i < TM; i += 1)
    for (unsigned j = 0; j < TN; j += 4) {
      float4* p = reinterpret_cast<float4*>(&C[(threadRow * TM + i) * kN + threadCol * TN + j]);
      float4 t = p[0];
      t.x = 1 * acc[i * TN + j] + 0 * t.x;
      t.y = 1 * acc[i * TN + j + 1] + 0 * t.y;
      t.z = 1 * acc[i * TN + j + 2] + 0 * t.z;
      t.w = 1 * acc[i * TN + j + 3] + 0 * t.w;
      p[0] = t;
    }
}

// s10, warp tiling: 128x128 block tile, BK = 16, 64x64 warp tiles iterated 2 x 4 times with 8x4
// results per thread, 128 threads, __launch_bounds__(128).
__global__ void __launch_bounds__(128) s10_warptile(float* A, float* B, float* C) {
  constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, WNITER = 4, TM = 8, TN = 4, THREADS = 128;
  constexpr unsigned WMITER = (WM * WN) / (32 * TM * TN * WNITER);
  constexpr unsigned WSUBM = WM / WMITER, WSUBN = WN / WNITER;
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int warpId = threadIdx.x / 32;
  const int warpRow = warpId / (BN / WN), warpCol = warpId % (BN / WN);
  A += cRow * BM * kK;
  B += cCol * BN;
  C += cRow * BM * kN + cCol * BN + warpRow * WM * kN + warpCol * WN;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4), strideA = (THREADS * 4) / BK;
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4), strideB = (THREADS * 4) / BN;
  const int lane = warpId % 32;  // sic: the warp's index, not threadIdx.x % 32
  const int laneCol = lane % (WSUBN / TN), laneRow = lane / (WSUBN / TN);
  float acc[TN * TM * WMITER * WNITER] = {0.0};
  float a[TM * WMITER] = {0.0};
  float b[TN * WNITER] = {0.0};
  for (int bk = 0; bk < kK; bk += BK) {
    for (int o = 0; o + strideA <= BM; o += strideA) {
      const float4 t = reinterpret_cast<float4*>(&A[innerRowA * kK + o * kK + innerColA * 4])[0];
      As[(innerColA * 4 + 0) * BM + innerRowA + o] = t.x;
      As[(innerColA * 4 + 1) * BM + innerRowA + o] = t.y;
      As[(innerColA * 4 + 2) * BM + innerRowA + o] = t.z;
      As[(innerColA * 4 + 3) * BM + innerRowA + o] = t.w;
    }
    for (int o = 0; o + strideB <= BK; o += strideB)
      reinterpret_cast<float4*>(&Bs[innerRowB * BN + o * BN + innerColB * 4])[0] =
          reinterpret_cast<float4*>(&B[innerRowB * kN + o * kN + innerColB * 4])[0];
    __syncthreads();
    A += BK;
    B += BK * kN;
    for (int d = 0; d < BK; d++) {
      for (int sr = 0; sr < WMITER; sr++)
        for (int i = 0; i < TM; i++) a[sr * TM + i] = As[sr * WSUBM + d * BM + i + warpRow * WM + laneRow * TM];
      for (int sc = 0; sc < WNITER; sc++)
        for (int i = 0; i < TN; i++) b[sc * TN + i] = Bs[d * BN + laneCol * TN + warpCol * WN + sc * WSUBN + i];
      for (int sr = 0; sr < WMITER; sr++)
        for (int sc = 0; sc < WNITER; sc++)
          for (int i = 0; i < TM; i++)
            for (int j = 0; j < TN; j++)
              acc[j + TN * i + TN * TM * sc + TN * TM * WNITER * sr] += a[sr * TM + i] * b[sc * TN + j];
    }
    __syncthreads();
  }
  for (int sr = 0; sr < WMITER; sr++)
    for (int sc = 0; sc < WNITER; sc++) {
      float* Ct = C + sr * WSUBM * kN + sc * WSUBN;
      for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j += 4) {
          float4* p = reinterpret_cast<float4*>(&Ct[laneRow * TM * kN + laneCol * TN + i * kN + j]);
          float4 t = p[0];
          const int x = j + TN * i + TN * TM * sc + TN * TM * WNITER * sr;
          t.x = 1 * acc[x + 0] + 0 * t.x;
          t.y = 1 * acc[x + 1] + 0 * t.y;
          t.z = 1 * acc[x + 2] + 0 * t.z;
          t.w = 1 * acc[x + 3] + 0 * t.w;
          p[0] = t;
        }
    }
}
