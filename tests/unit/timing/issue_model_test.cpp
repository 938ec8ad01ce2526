// The issue engine against hand-worked schedules (Lai §3.2.2: execution latency, multiple-warp
// issue latency, same-warp issue latency; seed 002 §1.1.2: a dependent MAD chain takes
// max(latency, warps × cycles per warp) per MAD).
#include <gtest/gtest.h>

#include <string>

#include "synthetic.hpp"
#include "teg/support/error.hpp"

using namespace teg::timing;
using namespace teg::timing::test;

namespace {

TEST(IssueModel, OneWarpDependentChainTakesLatencyPerInstruction) {
  // r1 = r1 * r2 + r3, 100 times: each waits for the previous one's 24-cycle latency.
  const auto kernel = kernelOf({alu({1}, {1, 2, 3})}, 1, 32);
  const auto r = runSynthetic(simpleConfig(24, 4, 8), {}, kernel, [](auto, auto) { return repeat(0, 100); });
  EXPECT_DOUBLE_EQ(r.cycles, 100 * 24.0);  // the last result is ready 24 cycles after its issue at 99·24
  EXPECT_EQ(r.warpInstructions, 100u);
}

TEST(IssueModel, OneWarpIndependentInstructionsAreLimitedBySameWarpInterval) {
  // No dependences: issue every max(same-warp 8, unit 4) = 8 cycles; the last completes 24 later.
  const auto kernel = kernelOf({alu({1}, {2, 3})}, 1, 32);
  const auto r = runSynthetic(simpleConfig(24, 4, 8), {}, kernel, [](auto, auto) { return repeat(0, 50); });
  EXPECT_DOUBLE_EQ(r.cycles, 49 * 8.0 + 24.0);
}

class ChainWarps : public ::testing::TestWithParam<int> {};

TEST_P(ChainWarps, CyclesPerInstructionIsMaxOfLatencyAndWarpsTimesInterval) {
  // Seed 002 Tables 2-3: W warps each running a dependent chain on one SM; per instruction the SM
  // needs max(latency, W × cycles per warp). Latency 24, 4 cycles per warp instruction.
  const int warps = GetParam();
  const std::size_t n = 200;
  const auto kernel = kernelOf({alu({1}, {1, 2, 3})}, 1, static_cast<std::uint32_t>(32 * warps));
  const auto r = runSynthetic(simpleConfig(24, 4, 1), {}, kernel, [&](auto, auto) { return repeat(0, n); });
  const double perInstruction = std::max(24.0, 4.0 * warps);
  // The last warp's last instruction issues (n-1)·period + 4·(W-1) after the start, then 24 more.
  const double expected = (n - 1) * perInstruction + 4.0 * (warps - 1) + 24.0;
  EXPECT_NEAR(r.cycles, expected, 1e-9) << warps << " warps";
}

INSTANTIATE_TEST_SUITE_P(Warps, ChainWarps, ::testing::Values(1, 2, 4, 6, 7, 8, 12, 16));

TEST(IssueModel, SchedulersWorkInParallelOnTheirOwnWarps) {
  // Four schedulers, four warps (one each), independent instructions at 1 per 2 cycles per unit.
  const auto kernel = kernelOf({alu({1}, {2})}, 1, 128);
  const auto one = runSynthetic(simpleConfig(4, 2, 1, 1), {}, kernel, [](auto, auto) { return repeat(0, 100); });
  const auto four = runSynthetic(simpleConfig(4, 2, 1, 4), {}, kernel, [](auto, auto) { return repeat(0, 100); });
  EXPECT_DOUBLE_EQ(one.cycles, 399 * 2.0 + 4.0);   // 400 warp instructions through one unit
  EXPECT_DOUBLE_EQ(four.cycles, 99 * 2.0 + 4.0);   // 100 per scheduler
}

TEST(IssueModel, BarrierHoldsTheBlockUntilTheLastWarpArrives) {
  // Warp 0: 10 dependent FMAs then bar; warp 1: bar at once; then one FMA each.
  const auto kernel = kernelOf({alu({1}, {1}), barrier()}, 1, 64);
  auto config = simpleConfig(10, 1, 1);
  config.barrierLatency = 5;
  const auto r = runSynthetic(config, {}, kernel, [](auto, std::uint32_t warp) {
    std::vector<std::uint32_t> pcs = warp == 0 ? repeat(0, 10) : std::vector<std::uint32_t>{};
    pcs.push_back(1);
    pcs.push_back(0);
    return pcs;
  });
  // Warp 0's FMAs issue at 0, 10, ..., 90; its bar needs no register, so it issues at 91 (same-
  // warp interval 1); warp 1 has waited there since cycle 1. Release at 91 + 5 = 96. Warp 1's FMA
  // issues at 96 (done 106); warp 0's needs r1 of its 10th FMA, ready at 100: done at 110.
  EXPECT_DOUBLE_EQ(r.cycles, 110.0);
  // Warp 1 waits at the barrier from cycle 2 to the last arrival at 91.
  EXPECT_NEAR(r.stalls[static_cast<int>(StallReason::Barrier)], 89.0, 1.0);
}

TEST(IssueModel, ABarrierReleasesTheWarpsOfEverySchedulerAtOnce) {
  // Two schedulers, one warp each. The late warp runs 3 dependent FMAs (issued at 0, 10, 20) and
  // ends with the barrier at 21; the other has waited there since cycle 0. The release at 21
  // (barrier latency 0) lets the waiting warp's scheduler, which has not issued at 21, issue at 21
  // whichever scheduler the last arrival came from: its two dependent FMAs go at 21 and 31, and the
  // kernel ends at 41.
  const auto kernel = kernelOf({alu({1}, {1}), barrier(), alu({2}, {2})}, 1, 64);
  for (const std::uint32_t late : {0u, 1u}) {
    const auto r = runSynthetic(simpleConfig(10, 1, 1, 2), {}, kernel, [&](auto, std::uint32_t warp) {
      return warp == late ? std::vector<std::uint32_t>{0, 0, 0, 1} : std::vector<std::uint32_t>{1, 2, 2};
    });
    EXPECT_DOUBLE_EQ(r.cycles, 41.0) << "last arrival on scheduler " << late;
  }
}

TEST(IssueModel, AZeroIssueIntervalIsAnErrorNotAHang) {
  const auto kernel = kernelOf({alu({1}, {2})}, 1, 32);
  auto config = simpleConfig(4, 1, 1);
  config.issueIntervalCycles = 0;
  try {
    runSynthetic(config, {}, kernel, [](auto, auto) { return repeat(0, 3); });
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("timing.issue_interval"), std::string::npos) << e.what();
  }
}

