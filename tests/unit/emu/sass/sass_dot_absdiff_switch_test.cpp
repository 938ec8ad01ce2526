// Three SASS forms `--isa auto` used to leave to the PTX because the SASS emulator did not run
// them, each checked on every architecture against values worked out from the definitions
// (CUDA Math API, PTX ISA) and against the PTX emulator, bit for bit:
//
// - IDP.4A / IDP.2A (__dp4a, __dp2a_lo, __dp2a_hi and the mixed-sign dp4a/dp2a of inline PTX):
//   PTX ISA "Integer Arithmetic Instructions: dp4a / dp2a".
// - VABSDIFF4 [.U8] [.ACC] (__vabsdiffu4, __vsadu4, __vabsdiffs4, __vsads4 and vabsdiff4 of
//   inline PTX): per-byte |a - b|, or their sum plus c. sm_120's ptxas builds the same
//   intrinsics from VIMNMX.U8x4 / .S8x4 and VIADD.U8x4 / .S8x4, packed forms the emulator used
//   to run as 32-bit operations.
// - BRX (a dense `switch` with fall-through, jenkins hash's tail): an indirect branch through a
//   jump table in constant bank 2, each lane of the warp taking another case.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::sasstest {
namespace {

bool hasOpcode(const Compiled& c, const std::string& opcode, const std::string& modifier = "") {
  for (const auto& f : c.sass.functions)
    for (const auto& in : f.instructions)
      if (in.opcode == opcode && (modifier.empty() || in.hasModifier(modifier))) return true;
  return false;
}

// Three words of inputs per thread: the hand-worked cases first, then random words.
struct Words {
  std::vector<std::uint32_t> a, b, c;
};
Words inputs(const std::vector<std::array<std::uint32_t, 3>>& hand, std::size_t n, unsigned seed) {
  Words w;
  std::mt19937 rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    const bool byHand = i < hand.size();
    w.a.push_back(byHand ? hand[i][0] : static_cast<std::uint32_t>(rng()));
    w.b.push_back(byHand ? hand[i][1] : static_cast<std::uint32_t>(rng()));
    w.c.push_back(byHand ? hand[i][2] : static_cast<std::uint32_t>(rng()));
  }
  return w;
}

constexpr int kThreads = 256;  // two blocks of 128

