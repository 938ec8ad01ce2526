// The engine on SASS traces (KernelInfo::isa == Sass) against hand-worked schedules: ptxas's
// control words decide (Jia et al. 2018, arXiv:1804.06826, "control information"): a warp's next
// instruction issues no earlier than `stall` cycles after this one, a variable-latency
// instruction sets its write barrier until its result is written and its read barrier until its
// sources have been read, an instruction waits for every barrier in its wait mask, and sources
// read from the same register bank beyond its read ports cost a cycle unless the operand-reuse
// cache holds them. The register scoreboard and the PTX-side approximations are not used.
#include <gtest/gtest.h>

#include "synthetic.hpp"

using namespace teg;
using namespace teg::timing;
using namespace teg::timing::test;

namespace {

trace::ControlWord control(int stall, int write = -1, int read = -1, std::uint8_t wait = 0, std::uint8_t reuse = 0) {
  trace::ControlWord c;
  c.stall = static_cast<std::uint8_t>(stall);
  c.writeBarrier = static_cast<std::int8_t>(write);
  c.readBarrier = static_cast<std::int8_t>(read);
  c.waitMask = wait;
  c.reuse = reuse;
  return c;
}

trace::StaticInstruction withControl(trace::StaticInstruction s, trace::ControlWord c, trace::OperandSlots slots = trace::kNoOperandSlots) {
  s.control = c;
  s.sourceSlots = slots;
  return s;
}

trace::KernelInfo sassKernel(std::vector<trace::StaticInstruction> instructions, std::uint32_t threads = 32) {
  auto k = kernelOf(std::move(instructions), 1, threads);
  k.isa = trace::Isa::Sass;
  return k;
}

EngineOptions withTimeline() {
  EngineOptions o;
  o.timelineWarps = 4;
  o.timelineInstructions = 1000;
  return o;
}

std::vector<TimelineEntry> ofWarp(const TimingResult& r, std::uint32_t warp) {
  std::vector<TimelineEntry> out;
  for (const auto& e : r.timeline)
    if (e.warp == warp) out.push_back(e);
  return out;
}

// A shared load of lane * 4: one conflict-free wavefront.
std::uint64_t laneWords(std::uint32_t, std::uint32_t, std::size_t, int lane) { return static_cast<std::uint64_t>(lane) * 4; }

TEST(SassTiming, DependentFfmaChainIssuesEveryStallCycles) {
  // FFMA R1 = R1 * R2 + R3 with S04, 100 times. ptxas's stall count covers the dependence: issue
  // every 4 cycles (0, 4, ..., 396); the last result is written 6 cycles (the config's latency)
  // later: 402. The PTX path waits for each result on the register scoreboard: 100 × 6 = 600.
  const auto ffma = withControl(alu({1}, {1, 2, 3}), control(4));
  const auto config = simpleConfig(6, 1, 1);
  const auto sass = runSynthetic(config, {}, sassKernel({ffma}), [](auto, auto) { return repeat(0, 100); });
  EXPECT_DOUBLE_EQ(sass.cycles, 99 * 4.0 + 6.0);
  EXPECT_EQ(sass.isa, trace::Isa::Sass);
  auto ptxKernel = sassKernel({ffma});
  ptxKernel.isa = trace::Isa::Ptx;  // the same records read as PTX: the control word means nothing there
  const auto ptx = runSynthetic(config, {}, ptxKernel, [](auto, auto) { return repeat(0, 100); });
  EXPECT_DOUBLE_EQ(ptx.cycles, 100 * 6.0);
  EXPECT_EQ(ptx.isa, trace::Isa::Ptx);
}

TEST(SassTiming, StallCountsHoldOnlyTheirOwnWarp) {
  // Two warps on one scheduler, each an S04 chain of 100: they interleave, warp 0 at 0, 4, 8...,
  // warp 1 at 1, 5, 9...; the last issue is warp 1's at 99 × 4 + 1, its result 6 cycles later.
  const auto ffma = withControl(alu({1}, {1, 2, 3}), control(4));
  const auto r = runSynthetic(simpleConfig(6, 1, 1), withTimeline(), sassKernel({ffma}, 64),
                              [](auto, auto) { return repeat(0, 100); });
  EXPECT_DOUBLE_EQ(r.cycles, 99 * 4.0 + 1.0 + 6.0);
  const auto w1 = ofWarp(r, 1);
  ASSERT_GE(w1.size(), 2u);
  EXPECT_DOUBLE_EQ(w1[0].issue, 1.0);
  EXPECT_DOUBLE_EQ(w1[1].issue, 5.0);
}

TEST(SassTiming, ConsumerOfASharedLoadWaitsForItsWriteBarrier) {
  // LDS R4 sets W2 (S01); an independent FFMA (S01); the FFMA reading R4 waits on barrier 2.
  // The LDS at 0 writes R4 at the shared latency, 20 (one wavefront); the independent FFMA issues
  // at 1, the consumer at 20 and ends at 20 + 6.
  const auto lds = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Shared, {4}, {2}), control(1, 2));
  const auto independent = withControl(alu({5}, {6, 7}), control(1));
  const auto consumer = withControl(alu({8}, {4, 5}), control(1, -1, -1, 1u << 2));
  const auto r = runSynthetic(simpleConfig(6, 1, 1), withTimeline(), sassKernel({lds, independent, consumer}),
                              [](auto, auto) { return everyPc(3); }, laneWords);
  const auto t = ofWarp(r, 0);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t[0].complete, 20.0);
  EXPECT_DOUBLE_EQ(t[1].issue, 1.0);
  EXPECT_DOUBLE_EQ(t[2].issue, 20.0);
  EXPECT_DOUBLE_EQ(r.cycles, 26.0);
  // Its wait from cycle 2 (after the FFMA at 1) to 20 is on the short scoreboard (a shared load).
  EXPECT_DOUBLE_EQ(r.stalls[static_cast<int>(StallReason::ShortScoreboard)], 18.0);
}

