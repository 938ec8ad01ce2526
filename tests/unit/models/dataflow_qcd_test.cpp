// Lai's data-flow model of Hopping_Matrix (seed 000 ch. 2): Table 2.4's numeric entries to the
// printed digit, the symbolic ones at alpha, beta, and the three performance figures of sect. 2.4.
#include <gtest/gtest.h>

#include <cmath>

#include "teg/models/dataflow_qcd.hpp"
#include "teg/support/error.hpp"

using namespace teg::models;

namespace {

HoppingMatrixData data() { return hoppingMatrixData(std::string(TEG_SOURCE_DIR) + "/data/models/hopping_matrix_dataflow.json"); }
double ram(const std::string& bits, double alpha = 0.125, double beta = 0) {
  auto d = data();
  d.alpha = alpha;
  d.beta = beta;
  return arithmeticPerMainMemoryByte(d, accessPatternsFromBits(bits));
}
double round2(double v) { return std::round(100 * v) / 100; }

}  // namespace

// Table 2.4's eight numeric entries (the ones with neither P4 nor P5, or with P3, P4 and P5).
TEST(DataflowQcd, Table2_4NumericEntries) {
  EXPECT_EQ(round2(ram("00000")), 0.43);
  EXPECT_EQ(round2(ram("00111")), 0.86);
  EXPECT_EQ(round2(ram("01000")), 0.53);
  EXPECT_EQ(ram("01111"), 1.375);  // sect. 2.4.1's worked example: 384 + 576 = 960 B
  EXPECT_EQ(round2(ram("10000")), 0.54);
  EXPECT_EQ(round2(ram("10111")), 1.47);
  EXPECT_EQ(std::round(10 * ram("11000")) / 10, 0.6);
  EXPECT_EQ(round2(ram("11111")), 2.06);
}

// Symbolic entries: 1320 / (3072 − 1536β) for 00001, 1320 / (1536 + 1536(α+β)) for 00100,
// 1320 / (2432 − 1536(α+β)) for 10011.
TEST(DataflowQcd, Table2_4SymbolicEntries) {
  const double a = 0.125, b = 0.0625;
  EXPECT_DOUBLE_EQ(ram("00001", a, b), 1320 / (3072 - 1536 * b));
  EXPECT_DOUBLE_EQ(ram("00010", a, b), 1320 / (3072 - 1536 * a));
  EXPECT_DOUBLE_EQ(ram("00100", a, b), 1320 / (1536 + 1536 * (a + b)));
  EXPECT_DOUBLE_EQ(ram("10011", a, b), 1320 / (2432 - 1536 * (a + b)));
  EXPECT_DOUBLE_EQ(ram("01100", a, b), 1320 / (960 + 1536 * (a + b)));
}

// Sect. 2.4.1.1: Cell with (01111), P = B3 · R_A/M = 25.6 × 1.375 = 35.2 GFlop/s. Sect. 2.4.2:
// GTX 280 with (10000), P = 140 × 0.54 = 75.6 GFlop/s (the seed multiplies the rounded ratio; the
// unrounded one gives 76.0).
TEST(DataflowQcd, PerformanceFiguresOfSect2_4) {
  EXPECT_DOUBLE_EQ(25.6 * ram("01111"), 35.2);
  EXPECT_NEAR(140 * round2(ram("10000")), 75.6, 1e-9);
  EXPECT_NEAR(140 * ram("10000"), 75.99, 0.01);
  EXPECT_THROW(accessPatternsFromBits("0111"), teg::Error);
  EXPECT_THROW(ram("00000", 0.8, 0.5), teg::Error);
}
