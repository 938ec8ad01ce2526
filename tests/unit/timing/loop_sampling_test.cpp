// Loop-iteration sampling (src/timing/loop_extrapolation.hpp): finding a steady loop in block
// traces, cutting iterations out of them, and the engine's extrapolated prediction against the
// full simulation of the same trace (the oracle).
#include <gtest/gtest.h>

#include <cmath>

#include "loop_extrapolation.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::timing::detail::BlockTrace;
using teg::timing::detail::kNoMemory;
using teg::timing::detail::WarpOp;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

teg::trace::StaticInstruction branch() {
  teg::trace::StaticInstruction s;
  s.kind = InstrKind::Branch;
  s.unit = InstructionClass::Branch;
  return s;
}

// pc 0: set-up; loop body pcs 1-4: a global load, an FMA on its value, an address add, the
// backward branch; pc 5: a global store of the sum.
teg::trace::KernelInfo streamingLoop(std::uint32_t blocks, teg::trace::StaticInstruction setup = alu({2}, {})) {
  return kernelOf({setup, memory(InstrKind::Load, MemorySpace::Global, {10}, {2}), alu({3}, {3, 10}), alu({2}, {2}),
                   branch(), memory(InstrKind::Store, MemorySpace::Global, {}, {2, 3})},
                  blocks, 64);
}

std::vector<std::uint32_t> loopPcs(std::size_t iterations) {
  std::vector<std::uint32_t> pcs{0};
  for (std::size_t i = 0; i < iterations; ++i) pcs.insert(pcs.end(), {1, 2, 3, 4});
  pcs.push_back(5);
  return pcs;
}

// Each iteration of each warp reads a new coalesced line: what a GEMM's k loop streams.
std::uint64_t streamedAddress(std::uint32_t block, std::uint32_t warp, std::size_t index, int lane) {
  return 0x10000000ull + ((static_cast<std::uint64_t>(block) * 2 + warp) * 100000 + index) * 128 + 4ull * lane;
}

TimingResult runLoop(std::size_t iterations, int sampleIterations, teg::trace::KernelInfo kernel = streamingLoop(8)) {
  auto config = simpleConfig(4, 1, 1);
  config.l2BytesShare = 0;
  EngineOptions options;
  options.residentBlocks = 2;  // 8 blocks in 4 waves
  options.loopSampleIterations = sampleIterations;
  return runSynthetic(
      config, options, kernel, [&](auto, auto) { return loopPcs(iterations); }, streamedAddress);
}

WarpOp op(std::uint32_t pc, std::uint32_t memory = kNoMemory) { return WarpOp{pc, 0xFFFFFFFFu, memory}; }

BlockTrace blockOf(const std::vector<std::uint32_t>& pcs) {
  BlockTrace b;
  b.warps.resize(1);
  for (const std::uint32_t pc : pcs) b.warps[0].push_back(op(pc));
  return b;
}

TEST(LoopSampling, FindsTheLoopEveryWarpRunsAlike) {
  const auto loop = detail::findSteadyLoop({blockOf(loopPcs(100)), blockOf(loopPcs(100))}, 48);
  ASSERT_TRUE(loop.has_value());
  EXPECT_EQ(loop->branchPc, 4u);
  EXPECT_EQ(loop->targetPc, 1u);
  EXPECT_EQ(loop->backEdges, 99u);  // 100 iterations: the last falls through to pc 5
}

TEST(LoopSampling, NoLoopWhenWarpsRunDifferentCountsOrTooFew) {
  EXPECT_FALSE(detail::findSteadyLoop({blockOf(loopPcs(100)), blockOf(loopPcs(101))}, 48).has_value());
  EXPECT_FALSE(detail::findSteadyLoop({blockOf(loopPcs(40))}, 48).has_value());
}

TEST(LoopSampling, NoLoopWhenOneIterationDiffers) {
  BlockTrace b = blockOf(loopPcs(100));
  b.warps[0][4 * 50 + 2].activeMask = 0xFFFFu;  // iteration 50's FMA runs on half the warp
  EXPECT_FALSE(detail::findSteadyLoop({b}, 48).has_value());
}

TEST(LoopSampling, ANestedLoopIsSampledByItsOuterLoop) {
  // Outer body: pc 1, the inner loop pcs 2-3 three times (back-edge 3 -> 2), pc 4 (back to 1).
  // The inner back-edge is taken more often, but its iterations differ where the outer loop's
  // pcs 4 and 1 come between them; the outer loop's are all alike.
  std::vector<std::uint32_t> pcs{0};
  for (int i = 0; i < 60; ++i) pcs.insert(pcs.end(), {1, 2, 3, 2, 3, 2, 3, 4});
  pcs.push_back(5);
  const auto loop = detail::findSteadyLoop({blockOf(pcs)}, 48);
  ASSERT_TRUE(loop.has_value());
  EXPECT_EQ(loop->branchPc, 4u);
  EXPECT_EQ(loop->targetPc, 1u);
  EXPECT_EQ(loop->backEdges, 59u);
}

