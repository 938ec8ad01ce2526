// The SASS emulator against hand calculations, one family of instructions at a time: tiny CUDA
// kernels compiled for every architecture (sm_75 ... sm_120), run on the SASS emulator, each
// result checked against the expected value computed here from the definition of the operation
// (the LOP3 truth table a^b^c = 0x96, carries of a 64-bit add, arithmetic shifts, byte permutes,
// butterfly shuffles, votes, atomics...). The probe also re-derives data/toolchain/
// sass_constant_bank.json: blockDim, gridDim, a parameter, the stack pointer (a local array) and
// dynamic shared memory must read back what the launch gave.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::sasstest {
namespace {

LaunchArg i32(const std::string& name, std::int64_t v) { return LaunchArg{name, ScalarArg{ScalarType::I32, v}}; }

// ---------------------------------------------------------------------------------------------
const char* const kProbe = R"(
extern __shared__ int dyn[];
__global__ void probe(int* out, int a) {
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int* o = out + 16 * (b * blockDim.x * blockDim.y * blockDim.z + t);
  o[0] = blockDim.x; o[1] = blockDim.y; o[2] = blockDim.z;
  o[3] = gridDim.x; o[4] = gridDim.y; o[5] = gridDim.z;
  o[6] = a;
  int local[64];
  for (int i = 0; i < 64; ++i) local[i] = a * i + t;
  o[7] = local[(a + t) & 63];
  dyn[t] = a + t;
  __syncthreads();
  o[8] = dyn[(t + 1) & 15];  // 16 threads (a power of two: no division, which needs float ops)
  o[9] = threadIdx.x; o[10] = threadIdx.y; o[11] = threadIdx.z;
  o[12] = blockIdx.x; o[13] = blockIdx.y; o[14] = blockIdx.z;
}
)";

class SassArch : public ::testing::TestWithParam<const char*> {};

TEST_P(SassArch, ConstantBankLayoutReadsBackTheLaunch) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_probe", kProbe, GetParam());
  const Dim3 grid{3, 2, 2}, block{4, 2, 2};
  const int threads = 16, blocks = 12, a = 37;
  LaunchDescription l;
  l.kernel = "probe";
  l.grid = grid;
  l.block = block;
  l.dynamicSmem = threads * 4;
  l.args = {buffer("out", ScalarType::I32, 16ull * threads * blocks), i32("a", a)};
  Emulator e(c.ptx, l);
  e.selectSass(c.sass, c.smVersion, c.cubin);
  e.run();
  const auto out = contents<std::int32_t>(e, "out");
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      const std::int32_t* o = out.data() + 16 * (b * threads + t);
      SCOPED_TRACE(testing::Message() << "block " << b << " thread " << t);
      EXPECT_EQ(o[0], 4);
      EXPECT_EQ(o[1], 2);
      EXPECT_EQ(o[2], 2);
      EXPECT_EQ(o[3], 3);
      EXPECT_EQ(o[4], 2);
      EXPECT_EQ(o[5], 2);
      EXPECT_EQ(o[6], a);
      EXPECT_EQ(o[7], a * ((a + t) & 63) + t);
      EXPECT_EQ(o[8], a + (t + 1) % threads);
      EXPECT_EQ(o[9], t % 4);
      EXPECT_EQ(o[10], (t / 4) % 2);
      EXPECT_EQ(o[11], t / 8);
      EXPECT_EQ(o[12], b % 3);
      EXPECT_EQ(o[13], (b / 3) % 2);
      EXPECT_EQ(o[14], b / 6);
    }
}