TEST(SassTiming, ConsumerOfAGlobalLoadWaitsExactlyUntilTheLoadCompletes) {
  // LDG R4 sets W2; the consumer waits on barrier 2 and issues when the memory system writes R4,
  // whenever that is; a long-scoreboard wait. An instruction reading R4 without the wait bit is
  // not held (the engine follows ptxas's control words, not the registers).
  const auto ldg = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Global, {4}, {2}), control(1, 2));
  const auto unguarded = withControl(alu({5}, {4}), control(1));
  const auto consumer = withControl(alu({8}, {4, 5}), control(1, -1, -1, 1u << 2));
  const auto r = runSynthetic(simpleConfig(6, 1, 1), withTimeline(), sassKernel({ldg, unguarded, consumer}),
                              [](auto, auto) { return everyPc(3); }, laneWords);
  const auto t = ofWarp(r, 0);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_GT(t[0].complete, 100.0);  // a miss to L2/DRAM in this config
  EXPECT_DOUBLE_EQ(t[1].issue, 1.0);
  EXPECT_DOUBLE_EQ(t[2].issue, t[0].complete);
  EXPECT_DOUBLE_EQ(r.stalls[static_cast<int>(StallReason::LongScoreboard)], t[0].complete - 2.0);
}

TEST(SassTiming, AConstantLoadWithoutAWriteBarrierDoesNotQueueForTheLsu) {
  // ULDC.64 UR4, c[0x0][0x178] (S01, no barrier: ptxas uses UR4 under the stall count) then LDG
  // (S01, W0). With the LSU taking 10 cycles per instruction, a ULDC that queued there would hold
  // the LDG to cycle 10 (lg_throttle); fixed-latency, it is an operand fetch on the integer pipe
  // and the LDG issues at 1. LDC R4, c[0x0][0x160] with W1 (variable latency: its consumer waits
  // on the barrier) is a request to the LSU: the LDG after it issues at 10.
  auto config = simpleConfig(6, 1, 1);
  config.unitInterval[static_cast<std::size_t>(InstructionClass::LoadStore)] = 10;
  const auto uldc = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Constant, {20}, {}, 8), control(1));
  const auto ldc = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Constant, {20}, {}, 8), control(1, 1));
  const auto ldg = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Global, {4}, {2}), control(1, 0));
  const auto issueOfLdg = [&](const trace::StaticInstruction& constant) {
    const auto r = runSynthetic(config, withTimeline(), sassKernel({constant, ldg}), [](auto, auto) { return everyPc(2); },
                                laneWords);
    const auto t = ofWarp(r, 0);
    return t.size() == 2 ? t[1].issue : -1.0;
  };
  EXPECT_DOUBLE_EQ(issueOfLdg(uldc), 1.0);
  EXPECT_DOUBLE_EQ(issueOfLdg(ldc), 10.0);
}