TEST(LoopSampling, KeepingIterationsKeepsPrologueFirstIterationsLastIterationAndEpilogue) {
  // pc 1 reads memory request i (sector 1000 + i) in iteration i.
  BlockTrace b;
  b.warps.resize(1);
  b.warps[0].push_back(op(0));
  for (std::uint32_t i = 0; i < 100; ++i) {
    detail::MemoryRequest m;
    m.firstSector = static_cast<std::uint32_t>(b.sectors.size());
    m.sectorCount = 1;
    b.sectors.push_back(1000 + i);
    b.warps[0].insert(b.warps[0].end(), {op(1, static_cast<std::uint32_t>(b.memory.size())), op(2), op(3), op(4)});
    b.memory.push_back(m);
  }
  b.warps[0].push_back(op(5));
  const auto loop = detail::findSteadyLoop({b}, 48);
  ASSERT_TRUE(loop.has_value());
  const auto kept = detail::keepIterations({b}, *loop, 3);
  ASSERT_EQ(kept.size(), 1u);
  const auto& ops = kept[0].warps[0];
  // Prologue, 3 iterations ending in a taken back-edge, the last iteration, the epilogue.
  const std::vector<std::uint32_t> expectedPcs{0, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 5};
  ASSERT_EQ(ops.size(), expectedPcs.size());
  for (std::size_t i = 0; i < ops.size(); ++i) EXPECT_EQ(ops[i].pc, expectedPcs[i]) << i;
  // The loads of iterations 0, 1, 2 and 99, with their own sectors.
  const std::vector<std::uint64_t> expectedSectors{1000, 1001, 1002, 1099};
  ASSERT_EQ(kept[0].memory.size(), expectedSectors.size());
  std::size_t load = 0;
  for (const WarpOp& o : ops) {
    if (o.memory == kNoMemory) continue;
    const auto& m = kept[0].memory[o.memory];
    ASSERT_EQ(m.sectorCount, 1);
    EXPECT_EQ(kept[0].sectors[m.firstSector], expectedSectors[load++]);
  }
}

TEST(LoopSampling, TheExtrapolatedPredictionMatchesTheFullSimulation) {
  const TimingResult full = runLoop(400, 0);
  const TimingResult sampled = runLoop(400, 4);
  ASSERT_FALSE(full.loopSampling.applied);
  ASSERT_TRUE(sampled.loopSampling.applied);
  EXPECT_EQ(sampled.loopSampling.backEdges, 399u);
  EXPECT_EQ(sampled.loopSampling.simulatedBackEdges, (std::array<std::uint64_t, 3>{4, 8, 12}));
  // Within the tolerance, and within the stated error estimate (with a little slack for the
  // block-level extrapolation being exact here: every block is simulated).
  const double error = std::abs(sampled.cycles - full.cycles) / full.cycles;
  EXPECT_LE(error, 0.01) << sampled.cycles << " vs " << full.cycles;
  EXPECT_LE(error, sampled.loopSampling.errorEstimate + 0.002);
  // Counts that grow exactly by one iteration's worth per iteration come out exact.
  EXPECT_EQ(sampled.warpInstructions, full.warpInstructions);
  EXPECT_EQ(sampled.memory.globalLoads, full.memory.globalLoads);
  EXPECT_EQ(sampled.memory.globalStores, full.memory.globalStores);
  EXPECT_EQ(sampled.memory.sectorsRequested, full.memory.sectorsRequested);
  EXPECT_EQ(sampled.perInstruction[2].executions, full.perInstruction[2].executions);
  const auto sumOf = [](const TimingResult& r) {
    double s = 0;
    for (const double x : r.stalls) s += x;
    return s;
  };
  EXPECT_NEAR(sumOf(sampled), sumOf(full), 0.01 * sumOf(full));
}

