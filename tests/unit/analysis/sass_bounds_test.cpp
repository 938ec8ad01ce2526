// The bounds the SASS adds (sassBoundsOf), on a hand-made prediction whose figures are worked by
// hand: 1000 warp instructions on 4 schedulers at one per cycle (issue bound 250 cycles), one
// source line k.cu:5 whose two PTX instructions a warp ran 100 times each, and whose SASS has 4
// instructions with 2 register-bank conflict cycles and 4 scalar LDS one LDS.128 could load.
#include <gtest/gtest.h>

#include "teg/analysis/bounds.hpp"

using namespace teg;

namespace {

analysis::Prediction prediction() {
  analysis::Prediction p;
  p.kernel.sourceFiles = {"/some/where/k.cu"};
  for (std::uint32_t pc = 0; pc < 3; ++pc) {
    trace::StaticInstruction s;
    s.pc = pc;
    s.sourceFile = 0;
    s.sourceLine = pc < 2 ? 5 : 7;
    p.kernel.instructions.push_back(s);
    timing::InstructionCost c;
    c.executions = pc < 2 ? 100 : 400;
    c.issued = c.executions;
    p.result.perInstruction.push_back(c);
  }
  p.result.warpInstructions = 1000;
  p.result.cycles = 400;
  p.result.timeMs = 400 / 1e6;
  p.result.blocksOnSm = 2;
  p.result.blocksSimulated = 2;
  p.config.clockMhz = 1000;
  p.config.schedulers = 4;
  p.config.issueIntervalCycles = 1;
  return p;
}

analysis::SassFacts facts(bool layoutKnown) {
  analysis::SassFacts f;
  f.arch = "sm_70";
  f.bankLayoutKnown = layoutKnown;
  f.bankPenaltyCycles = layoutKnown ? 1 : 0;
  f.bankLayout = layoutKnown ? "2 banks" : "no published register-bank layout for sm_80";
  f.lines.push_back({"k.cu", 5, 4, 2, 4, 1});
  f.lines.push_back({"k.cu", 6, 3, 9, 0, 0});  // a line the PTX never ran: weight 0
  return f;
}

const analysis::ResourceBound* find(const analysis::BoundReport& b, const std::string& name) {
  for (const auto& r : b.bounds)
    if (r.resource == name) return &r;
  return nullptr;
}

}  // namespace

TEST(SassBounds, BankConflictsAddTheirCyclesToTheIssueSlots) {
  const auto b = analysis::sassBoundsOf(prediction(), facts(true));
  const auto* issue = find(b, "issue");
  const auto* banks = find(b, "issue + register banks");
  ASSERT_NE(issue, nullptr);
  ASSERT_NE(banks, nullptr);
  EXPECT_DOUBLE_EQ(issue->cycles, 250);             // 1000 / 4
  EXPECT_DOUBLE_EQ(b.bankConflictCycles, 200);      // 100 runs x 2 cycles (line 6 never ran)
  EXPECT_DOUBLE_EQ(banks->cycles, 250 + 200.0 / 4);  // 300
  EXPECT_EQ(b.binding, "issue + register banks");
  EXPECT_DOUBLE_EQ(b.fractionOfBound, 300.0 / 400);
  for (const auto& n : b.notEvaluated) EXPECT_NE(n.rfind("register banks", 0), 0u) << n;
}

TEST(SassBounds, EachExtraReadCostsTheLayoutsPenalty) {
  auto f = facts(true);
  f.bankPenaltyCycles = 0.274;  // Turing's measured FFMA CPI difference
  const auto b = analysis::sassBoundsOf(prediction(), f);
  const auto* banks = find(b, "issue + register banks");
  ASSERT_NE(banks, nullptr);
  EXPECT_DOUBLE_EQ(banks->cycles, 250 + 200 * 0.274 / 4);  // 263.7
}

TEST(SassBounds, VectorLoadsLowerTheIssueBoundByTheLoadsTheySave) {
  const auto b = analysis::sassBoundsOf(prediction(), facts(true));
  ASSERT_TRUE(b.vectorLoads.has_value());
  const auto& v = *b.vectorLoads;
  EXPECT_DOUBLE_EQ(v.scalarLoads, 400);  // 100 runs x 4 LDS
  EXPECT_DOUBLE_EQ(v.vectorLoads, 100);  // 100 runs x 1 LDS.128
  EXPECT_DOUBLE_EQ(v.issueCyclesBefore, 250);
  EXPECT_DOUBLE_EQ(v.issueCyclesAfter, 250 - 300.0 / 4);  // 300 fewer warp instructions: 175
  EXPECT_DOUBLE_EQ(v.boundCyclesBefore, 300);
  EXPECT_DOUBLE_EQ(v.boundCyclesAfter, 300 - 75);  // the bank bound moves with the issue slots
  EXPECT_EQ(v.bindingAfter, "issue + register banks");
}

