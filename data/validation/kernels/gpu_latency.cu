// gpu-benches gpu-latency (te42kyfo/gpu-benches@1c36d509ee717dca9215c27135fa1e611bb03ed1,
// gpu-latency/main.cu, D. Ernst), the program behind pointer_chase_curves.csv, as it was run:
// one block of 64 threads (pchase<<<1, 64>>>); every thread follows the same chain of 8-byte
// pointers, one pointer per 64-byte segment (skip_factor 8, cl_size 1), linked in one random
// cycle through the buffer (the host shuffles the order of segments 1..LEN-1 and closes the cycle
// at segment 0; here the launch file's {"pointer_cycle": {"stride": 64}} initialiser does the
// same). The chase loop is main.cu's: `idx = (int64_t *)*idx`, unrolled 32 times inside a
// `#pragma unroll 1` loop, the end pointer stored only by a thread that does not exist.
//
// What differs, and why the per-load cycles are still what was measured:
//  - main.cu times a second launch of >= 10^6 loads with a host clock after an untimed launch of
//    the same loads (best of 7), and divides by the loads. Here the untimed launch is a first
//    loop over the whole cycle (`len` loads: every line visited once, so the L1 and L2 hold what
//    they would after the untimed launch) and the timed loads are bracketed by clock64() reads;
//    their count (`steps`) is scaled down from 10^6 (a steady state needs far fewer).
//  - the clock reads' values are stored where the end pointer is (never), so they stay in the
//    kernel and add nothing to the chain.
#include <cstdint>

__global__ void pchase(int64_t *buf, int64_t *__restrict__ dummy_buf, int64_t len, int64_t steps) {
  int tidx = threadIdx.x + blockIdx.x * blockDim.x;
  int64_t *idx = buf;

  const int unroll_factor = 32;
  // The untimed launch: once around the cycle.
#pragma unroll 1
  for (int64_t n = 0; n < len; n += unroll_factor) {
#pragma unroll
    for (int u = 0; u < unroll_factor; u++) {
      idx = (int64_t *)*idx;
    }
  }
  const long long start = clock64();
#pragma unroll 1
  for (int64_t n = 0; n < steps; n += unroll_factor) {
#pragma unroll
    for (int u = 0; u < unroll_factor; u++) {
      idx = (int64_t *)*idx;
    }
  }
  const long long end = clock64();

  if (tidx > 12313) {
    dummy_buf[0] = (int64_t)idx;
    dummy_buf[1] = end - start;
  }
}
