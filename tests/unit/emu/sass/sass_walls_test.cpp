// SASS the emulator used to stop on (issue 26 point 3, docs/public-kernels.md "walls"), each run
// on every architecture against an expectation computed here and against the PTX emulator:
//
// - FMUL.D2 / .D4 / .M4 / .M8 (`(a * b) * 0.5f` folded into one instruction by ptxas at the
//   default -O3): the expectation is the host's IEEE float arithmetic of the source expression
//   (two roundings), including products whose scaling is subnormal or overflows.
// - cp.async and mbarriers on sm_80-89 (LDGSTS with and without .ZFILL, .BYPASS.128, LDGDEPBAR,
//   DEPBAR, ARRIVES.LDGSTSBAR, ATOMS.ARRIVE, the mbarrier word tested with LDS + LOP3): the
//   expectation is the copy the PTX ISA defines (src-size bytes, the rest zero), computed here.
// - __device__ variables: the SASS reads their addresses from constant bank 4, which the driver
//   fills from the cubin's relocations; teg does the same, so the kernel's atomics, stores and
//   initialised reads reach the variables (checked by value and against the PTX run).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"
#include "teg/sass/describe.hpp"

namespace teg::emu::sasstest {
namespace {

class SassWalls : public ::testing::TestWithParam<const char*> {};

// ---------------------------------------------------------------------------------------------
const char* const kScaledMultiply = R"(
__global__ void scaled(const float* a, const float* b, float* o) {
  const int i = threadIdx.x;  // a and b are read again after each store (o may alias them)
  o[4 * i + 0] = (a[i] * b[i]) * 0.5f;   // FMUL.D2
  o[4 * i + 1] = (a[i] * b[i]) * 4.0f;   // FMUL.M4
  o[4 * i + 2] = (a[i] * b[i]) * 0.25f;  // FMUL.D4
  o[4 * i + 3] = (a[i] * b[i]) * 8.0f;   // FMUL.M8
}
)";

TEST_P(SassWalls, MultiplyByAPowerOfTwoModifiersRoundTheProductThenTheScaling) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_walls_scaled", kScaledMultiply, GetParam());
  bool folded = false;
  for (const auto& f : c.sass.functions)
    for (const auto& in : f.instructions)
      folded |= in.opcode == "FMUL" && (in.hasModifier("D2") || in.hasModifier("M8"));
  EXPECT_TRUE(folded) << "ptxas no longer folds the scaling into FMUL on " << GetParam();
  const float minNormal = std::numeric_limits<float>::min();
  const float big = std::numeric_limits<float>::max() / 2;
  // Normal products, a product whose halving is subnormal and inexact (1 + 2^-23 times the
  // smallest normal: the halving rounds to even), one whose scaling by 8 overflows, a subnormal
  // product, NaN and infinity operands, signed zeros.
  std::vector<float> a = {1.5f, -3.25f, (1 + 0x1p-23f) * minNormal, big, 0x1p-140f, NAN, INFINITY, -0.0f, 7.0f};
  std::vector<float> b = {2.0f, 0.1f, 1.0f, 1.5f, 0.75f, 1.0f, -2.0f, 5.0f, -0.0f};
  while (a.size() < 32) {
    a.push_back(static_cast<float>(a.size()) * 0.37f - 3.0f);
    b.push_back(1.0f / static_cast<float>(a.size()));
  }
  LaunchDescription l;
  l.kernel = "scaled";
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.args = {buffer("a", ScalarType::F32, 32), buffer("b", ScalarType::F32, 32), buffer("o", ScalarType::F32, 128)};
  Emulator sass(c.ptx, l), ptx(c.ptx, l);
  for (Emulator* e : {&sass, &ptx}) {
    std::memcpy(e->mutableBuffer("a").data(), a.data(), 32 * sizeof(float));
    std::memcpy(e->mutableBuffer("b").data(), b.data(), 32 * sizeof(float));
  }
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  sass.run();
  ptx.run();
  const auto got = contents<float>(sass, "o");
  const float scales[] = {0.5f, 4.0f, 0.25f, 8.0f};
  for (int i = 0; i < 32; ++i)
    for (int k = 0; k < 4; ++k) {
      volatile float product = a[i] * b[i];  // volatile: the host rounds the product first
      const float want = product * scales[k];
      const float have = got[4 * i + k];
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(have)) << i << " " << k;
      else EXPECT_EQ(std::bit_cast<std::uint32_t>(have), std::bit_cast<std::uint32_t>(want))
          << "lane " << i << " scale " << scales[k] << ": " << have << " vs " << want;
    }
  EXPECT_EQ(firstDifference(sass.buffer("o"), ptx.buffer("o")), -1);
}