TEST(SassTiming, AnInstructionWhoseGuardIsFalseOnEveryLaneMovesNoData) {
  // ptxas if-converts `if (never) smem[tid] = B[tid];` into `@P0 LDG R2 (W0); @P0 STS [R9], R2
  // (waits on W0)`. With P0 false on the whole warp, "instructions with a false predicate do not
  // write results, and also do not evaluate addresses or read operands" (CUDA C++ Programming
  // Guide, "Branch Predication"): the LDG issues at 0 and clears W0 at once (it makes no access
  // and writes nothing; there is no LD/ST class latency), not after a trip to the L2 (200); the
  // STS issues at 1 (the LDG's stall count), the FADD at 2 (done at 2 + 6 = 8). Neither memory
  // instruction occupies the LSU or the shared pipe, nor counts as a request.
  const auto ldg = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Global, {2}, {2}), control(1, 0));
  const auto sts = withControl(memory(trace::InstrKind::Store, trace::MemorySpace::Shared, {}, {9, 2}), control(1, -1, -1, 1u << 0));
  const auto fadd = withControl(alu({5}, {6}), control(1));
  const auto guardFalse = [](auto, auto, std::size_t i) { return i < 2 ? 0u : 0xFFFFFFFFu; };
  const auto r = runSynthetic(simpleConfig(6, 1, 1), withTimeline(), sassKernel({ldg, sts, fadd}),
                              [](auto, auto) { return everyPc(3); }, laneWords, guardFalse);
  const auto t = ofWarp(r, 0);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t[0].complete, 0.0);
  EXPECT_DOUBLE_EQ(t[1].issue, 1.0);
  EXPECT_DOUBLE_EQ(t[2].issue, 2.0);
  EXPECT_DOUBLE_EQ(r.cycles, 8.0);
  EXPECT_EQ(r.memory.globalLoads, 0u);
  EXPECT_EQ(r.memory.sharedRequests, 0u);
  // The same instructions with every lane on: the load goes to the L2 (a miss here) and the
  // store waits for it.
  const auto on = runSynthetic(simpleConfig(6, 1, 1), withTimeline(), sassKernel({ldg, sts, fadd}),
                               [](auto, auto) { return everyPc(3); }, laneWords);
  EXPECT_GT(ofWarp(on, 0)[1].issue, 200.0);
  EXPECT_EQ(on.memory.globalLoads, 1u);
}

TEST(SassTiming, AChaseHopIsTheLoadPlusPtxasStallsOfItsAddressArithmetic) {
  // The DRAM chase of data/validation/kernels/pointer_chase.cu (coldChase, p += 4096 + *p) as
  // ptxas 13 writes it for sm_75 (control words decoded from nvdisasm -hex):
  //   LDG.E.64 R6, [R8]          W2, S02
  //   IADD3 R10, P1, R6, R8, RZ  waits on 2, S05
  //   IMAD.X R11, R7, 0x1, R9, P1            S08
  //   LDG.E.64 R6, [R10+0x1000]  ...
  // A hop is the load's latency (an L2 hit here, 200) plus the two stall counts, 5 + 8: 213. The
  // PTX path times the same chain as two dependent add.s64 at the class latency (4 here): 208.
  // This is why the DRAM chase rows of the latency suites come out a few cycles longer on SASS:
  // the hardware honours ptxas's stall counts, longer than the documented latencies.
  using trace::InstrKind;
  using trace::MemorySpace;
  std::vector<trace::StaticInstruction> hops;
  for (int h = 0; h < 3; ++h) {
    const std::uint32_t from = h % 2 == 0 ? 8 : 10, to = h % 2 == 0 ? 10 : 8;
    hops.push_back(withControl(memory(InstrKind::Load, MemorySpace::Global, {6, 7}, {from, from + 1}, 8), control(2, 2)));
    const std::uint32_t carry = 100;  // P1: the IADD3's carry out, the IMAD.X's carry in
    hops.push_back(withControl(alu({to, carry}, {6, from}, InstructionClass::IntAdd), control(5, -1, -1, 1u << 2)));
    hops.push_back(withControl(alu({to + 1}, {7, from + 1, carry}, InstructionClass::IntMul), control(8)));
  }
  auto config = simpleConfig(4, 1, 1);
  config.forcedL2HitRate = 1;
  const auto lineApart = [](auto, auto, std::size_t i, int) { return std::uint64_t{4096} * (i + 1); };
  auto kernel = sassKernel(hops, 1);
  const auto sass = ofWarp(runSynthetic(config, withTimeline(), kernel, [](auto, auto) { return everyPc(9); }, lineApart), 0);
  ASSERT_EQ(sass.size(), 9u);
  EXPECT_DOUBLE_EQ(sass[0].complete - sass[0].issue, 200.0);
  EXPECT_DOUBLE_EQ(sass[3].issue - sass[0].issue, 200.0 + 5 + 8);
  EXPECT_DOUBLE_EQ(sass[6].issue - sass[3].issue, 200.0 + 5 + 8);
  kernel.isa = trace::Isa::Ptx;
  const auto ptx = ofWarp(runSynthetic(config, withTimeline(), kernel, [](auto, auto) { return everyPc(9); }, lineApart), 0);
  ASSERT_EQ(ptx.size(), 9u);
  EXPECT_DOUBLE_EQ(ptx[6].issue - ptx[3].issue, 200.0 + 4 + 4);
}