// Issue times of block 0's warp `warp`, from the timeline.
std::vector<double> issueTimes(const TimingResult& r, std::uint32_t warp) {
  std::vector<double> times;
  for (const auto& e : r.timeline)
    if (e.block == 0 && e.warp == warp) times.push_back(e.issue);
  return times;
}

TEST(IssueModel, SchedulerPoliciesPickTheWarpsTheirRulesName) {
  // One scheduler, latency 4, one issue per cycle. Warp 0 (the older): A (r1), B needing r1
  // (ready at 4), then C; warp 1: six independent instructions. Worked by hand:
  //   t   0   1   2   3   4   5   6   7   8
  //   LRR w0  w1  w1  w1  w0  w1  w0  w1  w1   the next eligible warp after the last issued one
  //   GTO w0  w1  w1  w1  w1  w1  w1  w0  w0   the last issued warp while it can, then the oldest
  //   OF  w0  w1  w1  w1  w0  w0  w1  w1  w1   the oldest eligible warp
  const auto kernel = kernelOf({alu({1}, {2}), alu({3}, {1}), alu({4}, {2})}, 1, 64);
  const auto pcs = [](auto, std::uint32_t warp) {
    return warp == 0 ? std::vector<std::uint32_t>{0, 1, 2} : repeat(2, 6);
  };
  struct Case {
    SchedulerPolicy policy;
    std::vector<double> warp0, warp1;
  };
  for (const Case& c : {Case{SchedulerPolicy::LooseRoundRobin, {0, 4, 6}, {1, 2, 3, 5, 7, 8}},
                        Case{SchedulerPolicy::GreedyThenOldest, {0, 7, 8}, {1, 2, 3, 4, 5, 6}},
                        Case{SchedulerPolicy::OldestFirst, {0, 4, 5}, {1, 2, 3, 6, 7, 8}}}) {
    auto config = simpleConfig(4, 1, 1);
    config.policy = c.policy;
    const auto r = runSynthetic(config, {}, kernel, pcs);
    EXPECT_EQ(issueTimes(r, 0), c.warp0) << schedulerPolicyName(c.policy);
    EXPECT_EQ(issueTimes(r, 1), c.warp1) << schedulerPolicyName(c.policy);
    EXPECT_DOUBLE_EQ(r.cycles, 12.0);  // the last issue at 8, done 4 later
  }
}

