// `teg compile` end to end with the real nvcc; every test skips (saying why) when teg reports that
// nvcc is not installed. Expected figures come from the kernel's source, not from a previous run:
// matmul_abt_conflict.cu declares float As[16][16], Bs[16][16] = 2 * 16 * 16 * 4 = 2048 bytes of
// shared memory and synchronises with __syncthreads (barrier 0: one barrier).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_teg.hpp"

using teg::test::runTeg;

namespace {

const std::string kKernel = std::string(TEG_SOURCE_DIR) + "/examples/kernels/matmul_abt_conflict.cu";

#define SKIP_WITHOUT_NVCC(r)                                      \
  if ((r).err.find("nvcc not found") != std::string::npos)        \
  GTEST_SKIP() << "nvcc not installed: " << (r).err

TEST(CliCompile, TableNamesTheKernelAndItsResources) {
  const auto r = runTeg({"compile", kKernel, "--arch", "sm_80"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("matmulABtConflict"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sm_80"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2048"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("regs"), std::string::npos) << r.out;
}

TEST(CliCompile, JsonAndPtxOut) {
  const std::string ptxPath = teg::test::writeTempFile("abt out.ptx", "");
  const auto r = runTeg({"compile", kKernel, "--arch", "sm_86", "--json", "--ptx-out", ptxPath});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("kernels").size(), 1u);
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k.at("name"), "matmulABtConflict(float const*, float const*, float*, int, int, int)");
  EXPECT_EQ(k.at("arch"), "sm_86");
  EXPECT_EQ(k.at("entry"), true);
  EXPECT_EQ(k.at("static_smem_bytes"), 2048);
  EXPECT_EQ(k.at("barriers"), 1);
  EXPECT_GT(k.at("registers").get<int>(), 0);

  std::ifstream in(ptxPath);
  std::stringstream ptx;
  ptx << in.rdbuf();
  EXPECT_NE(ptx.str().find(".target sm_86"), std::string::npos);
  EXPECT_NE(ptx.str().find(".entry " + k.at("mangled_name").get<std::string>()), std::string::npos);
}

TEST(CliCompile, ArgumentsAfterDoubleDashReachNvcc) {
  // The SGEMM keeps 16 accumulators and unrolled loads live: at most 24 registers (sm_80's floor
  // for -maxrregcount) cannot hold them, so ptxas must spill.
  const auto r = runTeg({"compile", std::string(TEG_SOURCE_DIR) + "/examples/kernels/sgemm_register_blocked.cu",
                         "--json", "--", "-maxrregcount=16"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto k = nlohmann::json::parse(r.out).at("kernels").at(0);
  EXPECT_LE(k.at("registers").get<int>(), 24);
  EXPECT_GT(k.at("spill_store_bytes").get<int>(), 0);
  EXPECT_GT(k.at("spill_load_bytes").get<int>(), 0);
}

TEST(CliCompile, NvccErrorsArePrintedVerbatimWithExitCode1) {
  const std::string cu = teg::test::writeTempFile("broken kernel.cu", "__global__ void f() { undeclared(); }\n");
  const auto r = runTeg({"compile", cu});
  SKIP_WITHOUT_NVCC(r);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("identifier \"undeclared\" is undefined"), std::string::npos) << r.err;
}

TEST(CliCompile, BadArchAndMissingFileAreOneLineErrors) {
  const auto bad = runTeg({"compile", kKernel, "--arch", "ampere"});
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.err.find("invalid --arch 'ampere'"), std::string::npos) << bad.err;
  const auto missing = runTeg({"compile", "/nonexistent/k.cu"});
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_NE(missing.err.find("/nonexistent/k.cu"), std::string::npos) << missing.err;
}

}  // namespace
