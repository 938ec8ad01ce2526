// A kernel with assert(): ptxas calls the runtime's __assertfail through LEPC and CALL.ABS.NOINC
// on the path where the condition is false. Real code is full of asserts (siboehm/SGEMM_CUDA's
// kernels check blockDim with one), so the SASS emulator must run such a kernel while its asserts
// hold — out = 2 in, computed here — and stop with the assert's source line when one fails, as the
// GPU traps.
#include <gtest/gtest.h>

#include <cstring>

#include "sass_support.hpp"
#include "teg/emu/launch.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::sasstest {
namespace {

const char* const kAsserting = R"(#include <cassert>
__global__ void checked(const int* in, int* out) {
  const int v = in[threadIdx.x];
  assert(v >= 0);
  out[threadIdx.x] = 2 * v;
}
)";

LaunchDescription launchWith(int lowest) {
  LaunchDescription l;
  l.kernel = "checked";
  l.grid = {1, 1, 1};
  l.block = {64, 1, 1};
  BufferArg in;
  in.type = ScalarType::I32;
  in.count = 64;
  in.init = RandomInit{3, static_cast<double>(lowest), 1000};
  BufferArg out;
  out.type = ScalarType::I32;
  out.count = 64;
  l.args = {LaunchArg{"in", in}, LaunchArg{"out", out}};
  return l;
}

class SassAssert : public ::testing::TestWithParam<const char*> {};

TEST_P(SassAssert, AKernelWhoseAssertsHoldRuns) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_assert", kAsserting, GetParam());
  Emulator e(c.ptx, launchWith(0));
  e.selectSass(c.sass, c.smVersion, c.cubin);
  e.run();
  const auto in = e.buffer("in");
  const auto out = e.buffer("out");
  for (int t = 0; t < 64; ++t) {
    std::int32_t v = 0, r = 0;
    std::memcpy(&v, in.data() + 4 * t, 4);
    std::memcpy(&r, out.data() + 4 * t, 4);
    EXPECT_EQ(r, 2 * v) << "thread " << t;
  }
}

TEST_P(SassAssert, AFailingAssertStopsTheRunAtItsLine) {
  TEG_SASS_TOOLS_OR_SKIP();
  const Compiled& c = compileSource("sass_assert", kAsserting, GetParam());
  Emulator e(c.ptx, launchWith(-1000));  // some inputs negative: the assert fails
  e.selectSass(c.sass, c.smVersion, c.cubin);
  try {
    e.run();
    FAIL() << "the run should have stopped at the failing assert";
  } catch (const Error& err) {
    const std::string what = err.what();
    EXPECT_NE(what.find("__assertfail"), std::string::npos) << what;
    EXPECT_NE(what.find(":4"), std::string::npos) << "the assert's line (4) is named: " << what;
  }
}

// One architecture per constant-bank layout family (Turing, Ampere, Blackwell).
INSTANTIATE_TEST_SUITE_P(Architectures, SassAssert, ::testing::Values("sm_75", "sm_86", "sm_120"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace teg::emu::sasstest
