// The L2 and main-memory bandwidth programs of caps-tum/mt4g
// (caps-tum/mt4g@4cc55662a9541a40e91909c61d543c524ae04fcb:src/benchmarks/shared/bandwidth/
// l2ReadBandwidth.cpp, l2WriteBandwidth.cpp, mainMemoryReadBandwidth.cpp,
// mainMemoryWriteBandwidth.cpp), the four kernels copied for teg with HIP's NVIDIA path: the inline
// PTX of `#ifdef __HIP_PLATFORM_NVIDIA__`, uint32v4 as include/typedef/vectorTypes.hpp defines it
// for nvcc (a struct of four uint32_t, 4-byte aligned), nothing else changed.
//
// How the program runs them (data/validation/mt4g_bandwidth.csv, suites mt4g-bandwidth-*):
// - launch shape (every kernel): block = min(maxThreadsPerBlock, warpSize x SIMDsPerCU) =
//   min(1024, 32 x 4) = 128 threads (util::getSIMDsPerCU() returns 4 on NVIDIA, "usually 4
//   SMSPs", include/utils/hip/device.hpp); grid = multiProcessorCount x maxBlocksPerMultiProcessor
//   (hipDeviceProp_t, as the sample result's "compute" section prints them).
// - L2 read / write: the array is l2CacheSize bytes (deviceProperties.l2CacheSize, the result's
//   memory.l2.size); one warm-up launch, then one launch between two events; each thread sweeps
//   its share of the whole array blockDim.x = 128 times (loop j, shifted by one block each time),
//   and the launcher divides the time by 128: GiB/s = (l2CacheSize / 2^30) / (ms / 128 / 1000),
//   i.e. 128 x l2CacheSize bytes per timed launch. Loads are ld.global.cg (L2 only), stores the
//   default st.global (write-back).
// - main-memory read / write: the array is totalGlobalMem / 4 bytes (DEFAULT_SIZE_DOWN_FACTOR),
//   one grid-stride sweep, no warm-up, one launch between two events after hipDeviceReset:
//   GiB/s = (totalGlobalMem / 4 / 2^30) / (ms / 1000). Loads are ld.global (default caching),
//   stores st.global.wt (write-through).
// - every figure is the mean of ROUNDS = 10 such measurements, each after hipDeviceReset.
#include <cstddef>
#include <cstdint>

struct uint32v4 {
  uint32_t x, y, z, w;
  __host__ __device__ constexpr uint32v4() : x(0), y(0), z(0), w(0) {}
  __host__ __device__ constexpr uint32v4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) : x(a), y(b), z(c), w(d) {}
};

__global__ void l2ReadBandwidthKernel(uint32v4* __restrict__ dst, uint32v4* __restrict__ src, size_t n) {
  size_t tid;
  size_t stride = gridDim.x * blockDim.x;

  uint32v4 dummy = {0, 0, 0, 0};

  for (size_t j = 0; j < blockDim.x; ++j) {
    tid = (((blockIdx.x + j) * blockDim.x) + threadIdx.x) % stride;

    for (size_t i = tid; i < n; i += stride) {
      uint32v4 loaded;
      asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(loaded.x), "=r"(loaded.y), "=r"(loaded.z), "=r"(loaded.w)
                   : "l"(src + i));
      dummy.x ^= loaded.x;
    }
  }

  tid = blockIdx.x * blockDim.x + threadIdx.x;
  dst[tid % blockDim.x] = dummy;  // prevent dead code elimination
}

__global__ void l2WriteBandwidthKernel(uint32v4* __restrict__ dst, size_t n) {
  uint32_t tid = static_cast<uint32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  uint32_t stride = static_cast<uint32_t>(gridDim.x * blockDim.x);

  uint32v4 dummy = {tid, tid + 1, tid + 2, tid + 3};

  for (size_t j = 0; j < blockDim.x; ++j) {
    tid = (((blockIdx.x + j) * blockDim.x) + threadIdx.x) % stride;

    for (size_t i = tid; i < n; i += stride) {
      asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};\n"
                   :
                   : "l"(dst + i), "r"(dummy.x), "r"(dummy.y), "r"(dummy.z), "r"(dummy.w));
    }
  }
}

__global__ void mainMemoryReadBandwidthKernel(uint32v4* __restrict__ dst, uint32v4* __restrict__ src, size_t n) {
  size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  size_t stride = gridDim.x * blockDim.x;

  uint32v4 dummy = {0, 0, 0, 0};

  for (size_t i = tid; i < n; i += stride) {
    uint32v4 loaded;
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(loaded.x), "=r"(loaded.y), "=r"(loaded.z), "=r"(loaded.w)
                 : "l"(src + i));
    dummy.x ^= loaded.x;
  }

  dst[tid % blockDim.x] = dummy;  // prevent dead code elimination
}

__global__ void mainMemoryWriteBandwidthKernel(uint32v4* __restrict__ dst, size_t n) {
  uint32_t tid = static_cast<uint32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  uint32_t stride = static_cast<uint32_t>(gridDim.x * blockDim.x);

  uint32v4 dummy = {tid, tid + 1, tid + 2, tid + 3};

  for (size_t i = tid; i < n; i += stride) {
    asm volatile("st.global.wt.v4.u32 [%0], {%1, %2, %3, %4};\n"
                 :
                 : "l"(dst + i), "r"(dummy.x), "r"(dummy.y), "r"(dummy.z), "r"(dummy.w));
  }
}