TEST(SassBounds, WithoutAPublishedLayoutTheBanksAreNamedNotEvaluated) {
  const auto b = analysis::sassBoundsOf(prediction(), facts(false));
  EXPECT_EQ(find(b, "issue + register banks"), nullptr);
  EXPECT_EQ(b.binding, "issue");
  bool named = false;
  for (const auto& n : b.notEvaluated) named = named || n.find("no published register-bank layout for sm_80") != std::string::npos;
  EXPECT_TRUE(named);
  ASSERT_TRUE(b.vectorLoads.has_value());  // the suggestion does not need the banks
  EXPECT_DOUBLE_EQ(b.vectorLoads->boundCyclesAfter, 175);
}

// Named remedies (bounds.hpp, Remedy). The same hand-made prediction with 100 warp-level shared
// loads of 4 bytes per lane (pc 2's 400 executions are ALU) that took 800 wavefronts (8-way
// conflicts) at 1 cycle each: shared bound 800 cycles, binding; conflict-free they need 100 x
// ceil(32 x 4 / 128) = 100 wavefronts, so the shared bound falls to 100 and issue (250) binds.
TEST(SassBounds, AConflictFreeSharedLayoutLowersTheSharedBoundToOneWavefrontPerWordAccess) {
  auto p = prediction();
  p.kernel.instructions[1].kind = trace::InstrKind::Load;
  p.kernel.instructions[1].space = trace::MemorySpace::Shared;
  p.kernel.instructions[1].accessBytes = 4;
  p.result.memory.sharedRequests = 100;
  p.result.memory.sharedWavefronts = 800;
  p.result.cycles = 900;
  p.config.sharedWavefrontCycles = 1;
  const auto b = analysis::boundsOf(p);
  EXPECT_EQ(b.binding, "shared memory");
  ASSERT_EQ(b.remedies.size(), 1u);
  const auto& r = b.remedies.front();
  EXPECT_EQ(r.resource, "shared memory");
  EXPECT_DOUBLE_EQ(r.cyclesBefore, 800);
  EXPECT_DOUBLE_EQ(r.cyclesAfter, 100);
  EXPECT_EQ(r.bindingAfter, "issue");
  EXPECT_DOUBLE_EQ(r.boundCyclesAfter, 250);
  // A 16-byte access (LDS.128) needs 4 wavefronts conflict-free: 400.
  p.kernel.instructions[1].accessBytes = 16;
  const auto wide = analysis::boundsOf(p);
  ASSERT_EQ(wide.remedies.size(), 1u);
  EXPECT_DOUBLE_EQ(wide.remedies.front().cyclesAfter, 400);
  EXPECT_EQ(wide.remedies.front().bindingAfter, "shared memory");
  // Shared atomics: their extra passes are lanes contending for a word (histogram bins), which no
  // layout removes: no remedy is offered.
  p.kernel.instructions[1].accessBytes = 4;
  p.kernel.instructions[1].kind = trace::InstrKind::Atomic;
  EXPECT_TRUE(analysis::boundsOf(p).remedies.empty());
  p.kernel.instructions[1].kind = trace::InstrKind::Load;
  // Already conflict-free (100 wavefronts for 100 word accesses): no remedy is offered.
  p.kernel.instructions[1].accessBytes = 4;
  p.result.memory.sharedWavefronts = 100;
  EXPECT_TRUE(analysis::boundsOf(p).remedies.empty());
}

// With the SASS's bank conflicts (300-cycle "issue + register banks" bound, binding): a register
// allocation without them brings the bound back to the issue bound, 250 cycles.
TEST(SassBounds, AConflictFreeRegisterAllocationFallsBackToTheIssueBound) {
  const auto b = analysis::sassBoundsOf(prediction(), facts(true));
  const analysis::Remedy* r = nullptr;
  for (const auto& x : b.remedies)
    if (x.resource == "issue + register banks") r = &x;
  ASSERT_NE(r, nullptr);
  EXPECT_DOUBLE_EQ(r->cyclesBefore, 300);
  EXPECT_DOUBLE_EQ(r->cyclesAfter, 250);
  EXPECT_DOUBLE_EQ(r->boundCyclesAfter, 250);  // issue and the conflict-free bank bound tie
}

// Same-address atomics (timing::MemoryCounters::atomicUnitBusyCycles): the busiest address's L2
// unit was busy 300 of the simulated blocks' cycles; the launch has twice the blocks simulated, so
// its bound is 600 cycles, which exceeds the issue bound (1000 x 2 / 4 = 500) and binds. Without
// the figure (timing.l2_atomic_cycles 0) there is no such unit and no such bound.
TEST(SassBounds, TheBusiestAtomicUnitIsABoundOfItsOwn) {
  auto p = prediction();
  p.result.blocksSimulated = 1;
  p.result.memory.atomicUnitBusyCycles = 300;
  p.config.l2AtomicCycles = 1;
  const auto b = analysis::boundsOf(p);
  const auto* atomics = find(b, "same-address atomics");
  ASSERT_NE(atomics, nullptr);
  EXPECT_DOUBLE_EQ(atomics->cycles, 600);
  EXPECT_DOUBLE_EQ(find(b, "issue")->cycles, 500);
  EXPECT_EQ(b.binding, "same-address atomics");
  p.config.l2AtomicCycles = 0;
  EXPECT_EQ(find(analysis::boundsOf(p), "same-address atomics"), nullptr);
}
