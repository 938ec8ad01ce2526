// Pointer chases, as the latency rows of data/validation/memory_latency.csv were measured (Jia et
// al. 2019, gpu-benches gpu-latency, Luo et al. 2024): one thread follows a chain of loads, each
// load's address being the previous load's result, so the time per step is the load-to-use
// latency of wherever the chain's data lives. `steps` loads are timed between two clock reads.
//
// pointerChase: a ring of pointers, one per 128-byte line, built by the same thread. The footprint
// picks the level: lines x 128 B that fit the L1 -> one warm-up pass, then L1 hits; more than the
// L1 but less than the L2 -> one warm-up pass, then L1 misses that hit the L2.
//
// coldChase: DRAM. A never-written (zero) buffer, one line per step 4 KiB apart: the next address
// is the current one plus 4096 plus the loaded value (0), so every load depends on the previous
// one and misses every cache (nothing was ever brought in). The 64-bit add is in the chain (a few
// cycles of a 400-600-cycle step).
__global__ void pointerChase(unsigned long long* ring, int lines, int warmPasses, int steps, unsigned long long* sink) {
  const int stride = 128 / sizeof(unsigned long long);
  for (int i = 0; i < lines; ++i)
    ring[i * stride] = reinterpret_cast<unsigned long long>(ring + ((i + 1) % lines) * stride);
  const unsigned long long* p = ring;
  for (int k = 0; k < warmPasses * lines; ++k) p = reinterpret_cast<const unsigned long long*>(__ldca(p));
  const long long start = clock64();
  for (int k = 0; k < steps; ++k) p = reinterpret_cast<const unsigned long long*>(__ldca(p));
  const long long end = clock64();
  sink[0] = reinterpret_cast<unsigned long long>(p);
  sink[1] = static_cast<unsigned long long>(end - start);
}

__global__ void coldChase(const unsigned long long* zeros, int steps, unsigned long long* sink) {
  const char* p = reinterpret_cast<const char*>(zeros);
  const long long start = clock64();
  for (int k = 0; k < steps; ++k) p += 4096 + __ldca(reinterpret_cast<const unsigned long long*>(p));
  const long long end = clock64();
  sink[0] = reinterpret_cast<unsigned long long>(p);
  sink[1] = static_cast<unsigned long long>(end - start);
}
