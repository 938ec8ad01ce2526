// The SASS emulator on kernels that go wrong (issue 26 points 2-3): each must stop with an error
// that says what and where, never run to the instruction limit, copy a wrapped size or touch
// memory outside the emulated GPU.
//
// - An mbarrier phase that can never complete (more arrivals expected than threads arrive): every
//   warp spins in its try_wait / test_wait loop. The emulator must call it a deadlock naming the
//   kernel, the waiting instruction and the mbarrier's state.
// - cp.async.bulk (UBLKCP) with a hostile count of 16-byte units: ptxas keeps the count's low 16
//   bits (UPRMT UR, UR, 0x5410, URZ); the test replaces that with a UMOV of 2^28 + 1 units, which
//   a 32-bit byte count wraps to 16 bytes (the bug commit 554062e fixed), and of 0xffff units
//   (1 MiB - 16, more than any block's shared memory). Both are out-of-bounds shared writes.
// - A half-operand selector nvdisasm never prints (.H1_H0, .INVALID6: nvdisasm 13 prints only
//   .H0_H0, .H1_H1, .F32 and .H0_NH1, sass_exec_float.cpp) is an error at its file:line:col
//   instead of being read as "no selector".
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <regex>

#include <fmt/format.h>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"
#include "teg/sass/parser.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::emu::sasstest {
namespace {

// ---------------------------------------------------------------------------------------------
const char* const kHang = R"(
__global__ void hang(float* out) {
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x + 1) : "memory");
  __syncthreads();
  unsigned long long state;  // every thread arrives: one arrival short of the phase
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(b), "l"(state) : "memory");
  out[threadIdx.x] = 1.0f;
}
)";

class SassMbarrierDeadlock : public ::testing::TestWithParam<const char*> {};

TEST_P(SassMbarrierDeadlock, APhaseThatCannotCompleteIsADeadlockNamingTheKernelAndTheWait) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_robust_hang", kHang, GetParam());
  LaunchDescription l;
  l.kernel = "hang";
  l.grid = {1, 1, 1};
  l.block = {64, 1, 1};
  l.args = {buffer("out", ScalarType::F32, 64)};
  Emulator sass(c.ptx, l);
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  RunOptions o;
  o.maxInstructions = 2'000'000;  // far beyond what the detection needs: without it, this limit stops the run
  std::string message;
  try {
    sass.run(o);
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("mbarrier deadlock in kernel"), std::string::npos) << message;
  EXPECT_NE(message.find("hang"), std::string::npos) << message;
  // 64 of 65 arrivals: one pending, in phase 0, for both warps.
  EXPECT_NE(message.find("phase 0: 1 of 65 arrivals"), std::string::npos) << message;
  EXPECT_NE(message.find("warp 1 waits on the mbarrier"), std::string::npos) << message;
  // The waiting instruction: the phase test of the architecture, with its line.
  const char* wait = c.smVersion >= 90 ? "SYNCS.PHASECHK" : "LDS";
  EXPECT_NE(message.find(wait), std::string::npos) << message;
  EXPECT_TRUE(std::regex_search(message, std::regex(R"( at [^ ]+:[0-9]+ on sm_)"))) << message;
}

INSTANTIATE_TEST_SUITE_P(Archs, SassMbarrierDeadlock, ::testing::Values("sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"),
                         [](const auto& info) { return std::string(info.param); });

// ---------------------------------------------------------------------------------------------
const char* const kBulkN = R"(
__global__ void bulkn(const float4* in, float4* out, unsigned bytes) {
  __shared__ __align__(16) float4 s[64];
  __shared__ __align__(8) unsigned long long bar;
  unsigned sb = (unsigned)__cvta_generic_to_shared(&bar), ss = (unsigned)__cvta_generic_to_shared(s);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(sb));
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 16;" :: "r"(sb));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %3, [%2];"
                 :: "r"(ss), "l"(in), "r"(sb), "r"(bytes) : "memory");
  }
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(sb) : "memory");
  out[threadIdx.x] = s[threadIdx.x];
}
)";

class SassBulkSize : public ::testing::TestWithParam<const char*> {};

