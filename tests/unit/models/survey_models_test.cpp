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

// Extended MWP-CWP (Sim et al. 2012, eqs. 1-17 as transcribed; survey_models.hpp), by hand:
// 100 instructions and 10 memory instructions per warp, 1600 warps on 16 SMs (100 per SM), N = 8,
// avg_inst_lat 18, ILP = MLP = 1, MWP 4, MWP_peak_bw 6, DRAM 400 cycles, hits 100 cycles.
namespace {
teg::models::MwpCwpExtendedInput sim2012Example() {
  teg::models::MwpCwpExtendedInput in;
  in.insts = 100;
  in.memInsts = 10;
  in.totalWarps = 1600;
  in.activeSms = 16;
  in.warps = 8;
  in.avgInstLatency = 18;
  in.mwp = 4;
  in.mwpPeakBw = 6;
  in.dramLatency = 400;
  in.missRatio = 0.5;
  in.hitLatency = 100;
  in.oBank = 500;
  return in;
}
}  // namespace

TEST(MwpCwpExtended, MemoryBoundByHand) {
  const auto r = teg::models::mwpCwpExtended(sim2012Example());
  EXPECT_DOUBLE_EQ(r.itilp, 8);          // min(1 x 8, 18 / (32/32))
  EXPECT_DOUBLE_EQ(r.wParallel, 22500);  // 100 x 100 x 18 / 8
  EXPECT_DOUBLE_EQ(r.tComp, 23000);      // + O_bank 500
  EXPECT_DOUBLE_EQ(r.amat, 300);         // 400 x 0.5 + 100
  EXPECT_DOUBLE_EQ(r.cwp, 8);            // min((3000 + 225) / 225, 8)
  EXPECT_DOUBLE_EQ(r.mwpCp, 4);          // min(max(1, 7), 4)
  EXPECT_DOUBLE_EQ(r.itmlp, 4);          // min(1 x 4, 6)
  EXPECT_DOUBLE_EQ(r.tMem, 75000);       // 10 x 100 / 4 x 300
  EXPECT_DOUBLE_EQ(r.fOverlap, 1);       // CWP 8 > MWP 4: zeta = 0
  EXPECT_DOUBLE_EQ(r.tOverlap, 23000);
  EXPECT_DOUBLE_EQ(r.tExec, 75000);
}

// The cache term: every access hitting (miss ratio 0) makes AMAT the hit latency, 100 cycles, and
// T_mem three times shorter: 10 x 100 / 4 x 100 = 25000 (CWP = 1225/225 = 5.44, MWP_cp still 4).
TEST(MwpCwpExtended, CacheHitsShortenTheMemoryTime) {
  auto in = sim2012Example();
  in.missRatio = 0;
  const auto r = teg::models::mwpCwpExtended(in);
  EXPECT_DOUBLE_EQ(r.amat, 100);
  EXPECT_NEAR(r.cwp, 1225.0 / 225.0, 1e-12);
  EXPECT_DOUBLE_EQ(r.tMem, 25000);
  EXPECT_DOUBLE_EQ(r.tExec, 25000);
}

// The bank-conflict term: in a compute-bound kernel (one memory instruction, all hits: CWP =
// 325/225 <= MWP, zeta = 1, F_overlap = 7/8, T_mem = 1 x 100 / 1 x 100 = 10000 fully hidden)
// O_bank adds to T_exec cycle for cycle: 23000 with O_bank 500, 22500 without.
TEST(MwpCwpExtended, BankConflictsAddToAComputeBoundKernel) {
  auto in = sim2012Example();
  in.memInsts = 1;
  in.missRatio = 0;
  auto r = teg::models::mwpCwpExtended(in);
  EXPECT_DOUBLE_EQ(r.fOverlap, 7.0 / 8.0);
  EXPECT_DOUBLE_EQ(r.itmlp, 1);
  EXPECT_DOUBLE_EQ(r.tMem, 10000);
  EXPECT_DOUBLE_EQ(r.tOverlap, 10000);
  EXPECT_DOUBLE_EQ(r.tExec, 23000);
  in.oBank = 0;
  r = teg::models::mwpCwpExtended(in);
  EXPECT_DOUBLE_EQ(r.tExec, 22500);
}

TEST(MwpCwpExtended, RejectsAMissRatioAboveOne) {
  auto in = sim2012Example();
  in.missRatio = 1.5;
  EXPECT_THROW(teg::models::mwpCwpExtended(in), teg::Error);
}
