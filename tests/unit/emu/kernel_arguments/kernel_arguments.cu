// Kernels that take what real CUDA code passes besides pointers and scalars, written as public
// code writes them: a struct by value, bool parameters and buffers, __constant__ and __device__
// variables filled by the host, and texture objects (tex1Dfetch, tex2D). The tests in
// kernel_arguments_test.cpp run them on the emulator and compare with CPU expectations.

// A parameter block passed by value (the kernel-arguments-as-a-struct idiom): bool at 0, int at 4,
// double at 8, a pointer at 16; 24 bytes, 8-byte aligned.
struct Params {
  bool negate;
  int n;
  double scale;
  const float* x;
};

__global__ void scaleByParams(Params p, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) {
    const float v = static_cast<float>(p.scale) * p.x[i];
    y[i] = p.negate ? -v : v;
  }
}

// A struct inside a struct: {char tag; {short lo; short hi;} range; float* out} = 16 bytes.
struct Range {
  short lo, hi;
};
struct Clip {
  char tag;
  Range range;
  float* out;
};

__global__ void clipToRange(Clip c, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c.out[i] = fminf(fmaxf(in[i], c.range.lo), c.range.hi) + c.tag;
}

// bool parameters and a bool buffer: y[i] = keep[i] ? (flip ? -y[i] : 2 y[i]) : y[i].
__global__ void maskedUpdate(bool flip, const bool* keep, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keep[i]) y[i] = flip ? -y[i] : 2.0f * y[i];
}

// A 1-D FIR filter whose taps the host copies into constant memory (cudaMemcpyToSymbol), and a
// __device__ counter the host presets: out[i] = sum_k taps[k] * in[i + k - 2] (zero outside).
#define TAPS 5
__constant__ float c_taps[TAPS];
__device__ unsigned int d_outputs;

__global__ void firConstant(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < TAPS; ++k) {
    const int j = i + k - TAPS / 2;
    if (j >= 0 && j < n) sum += c_taps[k] * in[j];
  }
  out[i] = sum;
  atomicAdd(&d_outputs, 1u);
}

// A gather through the texture path: out[i] = table[idx[i]] (tex1Dfetch on linear memory).
__global__ void textureGather(cudaTextureObject_t table, const int* idx, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(table, idx[i]);
}

// Bilinear samples of a 2-D texture at given coordinates: out[i] = tex2D(image, uv[i].x, uv[i].y).
__global__ void textureSample2d(cudaTextureObject_t image, const float2* uv, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(image, uv[i].x, uv[i].y);
}

// An 8-bit image read as normalised floats: out[i] = tex2D<float4>(...).x + .w (w = 1 for 1 channel).
__global__ void textureSampleUchar(cudaTextureObject_t image, const float2* uv, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float4 v = tex2D<float4>(image, uv[i].x, uv[i].y);
    out[i] = v.x + v.w;
  }
}

// A texture object inside a parameter struct: out[i] = tex1Dfetch(l.table, i + l.offset).
struct Lookup {
  int offset;
  cudaTextureObject_t table;
};

__global__ void lookupInStruct(Lookup l, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(l.table, i + l.offset);
}

// Simulation parameters in constant memory, as the CUDA samples keep them (`__constant__
// SimParams params;` filled with cudaMemcpyToSymbol): x[i] += dt * v[i] * (damped ? damping : 1).
struct SimParams {
  float dt;
  bool damped;
  float damping;
  float* v;
};
__constant__ SimParams c_sim;

__global__ void integrate(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += c_sim.dt * c_sim.v[i] * (c_sim.damped ? c_sim.damping : 1.0f);
}
