// Dependent chains of one instruction each, compiled for every architecture CUDA 13 targets
// (scripts/regen-sass-inputs.sh): ptxas spaces a fixed-latency producer and its first consumer
// by the instruction's latency (the stall counts of the control words between them), because the
// hardware does not interlock fixed-latency results (Jia et al. 2018, arXiv:1804.06826).
// tests/unit/sass/ptxas_latency_test.cpp reads that spacing and checks the device figures
// sourced from it (data/devices/README.md, "ptxas-stall").
#include <cuda_fp16.h>

extern "C" __global__ void sad_chain(unsigned* p, int n) {
  unsigned a = p[0], b = p[1], c = p[2];
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    c = __sad(a, c, b); c = __sad(a, c, b); c = __sad(a, c, b); c = __sad(a, c, b);
    c = __sad(a, c, b); c = __sad(a, c, b); c = __sad(a, c, b); c = __sad(a, c, b);
  }
  p[3] = c;
}

extern "C" __global__ void ffma_chain(float* p, int n) {
  float a = p[0], b = p[1], c = p[2];
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    c = fmaf(a, c, b); c = fmaf(a, c, b); c = fmaf(a, c, b); c = fmaf(a, c, b);
    c = fmaf(a, c, b); c = fmaf(a, c, b); c = fmaf(a, c, b); c = fmaf(a, c, b);
  }
  p[3] = c;
}

extern "C" __global__ void hfma2_chain(__half2* p, int n) {
  __half2 a = p[0], b = p[1], c = p[2];
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    c = __hfma2(a, c, b); c = __hfma2(a, c, b); c = __hfma2(a, c, b); c = __hfma2(a, c, b);
    c = __hfma2(a, c, b); c = __hfma2(a, c, b); c = __hfma2(a, c, b); c = __hfma2(a, c, b);
  }
  p[3] = c;
}
