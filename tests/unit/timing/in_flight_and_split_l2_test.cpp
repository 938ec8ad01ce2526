// In-flight fills and the split L2, against hand counts on MemorySystem itself (src/timing):
// a request for a sector another request is still filling waits for that fill (the MSHR merges
// them) in the L1 and in the L2; on a split L2 the SM's near partition holds a copy of what it
// reads and a line only the rest of the L2 holds costs the far latency.
#include <gtest/gtest.h>

#include <vector>

#include "memory_system.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::detail;

namespace {

// simpleConfig: L1 hit 30, L2 hit 200, DRAM 400 cycles; no bandwidth limits, no C_mem.
TimingConfig configWith(long long l1Bytes, long long l2Bytes) {
  TimingConfig c = test::simpleConfig(4, 1, 1);
  c.l1Bytes = l1Bytes;
  c.l2BytesShare = l2Bytes;
  return c;
}

double loadAt(MemorySystem& m, double now, std::uint64_t sector, bool viaL1, MemoryCounters& counters) {
  return m.load(now, &sector, 1, viaL1, counters);
}

TEST(InFlightFills, AnL1HitOnASectorBeingFilledWaitsForTheFill) {
  const TimingConfig c = configWith(16384, 0);  // no L2 share: a miss goes to DRAM (400)
  MemorySystem m(c, WriteBack::WhenEvicted);
  MemoryCounters counters;
  EXPECT_DOUBLE_EQ(loadAt(m, 0, 7, true, counters), 400);  // miss: DRAM
  // One cycle later, the same sector: allocated, not there yet -> the fill's 400, not 1 + 30.
  EXPECT_DOUBLE_EQ(loadAt(m, 1, 7, true, counters), 400);
  EXPECT_EQ(counters.dramSectors, 1u);  // merged: no second DRAM access
  // After the fill: an L1 hit, 500 + 30.
  EXPECT_DOUBLE_EQ(loadAt(m, 500, 7, true, counters), 530);
  EXPECT_EQ(counters.l1Hits, 2u);
}

TEST(InFlightFills, AnL2HitOnASectorBeingFilledWaitsForTheFill) {
  const TimingConfig c = configWith(0, 1 << 20);  // no L1; a 1 MiB L2 share
  MemorySystem m(c, WriteBack::WhenEvicted);
  MemoryCounters counters;
  EXPECT_DOUBLE_EQ(loadAt(m, 0, 9, false, counters), 400);    // L2 miss: DRAM
  EXPECT_DOUBLE_EQ(loadAt(m, 10, 9, false, counters), 400);   // max(10 + 200, 400)
  EXPECT_DOUBLE_EQ(loadAt(m, 1000, 9, false, counters), 1200);  // filled: an L2 hit
  EXPECT_EQ(counters.dramSectors, 1u);
}

// C_mem (Lai eq. 3.2) is the DRAM pipeline's concurrency. Hand count: C_mem = 4 sectors, a warm L1
// line of 4 sectors. With an LD/ST data path width (which paces L1 hits), a request of its 4 hit
// sectors at t = 500 holds no slot: nothing is in flight at 501 and a 4-sector DRAM request is
// admitted at once. Without that width C_mem is the only limit on hits: the 4 sectors hold their
// slots for the L1 latency (30), so the next request waits until 530.
TEST(MemoryConcurrency, L1HitsHoldNoCmemSlotWhereTheLsuPathPacesThem) {
  for (const double lsuBytes : {128.0, 0.0}) {
    TimingConfig c = configWith(16384, 0);
    c.maxOutstandingSectors = 4;
    c.lsuBytesPerCycle = lsuBytes;
    MemorySystem m(c, WriteBack::WhenEvicted);
    MemoryCounters counters;
    const std::uint64_t line[] = {0, 1, 2, 3};
    m.load(0, line, 4, true, counters);  // cold: four DRAM fills, done by 400
    ASSERT_EQ(counters.dramSectors, 4u);
    EXPECT_DOUBLE_EQ(m.load(500, line, 4, true, counters), 530);  // warm: four L1 hits
    EXPECT_EQ(counters.l1Hits, 4u);
    if (lsuBytes > 0) {
      EXPECT_EQ(m.inFlight(501), 0);
      EXPECT_DOUBLE_EQ(m.nextAcceptTime(501, 4), 501);
    } else {
      EXPECT_EQ(m.inFlight(501), 4);
      EXPECT_DOUBLE_EQ(m.nextAcceptTime(501, 4), 530);
    }
  }
}

// `lines` distinct lines (one sector each), read in order `passes` times, each read long after
// the last (nothing in flight); returns the latencies of the last pass.
std::vector<double> cyclicReads(const TimingConfig& c, int lines, int passes) {
  MemorySystem m(c, WriteBack::WhenEvicted);
  MemoryCounters counters;
  std::vector<double> last;
  double now = 0;
  for (int p = 0; p < passes; ++p) {
    last.clear();
    for (int l = 0; l < lines; ++l, now += 1000)
      last.push_back(loadAt(m, now, static_cast<std::uint64_t>(l) * 4, false, counters) - now);
  }
  return last;
}

TEST(SplitL2, NearHitsUpToHalfTheShareFarHitsUpToAllOfItThenDram) {
  // A 4 KiB share of 128-byte lines, 16-way: 2 sets of 16 (lines alternate between them). Split
  // in two: the near copy is 2 KiB, one set of 16 lines. Far latency 300.
  TimingConfig c = configWith(0, 4096);
  c.l2Partitions = 2;
  c.l2FarLatency = 300;
  // 12 lines: the near copy holds them all -> 200 each.
  for (double t : cyclicReads(c, 12, 3)) EXPECT_DOUBLE_EQ(t, 200);
  // 24 lines: 24 in a 16-line LRU read in a cycle miss every time (each was the least recently
  // used); the whole share holds 12 per set -> every read from the far half, 300.
  for (double t : cyclicReads(c, 24, 3)) EXPECT_DOUBLE_EQ(t, 300);
  // 40 lines: 20 per set of 16 in a cycle -> DRAM, 400.
  for (double t : cyclicReads(c, 40, 3)) EXPECT_DOUBLE_EQ(t, 400);
  // Without the split the 24 lines are plain L2 hits.
  c.l2Partitions = 1;
  for (double t : cyclicReads(c, 24, 3)) EXPECT_DOUBLE_EQ(t, 200);
}

}  // namespace