TEST(SassTiming, ABarrierSetByTwoLoadsClearsWhenTheLaterIsDone) {
  // Two LDS set W0 (at 0 and 1; shared pipe 2 cycles a wavefront, so the second starts at 2):
  // done at 20 and 2 + 20 = 22. The consumer waits for both (the barrier is a counter).
  const auto lds = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Shared, {4}, {2}), control(1, 0));
  const auto lds2 = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Shared, {5}, {2}), control(1, 0));
  const auto consumer = withControl(alu({8}, {4, 5}), control(1, -1, -1, 1u << 0));
  const auto r = runSynthetic(simpleConfig(6, 1, 1), withTimeline(), sassKernel({lds, lds2, consumer}),
                              [](auto, auto) { return everyPc(3); }, laneWords);
  const auto t = ofWarp(r, 0);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t[1].issue, 2.0);
  EXPECT_DOUBLE_EQ(t[1].complete, 22.0);
  EXPECT_DOUBLE_EQ(t[2].issue, 22.0);
}

// cp.async.wait_group N (DEPBAR.LE SB0, N) waits for every committed group but the N most recent
// (PTX ISA cp.async.wait_group). Two groups of one copy each (LDS standing for the copies: W0, done
// at 20 and 22 as above), each closed by a commit (LDGDEPBAR: an ALU op setting W0, done 6 cycles
// after its issue at 1 and 3); then one wait. N = 1 waits for the first group only, max(20, 7) =
// 20; N = 0 (the wait mask) for both, 22; N = 2 for none: it issues at 4, after the S01 before it.
std::vector<TimelineEntry> copyGroupsThenWait(int keep) {
  const auto copy1 = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Shared, {4}, {2}), control(1, 0));
  const auto copy2 = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Shared, {5}, {2}), control(1, 0));
  auto commit = control(1, 0);
  commit.commitGroup = true;
  auto wait = control(1, -1, -1, keep == 0 ? 1u << 0 : 0);
  if (keep > 0) {
    wait.groupWaitBarrier = 0;
    wait.groupWaitKeep = static_cast<std::uint8_t>(keep);
  }
  const auto r = runSynthetic(simpleConfig(6, 1, 1), withTimeline(),
                              sassKernel({copy1, withControl(alu({}, {}), commit), copy2, withControl(alu({}, {}), commit),
                                          withControl(alu({}, {}), wait)}),
                              [](auto, auto) { return everyPc(5); }, laneWords);
  return ofWarp(r, 0);
}

TEST(SassTiming, WaitGroupNWaitsForAllButTheNMostRecentCopyGroups) {
  const auto one = copyGroupsThenWait(1);
  ASSERT_EQ(one.size(), 5u);
  EXPECT_DOUBLE_EQ(one[0].complete, 20.0);
  EXPECT_DOUBLE_EQ(one[2].complete, 22.0);
  EXPECT_DOUBLE_EQ(one[4].issue, 20.0);
  EXPECT_DOUBLE_EQ(copyGroupsThenWait(0)[4].issue, 22.0);
  EXPECT_DOUBLE_EQ(copyGroupsThenWait(2)[4].issue, 4.0);
}

TEST(SassTiming, ReadBarrierClearsWhenTheSourcesHaveLeftForThePipe) {
  // STS [R2], R4 sets read barrier 1; the next instruction overwrites R4 and waits on it. The
  // store's sources leave with its wavefront (2 cycles in the shared pipe): the writer issues
  // at 2, not at 1 as its stall count alone would allow, and long before the store's latency.
  const auto sts = withControl(memory(trace::InstrKind::Store, trace::MemorySpace::Shared, {}, {2, 4}), control(1, -1, 1));
  const auto writer = withControl(alu({4}, {6}), control(1, -1, -1, 1u << 1));
  const auto r = runSynthetic(simpleConfig(6, 1, 1), withTimeline(), sassKernel({sts, writer}),
                              [](auto, auto) { return everyPc(2); }, laneWords);
  const auto t = ofWarp(r, 0);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_DOUBLE_EQ(t[1].issue, 2.0);
}

