// teg predict's loop-iteration sampling end to end (docs/timing.md, pipeline step 5): the
// register-blocked SGEMM of bench/sgemm_4096 on two blocks (K = 4096: 256 iterations of its k
// loop a warp) with sampling and with every iteration simulated (--loop-sample 0), the oracle.
// Needs nvcc; skipped without it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "run_teg.hpp"

using teg::test::runTeg;

namespace {

bool haveNvcc() { return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || std::getenv("CUDA_HOME") != nullptr; }

nlohmann::json predictSgemm(const std::string& loopSample) {
  const auto launch = std::string(TEG_SOURCE_DIR) + "/bench/sgemm_4096.launch.json";
  const auto r = runTeg({"predict", "--launch", launch, "--gpu", "a100", "--grid", "2,1", "--loop-sample", loopSample,
                         "--json"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return r.exitCode == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

TEST(CliLoopSampling, TheSgemmKLoopIsSampledWithinItsErrorEstimateOfTheFullSimulation) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto sampled = predictSgemm("4");
  const auto full = predictSgemm("0");
  ASSERT_FALSE(sampled.is_null());
  ASSERT_FALSE(full.is_null());
  const auto& loop = sampled["sampling"]["loop"];
  ASSERT_TRUE(loop["sampled"].get<bool>()) << loop.dump();
  EXPECT_EQ(loop["iterations"], 256);  // K / 16
  EXPECT_FALSE(full["sampling"]["loop"]["sampled"].get<bool>());
  const double error = std::abs(sampled["cycles"].get<double>() / full["cycles"].get<double>() - 1);
  EXPECT_LE(loop["error_estimate"].get<double>(), 0.01);
  EXPECT_LE(error, 0.01) << sampled["cycles"] << " vs " << full["cycles"];
  // Every iteration issues the same instructions: the count comes out exact.
  EXPECT_EQ(sampled["warp_instructions"], full["warp_instructions"]);
}

}  // namespace
