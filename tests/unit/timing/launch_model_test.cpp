// Blocks, waves and sampling (Kim eq. 3.2; Lai §3.3: one SM with its share of the blocks), and
// properties every run must have.
#include <gtest/gtest.h>

#include <random>

#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;

namespace {

TEST(LaunchModel, TheSimulatedSmRunsEverySthBlock) {
  EXPECT_EQ(blocksOfSimulatedSm(10, 4, 0), (std::vector<std::uint64_t>{0, 4, 8}));
  EXPECT_EQ(blocksOfSimulatedSm(100, 10, 3), (std::vector<std::uint64_t>{0, 10, 20}));
}

TEST(LaunchModel, TheSlotsAreTheOccupancysUnlessAConfigCapsThem) {
  TimingConfig config;
  EngineOptions options;
  options.residentBlocks = 6;
  EXPECT_EQ(residentSlots(config, options), 6);  // maxResidentBlocks 0: occupancy decides
  config.maxResidentBlocks = 2;                  // the warps=N what-if
  EXPECT_EQ(residentSlots(config, options), 2);
  config.maxResidentBlocks = 8;  // a cap above the occupancy does not add slots
  EXPECT_EQ(residentSlots(config, options), 6);
}

TEST(LaunchModel, WavesOfIdenticalBlocksAddUp) {
  // One warp per block, a 100-cycle dependent chain; 2 SMs, 2 resident blocks per SM, 12 blocks
  // -> SM 0 runs 6 blocks in 3 waves of 2: 3 × (20 launch + 100) cycles, plus 1 because the one
  // scheduler issues the second block's first instruction a cycle after the first block's.
  auto config = simpleConfig(10, 1, 1);
  config.smCount = 2;
  config.blockLaunchCycles = 20;
  EngineOptions options;
  options.residentBlocks = 2;
  const auto kernel = kernelOf({alu({1}, {1})}, 12, 32);
  const auto r = runSynthetic(config, options, kernel, [](auto, auto) { return repeat(0, 10); });
  EXPECT_EQ(r.blocksOnSm, 6u);
  EXPECT_EQ(r.waves, 3);
  EXPECT_FALSE(r.extrapolated);
  EXPECT_DOUBLE_EQ(r.cycles, 3 * (20 + 100.0) + 1);
}

TEST(LaunchModel, SamplingExtrapolatesTheSteadyState) {
  auto config = simpleConfig(10, 1, 1);
  config.smCount = 1;
  config.blockLaunchCycles = 20;
  EngineOptions full;
  full.residentBlocks = 2;
  EngineOptions sampled = full;
  sampled.maxSampledBlocks = 6;
  const auto kernel = kernelOf({alu({1}, {1})}, 40, 32);
  auto pcs = [](auto, auto) { return repeat(0, 10); };
  const auto a = runSynthetic(config, full, kernel, pcs);
  const auto b = runSynthetic(config, sampled, kernel, pcs);
  EXPECT_TRUE(b.extrapolated);
  EXPECT_EQ(b.blocksSimulated, 6u);
  EXPECT_DOUBLE_EQ(a.cycles, 20 * 120.0 + 1);  // 20 waves, as above
  EXPECT_NEAR(b.cycles, a.cycles, 1e-9);
}

TEST(LaunchModel, ExtrapolationNeverRunsAheadOfTheSaturatedBandwidth) {
  // Streaming stores (gpu-stream's init): 4 warps per block, 16 coalesced stores each to lines of
  // their own, no L2, so 4 x 16 x 128 B = 8 KiB per block go to DRAM through a 16 B/cycle share:
  // 512 cycles per block. 64 blocks on the SM: 64 x 512 = 32,768 cycles of DRAM time, less at
  // most C_mem's 200 sectors x 2 cycles that are still draining when the last store issues (the
  // kernel's end does not wait for them): at least 32,368, whatever the sample. Sampling 12 of
  // them (4 resident), the window from the 4th completion to the 12th holds blocks that started
  // before it opened, so its slope alone is too fast (it gave 32,259).
  auto config = simpleConfig(4, 1, 1);
  config.dramBytesPerCycle = 16;
  config.l2BytesShare = 0;
  config.maxOutstandingSectors = 200;  // Lai eq. 3.2: 16 x 400 / 32
  EngineOptions options;
  options.residentBlocks = 4;
  options.maxSampledBlocks = 12;
  const auto kernel = kernelOf({memory(teg::trace::InstrKind::Store, teg::trace::MemorySpace::Global, {}, {2, 3})}, 64, 128);
  const auto r = runSynthetic(
      config, options, kernel, [](auto, auto) { return repeat(0, 16); },
      [](std::uint32_t block, std::uint32_t warp, std::size_t i, int lane) {
        return 0x10000000ull + ((block * 4ull + warp) * 16 + i) * 128 + 4ull * static_cast<std::uint64_t>(lane);
      });
  EXPECT_TRUE(r.extrapolated);
  EXPECT_EQ(r.memory.dramSectors, 12u * 4u * 16u * 4u);
  EXPECT_GE(r.cycles, 64 * 512.0 - 400);
  EXPECT_LE(r.cycles, 64 * 512.0 * 402 / 400 + 400 + 64);
}

// Random straight-line kernels for the properties below.
TimingResult randomRun(std::uint64_t seed, double latencyScale) {
  std::mt19937_64 rng(seed);
  std::vector<teg::trace::StaticInstruction> instructions;
  for (int i = 0; i < 12; ++i) {
    const auto d = static_cast<std::uint32_t>(rng() % 8);
    const auto u = static_cast<std::uint32_t>(rng() % 8);
    instructions.push_back(alu({d}, {u}, rng() % 3 == 0 ? InstructionClass::Fp64Fma : InstructionClass::Fp32Fma));
  }
  auto config = simpleConfig(6 * latencyScale, 2, 1, 2);
  config.executionLatency[static_cast<int>(InstructionClass::Fp64Fma)] = 40 * latencyScale;
  config.unitInterval[static_cast<int>(InstructionClass::Fp64Fma)] = 8;
  const auto kernel = kernelOf(instructions, 3, 128);
  EngineOptions options;
  options.residentBlocks = 2;
  return runSynthetic(config, options, kernel, [&](auto, std::uint32_t warp) {
    std::vector<std::uint32_t> pcs;
    std::mt19937_64 local(seed * 31 + warp);
    for (int i = 0; i < 60; ++i) pcs.push_back(static_cast<std::uint32_t>(local() % 12));
    return pcs;
  });
}

TEST(LaunchModel, RaisingLatencyNeverLowersTheCycleCount) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const double base = randomRun(seed, 1.0).cycles;
    EXPECT_GE(randomRun(seed, 1.5).cycles, base) << "seed " << seed;
    EXPECT_GE(randomRun(seed, 3.0).cycles, randomRun(seed, 1.5).cycles) << "seed " << seed;
  }
}

TEST(LaunchModel, SimulatedCyclesAreAtLeastTheIssueAndUnitBounds) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto r = randomRun(seed, 1.0);
    EXPECT_GE(r.simulatedCycles + 1e-9, static_cast<double>(r.warpInstructions) / 2) << "issue bound, seed " << seed;
    for (const auto& unit : r.units) EXPECT_GE(r.simulatedCycles + 1e-9, unit.busyCycles / 2) << "seed " << seed;
  }
}

}  // namespace