// ---------------------------------------------------------------------------------------------
const char* const kIntegerOps = R"(
__global__ void intops(const unsigned* in, unsigned* out, unsigned long long* out64) {
  const int t = threadIdx.x;
  const unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
  unsigned* o = out + 16 * t;
  o[0] = a ^ b ^ c;                                  // LOP3.LUT 0x96
  o[1] = (a & b) | (~a & c);                         // LOP3 (select)
  o[2] = (unsigned)((int)a >> (b & 31));             // SHF.R.S32.HI / SHR
  o[3] = a >> (b & 31);
  o[4] = __byte_perm(a, b, c & 0x7777);              // PRMT
  o[5] = __popc(a) + __clz(b) + __brev(c);           // POPC, FLO, BREV
  o[6] = __umulhi(a, b);                             // IMAD.HI.U32
  o[7] = (unsigned)__mulhi((int)a, (int)c);          // IMAD.HI
  o[8] = min((int)a, (int)b) + max(a, c);            // IMNMX
  o[9] = (unsigned)abs((int)b);                      // IABS
  o[10] = __funnelshift_l(a, b, c);                  // SHF.L
  o[11] = __funnelshift_r(a, b, c);                  // SHF.R
  o[12] = ((int)a < (int)b) + 2u * (a < c) + 4u * (b == c); // ISETP, SEL
  o[13] = a * b + c;                                 // IMAD
  o[14] = __ffs(a) + (b & 0xff);
  const unsigned long long x = ((unsigned long long)a << 32) | b, y = ((unsigned long long)c << 32) | a;
  out64[4 * t] = x + y;                              // IADD3 + carry (IADD3.X)
  out64[4 * t + 1] = x - y;                          // the subtraction's borrow
  out64[4 * t + 2] = x * (unsigned long long)c;      // IMAD.WIDE.U32 + IMAD
  out64[4 * t + 3] = (x > y) + 2ull * ((long long)x < (long long)y) + 4ull * (x >> (c & 63)); // ISETP .EX, 64-bit shift
}
)";

std::uint32_t brev(std::uint32_t v) {
  std::uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
std::uint32_t bytePerm(std::uint32_t a, std::uint32_t b, std::uint32_t s) {
  const std::uint64_t v = (std::uint64_t{b} << 32) | a;
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<std::uint32_t>((v >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
  return r;
}

TEST_P(SassArch, IntegerOperationsMatchTheirDefinitions) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_intops", kIntegerOps, GetParam());
  constexpr int kThreads = 64;
  LaunchDescription l;
  l.kernel = "intops";
  l.grid = {1, 1, 1};
  l.block = {kThreads, 1, 1};
  l.args = {buffer("in", ScalarType::U32, 3 * kThreads, RandomInit{7, 0, 4294967295.0}),
            buffer("out", ScalarType::U32, 16 * kThreads), buffer("out64", ScalarType::U64, 4 * kThreads)};
  Emulator e(c.ptx, l);
  e.selectSass(c.sass, c.smVersion, c.cubin);
  e.run();
  const auto in = contents<std::uint32_t>(e, "in");
  const auto out = contents<std::uint32_t>(e, "out");
  const auto out64 = contents<std::uint64_t>(e, "out64");
  for (int t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(testing::Message() << "thread " << t);
    const std::uint32_t a = in[3 * t], b = in[3 * t + 1], cc = in[3 * t + 2];
    const std::uint32_t* o = out.data() + 16 * t;
    EXPECT_EQ(o[0], a ^ b ^ cc);
    EXPECT_EQ(o[1], (a & b) | (~a & cc));
    EXPECT_EQ(o[2], static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> (b & 31)));
    EXPECT_EQ(o[3], a >> (b & 31));
    EXPECT_EQ(o[4], bytePerm(a, b, cc & 0x7777));
    EXPECT_EQ(o[5], static_cast<std::uint32_t>(std::popcount(a) + std::countl_zero(b)) + brev(cc));
    EXPECT_EQ(o[6], static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32));
    EXPECT_EQ(o[7], static_cast<std::uint32_t>((std::int64_t{static_cast<std::int32_t>(a)} * static_cast<std::int32_t>(cc)) >> 32));
    EXPECT_EQ(o[8], static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b))) + std::max(a, cc));
    EXPECT_EQ(o[9], static_cast<std::uint32_t>(static_cast<std::int32_t>(b) < 0 ? 0u - b : b));
    const std::uint64_t ba = (std::uint64_t{b} << 32) | a;
    EXPECT_EQ(o[10], static_cast<std::uint32_t>((ba << (cc & 31)) >> 32));
    EXPECT_EQ(o[11], static_cast<std::uint32_t>(ba >> (cc & 31)));
    EXPECT_EQ(o[12], static_cast<std::uint32_t>((static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b)) + 2 * (a < cc) + 4 * (b == cc)));
    EXPECT_EQ(o[13], a * b + cc);
    EXPECT_EQ(o[14], static_cast<std::uint32_t>(a == 0 ? 0 : std::countr_zero(a) + 1) + (b & 0xffu));
    const std::uint64_t x = (std::uint64_t{a} << 32) | b, y = (std::uint64_t{cc} << 32) | a;
    EXPECT_EQ(out64[4 * t], x + y);
    EXPECT_EQ(out64[4 * t + 1], x - y);
    EXPECT_EQ(out64[4 * t + 2], x * cc);
    EXPECT_EQ(out64[4 * t + 3], static_cast<std::uint64_t>(x > y) + 2ull * (static_cast<std::int64_t>(x) < static_cast<std::int64_t>(y)) + 4ull * (x >> (cc & 63)));
  }
}

