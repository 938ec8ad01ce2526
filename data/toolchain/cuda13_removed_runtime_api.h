// Declarations of the CUDA runtime API that CUDA 13 (and, for texture references, CUDA 12) removed, for compiling older programs'
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

#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000 && defined(__cplusplus)

// Texture references, which CUDA 12.0 removed (release notes: the texture and surface reference
// APIs; the runtime API's "Texture Reference Management [DEPRECATED]" section names the
// functions). A file-scope `texture<float, 1> tex;` and the host calls that bind it compile again,
// to nothing: the functions accept anything and return cudaErrorNotSupported. No fetch function
// takes this texture<>, so a kernel that reads a texture reference still fails to compile (teg
// does not emulate texture references; it runs texture objects).
struct textureReference {
  int normalized = 0;
  enum cudaTextureFilterMode filterMode = cudaFilterModePoint;
  enum cudaTextureAddressMode addressMode[3] = {cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp};
  struct cudaChannelFormatDesc channelDesc = {};
  int sRGB = 0;
  unsigned int maxAnisotropy = 0;
  enum cudaTextureFilterMode mipmapFilterMode = cudaFilterModePoint;
  float mipmapLevelBias = 0, minMipmapLevelClamp = 0, maxMipmapLevelClamp = 0;
  int disableTrilinearOptimization = 0;
};
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : textureReference {
  texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
          enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
  }
  texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
          struct cudaChannelFormatDesc desc)
      : texture(norm, fMode, aMode) {
    channelDesc = desc;
  }
};
#define TEG_REMOVED_TEXTURE_FUNCTION(name) \
  template <class... Args> static inline cudaError_t name(Args&&...) { return cudaErrorNotSupported; }
TEG_REMOVED_TEXTURE_FUNCTION(cudaBindTexture)
TEG_REMOVED_TEXTURE_FUNCTION(cudaBindTexture2D)
TEG_REMOVED_TEXTURE_FUNCTION(cudaBindTextureToArray)
TEG_REMOVED_TEXTURE_FUNCTION(cudaBindTextureToMipmappedArray)
TEG_REMOVED_TEXTURE_FUNCTION(cudaUnbindTexture)
TEG_REMOVED_TEXTURE_FUNCTION(cudaGetTextureAlignmentOffset)
TEG_REMOVED_TEXTURE_FUNCTION(cudaGetTextureReference)
#undef TEG_REMOVED_TEXTURE_FUNCTION

#endif

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