// ---------------------------------------------------------------------------------------------
// __dp4a / __dp2a_lo / __dp2a_hi, all four sign combinations of dp4a and two mixed dp2a forms.
const char* const kDot = R"(
__device__ int dp4aUS(int a, int b, int c) { int d; asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ int dp4aSU(int a, int b, int c) { int d; asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ int dp2aLoUS(int a, int b, int c) { int d; asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ int dp2aHiSU(int a, int b, int c) { int d; asm("dp2a.hi.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__global__ void dot(const int* a, const int* b, const int* c, int* o) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int x = a[i], y = b[i], z = c[i];
  const unsigned ux = x, uy = y, uz = z;
  o[10 * i + 0] = __dp4a(x, y, z);
  o[10 * i + 1] = (int)__dp4a(ux, uy, uz);
  o[10 * i + 2] = __dp2a_lo(x, y, z);
  o[10 * i + 3] = __dp2a_hi(x, y, z);
  o[10 * i + 4] = (int)__dp2a_lo(ux, uy, uz);
  o[10 * i + 5] = (int)__dp2a_hi(ux, uy, uz);
  o[10 * i + 6] = dp4aUS(x, y, z);
  o[10 * i + 7] = dp4aSU(x, y, z);
  o[10 * i + 8] = dp2aLoUS(x, y, z);
  o[10 * i + 9] = dp2aHiSU(x, y, z);
}
)";

std::int64_t lane(std::uint32_t v, int index, int bits, bool isSigned) {
  const std::uint32_t e = (v >> (bits * index)) & ((1u << bits) - 1);
  if (!isSigned) return e;
  return e >= (1u << (bits - 1)) ? static_cast<std::int64_t>(e) - (std::int64_t{1} << bits) : e;
}
// CUDA Math API __dp4a: "four-way byte dot product-accumulate", a's bytes times b's plus c.
std::uint32_t dp4a(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool aSigned, bool bSigned) {
  std::int64_t sum = static_cast<std::int32_t>(c);
  for (int k = 0; k < 4; ++k) sum += lane(a, k, 8, aSigned) * lane(b, k, 8, bSigned);
  return static_cast<std::uint32_t>(sum);
}
// __dp2a_lo / __dp2a_hi: a's two half-words times b's bytes 0, 1 (lo) or 2, 3 (hi), plus c.
std::uint32_t dp2a(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool high, bool aSigned, bool bSigned) {
  std::int64_t sum = static_cast<std::int32_t>(c);
  for (int k = 0; k < 2; ++k) sum += lane(a, k, 16, aSigned) * lane(b, (high ? 2 : 0) + k, 8, bSigned);
  return static_cast<std::uint32_t>(sum);
}
std::vector<std::uint32_t> expectedDot(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return {dp4a(a, b, c, true, true),          dp4a(a, b, c, false, false),       dp2a(a, b, c, false, true, true),
          dp2a(a, b, c, true, true, true),    dp2a(a, b, c, false, false, false), dp2a(a, b, c, true, false, false),
          dp4a(a, b, c, false, true),         dp4a(a, b, c, true, false),         dp2a(a, b, c, false, false, true),
          dp2a(a, b, c, true, true, false)};
}

// `kernel`(a, b, c, o) on 2 blocks of 128 threads, `forms` results a thread in o, run on the SASS
// and on the PTX emulator from the same inputs.
struct BothRuns {
  Emulator sass, ptx;
};
BothRuns runOnBothEmulators(const Compiled& c, const char* kernel, ScalarType type, const Words& w, int forms) {
  LaunchDescription l;
  l.kernel = kernel;
  l.grid = {2, 1, 1};
  l.block = {128, 1, 1};
  l.args = {buffer("a", type, kThreads), buffer("b", type, kThreads), buffer("c", type, kThreads),
            buffer("o", type, static_cast<std::uint64_t>(forms) * kThreads)};
  BothRuns runs{Emulator(c.ptx, l), Emulator(c.ptx, l)};
  for (Emulator* e : {&runs.sass, &runs.ptx}) {
    fill(*e, "a", w.a);
    fill(*e, "b", w.b);
    fill(*e, "c", w.c);
  }
  runs.sass.selectSass(c.sass, c.smVersion, c.cubin);
  runs.sass.run();
  runs.ptx.run();
  return runs;
}

class SassDotAbsdiffSwitch : public ::testing::TestWithParam<const char*> {};

TEST_P(SassDotAbsdiffSwitch, IdpGivesTheDotProductsOfTheCudaMathApi) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_idp", kDot, GetParam());
  EXPECT_TRUE(hasOpcode(c, "IDP", "4A")) << "no IDP.4A in the SASS for " << GetParam();
  EXPECT_TRUE(hasOpcode(c, "IDP", "2A")) << "no IDP.2A in the SASS for " << GetParam();
  // Worked by hand from the definitions (bytes little-endian):
  // 0x01020304 = bytes 4, 3, 2, 1 = half-words 772, 258; 0xFFFEFD04 = bytes 4, -3, -2, -1 signed,
  // 4, 253, 254, 255 unsigned. 0x80FF7F01 = bytes 1, 127, -1 | 255, -128 | 128, half-words
  // 32513, -32513 | 33023; 0x02FF0103 = bytes 3, 1, -1 | 255, 2.
  const std::vector<std::array<std::uint32_t, 3>> hand = {{0x01020304u, 0xFFFEFD04u, 10u},
                                                          {0x80FF7F01u, 0x02FF0103u, static_cast<std::uint32_t>(-5)}};
  const std::vector<std::vector<std::int64_t>> handExpected = {
      // 4*4 + 3*-3 + 2*-2 + 1*-1 + 10; 16 + 3*253 + 2*254 + 255 + 10; 772*4 + 258*-3 + 10;
      // 772*-2 + 258*-1 + 10; 772*4 + 258*253 + 10; 772*254 + 258*255 + 10; then the mixed forms.
      {12, 1548, 2324, -1792, 68372, 261888, 12, 1548, 2324, 261888},
      // 3 + 127 + 1 - 256 - 5; 3 + 127 + 65025 + 256 - 5; 32513*3 - 32513 - 5; -32513 - 65026 - 5;
      // 97539 + 33023 - 5; 32513*255 + 33023*2 - 5; 3 + 127 - 255 + 256 - 5; 3 + 127 - 255 - 256 - 5;
      // 32513*3 + 33023 - 5; 32513*255 - 32513*2 - 5.
      {-130, 65406, 65021, -97544, 130557, 8356856, 126, -386, 130557, 8225784}};
  const Words w = inputs(hand, kThreads, 41);
  const BothRuns runs = runOnBothEmulators(c, "dot", ScalarType::I32, w, 10);
  const auto got = contents<std::uint32_t>(runs.sass, "o");
  for (std::size_t i = 0; i < hand.size(); ++i)
    for (int k = 0; k < 10; ++k)
      EXPECT_EQ(static_cast<std::int32_t>(got[10 * i + k]), handExpected[i][k]) << "hand case " << i << " form " << k;
  for (int i = 0; i < kThreads; ++i) {
    const auto want = expectedDot(w.a[i], w.b[i], w.c[i]);
    for (int k = 0; k < 10; ++k)
      ASSERT_EQ(got[10 * i + k], want[k]) << "thread " << i << " form " << k << std::hex << " a 0x" << w.a[i]
                                          << " b 0x" << w.b[i] << " c 0x" << w.c[i];
  }
  EXPECT_EQ(firstDifference(runs.sass.buffer("o"), runs.ptx.buffer("o")), -1);
}

// ---------------------------------------------------------------------------------------------
// The byte-wise absolute differences: the intrinsics and vabsdiff4's signed and accumulating
// forms with a live c.
const char* const kAbsdiff = R"(
__device__ unsigned absdiffS(unsigned a, unsigned b, unsigned c) { unsigned d; asm("vabsdiff4.u32.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ unsigned sadS(unsigned a, unsigned b, unsigned c) { unsigned d; asm("vabsdiff4.u32.s32.s32.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ unsigned sadU(unsigned a, unsigned b, unsigned c) { unsigned d; asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__global__ void absdiff(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* o) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned x = a[i], y = b[i], z = c[i];
  o[7 * i + 0] = __vabsdiffu4(x, y);
  o[7 * i + 1] = __vsadu4(x, y);
  o[7 * i + 2] = __vabsdiffs4(x, y);
  o[7 * i + 3] = __vsads4(x, y);
  o[7 * i + 4] = absdiffS(x, y, z);
  o[7 * i + 5] = sadS(x, y, z);
  o[7 * i + 6] = sadU(x, y, z);
}
)";

// Per byte |a_i - b_i| (signed or unsigned bytes) packed, and the four summed plus c.
std::uint32_t absdiffBytes(std::uint32_t a, std::uint32_t b, bool isSigned) {
  std::uint32_t r = 0;
  for (int k = 0; k < 4; ++k) {
    const std::int64_t d = lane(a, k, 8, isSigned) - lane(b, k, 8, isSigned);
    r |= static_cast<std::uint32_t>(d < 0 ? -d : d) << (8 * k);
  }
  return r;
}
std::uint32_t sumOfBytes(std::uint32_t v) { return (v & 0xff) + ((v >> 8) & 0xff) + ((v >> 16) & 0xff) + (v >> 24); }
std::vector<std::uint32_t> expectedAbsdiff(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  const std::uint32_t u = absdiffBytes(a, b, false), s = absdiffBytes(a, b, true);
  return {u, sumOfBytes(u), s, sumOfBytes(s), s, c + sumOfBytes(s), c + sumOfBytes(u)};
}

TEST_P(SassDotAbsdiffSwitch, ByteAbsoluteDifferencesAreThoseOfTheCudaMathApi) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_vabsdiff4", kAbsdiff, GetParam());
  // sm_75-100 run VABSDIFF4; sm_120's ptxas builds the same from packed VIMNMX and VIADD.
  const bool packed = c.smVersion == 120;
  EXPECT_TRUE(packed ? hasOpcode(c, "VIMNMX", "U8x4") : hasOpcode(c, "VABSDIFF4"))
      << "not the SASS this test was written for on " << GetParam();
  // By hand: 0x00FF7F80 - 0xFF00807F: unsigned bytes |128-127|, |127-128|, |255-0|, |0-255| =
  // 1, 1, 255, 255 (sum 512); signed bytes |-128-127|, |127+128|, |-1-0|, |0+1| = 255, 255, 1, 1.
  // 0x01020304 - 0x04030201: 3, 1, 1, 3 either way (sum 8). Equal words: zeros, the sum is c.
  const std::vector<std::array<std::uint32_t, 3>> hand = {
      {0x00FF7F80u, 0xFF00807Fu, 1000u}, {0x01020304u, 0x04030201u, 0xFFFFFFFFu}, {0x12345678u, 0x12345678u, 7u}};
  const std::vector<std::vector<std::uint32_t>> handExpected = {
      {0xFFFF0101u, 512, 0x0101FFFFu, 512, 0x0101FFFFu, 1512, 1512},
      {0x03010103u, 8, 0x03010103u, 8, 0x03010103u, 7, 7},
      {0, 0, 0, 0, 0, 7, 7}};
  const Words w = inputs(hand, kThreads, 43);
  const BothRuns runs = runOnBothEmulators(c, "absdiff", ScalarType::U32, w, 7);
  const auto got = contents<std::uint32_t>(runs.sass, "o");
  for (std::size_t i = 0; i < hand.size(); ++i)
    for (int k = 0; k < 7; ++k) EXPECT_EQ(got[7 * i + k], handExpected[i][k]) << "hand case " << i << " form " << k;
  for (int i = 0; i < kThreads; ++i) {
    const auto want = expectedAbsdiff(w.a[i], w.b[i], w.c[i]);
    for (int k = 0; k < 7; ++k)
      ASSERT_EQ(got[7 * i + k], want[k]) << "thread " << i << " form " << k << std::hex << " a 0x" << w.a[i]
                                         << " b 0x" << w.b[i] << " c 0x" << w.c[i];
  }
  EXPECT_EQ(firstDifference(runs.sass.buffer("o"), runs.ptx.buffer("o")), -1);
}

// ---------------------------------------------------------------------------------------------
// jenkins hash's tail (zjin-lcf/HeCBench jenkins-hash): a switch over the bytes left, each case
// falling through to the next. ptxas makes jump tables of it (LDC from c[0x2], BRX).
const char* const kSwitch = R"(
__global__ void tail(const unsigned* k, const int* len, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = 0x9e3779b9u, b = a, c = 0;
  const unsigned* p = k + 12 * i;
  switch (len[i]) {
    case 12: c += p[11] << 24;
    case 11: c += p[10] << 16;
    case 10: c += p[9] << 8;
    case 9: c += p[8];
    case 8: b += p[7] << 24;
    case 7: b += p[6] << 16;
    case 6: b += p[5] << 8;
    case 5: b += p[4];
    case 4: a += p[3] << 24;
    case 3: a += p[2] << 16;
    case 2: a += p[1] << 8;
    case 1: a += p[0]; break;
    case 0: c = 77; break;
    default: c = 5; a = 0;
  }
  c ^= b; c -= (b << 14) | (b >> 18);
  out[i] = a ^ c;
}
)";

std::uint32_t expectedTail(const std::uint32_t* p, int len) {
  std::uint32_t a = 0x9e3779b9u, b = a, c = 0;
  // The switch written as the cases it runs: case n adds bytes n-1 down to 0 (fall-through).
  if (len < 0 || len > 12) {
    c = 5;
    a = 0;
  } else if (len == 0) {
    c = 77;
  } else {
    const int shifts[12] = {0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24};
    for (int j = len - 1; j >= 0; --j) {
      const std::uint32_t add = p[j] << shifts[j];
      if (j >= 8) c += add;
      else if (j >= 4) b += add;
      else a += add;
    }
  }
  c ^= b;
  c -= (b << 14) | (b >> 18);
  return a ^ c;
}

TEST_P(SassDotAbsdiffSwitch, BrxSendsEachLaneToItsCaseAndTheWarpReconverges) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_brx", kSwitch, GetParam());
  ASSERT_TRUE(hasOpcode(c, "BRX")) << "ptxas made no jump table (BRX) on " << GetParam();
  constexpr int n = 64;  // two warps: lane i takes case i % 16 (13..15: the default), -1 in one lane
  std::vector<std::int32_t> len(n);
  for (int i = 0; i < n; ++i) len[i] = (i * 7 + i / 32) % 16;
  len[40] = -1;
  std::vector<std::uint32_t> words(12 * n);
  std::mt19937 rng(47);
  for (auto& v : words) v = rng() & 0xff;
  LaunchDescription l;
  l.kernel = "tail";
  l.grid = {2, 1, 1};
  l.block = {32, 1, 1};
  l.args = {buffer("k", ScalarType::U32, 12 * n), buffer("len", ScalarType::I32, n), buffer("out", ScalarType::U32, n)};
  Emulator sass(c.ptx, l), ptx(c.ptx, l);
  for (Emulator* e : {&sass, &ptx}) {
    fill(*e, "k", words);
    fill(*e, "len", len);
  }
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  sass.run();
  ptx.run();
  const auto got = contents<std::uint32_t>(sass, "out");
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], expectedTail(&words[12 * i], len[i])) << "thread " << i << " len " << len[i];
  EXPECT_EQ(firstDifference(sass.buffer("out"), ptx.buffer("out")), -1);
}

// Without the cubin, constant bank 2 reads zeros, so the jump table sends every lane to the
// section's address 0: the BRX must stop with an error, not restart the kernel.
TEST_P(SassDotAbsdiffSwitch, BrxRefusesATargetOutsideItsBranchTargets) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_brx", kSwitch, GetParam());
  LaunchDescription l;
  l.kernel = "tail";
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.args = {buffer("k", ScalarType::U32, 12 * 32), buffer("len", ScalarType::I32, 32, IotaInit{}),
            buffer("out", ScalarType::U32, 32)};
  Emulator sass(c.ptx, l);
  sass.selectSass(c.sass, c.smVersion);  // no cubin
  try {
    sass.run();
    FAIL() << "the run went on with a jump table of zeros";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not one of the instruction's BRANCH_TARGETS"), std::string::npos) << e.what();
  }
}

// sm_70 (CUDA 11.8's ptxas) is left out: its jump tables and IDP forms were not looked at.
INSTANTIATE_TEST_SUITE_P(Archs, SassDotAbsdiffSwitch,
                         ::testing::Values("sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace teg::emu::sasstest