// ---------------------------------------------------------------------------------------------
const char* const kWarpOps = R"(
__global__ void warpops(const unsigned* in, unsigned* out, unsigned* counters) {
  const int t = threadIdx.x, lane = t & 31;
  const unsigned v = in[t];
  unsigned* o = out + 8 * t;
  o[0] = __shfl_xor_sync(0xffffffffu, v, 5);           // SHFL.BFLY
  o[1] = __shfl_down_sync(0xffffffffu, v, 3);          // SHFL.DOWN (clamped at the last lane)
  o[2] = __shfl_up_sync(0xffffffffu, v, 2, 16);        // SHFL.UP in 16-lane segments
  o[3] = __shfl_sync(0xffffffffu, v, (lane * 7) & 31); // SHFL.IDX
  o[4] = __ballot_sync(0xffffffffu, v & 1);            // VOTE.ANY R
  o[5] = __all_sync(0xffffffffu, v != 12345u) + 2 * __any_sync(0xffffffffu, (v & 7) == 0);
  o[6] = __match_any_sync(0xffffffffu, v & 3);         // MATCH.ANY
  unsigned sum = v & 0xff;                             // a warp reduction, as reduce_warp_shuffle
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
  o[7] = sum;
  // Divergent atomics: odd lanes add, even lanes take the max; one lane per warp counts.
  if (v & 1) atomicAdd(&counters[0], v & 0xffff);
  else atomicMax(&counters[1], v);
  if (lane == 0) atomicInc(&counters[2], 5u);
  atomicXor(&counters[3], v);
  __shared__ unsigned s[4];
  if (t < 4) s[t] = 0;
  __syncthreads();
  atomicAdd(&s[v & 3], 1u);
  atomicCAS(&counters[4], 0u, 7u);
  __syncthreads();
  if (t < 4) counters[5 + t] = s[t];
}
)";

