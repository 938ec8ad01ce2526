// `teg model ryoo --launch F --shape ...` (analysis/ryoo_configs.hpp): Ryoo's metrics read from each
// launch shape's simulated trace. vector_add (c[i] = a[i] + b[i] if i < n, n = 10^6) read by hand:
// every thread runs the same instructions whatever the block, two global loads (a[i], b[i]) are
// its blocking instructions, so Regions = 3; Threads = grid x block; W_TB = block / 32.
// Compiles with nvcc (label `nvcc`); skips without it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;

TEST(RyooLaunch, MetricsOfEachLaunchShapeFromItsTrace) {
  const std::string launch = std::string(TEG_SOURCE_DIR) + "/examples/kernels/vector_add.launch.json";
  for (const char* isa : {"ptx", "sass"}) {
    SCOPED_TRACE(isa);
    const auto r = runTeg({"model", "ryoo", "--gpu", "a100", "--isa", isa, "--json", "--launch", launch, "--shape",
                           "b64=15625/64", "--shape", "b256=3907/256", "--shape", "b1024=977/1024"});
    if (r.err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << r.err;
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& c = j.at("configs");
    ASSERT_EQ(c.size(), 3u);
    const double threads[] = {15625.0 * 64, 3907.0 * 256, 977.0 * 1024}, warps[] = {2, 8, 32};
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_DOUBLE_EQ(c[i].at("threads").get<double>(), threads[i]);
      EXPECT_DOUBLE_EQ(c[i].at("warps_per_block").get<double>(), warps[i]);
      EXPECT_NEAR(c[i].at("regions").get<double>(), 3, 0.01) << c[i].at("name");
      // The instruction count per warp does not depend on the block (the last, partial block's
      // warps skip the body: at most one block of the simulated ones).
      EXPECT_NEAR(c[i].at("instructions").get<double>(), c[0].at("instructions").get<double>(), 0.5);
      EXPECT_GT(c[i].at("predicted_time_ms").get<double>(), 0);
    }
    // Equal work per thread and fewer threads: b64 is the most efficient, and with the most
    // resident warps ((W_TB - 1)/2 + (B_SM - 1) W_TB grows with B_SM) not dominated.
    EXPECT_EQ(c[0].at("pareto"), true);
    EXPECT_TRUE(j.contains("fastest_in_pareto_subset"));
  }
}

TEST(RyooLaunch, ShapesNeedOneLaunchAndPositiveDimensions) {
  const std::string launch = std::string(TEG_SOURCE_DIR) + "/examples/kernels/vector_add.launch.json";
  auto r = runTeg({"model", "ryoo", "--gpu", "a100", "--launch", launch, "--shape", "0/64"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("not a positive dimension"), std::string::npos) << r.err;
  r = runTeg({"model", "ryoo", "--gpu", "a100", "--launch", launch, "--launch", launch, "--shape", "10/64"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("exactly one"), std::string::npos) << r.err;
  r = runTeg({"model", "ryoo", "--launch", launch});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("--gpu"), std::string::npos) << r.err;
}