// ---------------------------------------------------------------------------------------------
const char* const kAsyncCopy = R"(
#include <cuda_pipeline.h>
__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
__global__ void asyncCopy(const float* in, const float4* in4, float* out, float4* out4, int n, unsigned* done) {
  __shared__ float s[256];
  __shared__ float4 s4[256];
  __shared__ __align__(8) unsigned long long bar;
  const int t = threadIdx.x;
  const unsigned sz = t < n ? 4u : (t & 1) ? 2u : 0u;  // cp.async src-size: 4, 2 (half zero-filled), 0
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(smem(&s[t])), "l"(in + t), "r"(sz) : "memory");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem(&s4[t])), "l"(in4 + t) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  out[t] = s[t] * 2.0f;
  out4[t] = make_float4(s4[t].x + 1, s4[t].y + 1, s4[t].z + 1, s4[t].w + 1);
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&bar)), "r"((unsigned)blockDim.x) : "memory");
  __syncthreads();
  for (int round = 0; round < 3; ++round) {  // three phases: parity 0, 1, 0
    s[t] = 0;
    __syncthreads();
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem(&s[(t + round) & 255])), "l"(in + t) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(smem(&bar)) : "memory");
    unsigned ok = 0;
    while (!ok)
      asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok) : "r"(smem(&bar)), "r"(round & 1) : "memory");
    out[256 * (round + 1) + t] = s[t];
    __syncthreads();
  }
  unsigned long long state;  // a fourth phase through mbarrier.arrive and its state token
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem(&bar)) : "memory");
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(smem(&bar)), "l"(state) : "memory");
  done[t] = ok;
}
)";

const char* const kDeviceVariables = R"(
__device__ unsigned counter;
__device__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__device__ int other[3];
__global__ void deviceVariables(float* out, unsigned* ticket) {
  ticket[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(&counter, 1u);
  if (threadIdx.x < 3) other[threadIdx.x] = 5 + threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x & 3];
}
)";

TEST_P(SassWalls, DeviceVariablesAreReachedThroughConstantBankFour) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_walls_device_vars", kDeviceVariables, GetParam());
  LaunchDescription l;
  l.kernel = "deviceVariables";
  l.grid = {3, 1, 1};
  l.block = {64, 1, 1};
  l.args = {buffer("out", ScalarType::F32, 192), buffer("ticket", ScalarType::U32, 192)};
  Emulator sass(c.ptx, l), ptx(c.ptx, l);
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  sass.run();
  ptx.run();
  // Every thread took one ticket: 0..191, each once; the counter ends at 192.
  auto tickets = contents<std::uint32_t>(sass, "ticket");
  std::sort(tickets.begin(), tickets.end());
  for (std::uint32_t i = 0; i < 192; ++i) EXPECT_EQ(tickets[i], i);
  std::uint32_t counter = 0;
  std::memcpy(&counter, sass.symbol("counter").data(), 4);
  EXPECT_EQ(counter, 192u);
  const auto out = contents<float>(sass, "out");
  for (int t = 0; t < 192; ++t) EXPECT_EQ(out[t], 1.5f + static_cast<float>(t & 3)) << t;
  std::int32_t other[3];
  std::memcpy(other, sass.symbol("other").data(), 12);
  EXPECT_EQ(other[0], 5);
  EXPECT_EQ(other[1], 6);
  EXPECT_EQ(other[2], 7);
  EXPECT_EQ(firstDifference(sass.buffer("out"), ptx.buffer("out")), -1);
  EXPECT_EQ(firstDifference(sass.symbol("other"), ptx.symbol("other")), -1);
}