TEST_P(SassArch, WarpOperationsAndAtomicsMatchTheirDefinitions) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_warpops", kWarpOps, GetParam());
  constexpr int kThreads = 128;
  LaunchDescription l;
  l.kernel = "warpops";
  l.grid = {1, 1, 1};
  l.block = {kThreads, 1, 1};
  l.args = {buffer("in", ScalarType::U32, kThreads, RandomInit{11, 0, 4294967295.0}),
            buffer("out", ScalarType::U32, 8 * kThreads), buffer("counters", ScalarType::U32, 16)};
  Emulator e(c.ptx, l);
  e.selectSass(c.sass, c.smVersion, c.cubin);
  e.run();
  const auto in = contents<std::uint32_t>(e, "in");
  const auto out = contents<std::uint32_t>(e, "out");
  const auto counters = contents<std::uint32_t>(e, "counters");
  std::uint32_t add = 0, mx = 0, x = 0, bins[4] = {0, 0, 0, 0};
  for (int t = 0; t < kThreads; ++t) {
    const int lane = t & 31, w = t - lane;
    const std::uint32_t* o = out.data() + 8 * t;
    auto at = [&](int l) { return in[w + l]; };
    SCOPED_TRACE(testing::Message() << "thread " << t);
    EXPECT_EQ(o[0], at(lane ^ 5));
    EXPECT_EQ(o[1], lane + 3 <= 31 ? at(lane + 3) : at(lane));
    EXPECT_EQ(o[2], (lane & 15) >= 2 ? at(lane - 2) : at(lane));
    EXPECT_EQ(o[3], at((lane * 7) & 31));
    std::uint32_t ballot = 0, match = 0, sumAll = 0;
    bool all = true, any = false;
    for (int l = 0; l < 32; ++l) {
      ballot |= (at(l) & 1u) << l;
      all = all && at(l) != 12345u;
      any = any || (at(l) & 7u) == 0;
      if ((at(l) & 3u) == (at(lane) & 3u)) match |= 1u << l;
    }
    EXPECT_EQ(o[4], ballot);
    EXPECT_EQ(o[5], static_cast<std::uint32_t>(all) + 2u * any);
    EXPECT_EQ(o[6], match);
    // Lane 0 sees the whole warp's sum; the others partial sums of the tree (checked on lane 0).
    for (int l = 0; l < 32; ++l) sumAll += at(l) & 0xffu;
    if (lane == 0) {
      EXPECT_EQ(o[7], sumAll);
    }
    if (in[t] & 1u) add += in[t] & 0xffffu;
    else mx = std::max(mx, in[t]);
    x ^= in[t];
    ++bins[in[t] & 3u];
  }
  EXPECT_EQ(counters[0], add);
  EXPECT_EQ(counters[1], mx);
  EXPECT_EQ(counters[2], 4u);  // atomicInc by 4 warps: 0 1 2 3 -> 4 (wraps only past 5)
  EXPECT_EQ(counters[3], x);
  EXPECT_EQ(counters[4], 7u);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(counters[5 + k], bins[k]) << k;
}

// ---------------------------------------------------------------------------------------------
const char* const kControl = R"(
__device__ __noinline__ int collatz(int n) {
  int steps = 0;
  while (n != 1 && steps < 1000) { n = (n & 1) ? 3 * n + 1 : n / 2; ++steps; }
  return steps;
}
__global__ void control(const int* in, int* out) {
  const int t = threadIdx.x;
  int v = in[t];
  if (v < 0) return;                                  // early EXIT of some lanes
  int r;
  switch (v % 4) {                                    // divergence, BSSY/BSYNC
    case 0: r = collatz(v % 97 + 1); break;           // CALL / RET
    case 1: r = v * 3; break;
    case 2: { r = 0; for (int i = 0; i < (v & 15); ++i) r += i * v; break; }
    default: r = -v;
  }
  __syncwarp();
  out[t] = r + __popc(__activemask());
}
)";

int collatz(int n) {
  int steps = 0;
  while (n != 1 && steps < 1000) { n = (n & 1) ? 3 * n + 1 : n / 2; ++steps; }
  return steps;
}