TEST(IssueModel, GreedyThenYoungestStartsWithTheYoungestWarpAndKeepsIt) {
  // The kernel of SchedulerPoliciesPickTheWarpsTheirRulesName. Greedy-then-youngest (Huerta et al.
  // 2025 §5.1.2, RTX A6000: the scheduler starts with the youngest warp and stays with a warp while
  // it can issue; when it switches, it takes the youngest eligible one). Worked by hand:
  //   t    0   1   2   3   4   5   6   7-9        10  11
  //   GTY  w1  w1  w1  w1  w1  w1  w0(A)  (B waits for r1)  w0(B) w0(C)
  // Warp 1 (the younger) issues its six instructions first; warp 0's B waits for A's result
  // (6 + 4 = 10); the last issue at 11 is done 4 later: 15 cycles (12 under the other policies).
  const auto kernel = kernelOf({alu({1}, {2}), alu({3}, {1}), alu({4}, {2})}, 1, 64);
  const auto pcs = [](auto, std::uint32_t warp) {
    return warp == 0 ? std::vector<std::uint32_t>{0, 1, 2} : repeat(2, 6);
  };
  auto config = simpleConfig(4, 1, 1);
  config.policy = SchedulerPolicy::GreedyThenYoungest;
  const auto r = runSynthetic(config, {}, kernel, pcs);
  EXPECT_EQ(issueTimes(r, 0), (std::vector<double>{6, 10, 11}));
  EXPECT_EQ(issueTimes(r, 1), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_DOUBLE_EQ(r.cycles, 15.0);
  EXPECT_STREQ(schedulerPolicyName(SchedulerPolicy::GreedyThenYoungest), "greedy-then-youngest");
}

TEST(IssueModel, AWarpIsNotSelectedInTheIssueSlotItLostThenThrottledByTheBusyUnit) {
  // One scheduler, two warps of two independent instructions on a unit busy 4 cycles per
  // instruction (latency 4, same-warp interval 1). The unit decides: w0 at 0, w1 at 4, w0 at 8,
  // w1 at 12, done at 16. At 0, 4 and 8 the other warp could have issued and was not picked:
  // not_selected for that issue cycle (Nsight Compute's meaning), then math_pipe_throttle while
  // the unit works for the winner. Per warp, between its issues:
  //   w0: 1-4 throttle (its own unit is busy), 4-5 not selected, 5-8 throttle;
  //   w1: 0-1 not selected, 1-4 throttle, 5-8 throttle, 8-9 not selected, 9-12 throttle.
  // math_pipe_throttle 15, not_selected 3, selected 4 (one per issue), nothing else.
  const auto kernel = kernelOf({alu({1}, {2})}, 1, 64);
  const auto r = runSynthetic(simpleConfig(4, 4, 1), {}, kernel, [](auto, auto) { return repeat(0, 2); });
  EXPECT_DOUBLE_EQ(r.cycles, 16.0);
  EXPECT_EQ(issueTimes(r, 0), (std::vector<double>{0, 8}));
  EXPECT_EQ(issueTimes(r, 1), (std::vector<double>{4, 12}));
  const auto stalls = [&](StallReason reason) { return r.stalls[static_cast<std::size_t>(reason)]; };
  EXPECT_DOUBLE_EQ(stalls(StallReason::MathPipeThrottle), 15.0);
  EXPECT_DOUBLE_EQ(stalls(StallReason::NotSelected), 3.0);
  EXPECT_DOUBLE_EQ(stalls(StallReason::Selected), 4.0);
  double all = 0;
  for (const double s : r.stalls) all += s;
  EXPECT_DOUBLE_EQ(all, 22.0);  // w0 live 0-9 and w1 0-13, up to the end of their last issue cycle
}

TEST(IssueModel, StallReasonsAddUpToWarpCycles) {
  const auto kernel = kernelOf({alu({1}, {1, 2, 3})}, 1, 64);
  const auto r = runSynthetic(simpleConfig(24, 4, 1), {}, kernel, [](auto, auto) { return repeat(0, 100); });
  double total = 0;
  for (double s : r.stalls) total += s;
  // Two warps live for (almost) the whole run; each accounts for every cycle it is live.
  EXPECT_NEAR(total, 2 * r.cycles, 2 * 24.0 + 8);
  EXPECT_DOUBLE_EQ(r.stalls[static_cast<int>(StallReason::Selected)], 200.0);
  EXPECT_EQ(r.bound, "latency");
}

}  // namespace