// Independent FFMAs R6 = R97 * R99 + Rc, S01, 100 times, with the given third source and reuse
// flags, on a config with Volta's two banks of two reads (or none).
TimingResult ffmaStream(int third, std::uint8_t reuse, int banks) {
  auto config = simpleConfig(6, 1, 1);
  config.registerBanks = banks;
  config.registerBankReads = 2;
  const auto ffma = withControl(alu({6}, {97, 99, static_cast<std::uint32_t>(third)}), control(1, -1, -1, 0, reuse),
                                {97, 99, static_cast<std::int16_t>(third), -1});
  return runSynthetic(config, {}, sassKernel({ffma}), [](auto, auto) { return repeat(0, 100); });
}

TEST(SassTiming, ThreeSourcesInOneBankCostACycleEach) {
  // R97, R99, R101 are all in bank 1: three reads from a bank of two ports, one extra cycle per
  // FFMA (Jia 2018's FFMA R6, R97, R99, RX experiment). Issue every 2 cycles: the last at 198,
  // its result 1 + 6 later.
  const auto conflicting = ffmaStream(101, 0, 2);
  EXPECT_DOUBLE_EQ(conflicting.cycles, 198.0 + 1.0 + 6.0);
  EXPECT_DOUBLE_EQ(conflicting.registerBankConflictCycles, 100.0);
  // R100 is in bank 0: two reads from bank 1, no conflict: one a cycle, last at 99.
  const auto spread = ffmaStream(100, 0, 2);
  EXPECT_DOUBLE_EQ(spread.cycles, 99.0 + 6.0);
  EXPECT_DOUBLE_EQ(spread.registerBankConflictCycles, 0.0);
}

TEST(SassTiming, TheReuseCacheRemovesTheConflict) {
  // Slot a (R97) flagged for reuse: the first FFMA reads all three from bank 1 (1 extra cycle),
  // every later one takes R97 from the reuse cache and reads two: issues at 0, 2, 3, ..., 100.
  const auto r = ffmaStream(101, 0b0001, 2);
  EXPECT_DOUBLE_EQ(r.registerBankConflictCycles, 1.0);
  EXPECT_DOUBLE_EQ(r.cycles, 100.0 + 6.0);
}

TEST(SassTiming, NoBankConflictsWhereTheGenerationHasNoPublishedMapping) {
  const auto r = ffmaStream(101, 0, 0);
  EXPECT_DOUBLE_EQ(r.registerBankConflictCycles, 0.0);
  EXPECT_DOUBLE_EQ(r.cycles, 99.0 + 6.0);
}

TEST(SassTiming, ThePtxSideApproximationsAreNotApplied) {
  // A multiply marked as fused into the add after it, and a global load after arithmetic it does
  // not depend on: on PTX the engine fuses the pair and hoists the load; SASS is what ptxas made,
  // replayed as it is: three instructions in trace order.
  auto mul = withControl(alu({1}, {2, 3}), control(1));
  mul.fusedInto = 1;
  const auto add = withControl(alu({4}, {1, 5}), control(1));
  const auto ldg = withControl(memory(trace::InstrKind::Load, trace::MemorySpace::Global, {7}, {8}), control(1, 0));
  auto config = simpleConfig(6, 1, 1);
  config.fuseMultiplyAdds = true;
  config.hoistLoads = true;
  const auto r = runSynthetic(config, withTimeline(), sassKernel({mul, add, ldg}), [](auto, auto) { return everyPc(3); },
                              laneWords);
  EXPECT_EQ(r.warpInstructions, 3u);
  const auto t = ofWarp(r, 0);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].pc, 0u);
  EXPECT_EQ(t[1].pc, 1u);
  EXPECT_EQ(t[2].pc, 2u);
  auto ptx = sassKernel({mul, add, ldg});
  ptx.isa = trace::Isa::Ptx;
  const auto p = runSynthetic(config, withTimeline(), ptx, [](auto, auto) { return everyPc(3); }, laneWords);
  EXPECT_EQ(p.warpInstructions, 2u);  // the multiply went into the add
  EXPECT_EQ(ofWarp(p, 0).front().pc, 2u);  // the load moved up
}

}  // namespace
