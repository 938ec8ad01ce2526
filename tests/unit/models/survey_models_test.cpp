// MWP-CWP (seed 000 eqs. 1.1-1.2) and Ryoo's metrics (eqs. 1.5-1.6): hand calculations.
#include <gtest/gtest.h>

#include "teg/models/survey_models.hpp"
#include "teg/support/error.hpp"

using namespace teg::models;

// Mem_L = 400, two memory periods per warp (Mem_cycles = 800), Comp_cycles = 200, N = 8 warps,
// MWP = 4: CWP = min(1000/200, 8) = 5 >= MWP, so eq. 1.1: 800·8/4 + (200/2)·4 = 2000 cycles.
TEST(MwpCwp, MemoryBoundCaseIsEq1_1) {
  const auto r = mwpCwp({800, 200, 2, 400, 8, 4});
  EXPECT_DOUBLE_EQ(r.cwp, 5);
  EXPECT_DOUBLE_EQ(r.compPeriod, 100);
  EXPECT_TRUE(r.memoryBound);
  EXPECT_DOUBLE_EQ(r.cycles, 2000);
}

// Comp_cycles = 1000: CWP = 1.8 < MWP = 4, so eq. 1.2: 400 + 1000·8 = 8400 cycles — the N warps'
// computation cannot overlap, one memory period sticks out.
TEST(MwpCwp, ComputeBoundCaseIsEq1_2) {
  const auto r = mwpCwp({800, 1000, 2, 400, 8, 4});
  EXPECT_NEAR(r.cwp, 1.8, 1e-12);
  EXPECT_FALSE(r.memoryBound);
  EXPECT_DOUBLE_EQ(r.cycles, 8400);
}

// The seed's reading of eq. 1.1: with more memory parallelism the memory term shrinks as 1/MWP.
TEST(MwpCwp, MoreMemoryParallelismShortensTheMemoryBoundCase) {
  EXPECT_GT(mwpCwp({800, 200, 2, 400, 8, 2}).cycles, mwpCwp({800, 200, 2, 400, 8, 4}).cycles);
  EXPECT_THROW(mwpCwp({800, 200, 2, 400, 8, 9}), teg::Error);  // MWP > N
  EXPECT_THROW(mwpCwp({800, 0, 2, 400, 8, 4}), teg::Error);
}

// A: 100 instructions, 4 regions, 8 warps per block, 2 blocks: U = 25·(3.5 + 8) = 287.5.
// B: 80 instructions, 8 regions, 4 warps, 2 blocks: U = 10·(1.5 + 4) = 55, the most efficient.
// C: 120 instructions, 4 regions, 8 warps, 1 block: U = 30·3.5 = 105, worse than A in both.
TEST(Ryoo, MetricsAndParetoSubset) {
  const std::vector<RyooConfig> configs = {{"A", 100, 1024, 4, 8, 2}, {"B", 80, 1024, 8, 4, 2}, {"C", 120, 1024, 4, 8, 1}};
  const auto m = ryooPareto(configs);
  EXPECT_DOUBLE_EQ(m[0].utilization, 287.5);
  EXPECT_DOUBLE_EQ(m[1].utilization, 55);
  EXPECT_DOUBLE_EQ(m[2].utilization, 105);
  EXPECT_DOUBLE_EQ(m[0].efficiency, 1.0 / 102400);
  EXPECT_TRUE(m[0].pareto);
  EXPECT_TRUE(m[1].pareto);
  EXPECT_FALSE(m[2].pareto);
  EXPECT_THROW(ryooMetrics({"bad", 100, 1024, 0, 8, 2}), teg::Error);
}
