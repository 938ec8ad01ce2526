// Kernels `--isa auto` used to time on their PTX because the SASS emulator stopped on them (issue
// 26 point 3), run through the real `teg` binary on their SASS: the buffers must equal what the
// launch file expects (its `expect`, computed independently of teg) or what the PTX run gives.
// Label `nvcc`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;

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

}  // namespace