class SassAsync : public ::testing::TestWithParam<const char*> {};

TEST_P(SassAsync, CpAsyncAndMbarrierPhasesGiveTheCopiesThePtxIsaDefines) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_walls_async", kAsyncCopy, GetParam());
  const int n = 200;
  LaunchDescription l;
  l.kernel = "asyncCopy";
  l.grid = {2, 1, 1};
  l.block = {256, 1, 1};
  l.args = {buffer("in", ScalarType::F32, 256, RandomInit{7, -4, 4}),
            buffer("in4", ScalarType::F32, 1024, RandomInit{8, -4, 4}),
            buffer("out", ScalarType::F32, 1024),
            buffer("out4", ScalarType::F32, 1024),
            LaunchArg{"n", ScalarArg{ScalarType::I32, std::int64_t{n}}},
            buffer("done", ScalarType::U32, 256)};
  Emulator sass(c.ptx, l), ptx(c.ptx, l);
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  sass.run();
  ptx.run();
  const auto in = contents<float>(sass, "in");
  const auto in4 = contents<float>(sass, "in4");
  const auto out = contents<float>(sass, "out");
  const auto out4 = contents<float>(sass, "out4");
  for (int t = 0; t < 256; ++t) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(in[t]);
    const float copied = t < n ? in[t] : (t & 1) ? std::bit_cast<float>(bits & 0xffffu) : 0.0f;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(out[t]), std::bit_cast<std::uint32_t>(copied * 2.0f)) << "thread " << t;
    for (int k = 0; k < 4; ++k) EXPECT_EQ(out4[4 * t + k], in4[4 * t + k] + 1) << "thread " << t;
    for (int r = 0; r < 3; ++r) EXPECT_EQ(out[256 * (r + 1) + t], in[(t - r) & 255]) << "round " << r << " thread " << t;
  }
  for (std::uint32_t d : contents<std::uint32_t>(sass, "done")) EXPECT_EQ(d, 1u);
  for (const char* b : {"out", "out4", "done"}) EXPECT_EQ(firstDifference(sass.buffer(b), ptx.buffer(b)), -1) << b;
}

