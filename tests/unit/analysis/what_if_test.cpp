// What-if switches (Lai §3.4): each form's effect on the timing configuration, worked by hand,
// and the errors a mistyped or impossible switch gets.
#include <gtest/gtest.h>

#include "teg/analysis/what_if.hpp"
#include "teg/support/error.hpp"

using namespace teg::analysis;
using teg::timing::TimingConfig;

namespace {

// A 100-SM, 1000 MHz GPU with 10 B per SM cycle of DRAM (1000 GB/s) and a 500-cycle DRAM latency.
TimingConfig baseConfig() {
  TimingConfig c;
  c.smCount = 100;
  c.clockMhz = 1000;
  c.dramBytesPerCycle = 10;
  c.dramLatency = 500;
  c.sectorBytes = 32;
  return c;
}

TimingConfig applied(const std::string& spec, int warpsPerBlock = 8, int residentBlocks = 8) {
  TimingConfig c = baseConfig();
  applyWhatIf(spec, warpsPerBlock, residentBlocks, c);
  return c;
}

std::string errorOf(const std::string& spec, int warpsPerBlock = 8, int residentBlocks = 8) {
  try {
    applied(spec, warpsPerBlock, residentBlocks);
  } catch (const teg::Error& e) {
    return e.what();
  }
  return "";
}

TEST(WhatIf, DramBandwidthFactorScalesTheShareAndCmem) {
  const TimingConfig c = applied("dram-bw=x2");
  EXPECT_DOUBLE_EQ(c.dramBytesPerCycle, 20);
  // Lai eq. 3.2: C_mem = bandwidth x latency / sector = 20 x 500 / 32 = 312.5 -> 313 sectors.
  EXPECT_EQ(c.maxOutstandingSectors, 313);
}

TEST(WhatIf, DramBandwidthInGbPerSecondIsSharedAmongTheSms) {
  // 2000 GB/s over 100 SMs at 1000 MHz: 2e12 / (100 x 1e9) = 20 B per SM cycle.
  EXPECT_DOUBLE_EQ(applied("dram-bw=2000").dramBytesPerCycle, 20);
}

TEST(WhatIf, WarpsKeepWholeBlocks) {
  EXPECT_EQ(applied("warps=16").maxResidentBlocks, 2);
  EXPECT_EQ(applied("warps=23").maxResidentBlocks, 2);  // a third block of 8 warps does not fit in 23
  EXPECT_EQ(applied("warps=64").maxResidentBlocks, 8);  // exactly what occupancy allows
}

TEST(WhatIf, WarpsAboveTheOccupancyLimitAreRefusedWithTheLimit) {
  const std::string e = errorOf("warps=72");
  EXPECT_NE(e.find("at most 64 warps"), std::string::npos) << e;
  EXPECT_NE(e.find("8 blocks of 8 warps"), std::string::npos) << e;
  // Without a known limit the switch is taken as given.
  EXPECT_EQ(applied("warps=72", 8, 0).maxResidentBlocks, 9);
}

TEST(WhatIf, WarpsFewerThanOneBlockAreRefused) {
  EXPECT_NE(errorOf("warps=4").find("a block of this kernel has 8 warps"), std::string::npos);
  EXPECT_NE(errorOf("warps=0").find("positive integer"), std::string::npos);
  EXPECT_NE(errorOf("warps=2.5").find("positive integer"), std::string::npos);
}

TEST(WhatIf, SwitchesWithoutValues) {
  EXPECT_TRUE(applied("no-bank-conflicts").noBankConflicts);
  EXPECT_TRUE(applied("perfect-coalescing").perfectCoalescing);
  EXPECT_TRUE(applied("no-divergence").noDivergence);
  TimingConfig partitioned = baseConfig();
  partitioned.dramPartitions = 8;
  partitioned.dramPartitionBytes = 256;
  applyWhatIf("no-partition-camping", 8, 8, partitioned);
  EXPECT_EQ(partitioned.dramPartitions, 1);  // one pipe: no skew
  EXPECT_FALSE(applied("fma-contraction=off").fuseMultiplyAdds);
  const TimingConfig noL1 = applied("l1=off");
  EXPECT_FALSE(noL1.l1CachesGlobalLoads);
  EXPECT_EQ(noL1.l1Bytes, 0);
}

TEST(WhatIf, FiguresAreSetAsGiven) {
  EXPECT_DOUBLE_EQ(applied("l2-hit=0.25").forcedL2HitRate, 0.25);
  EXPECT_DOUBLE_EQ(applied("issue-interval=2").issueIntervalCycles, 2);
  const TimingConfig c = applied("latency.fp32_fma=6");
  EXPECT_DOUBLE_EQ(c.executionLatency[static_cast<std::size_t>(teg::device::InstructionClass::Fp32Fma)], 6);
}

TEST(WhatIf, BadValuesNameTheSwitchAndTheRule) {
  EXPECT_NE(errorOf("l2-hit=1.5").find("between 0 and 1"), std::string::npos);
  EXPECT_NE(errorOf("dram-bw=x0").find("must be positive"), std::string::npos);
  EXPECT_NE(errorOf("dram-bw=fast").find("'fast' is not a number"), std::string::npos);
  EXPECT_NE(errorOf("dram-bw").find("needs a value"), std::string::npos);
  EXPECT_NE(errorOf("latency.warp_drive=3").find("unknown instruction class 'warp_drive'"), std::string::npos);
  EXPECT_NE(errorOf("issue-interval=-1").find("must be positive"), std::string::npos);
  const std::string unknown = errorOf("faster-please");
  EXPECT_NE(unknown.find("unknown what-if 'faster-please'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("no-bank-conflicts"), std::string::npos) << unknown;  // lists the accepted forms
  EXPECT_NE(errorOf("l1=on").find("unknown what-if"), std::string::npos);
  // Nothing to remove on a device without partition figures (the base config has none).
  EXPECT_NE(errorOf("no-partition-camping").find("has no DRAM partition figures"), std::string::npos);
}

}  // namespace
