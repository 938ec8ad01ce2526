// gpu-benches' gpu-cache (te42kyfo/gpu-benches, the program behind the V100 curve of
// data/validation/cache_bandwidth_curves.csv), as it was run. The curve's file, gpu-cache/v100.txt
// at 1c36d509ee717dca9215c27135fa1e611bb03ed1, was last written by commit 266497d ("cuda-cache: make
// hipifyable, add results", then cuda-cache/v100.txt; a7dc559 only renamed the folder), so the
// program is cuda-cache/main.cu of 266497d: `using dtype = double` (the curve's 8-byte elements; the
// file at 1c36d50 later switched to float), `iters = 100000000 / N + 2`, no unroll pragma on the
// outer loop. Its kernel is copied here unchanged except for the name: one template instance per
// footprint N (doubles), each wrapped in a kernel named sumN so that a validation row can name it.
//
// The launch (gpu-benches measure<N>()): blockCount = SM count (one block per SM), 256 threads per
// block, `zero` = 0; every block sums the same buffer B of N doubles, thread t reading elements
// t, t + 256, ..., once per pass (iteration), and the `B += zero` the compiler cannot see through plus
// the `localSum *= 1.3` keep the passes in order. The sum is stored only if it equals 1233, which
// the buffer's contents (1.1 everywhere, initKernel) never give.
// Effective bandwidth = N * 8 bytes * blockCount * iters / best time.
template <int N, int BLOCKSIZE>
__device__ __forceinline__ void sumKernel(double* __restrict__ A, const double* __restrict__ B, int zero, int iters) {
  double localSum = (double)0;

  B += threadIdx.x;
  //#pragma unroll(4)
  for (int iter = 0; iter < iters; iter++) {
    B += zero;
#pragma unroll N / BLOCKSIZE >= 64 ? 32 : N / BLOCKSIZE
    for (int i = 0; i < N; i += BLOCKSIZE) {
      localSum += B[i];
    }
    localSum *= (double)1.3;
  }
  if (localSum == (double)1233) A[threadIdx.x] += localSum;
}

// `iters` is a template argument in gpu-benches (a compile-time trip count of 100000000 / N + 2,
// which no unroll factor divides evenly, so the loop keeps its counter either way); here it is the
// launch's scalar, so that a suite row can run fewer passes than the 10^8 elements per thread of
// the original (the steady-state rate per pass is what is compared; the suite says how many).
#define GPU_CACHE_SUM(N)                                                                              \
  __global__ void sum##N(double* __restrict__ A, const double* __restrict__ B, int zero, int iters) { \
    sumKernel<N, 256>(A, B, zero, iters);                                                            \
  }

GPU_CACHE_SUM(256)  // 2 KiB
GPU_CACHE_SUM(512)  // 4 KiB
GPU_CACHE_SUM(768)  // 6 KiB
GPU_CACHE_SUM(1024)  // 8 KiB
GPU_CACHE_SUM(1536)  // 12 KiB
GPU_CACHE_SUM(2048)  // 16 KiB
GPU_CACHE_SUM(2560)  // 20 KiB
GPU_CACHE_SUM(3072)  // 24 KiB
GPU_CACHE_SUM(3584)  // 28 KiB
GPU_CACHE_SUM(4096)  // 32 KiB
GPU_CACHE_SUM(4608)  // 36 KiB
GPU_CACHE_SUM(5120)  // 40 KiB
GPU_CACHE_SUM(5632)  // 44 KiB
GPU_CACHE_SUM(6144)  // 48 KiB
GPU_CACHE_SUM(6656)  // 52 KiB
GPU_CACHE_SUM(7168)  // 56 KiB
GPU_CACHE_SUM(7680)  // 60 KiB
GPU_CACHE_SUM(8192)  // 64 KiB
GPU_CACHE_SUM(8704)  // 68 KiB
GPU_CACHE_SUM(9216)  // 72 KiB
GPU_CACHE_SUM(9728)  // 76 KiB
GPU_CACHE_SUM(10240)  // 80 KiB
GPU_CACHE_SUM(10752)  // 84 KiB
GPU_CACHE_SUM(11264)  // 88 KiB
GPU_CACHE_SUM(11776)  // 92 KiB
GPU_CACHE_SUM(12288)  // 96 KiB
GPU_CACHE_SUM(12800)  // 100 KiB
GPU_CACHE_SUM(13312)  // 104 KiB
GPU_CACHE_SUM(13824)  // 108 KiB
GPU_CACHE_SUM(14336)  // 112 KiB
GPU_CACHE_SUM(14848)  // 116 KiB
GPU_CACHE_SUM(15360)  // 120 KiB
GPU_CACHE_SUM(15872)  // 124 KiB
GPU_CACHE_SUM(16384)  // 128 KiB
GPU_CACHE_SUM(18944)  // 148 KiB
GPU_CACHE_SUM(22016)  // 172 KiB
GPU_CACHE_SUM(26112)  // 204 KiB
GPU_CACHE_SUM(30208)  // 236 KiB
GPU_CACHE_SUM(35840)  // 280 KiB
GPU_CACHE_SUM(41984)  // 328 KiB
GPU_CACHE_SUM(49152)  // 384 KiB
GPU_CACHE_SUM(57344)  // 448 KiB
GPU_CACHE_SUM(67072)  // 524 KiB
GPU_CACHE_SUM(78336)  // 612 KiB
GPU_CACHE_SUM(91648)  // 716 KiB
GPU_CACHE_SUM(107520)  // 840 KiB
GPU_CACHE_SUM(125952)  // 984 KiB
GPU_CACHE_SUM(147456)  // 1152 KiB
GPU_CACHE_SUM(201728)  // 1576 KiB
GPU_CACHE_SUM(236032)  // 1844 KiB
GPU_CACHE_SUM(276480)  // 2160 KiB
GPU_CACHE_SUM(323072)  // 2524 KiB
GPU_CACHE_SUM(378368)  // 2956 KiB
GPU_CACHE_SUM(442368)  // 3456 KiB
GPU_CACHE_SUM(517632)  // 4044 KiB
GPU_CACHE_SUM(605696)  // 4732 KiB
GPU_CACHE_SUM(709120)  // 5540 KiB
GPU_CACHE_SUM(829440)  // 6480 KiB
GPU_CACHE_SUM(970752)  // 7584 KiB
GPU_CACHE_SUM(1135616)  // 8872 KiB
GPU_CACHE_SUM(1328640)  // 10380 KiB
GPU_CACHE_SUM(1554944)  // 12148 KiB
GPU_CACHE_SUM(1819136)  // 14212 KiB
GPU_CACHE_SUM(2128384)  // 16628 KiB
GPU_CACHE_SUM(2490368)  // 19456 KiB
GPU_CACHE_SUM(2913792)  // 22764 KiB
GPU_CACHE_SUM(3408896)  // 26632 KiB
GPU_CACHE_SUM(3988480)  // 31160 KiB
GPU_CACHE_SUM(4666368)  // 36456 KiB
GPU_CACHE_SUM(5459968)  // 42656 KiB
GPU_CACHE_SUM(6388224)  // 49908 KiB
GPU_CACHE_SUM(7474176)  // 58392 KiB
GPU_CACHE_SUM(8744960)  // 68320 KiB
