// Software sequences (timing/software_sequence.hpp): a PTX instruction ptxas expands issues as
// its SASS steps, each on its unit and after the steps whose results it reads; the schedules are
// worked out by hand.
#include <gtest/gtest.h>

#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;

namespace {

// A division-like shape: a reciprocal estimate on the SFU (reads the operands), a branch that
// reads nothing, and an FMA that refines the estimate and writes the result.
SoftwareSequence estimateBranchRefine() {
  SoftwareSequence s;
  s.steps.resize(3);
  s.steps[0].unit = InstructionClass::Special;
  s.steps[0].readsOperands = true;
  s.steps[1].unit = InstructionClass::Branch;
  s.steps[2].unit = InstructionClass::Fp32Fma;
  s.steps[2].after = {0};
  s.result = 2;
  return s;
}

TimingConfig sequenceConfig() {
  TimingConfig c = simpleConfig(4, 1, 1);
  c.executionLatency[static_cast<std::size_t>(InstructionClass::Special)] = 20;
  c.executionLatency[static_cast<std::size_t>(InstructionClass::Branch)] = 2;
  c.sequences["div.rn.f32"] = estimateBranchRefine();
  return c;
}

// pc 0: r3 = r1 / r2 (the sequence); pc 1: r4 = r3 + r1.
teg::trace::KernelInfo divideThenAdd() {
  auto div = alu({3}, {1, 2});
  div.text = "div.rn.f32 %f3, %f1, %f2;";
  auto add = alu({4}, {3, 1});
  add.text = "add.f32 %f4, %f3, %f1;";
  return kernelOf({div, add}, 1, 32);
}

TEST(SoftwareSequenceTiming, EachStepIssuesOnItsUnitAfterTheStepsItReads) {
  const auto r = runSynthetic(sequenceConfig(), {}, divideThenAdd(), [](auto, auto) { return everyPc(2); });
  // The estimate issues at 0 (ready at 20); the branch needs nothing and issues at 1 (same-warp
  // interval 1); the refinement waits for the estimate and issues at 20 (r3 ready at 24); the add
  // waits for r3 and issues at 24, done at 28.
  EXPECT_DOUBLE_EQ(r.cycles, 28.0);
  EXPECT_EQ(r.warpInstructions, 4u);  // three steps and the add
  ASSERT_EQ(r.perInstruction.size(), 2u);
  EXPECT_EQ(r.perInstruction[0].issued, 3u);
  EXPECT_EQ(r.perInstruction[0].executions, 1u);
  EXPECT_EQ(r.perInstruction[1].issued, 1u);
  EXPECT_EQ(r.perInstruction[1].executions, 1u);
  // Each step is counted on its own unit.
  auto issuedOn = [&](InstructionClass unit) {
    for (const auto& u : r.units)
      if (u.unit == unit) return u.issued;
    return std::uint64_t{0};
  };
  EXPECT_EQ(issuedOn(InstructionClass::Special), 1u);
  EXPECT_EQ(issuedOn(InstructionClass::Branch), 1u);
  EXPECT_EQ(issuedOn(InstructionClass::Fp32Fma), 2u);  // the refinement and the add
  // The refinement waited from 2 (after the branch's issue at 1) to 20 for the SFU's result: short
  // scoreboard.
  EXPECT_DOUBLE_EQ(r.stalls[static_cast<int>(StallReason::ShortScoreboard)], 18.0);
}

TEST(SoftwareSequenceTiming, AnInstructionNotInTheTableIssuesOnce) {
  auto config = sequenceConfig();
  config.sequences.clear();
  const auto r = runSynthetic(config, {}, divideThenAdd(), [](auto, auto) { return everyPc(2); });
  // One fp32 instruction (latency 4) at 0, the add at 4: done at 8.
  EXPECT_DOUBLE_EQ(r.cycles, 8.0);
  EXPECT_EQ(r.warpInstructions, 2u);
  EXPECT_EQ(r.perInstruction[0].issued, 1u);
  EXPECT_EQ(r.perInstruction[0].executions, 1u);
}

TEST(SoftwareSequenceTiming, TheStepsOfManyWarpsShareTheUnits) {
  // 8 warps, one division each, one scheduler whose SFU takes a warp instruction every 8 cycles:
  // the estimates issue at 0, 8, ..., 56 and the last is ready at 76; its refinement issues then
  // (the branches and earlier refinements fit in the gaps) and its result is ready at 80.
  auto config = sequenceConfig();
  config.unitInterval[static_cast<std::size_t>(InstructionClass::Special)] = 8;
  auto kernel = divideThenAdd();
  kernel.block = {256, 1, 1};
  const auto r = runSynthetic(config, {}, kernel, [](auto, auto) { return std::vector<std::uint32_t>{0}; });
  EXPECT_DOUBLE_EQ(r.cycles, 80.0);
  EXPECT_EQ(r.warpInstructions, 24u);
  EXPECT_GT(r.stalls[static_cast<int>(StallReason::MathPipeThrottle)], 0.0);  // waiting for the SFU
}

}  // namespace