TEST(IssueModel, AStoreIsPostedAndAMemoryInstructionWithNoLaneMakesNoOneWait) {
  // One warp: r1 = r1 * r2 + r3 (latency 24), a global store of r1 (the block's last instruction),
  // so the block ends when the store leaves for the LSU: issued at 24 (after the FMA's result),
  // busy for its unit interval (4 cycles): 28, whatever the configured execution latencies. Before,
  // the store "completed" one LD/ST class latency (a figure no GPU has: fp32's taken) after issue.
  const auto kernel = kernelOf({alu({1}, {1, 2, 3}), memory(teg::trace::InstrKind::Store, teg::trace::MemorySpace::Global, {}, {4, 1})}, 1, 32);
  const auto lanes = [](std::uint32_t, std::uint32_t, std::size_t, int lane) { return 0x1000ull + 4ull * static_cast<std::uint64_t>(lane); };
  auto config = simpleConfig(24, 4, 1);
  const auto a = runSynthetic(config, {}, kernel, [](auto, auto) { return everyPc(2); }, lanes);
  config.executionLatency[static_cast<std::size_t>(InstructionClass::LoadStore)] = 500;
  const auto b = runSynthetic(config, {}, kernel, [](auto, auto) { return everyPc(2); }, lanes);
  EXPECT_DOUBLE_EQ(a.cycles, 24 + 4.0);
  EXPECT_DOUBLE_EQ(b.cycles, a.cycles);
  // A load whose lanes are all off (guard false everywhere) writes no register: its consumer
  // issues on the next cycle the warp may issue (same-warp interval 1), not after a latency.
  const auto k2 = kernelOf({memory(teg::trace::InstrKind::Load, teg::trace::MemorySpace::Global, {5}, {2}), alu({6}, {5, 2})}, 1, 32);
  const auto c = runSynthetic(config, {}, k2, [](auto, auto) { return everyPc(2); }, lanes,
                              [](std::uint32_t, std::uint32_t, std::size_t i) { return i == 0 ? 0u : 0xFFFFFFFFu; });
  EXPECT_DOUBLE_EQ(c.cycles, 1 + 24.0);
}
