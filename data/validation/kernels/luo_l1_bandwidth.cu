// Luo et al. 2024's L1 throughput programs (arXiv:2402.13499 Table V; the authors' code is
// HPMLL/NVIDIA-Hopper-Benchmark@ded6f57, RegularUnits/l1_bw_32f/l1_bw_32f.cu and
// RegularUnits/l1_bw_128/l1_bw_128.cu, "a modification of" Jia et al. 2018's Volta benchmark),
// written again here with the same launch, access pattern, instructions and timing:
// - one block of 1024 threads (the whole program runs on one SM);
// - a warm-up pass that loads the 16384-float (64 KiB) buffer once with ld.global.ca, then
//   bar.sync and a %clock read;
// - fp32: 256 repetitions of four ld.global.ca.f32 at byte offsets 0, 128, 256 and 384 from
//   posArray + ((tid + j * 128) % 16384), each added into its own accumulator;
//   fp32.v4: 4096 repetitions of one ld.global.ca.v4.f32 at posArray + ((tid * 4 + j * 128) % 16384),
//   its four floats added into four accumulators;
// - bar.sync, a second %clock read; the accumulators are stored.
// The program prints bytes / (thread 0's stop clock - start clock): fp32 256 x 1024 x 4 x 4 bytes,
// fp32.v4 4096 x 1024 x 4 x 4 bytes. The loads and adds of one repetition sit in one volatile asm
// statement with a memory clobber, as in the original, so the compiler keeps the repetitions in
// program order. The fp32 loop reads up to 384 bytes past the buffer, as the original does.
#include <cstdint>

constexpr unsigned kThreads = 1024;  // THREADS_PER_BLOCK: one block, one SM
constexpr unsigned kWarp = 32;
constexpr unsigned kFloats = 16384;  // ARRAY_SIZE: 64 KiB of floats, held by the L1 of every GPU timed
constexpr unsigned kRepeatFp32 = 256;
constexpr unsigned kRepeatFp32V4 = 4096;

__global__ void luoL1Fp32(uint32_t* startClk, uint32_t* stopClk, float* dsink, float* posArray) {
  const uint32_t tid = threadIdx.x;
  const uint32_t uid = blockIdx.x * blockDim.x + tid;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (uint32_t i = tid; i < kFloats; i += kThreads) {  // warm the L1: every float once
    const float* p = posArray + i;
    asm volatile("{\n\t.reg .f32 v;\n\tld.global.ca.f32 v, [%1];\n\tadd.f32 %0, v, %0;\n\t}"
                 : "+f"(s0) : "l"(p) : "memory");
  }
  asm volatile("bar.sync 0;");
  uint32_t start = 0;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(start)::"memory");
  for (uint32_t j = 0; j < kRepeatFp32; j++) {
    const float* p = posArray + ((tid + j * kWarp * 4) % kFloats);
    asm volatile(
        "{\n\t.reg .f32 v<4>;\n\t"
        "ld.global.ca.f32 v0, [%4+0];\n\t"
        "ld.global.ca.f32 v1, [%4+128];\n\t"
        "ld.global.ca.f32 v2, [%4+256];\n\t"
        "ld.global.ca.f32 v3, [%4+384];\n\t"
        "add.f32 %0, v0, %0;\n\t"
        "add.f32 %1, v1, %1;\n\t"
        "add.f32 %2, v2, %2;\n\t"
        "add.f32 %3, v3, %3;\n\t}"
        : "+f"(s0), "+f"(s1), "+f"(s2), "+f"(s3)
        : "l"(p)
        : "memory");
  }
  asm volatile("bar.sync 0;");
  uint32_t stop = 0;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(stop)::"memory");
  startClk[uid] = start;
  stopClk[uid] = stop;
  dsink[uid] = s0 + s1 + s2 + s3;
}

__global__ void luoL1Fp32V4(uint32_t* startClk, uint32_t* stopClk, float* dsink, float* posArray) {
  const uint32_t tid = threadIdx.x;
  const uint32_t uid = blockIdx.x * blockDim.x + tid;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (uint32_t i = tid * 4; i < kFloats; i += kThreads * 4) {  // warm the L1: every float once
    const float* p = posArray + i;
    asm volatile(
        "{\n\t.reg .f32 v<4>;\n\t"
        "ld.global.ca.v4.f32 {v0,v1,v2,v3}, [%4];\n\t"
        "add.f32 %0, v0, %0;\n\tadd.f32 %1, v1, %1;\n\tadd.f32 %2, v2, %2;\n\tadd.f32 %3, v3, %3;\n\t}"
        : "+f"(s0), "+f"(s1), "+f"(s2), "+f"(s3)
        : "l"(p)
        : "memory");
  }
  asm volatile("bar.sync 0;");
  uint32_t start = 0;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(start)::"memory");
  for (uint32_t j = 0; j < kRepeatFp32V4; j++) {
    const float* p = posArray + ((tid * 4 + j * kWarp * 4) % kFloats);
    asm volatile(
        "{\n\t.reg .f32 v<4>;\n\t"
        "ld.global.ca.v4.f32 {v0,v1,v2,v3}, [%4];\n\t"
        "add.f32 %0, v0, %0;\n\tadd.f32 %1, v1, %1;\n\tadd.f32 %2, v2, %2;\n\tadd.f32 %3, v3, %3;\n\t}"
        : "+f"(s0), "+f"(s1), "+f"(s2), "+f"(s3)
        : "l"(p)
        : "memory");
  }
  asm volatile("bar.sync 0;");
  uint32_t stop = 0;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(stop)::"memory");
  startClk[uid] = start;
  stopClk[uid] = stop;
  dsink[uid] = s0 + s1 + s2 + s3;
}