TEST_P(SassArch, DivergentControlFlowCallsAndEarlyExitsMatchTheirDefinitions) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_control", kControl, GetParam());
  constexpr int kThreads = 96;
  LaunchDescription l;
  l.kernel = "control";
  l.grid = {1, 1, 1};
  l.block = {kThreads, 1, 1};
  l.args = {buffer("in", ScalarType::I32, kThreads, RandomInit{5, -200, 100000}), buffer("out", ScalarType::I32, kThreads)};
  Emulator e(c.ptx, l);
  e.selectSass(c.sass, c.smVersion, c.cubin);
  e.run();
  const auto in = contents<std::int32_t>(e, "in");
  const auto out = contents<std::int32_t>(e, "out");
  for (int t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(testing::Message() << "thread " << t << " input " << in[t]);
    const int v = in[t];
    if (v < 0) {
      EXPECT_EQ(out[t], 0);
      continue;
    }
    int live = 0;
    for (int l = t & ~31; l < (t & ~31) + 32; ++l) live += in[l] >= 0;
    int r;
    switch (v % 4) {
      case 0: r = collatz(v % 97 + 1); break;
      case 1: r = v * 3; break;
      case 2: r = 0; for (int i = 0; i < (v & 15); ++i) r += i * v; break;
      default: r = -v;
    }
    EXPECT_EQ(out[t], r + live);
  }
}

// ---------------------------------------------------------------------------------------------
// The clock: clock64() and clock() around a loop. sm_120's ptxas reads both into uniform
// registers (CS2UR, CS2UR.32), the others with CS2R / S2R. The emulator's clock counts the warp's
// executed instructions (sass_exec.hpp), so a span is positive, the 32-bit span inside the 64-bit
// one is no longer than it, and twice the iterations give a longer span.
const char* const kClock = R"(
__global__ void clocks(long long* out, const int* in, int n) {
  const long long t0 = clock64();
  const unsigned c0 = clock();
  int x = in[threadIdx.x];
  for (int i = 0; i < n; ++i) x = x * 3 + in[(x + i) & 31];
  const unsigned c1 = clock();
  const long long t1 = clock64();
  out[threadIdx.x] = t1 - t0;
  out[32 + threadIdx.x] = c1 - c0;
  out[64 + threadIdx.x] = x;
}
)";

TEST_P(SassArch, ClockReadsCountTheWarpsInstructions) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_clock", kClock, GetParam());
  if (c.smVersion >= 120) {
    bool uniformClock = false;
    for (const auto& f : c.sass.functions)
      for (const auto& in : f.instructions) uniformClock |= in.opcode == "CS2UR";
    EXPECT_TRUE(uniformClock) << "sm_120's ptxas reads the clock with CS2UR";
  }
  std::int64_t span[2] = {0, 0};
  for (int run = 0; run < 2; ++run) {
    const int n = 8 << run;
    LaunchDescription l;
    l.kernel = "clocks";
    l.grid = {1, 1, 1};
    l.block = {32, 1, 1};
    l.args = {buffer("out", ScalarType::I64, 96), buffer("in", ScalarType::I32, 32, RandomInit{9, 0, 1000}),
              i32("n", n)};
    Emulator e(c.ptx, l);
    e.selectSass(c.sass, c.smVersion, c.cubin);
    e.run();
    const auto in = contents<std::int32_t>(e, "in");
    const auto out = contents<std::int64_t>(e, "out");
    for (int t = 0; t < 32; ++t) {
      SCOPED_TRACE(testing::Message() << "n " << n << " thread " << t);
      int x = in[t];
      for (int i = 0; i < n; ++i) x = x * 3 + in[(x + i) & 31];
      EXPECT_EQ(out[64 + t], x);
      EXPECT_GT(out[t], 0);
      EXPECT_GT(out[32 + t], 0);
      EXPECT_LE(out[32 + t], out[t]);
      EXPECT_EQ(out[t], out[0]) << "one warp: one clock";
    }
    span[run] = out[0];
  }
  EXPECT_GT(span[1], span[0]);
}

INSTANTIATE_TEST_SUITE_P(Architectures, SassArch, ::testing::ValuesIn(kArchs),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace teg::emu::sasstest
