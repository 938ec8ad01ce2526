// Declarations of the CUDA runtime API that CUDA 13 removed, for compiling older programs'
// HOST code only. teg runs a file's kernels, never its host code, but nvcc's front end checks
// the whole file, so a Rodinia-era `cudaThreadSynchronize()` or `prop.clockRate` in main()
// stops the compile of kernels that are fine. teg retries such a compile with this header
// pre-included (nvcc --pre-include) and says so.
//
// Sources: the CUDA 13.0 release notes ("Deprecated or Dropped Features": the cudaThread* API,
// deprecated since CUDA 4.0 in favour of cudaDevice*, and the cudaDeviceProp fields replaced by
// cudaDeviceGetAttribute); the field and function names are the CUDA 12.x headers'
// (driver_types.h, cuda_runtime_api.h).
//
// The functions forward to their documented replacements. The struct fields are zero: host code
// compiled with this header is never run by teg.
#pragma once
#include <cuda_runtime.h>

#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000 && defined(__cplusplus)

static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
static inline cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value) { return cudaDeviceSetLimit(limit, value); }
static inline cudaError_t cudaThreadGetLimit(size_t* value, enum cudaLimit limit) { return cudaDeviceGetLimit(value, limit); }
static inline cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache* config) { return cudaDeviceGetCacheConfig(config); }
static inline cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config) { return cudaDeviceSetCacheConfig(config); }

// cudaDeviceProp with the fields CUDA 13 dropped. It derives from the real struct, so
// `cudaGetDeviceProperties(&prop, dev)` still takes its address.
struct tegCuda12DeviceProp : cudaDeviceProp {
  int clockRate = 0;
  int deviceOverlap = 0;
  int kernelExecTimeoutEnabled = 0;
  int computeMode = 0;
  int maxTexture1DLinear = 0;
  int memoryClockRate = 0;
  int cooperativeMultiDeviceLaunch = 0;
  int singleToDoublePrecisionPerfRatio = 0;
};
#define cudaDeviceProp tegCuda12DeviceProp

#endif
