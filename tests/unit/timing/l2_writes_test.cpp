// The L2 pipe's time for stores, worked out by hand: written sectors at the write share
// (timing.l2_write_bytes_per_clk), a read-modify-write twice that where a store writes part of an
// ECC word (memory.l2_ecc_word_bytes).
#include <gtest/gtest.h>

#include "bounds.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

// One block of 16 warps, each storing 64 times (32 lanes x 4 bytes); `laneStride` apart. The L2
// share holds everything (no DRAM traffic), its pipe moves a read sector in 1 cycle and a written
// one in 2 (16 B/cycle).
TimingResult stores(std::uint64_t laneStride, int eccWordBytes, std::uint32_t activeMask = 0xFFFFFFFFu) {
  auto config = simpleConfig(4, 1, 1);
  config.l2BytesShare = 64ull << 20;
  config.l2BytesPerCycle = 32;
  config.l2WriteBytesPerCycle = 16;
  config.l2EccWordBytes = eccWordBytes;
  config.dramBytesPerCycle = 1024;
  const auto kernel = kernelOf({memory(InstrKind::Store, MemorySpace::Global, {}, {2, 3})}, 1, 512);
  return runSynthetic(
      config, {}, kernel, [](auto, auto) { return repeat(0, 64); },
      [&](std::uint32_t, std::uint32_t warp, std::size_t i, int lane) {
        // Each store its own 128-byte line or (strided) its own lanes' lines: nothing written twice.
        const std::uint64_t request = warp * 64ull + i;
        return 0x10000000ull + request * 32 * laneStride + static_cast<std::uint64_t>(lane) * laneStride;
      },
      [&](auto, auto, std::size_t) { return activeMask; });
}

TEST(L2Writes, CoalescedStoresHoldThePipeAtTheWriteShare) {
  // 16 x 64 stores of 4 sectors: 4096 written sectors x 2 cycles = 8192 cycles of the L2 pipe.
  const auto r = stores(4, 0);
  EXPECT_EQ(r.memory.l2WriteSectors, 4096u);
  EXPECT_EQ(r.memory.l2PartialWordWrites, 0u);
  EXPECT_EQ(r.bound, "L2 bandwidth");
  EXPECT_NEAR(r.cycles, 8192, 64);
  // ECC changes nothing where lanes fill the words.
  const auto ecc = stores(4, 8);
  EXPECT_EQ(ecc.memory.l2PartialWordWrites, 0u);
  EXPECT_NEAR(ecc.cycles, r.cycles, 1);
}

TEST(L2Writes, TransposedStoresCostASectorPerLaneAndTwoWithEcc) {
  // Lanes 4 KiB apart: 32 sectors a store, 32,768 in all. Without ECC 2 cycles each = 65,536;
  // with 8-byte ECC words each writes half a word: a read-modify-write, 4 cycles = 131,072.
  const auto plain = stores(4096, 0);
  EXPECT_EQ(plain.memory.l2WriteSectors, 32768u);
  EXPECT_NEAR(plain.cycles, 65536, 256);
  const auto ecc = stores(4096, 8);
  EXPECT_EQ(ecc.memory.l2WriteSectors, 32768u);
  EXPECT_EQ(ecc.memory.l2PartialWordWrites, 32768u);
  EXPECT_EQ(ecc.bound, "L2 bandwidth");
  EXPECT_NEAR(ecc.cycles, 131072, 512);
}

TEST(L2Writes, HalfTheLanesOfACoalescedStoreWriteHalfWords) {
  // Even lanes of a coalesced store: 4 sectors each with bytes 0-3 of every word written.
  const auto r = stores(4, 8, 0x55555555u);
  EXPECT_EQ(r.memory.l2WriteSectors, 4096u);
  EXPECT_EQ(r.memory.l2PartialWordWrites, 4096u);
  EXPECT_NEAR(r.cycles, 16384, 128);
}

TEST(L2Writes, WithoutAWriteFigureAStoredSectorCostsWhatAReadOneDoes) {
  auto config = simpleConfig(4, 1, 1);
  config.l2BytesPerCycle = 32;
  MemoryCounters m;
  m.sectorsRequested = 100;
  m.l2WriteSectors = 40;
  // 60 read sectors at 1 cycle + 40 written at 1 cycle (the read share stands in).
  EXPECT_DOUBLE_EQ(detail::l2BoundCycles(config, m), 100);
  config.l2WriteBytesPerCycle = 8;  // 4 cycles a written sector
  EXPECT_DOUBLE_EQ(detail::l2BoundCycles(config, m), 60 + 160);
  m.l2PartialWordWrites = 10;  // ten of them twice
  EXPECT_DOUBLE_EQ(detail::l2BoundCycles(config, m), 60 + 200);
}

}  // namespace
