// Kernels `--isa auto` used to time on their PTX because the SASS emulator stopped on them (issue
// 26 point 3), run through the real `teg` binary on their SASS: the buffers must equal what the
// launch file expects (its `expect`, computed independently of teg) or what the PTX run gives.
// Label `nvcc`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

#define SKIP_WITHOUT_TOOLS(r)                                                                     \
  if ((r).err.find("nvcc not found") != std::string::npos || (r).err.find("nvdisasm was not found") != std::string::npos) \
  GTEST_SKIP() << "nvcc or nvdisasm not installed: " << (r).err

const std::string kExamples = std::string(TEG_SOURCE_DIR) + "/examples/kernels/";

// spmv_csr's unrolled loop addresses colIdx and values from a base 8 bytes ahead, an offset ptxas
// keeps in constant bank 2 (`IMAD.WIDE R2, R19, R15, c[0x2][0x0]` = 4 j + 8, then
// `LDG.E R24, [R6.64+-0x8]`). `teg run`/`predict` handed the SASS emulator no cubin, so bank 2
// read 0 and the first load fell 8 bytes before colIdx. The launch's `expect` is numpy's y.
class SpmvOnSass : public ::testing::TestWithParam<const char*> {};

TEST_P(SpmvOnSass, RunsOnItsSassAndMatchesTheExpectedY) {
  const auto r = runTeg({"run", "--launch", kExamples + "spmv_csr.launch.json", "--gpu", GetParam(), "--isa", "sass",
                         "--check", "--json"});
  SKIP_WITHOUT_TOOLS(r);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["isa"]["used"], "sass");
}

TEST_P(SpmvOnSass, AutoPredictsItOnTheSass) {
  const auto r = runTeg({"predict", "--launch", kExamples + "spmv_csr.launch.json", "--gpu", GetParam(), "--json",
                         "--no-timeline"});
  SKIP_WITHOUT_TOOLS(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["isa"]["used"], "sass") << j["isa"].dump();
}

// sm_80 and sm_75 (whose SASS reads `LDG.E.SYS R6, [R4+-0x8]`).
INSTANTIATE_TEST_SUITE_P(Gpus, SpmvOnSass, ::testing::Values("a100", "t4"));

// __dp4a (IDP.4A), __vsadu4 (VABSDIFF4.U8.ACC) and a jump-table switch (BRX): auto used to time
// such a kernel on its PTX ("the SASS emulator does not run ..."); it now stays on the SASS.
const char* const kDotAbsdiffSwitch = R"(
__global__ void mix(const unsigned* a, const unsigned* b, const int* len, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = (unsigned)__dp4a((int)a[i], (int)b[i], 1) + __vsadu4(a[i], b[i]);
  switch (len[i]) {
    case 6: h += a[i] << 5;
    case 5: h ^= b[i];
    case 4: h += 3;
    case 3: h *= 7;
    case 2: h ^= h >> 3;
    case 1: h += 1; break;
    case 0: h = 9; break;
  }
  out[i] = h;
}
)";

class DotAbsdiffSwitchOnSass : public ::testing::TestWithParam<const char*> {};

TEST_P(DotAbsdiffSwitchOnSass, AutoPredictsItOnTheSass) {
  const std::string source = writeTempFile("sass_walls_dot_absdiff_switch.cu", kDotAbsdiffSwitch);
  const std::string launch = writeTempFile("sass_walls_dot_absdiff_switch.launch.json", R"({"source": ")" + source + R"(",
      "kernel": "mix", "grid": [2], "block": [64],
      "args": [{"name": "a", "buffer": {"type": "u32", "count": 128, "init": {"random": {"seed": 1, "min": 0, "max": 4000000000}}}},
               {"name": "b", "buffer": {"type": "u32", "count": 128, "init": {"random": {"seed": 2, "min": 0, "max": 4000000000}}}},
               {"name": "len", "buffer": {"type": "i32", "count": 128, "init": {"random": {"seed": 3, "min": 0, "max": 8}}}},
               {"name": "out", "buffer": {"type": "u32", "count": 128, "init": "zeros"}}]})");
  const auto r = runTeg({"predict", "--launch", launch, "--gpu", GetParam(), "--json", "--no-timeline"});
  SKIP_WITHOUT_TOOLS(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string reason = j["isa"]["reason"];
  if (reason.find("nvdisasm was not found") != std::string::npos) GTEST_SKIP() << reason;
  EXPECT_EQ(j["isa"]["used"], "sass") << reason;
  EXPECT_NE(reason.find("SASS"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("does not run"), std::string::npos) << reason;
}

// sm_80 and sm_75.
INSTANTIATE_TEST_SUITE_P(Gpus, DotAbsdiffSwitchOnSass, ::testing::Values("a100", "t4"));

}  // namespace
