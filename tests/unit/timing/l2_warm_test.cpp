// A launch run back to back after its like (TimingConfig::l2WarmFraction): that share of the reads
// a cold L2 misses find the line the previous launch left; the launch's own reuse is unchanged.
// Hand counts on MemorySystem.
#include <gtest/gtest.h>

#include "memory_system.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::detail;

namespace {

// No L1, a 1 MiB L2 share, simpleConfig's latencies: L2 hit 200, DRAM 400 cycles.
TimingConfig warmConfig(double fraction) {
  TimingConfig c = test::simpleConfig(4, 1, 1);
  c.l2BytesShare = 1 << 20;
  c.l2WarmFraction = fraction;
  return c;
}

TEST(L2Warm, AShareOfTheColdMissesFindTheirLineFromThePreviousLaunch) {
  for (const double fraction : {0.0, 0.5, 1.0}) {
    SCOPED_TRACE(fraction);
    const TimingConfig c = warmConfig(fraction);  // MemorySystem keeps a reference to it
    MemorySystem m(c, WriteBack::WhenEvicted);
    MemoryCounters counters;
    // 8 reads of 8 different lines: a cold L2 misses all 8; warm, round(fraction x 8) hit.
    for (std::uint64_t line = 0; line < 8; ++line) {
      const std::uint64_t sector = line * 4;
      (void)m.load(1000.0 * static_cast<double>(line), &sector, 1, false, counters);
    }
    EXPECT_EQ(counters.dramSectors, static_cast<std::uint64_t>(8 - 8 * fraction));
    EXPECT_EQ(counters.l2Hits, static_cast<std::uint64_t>(8 * fraction));
    // A line read again in this launch hits whatever the fraction: the launch's own reuse.
    const std::uint64_t again = 0;
    EXPECT_DOUBLE_EQ(m.load(10000, &again, 1, false, counters), 10200);
  }
}

TEST(L2Warm, TheFirstAndOnlyHalfOfTheMissesHitAtOneHalf) {
  // Deterministic: of the first n cold misses, exactly floor(0.5 n) hit (the 2nd, 4th, ...).
  const TimingConfig c = warmConfig(0.5);
  MemorySystem m(c, WriteBack::WhenEvicted);
  MemoryCounters counters;
  const std::uint64_t first = 0, second = 4;
  EXPECT_DOUBLE_EQ(m.load(0, &first, 1, false, counters), 400);     // a miss: DRAM
  EXPECT_DOUBLE_EQ(m.load(1000, &second, 1, false, counters), 1200);  // kept: an L2 hit
}

}  // namespace
