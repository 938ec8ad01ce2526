// The SM-wide LSU shared by the schedulers, worked by hand: its requests are served in turn, not
// always scheduler 0's first (src/timing/sm_model.cpp, the rotating first scheduler).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;

TEST(LsuArbitration, TwoSchedulersLoadsTakeTheLsuInTurn) {
  // One block of 2 warps on 2 schedulers (warp w on scheduler w), each issuing 8 independent
  // loads of one 128-byte line of its own. The LSU moves 32 B a cycle: a load holds it 4 cycles,
  // so the 16 loads issue at 0, 4, ..., 60 and the LSU never idles. Taken in turn, the warps
  // alternate: their last loads issue at 56 and 60, one LSU slot apart. Scheduler 0 always
  // served first would give warp 0 the first 8 slots (last at 28) and warp 1 the rest (60), and a
  // kernel whose warps go on to dependent work would see warp 1 start it 32 cycles late.
  auto config = simpleConfig(4, 1, 1, 2);
  config.lsuBytesPerCycle = 32;
  EngineOptions options;
  options.timelineWarps = 2;
  const auto kernel = kernelOf(independentGlobalLoads(8), 1, 64);
  const auto r = runSynthetic(
      config, options, kernel, [](auto, auto) { return everyPc(8); },
      [](std::uint32_t, std::uint32_t warp, std::size_t i, int lane) {
        return 0x10000000ull + (warp * 8ull + i) * 128 + static_cast<std::uint64_t>(lane) * 4;
      });
  std::map<std::uint32_t, double> lastIssue;
  int loads = 0;
  for (const auto& e : r.timeline) {
    lastIssue[e.warp] = std::max(lastIssue[e.warp], e.issue);
    ++loads;
  }
  ASSERT_EQ(loads, 16);
  ASSERT_EQ(lastIssue.size(), 2u);
  EXPECT_DOUBLE_EQ(std::max(lastIssue[0], lastIssue[1]), 60.0);
  EXPECT_DOUBLE_EQ(std::min(lastIssue[0], lastIssue[1]), 56.0);
}