TEST(LoopSampling, CompletionsMoveAWaveAtATimeAlongTheWaveEnd) {
  // Two slots, four blocks: runs at a = 4 and b = 8 back-edges, extrapolated to 16 (f = (16 - 8) /
  // (8 - 4) = 2). Worked by hand: wave 0 ends at 110 then 158, so its completions move by
  // 2 x 48 = 96: {150, 158} -> {246, 254}; wave 1 ends at 230 then 330, +200: {300, 330} ->
  // {500, 530}. Each wave keeps run b's spread (8 and 30 cycles). Per block, the first block of
  // wave 1 (200 -> 300: 100 a step, against its wave end's 100) would also land on 500, but the
  // first of wave 0 (100 -> 150) would go to 250 and its spread shrink to 4; a block whose
  // completion jitters between the runs moves its wave's earliest end by f times the jitter.
  // The input order is the blocks' (not sorted): the waves are the sorted completions.
  const std::vector<double> atA{110, 100, 230, 200};
  const std::vector<double> atB{158, 150, 330, 300};
  EXPECT_EQ(teg::timing::detail::extrapolateCompletion(atA, atB, 4, 8, 16, 2), (std::vector<double>{246, 254, 500, 530}));
  // A jitter of 10 cycles in one block of the last wave's run b (its earliest end) stays 10
  // cycles, where a per-block line would make it 30.
  const std::vector<double> jittered{158, 150, 330, 290};
  EXPECT_EQ(teg::timing::detail::extrapolateCompletion(atA, jittered, 4, 8, 16, 2),
            (std::vector<double>{246, 254, 490, 530}));
  // One wave (slots 0): every completion moves by the last one's line, 2 x (330 - 230) = 200.
  EXPECT_EQ(teg::timing::detail::extrapolateCompletion(atA, atB, 4, 8, 16, 0), (std::vector<double>{350, 358, 500, 530}));
}

TEST(LoopSampling, WithBlocksExtrapolatedTheEstimateHoldsForTheLaunch) {
  // 21 blocks on the SM, 2 slots: 8 simulated, the rest extrapolated at the steady pace and the
  // last one (a partial wave) run alone. The wave ends the pace and the tail are read off come
  // from the sampled runs' lines (extrapolateCompletion); the oracle is the same launch with
  // every iteration simulated.
  const auto run = [](int sampleIterations) {
    auto config = simpleConfig(4, 1, 1);
    config.l2BytesShare = 0;
    EngineOptions options;
    options.residentBlocks = 2;
    options.maxSampledBlocks = 8;
    options.loopSampleIterations = sampleIterations;
    return runSynthetic(
        config, options, streamingLoop(21), [&](auto, auto) { return loopPcs(400); }, streamedAddress);
  };
  const TimingResult full = run(0);
  const TimingResult sampled = run(4);
  ASSERT_TRUE(full.extrapolated);
  ASSERT_TRUE(sampled.loopSampling.applied);
  const double error = std::abs(sampled.cycles - full.cycles) / full.cycles;
  EXPECT_LE(error, sampled.loopSampling.errorEstimate + 0.002) << sampled.cycles << " vs " << full.cycles;
}

TEST(LoopSampling, ALoopThatReReadsItsDataIsSimulatedInFull) {
  // Every iteration reads the same line: after the first, a hit. Runs of 4-12 iterations are
  // mostly that first cold miss, so their slope would be off; the loop is simulated in full.
  auto config = simpleConfig(4, 1, 1);
  config.l2BytesShare = 1 << 20;
  EngineOptions options;
  options.residentBlocks = 2;
  options.loopSampleIterations = 4;
  const auto sameLine = [](std::uint32_t block, std::uint32_t, std::size_t, int lane) {
    return 0x10000000ull + block * 4096ull + 4ull * lane;
  };
  const auto pcs = [](auto, auto) { return loopPcs(400); };
  const TimingResult reread = runSynthetic(config, options, streamingLoop(8), pcs, sameLine);
  EXPECT_FALSE(reread.loopSampling.applied);
  EXPECT_NE(reread.loopSampling.note.find("more than one of its iterations"), std::string::npos)
      << reread.loopSampling.note;
  options.loopSampleIterations = 0;
  EXPECT_DOUBLE_EQ(reread.cycles, runSynthetic(config, options, streamingLoop(8), pcs, sameLine).cycles);
}

TEST(LoopSampling, ShortLoopsAndClockReadsAreSimulatedInFull) {
  // 40 iterations: fewer than 12 q back-edges, nothing to gain.
  const TimingResult shortLoop = runLoop(40, 4);
  EXPECT_FALSE(shortLoop.loopSampling.applied);
  EXPECT_DOUBLE_EQ(shortLoop.cycles, runLoop(40, 0).cycles);
  // A kernel that reads %clock (a microbenchmark timing itself): no sampling, said so.
  auto clock = alu({2}, {});
  clock.readsClock = true;
  const TimingResult timed = runLoop(400, 4, streamingLoop(8, clock));
  EXPECT_FALSE(timed.loopSampling.applied);
  EXPECT_NE(timed.loopSampling.note.find("%clock"), std::string::npos) << timed.loopSampling.note;
  EXPECT_DOUBLE_EQ(timed.cycles, runLoop(400, 0, streamingLoop(8, clock)).cycles);
}

}  // namespace