// The trace describes the copies as the PTX path does (emu/instruction_table.cpp): a global load
// of the copy's bytes into shared memory (cp.async.cg / .BYPASS past L1), the mbarrier arrive an
// 8-byte shared store; and the waits wait for them: each LDGSTS sets the barrier its LDGDEPBAR
// sets, DEPBAR.LE SBk waits for barrier k, ARRIVES for the copies' barrier.
TEST_P(SassAsync, TheTraceDescribesCopiesAsThePtxPathDoesAndTheWaitsWaitForThem) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_walls_async", kAsyncCopy, GetParam());
  const sass::Function* f = nullptr;
  for (const auto& fn : c.sass.functions)
    if (fn.name.find("asyncCopy") != std::string::npos) f = &fn;
  ASSERT_NE(f, nullptr);
  const trace::KernelInfo sassInfo = sass::describeKernel(c.sass, *f);
  const trace::KernelInfo ptxInfo = describeKernel(c.ptx, c.ptx.functions[0]);
  std::vector<const trace::StaticInstruction*> ptxCopies, sassCopies;
  for (const auto& s : ptxInfo.instructions)
    if (s.text.rfind("cp.async.ca.", 0) == 0 || s.text.rfind("cp.async.cg.", 0) == 0) ptxCopies.push_back(&s);
  int copyBarrier = -1, depbarWait = 0, arrivesWait = 0, arrives = 0;
  for (const auto& s : sassInfo.instructions) {
    if (s.text.rfind("LDGSTS", 0) == 0) {
      sassCopies.push_back(&s);
      EXPECT_GE(s.control.writeBarrier, 0) << s.text;
      if (copyBarrier < 0) copyBarrier = s.control.writeBarrier;
    }
    if (s.text.rfind("DEPBAR.LE", 0) == 0) depbarWait |= s.control.waitMask;
    if (s.text.rfind("ARRIVES", 0) == 0) {
      ++arrives;
      arrivesWait |= s.control.waitMask;
      EXPECT_EQ(s.kind, trace::InstrKind::Store);
      EXPECT_EQ(s.space, trace::MemorySpace::Shared);
      EXPECT_EQ(s.accessBytes, 8);
    }
  }
  ASSERT_EQ(sassCopies.size(), 5u);  // 2 before the commit, one per round (3, unrolled)
  ASSERT_EQ(ptxCopies.size(), 5u);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(sassCopies[k]->kind, ptxCopies[k]->kind);
    EXPECT_EQ(sassCopies[k]->space, ptxCopies[k]->space);
    EXPECT_EQ(sassCopies[k]->accessBytes, ptxCopies[k]->accessBytes) << sassCopies[k]->text;
    EXPECT_EQ(sassCopies[k]->cache, ptxCopies[k]->cache) << sassCopies[k]->text;
  }
  EXPECT_EQ(sassCopies[1]->cache, trace::CachePolicy::BypassL1);
  EXPECT_TRUE(depbarWait & (1 << copyBarrier));
  EXPECT_EQ(arrives, 3);
  EXPECT_NE(arrivesWait, 0);
}

// cp.async.bulk completing transaction bytes on an mbarrier (sm_90+: mbarrier.arrive.expect_tx,
// UBLKCP, SYNCS.PHASECHK.TRANS64.TRYWAIT): 1 KiB copied by one thread, read by all after the wait.
const char* const kBulkCopy = R"(
__global__ void bulk(const float4* in, float4* out) {
  __shared__ __align__(16) float4 s[64];
  __shared__ __align__(8) unsigned long long bar;
  unsigned sb = (unsigned)__cvta_generic_to_shared(&bar), ss = (unsigned)__cvta_generic_to_shared(s);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(sb));
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 1024;" :: "r"(sb));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                 :: "r"(ss), "l"(in), "r"(sb) : "memory");
  }
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(sb) : "memory");
  out[threadIdx.x] = s[threadIdx.x];
}
)";

class SassBulk : public ::testing::TestWithParam<const char*> {};

TEST_P(SassBulk, ABulkCopyCompletesItsBytesOnTheMbarrier) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_walls_bulk", kBulkCopy, GetParam());
  LaunchDescription l;
  l.kernel = "bulk";
  l.grid = {2, 1, 1};
  l.block = {64, 1, 1};
  l.args = {buffer("in", ScalarType::F32, 256, RandomInit{3, -2, 2}), buffer("out", ScalarType::F32, 256)};
  Emulator sass(c.ptx, l), ptx(c.ptx, l);
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  sass.run();
  ptx.run();
  EXPECT_EQ(firstDifference(sass.buffer("out"), sass.buffer("in")), -1);
  EXPECT_EQ(firstDifference(sass.buffer("out"), ptx.buffer("out")), -1);
}

INSTANTIATE_TEST_SUITE_P(Archs, SassBulk, ::testing::Values("sm_90", "sm_100", "sm_120"),
                         [](const auto& info) { return std::string(info.param); });

INSTANTIATE_TEST_SUITE_P(Archs, SassAsync, ::testing::Values("sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"),
                         [](const auto& info) { return std::string(info.param); });

INSTANTIATE_TEST_SUITE_P(Archs, SassWalls, ::testing::ValuesIn(kArchs),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace teg::emu::sasstest
