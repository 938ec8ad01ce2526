// Chien's cost model of Volkov's SGEMM (seed 002 sect. 3.1): Example 1's 278.57 Gflop/s, and the
// model against Table 6's measurements (the seed's own Observation 1: the model cannot explain
// why 256 active threads are enough).
#include <gtest/gtest.h>

#include <cmath>

#include "teg/models/volkov_sgemm.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

using namespace teg::models;

namespace {

std::string dataFile() { return std::string(TEG_SOURCE_DIR) + "/data/models/volkov_sgemm.json"; }
double round2(double v) { return std::round(v * 100) / 100; }

}  // namespace

// Example 1: Ā_load = 1.16, B̄_load/b_M = 0.02, T̄ = 0.1875 → 2·30·1.3 / (1.16/16 + 0.02 + 0.1875)
// = 78 / 0.28 = 278.57 Gflop/s. Unrounded: 530/512 + 1/8 = 1.16015625, (530/512 + 2/8)/64 =
// 0.0200805..., 78 / 0.2800903 = 278.48.
TEST(VolkovSgemm, Example1Is278_57GflopsAsPrinted) {
  const auto p = volkovSgemmExample1(dataFile());
  const auto c = volkovSgemmCost(p);
  EXPECT_DOUBLE_EQ(c.aLoad, 530.0 / 512 + 0.125);
  EXPECT_EQ(round2(c.aLoad), 1.16);
  EXPECT_EQ(round2(c.bLoad / 64), 0.02);
  EXPECT_DOUBLE_EQ(c.mad, 0.1875);
  EXPECT_EQ(round2(c.gflopsAsPrinted), 278.57);
  EXPECT_NEAR(c.gflops, 78 / (1.16015625 / 16 + 1.28515625 / 64 + 0.1875), 1e-9);
  EXPECT_EQ(round2(c.gflops), 278.48);
}

// Table 6 (N = 4096): 342.651 Gflop/s at 512 threads, flat down to 256 (341.188), 325.226 at 192.
// The model is 19 % low at 512, and it makes 192 threads 32 % slower than 512 where the
// measurement is 5 % slower: "our profiling model cannot interpret this phenomenon".
TEST(VolkovSgemm, AgainstTable6) {
  const auto data = teg::readJsonFile(dataFile());
  const auto& t6 = data.at("table6");
  const auto& big = t6.at("rows").back();
  ASSERT_EQ(big.at("n"), 4096);
  auto p = volkovSgemmExample1(dataFile());
  const double model512 = volkovSgemmCost(p).gflops;
  const double measured512 = big.at("gflops").at(0);
  EXPECT_NEAR((model512 - measured512) / measured512, -0.187, 0.005);
  p.activeThreads = 192;
  const double model192 = volkovSgemmCost(p).gflops;
  const double measured192 = big.at("gflops").at(4);
  EXPECT_LT(model192 / model512, 0.70);
  EXPECT_GT(measured192 / measured512, 0.94);
}

TEST(VolkovSgemm, RejectsNonPositiveParameters) {
  auto p = volkovSgemmExample1(dataFile());
  p.activeThreads = 0;
  EXPECT_THROW(volkovSgemmCost(p), teg::Error);
}
