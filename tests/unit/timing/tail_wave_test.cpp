// The last partial wave (tail_wave.hpp): which blocks it has, when it ends, by hand; and a
// sampled launch whose last block runs alone against the same launch simulated block by block.
#include <gtest/gtest.h>

#include "synthetic.hpp"
#include "tail_wave.hpp"

using namespace teg::timing;
using namespace teg::timing::detail;
using namespace teg::timing::test;

namespace {

TEST(TailWave, BlocksOfThePartialWave) {
  EXPECT_EQ(tailWaveBlocks(25, 6, 18), 1u);  // RTX 5090, gpu-bench's copy: 4 waves of 6 and 1 block
  EXPECT_EQ(tailWaveBlocks(32, 6, 18), 2u);  // RTX 4090: 5 waves of 6 and 2 blocks
  EXPECT_EQ(tailWaveBlocks(24, 6, 18), 0u);  // whole waves
  EXPECT_EQ(tailWaveBlocks(25, 6, 25), 0u);  // every block simulated: nothing extrapolated
  EXPECT_EQ(tailWaveBlocks(25, 6, 4), 0u);   // a sample shorter than one wave
  EXPECT_EQ(tailWaveBlocks(25, 0, 18), 0u);
}

TEST(TailWave, WavesInStepLeaveTheLastBlockToRunAlone) {
  // 6 slots, waves ending together at 100, 200, 300; 25 blocks. The steady pace is 200 / 12 per
  // block, so the extrapolation ends at 300 + 7 x 16.7 = 416.7. By hand: the 4th wave (blocks
  // 19-24) ends at 400, the 25th block starts then and runs alone for 60: 460.
  std::vector<double> done;
  for (double end : {100.0, 200.0, 300.0}) done.insert(done.end(), 6, end);
  const double perBlock = 200.0 / 12;
  EXPECT_DOUBLE_EQ(tailWaveFinish(done, 6, 25, perBlock, 60), 460);
  // A tail block alone no slower than the pace: the last full wave's end stands.
  EXPECT_DOUBLE_EQ(tailWaveFinish(done, 6, 25, perBlock, 0), 400);
}

TEST(TailWave, BlocksOutOfStepStartTheTailEarly) {
  // 3 slots, completions every 10 cycles (10, 20, ..., 60): pace 10 per block; 7 blocks. The 7th
  // block takes the slot the 4th frees at 40 and runs alone for 25: 65, before the
  // extrapolation's 70, which the engine then keeps.
  const std::vector<double> done = {10, 20, 30, 40, 50, 60};
  EXPECT_DOUBLE_EQ(tailWaveFinish(done, 3, 7, 10, 25), 65);
  // 2 tail blocks (8 blocks): they start at the 4th and 5th completions; the later one frees its
  // slot at 50 and the pair ends at 50 + 25.
  EXPECT_DOUBLE_EQ(tailWaveFinish(done, 3, 8, 10, 25), 75);
  EXPECT_DOUBLE_EQ(tailWaveFinish(done, 3, 6, 10, 25), 0);  // no tail
}

TEST(TailWave, SampledLaunchPricesTheLoneLastBlockAsTheFullSimulationDoes) {
  // One warp per block, a chain of 10 dependent operations of latency 10: 100 cycles a block
  // whatever else runs (one issue per cycle, 4 warps at most). 4 slots, 13 blocks: waves end at
  // 100, 200, 300, and the 13th block runs alone from 300 to 400. Sampling 8 blocks (2 waves),
  // the steady pace is 25 per block: the extrapolation alone gives 200 + 5 x 25 = 325.
  auto config = simpleConfig(10, 1, 1);
  EngineOptions full;
  full.residentBlocks = 4;
  EngineOptions sampled = full;
  sampled.maxSampledBlocks = 8;
  const auto kernel = kernelOf({alu({1}, {1})}, 13, 32);
  auto pcs = [](auto, auto) { return repeat(0, 10); };
  const auto a = runSynthetic(config, full, kernel, pcs);
  const auto b = runSynthetic(config, sampled, kernel, pcs);
  EXPECT_FALSE(a.extrapolated);
  EXPECT_NEAR(a.cycles, 400, 5);
  ASSERT_TRUE(b.extrapolated);
  EXPECT_NEAR(b.cycles, a.cycles, 0.01 * a.cycles);
  EXPECT_GT(b.cycles, 325 + 50);
}

}  // namespace
