// The SM's share of the L2 bandwidth (memory_system.cpp, throughL2): a pipe of sector / share
// cycles per sector whose clock may lag one L2 hit latency behind, as the DRAM share's may (Lai
// eq. 3.1): it bounds the sustained rate, and a burst after idle time uses the share left unused.
// Hand-worked with 16 B/cycle (2 cycles per 32-byte sector) and a 200-cycle hit latency, every
// access an L2 hit.
#include <gtest/gtest.h>

#include <cstdint>

#include "memory_system.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using teg::timing::detail::MemorySystem;
using teg::timing::detail::WriteBack;

namespace {

TimingConfig l2Config() {
  auto config = test::simpleConfig(4, 1, 1);
  config.l2BytesPerCycle = 16;
  config.l2HitLatency = 200;
  config.forcedL2HitRate = 1.0;  // every access hits
  config.l1Bytes = 0;
  config.maxOutstandingSectors = 0;
  return config;
}

// `count` one-sector loads at `at`; returns when the last one's data is back.
double burst(MemorySystem& memory, double at, int count, std::uint64_t& sector) {
  MemoryCounters counters;
  double done = 0;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t s = sector++;
    done = memory.load(at, &s, 1, false, counters);
  }
  return done;
}

TEST(L2Share, AtTheStartTheShareIsAQueue) {
  // 50 sectors at t = 0: the last leaves the pipe at 49 x 2 = 98 and is back at 298.
  const auto config = l2Config();
  MemorySystem memory(config, WriteBack::WhenDirtied);
  std::uint64_t sector = 0;
  EXPECT_DOUBLE_EQ(burst(memory, 0, 50, sector), 98 + 200);
}

TEST(L2Share, ABurstAfterIdleTimeUsesTheShareLeftUnused) {
  // After the first burst the pipe is free from 100. At t = 1000 its clock may lag to 800, so the
  // first 100 sectors (800 + 2k < 1000) leave at once: 50 sectors are back at 1200, not at
  // 1000 + 98 + 200 = 1298.
  const auto config = l2Config();
  MemorySystem memory(config, WriteBack::WhenDirtied);
  std::uint64_t sector = 0;
  burst(memory, 0, 50, sector);
  EXPECT_DOUBLE_EQ(burst(memory, 1000, 50, sector), 1200);
}

TEST(L2Share, TheShareStillBoundsTheSustainedRate) {
  // 300 sectors at t = 1000 after the same first burst: sector k leaves at max(1000, 800 + 2k),
  // the last (k = 299) at 1398, back at 1598: 300 sectors in 600 cycles from the lagged clock,
  // the share's 2 cycles each.
  const auto config = l2Config();
  MemorySystem memory(config, WriteBack::WhenDirtied);
  std::uint64_t sector = 0;
  burst(memory, 0, 50, sector);
  EXPECT_DOUBLE_EQ(burst(memory, 1000, 300, sector), 1598);
}

}  // namespace
