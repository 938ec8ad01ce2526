// The SASS emulator on kernels that go wrong (issue 26 points 2-3): each must stop with an error
// that says what and where, never run to the instruction limit, copy a wrapped size or touch
// memory outside the emulated GPU.
//
// - An mbarrier phase that can never complete (more arrivals expected than threads arrive): every
//   warp spins in its try_wait / test_wait loop. The emulator must call it a deadlock naming the
//   kernel, the waiting instruction and the mbarrier's state.
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

LaunchArg buffer(const std::string& name, ScalarType type, std::uint64_t count, BufferInit init = ZerosInit{}) {
  BufferArg b;
  b.type = type;
  b.count = count;
  b.init = std::move(init);
  return LaunchArg{name, b};
}

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

}  // namespace
}  // namespace teg::emu::sasstest