// Runs bulkn (16 bytes asked) with ptxas's count truncation replaced by `UMOV URn, units`.
std::string runWithUnits(const Compiled& c, const std::string& units) {
  std::string text = toolchain::disassembleCubin(c.cubin);
  const std::regex prmt(R"(UPRMT (UR[0-9]+), UR[0-9]+, 0x5410, URZ)");
  std::smatch m;
  if (!std::regex_search(text, m, prmt)) return "no UPRMT of the count in the SASS";
  text = std::string(m.prefix()) + "UMOV " + m[1].str() + ", " + units + std::string(m.suffix());
  static std::vector<std::unique_ptr<sass::Module>> keep;  // the emulator refers to the module
  keep.push_back(std::make_unique<sass::Module>(sass::parseDisassembly(text, "bulkn-patched.sass")));
  LaunchDescription l;
  l.kernel = "bulkn";
  l.grid = {1, 1, 1};
  l.block = {64, 1, 1};
  l.args = {buffer("in", ScalarType::F32, 256, RandomInit{3, -2, 2}), buffer("out", ScalarType::F32, 256),
            LaunchArg{"bytes", ScalarArg{ScalarType::U32, std::int64_t{16}}}};
  Emulator e(c.ptx, l);
  e.selectSass(*keep.back(), c.smVersion, c.cubin);
  try {
    e.run();
  } catch (const Error& err) {
    return err.what();
  }
  return "ran";
}

TEST_P(SassBulkSize, AHostileCountIsAnOutOfBoundsErrorNeverAWrappedCopy) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_robust_bulkn", kBulkN, GetParam());
  EXPECT_EQ(runWithUnits(c, "0x1"), "ran");  // the patch itself is harmless: 16 bytes as asked
  for (const char* units : {"0x10000001", "0xffff", "0xffffffff"}) {
    const std::string message = runWithUnits(c, units);
    EXPECT_NE(message.find("out-of-bounds shared write"), std::string::npos) << units << ": " << message;
    EXPECT_NE(message.find("UBLKCP"), std::string::npos) << message;
  }
  // 2^28 + 1 units are 2^32 + 16 bytes, not 16.
  EXPECT_NE(runWithUnits(c, "0x10000001").find("4294967312 bytes"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Archs, SassBulkSize, ::testing::Values("sm_90", "sm_100", "sm_120"),
                         [](const auto& info) { return std::string(info.param); });

// ---------------------------------------------------------------------------------------------
const char* const kHalf = R"(
#include <cuda_fp16.h>
__global__ void halves(const __half2* a, __half2* o) {
  const int i = threadIdx.x;
  const __half2 x = a[i], y = a[i + 32];
  o[i] = __hadd2(x, __hneg2(__low2half2(y)));  // HADD2 R, R, -R.H0_H0
}
)";

class SassHalfSelector : public ::testing::TestWithParam<const char*> {};

TEST_P(SassHalfSelector, ASelectorNvdisasmNeverPrintsIsAnErrorAtItsColumn) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_robust_halves", kHalf, GetParam());
  const std::string text = toolchain::disassembleCubin(c.cubin);
  const std::regex operand(R"(-?R[0-9]+\.H0_H0)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, operand)) << "no .H0_H0 operand in the SASS";
  const auto at = static_cast<std::size_t>(m.position(0));
  const std::size_t lineStart = text.rfind('\n', at) + 1;  // (npos + 1 = 0 on the first line)
  const long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
  const std::size_t column = at - lineStart + 1;
  LaunchDescription l;
  l.kernel = "halves";
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.args = {buffer("a", ScalarType::F16, 128, RandomInit{5, -2, 2}), buffer("o", ScalarType::F16, 64)};
  for (const char* selector : {"H1_H0", "INVALID6"}) {
    std::string patched = text;
    const std::size_t suffix = patched.find(".H0_H0", at);
    patched.replace(suffix + 1, 5, selector);
    static std::vector<std::unique_ptr<sass::Module>> keep;
    keep.push_back(std::make_unique<sass::Module>(sass::parseDisassembly(patched, "halves-patched.sass")));
    Emulator e(c.ptx, l);
    e.selectSass(*keep.back(), c.smVersion, c.cubin);
    std::string message = "ran";
    try {
      e.run();
    } catch (const Error& err) {
      message = err.what();
    }
    EXPECT_NE(message.find(fmt::format("halves-patched.sass:{}:{}", line, column)), std::string::npos) << message;
    EXPECT_NE(message.find(fmt::format("unknown half-operand selector '.{}'", selector)), std::string::npos) << message;
  }
  // Unpatched, the kernel runs and agrees with the PTX emulator (the known selectors work).
  Emulator sass(c.ptx, l), ptx(c.ptx, l);
  sass.selectSass(c.sass, c.smVersion, c.cubin);
  sass.run();
  ptx.run();
  EXPECT_EQ(firstDifference(sass.buffer("o"), ptx.buffer("o")), -1);
}

INSTANTIATE_TEST_SUITE_P(Archs, SassHalfSelector, ::testing::ValuesIn(kArchs),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace teg::emu::sasstest
