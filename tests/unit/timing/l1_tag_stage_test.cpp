// The L1TEX tag stage (timing.l1_tag_lookups_per_cycle; NVIDIA's forum: "On GV100+ the L1TEX tag
// stage can resolve 4 sets x 4 sectors per cycle"): a global request takes a cycle per line of its
// busiest L1 set, its sets indexed linearly as Accel-Sim's L1 (line mod 4). Hand counts on
// MemorySystem and the LD/ST time of a synthetic kernel.
#include <gtest/gtest.h>

#include <vector>

#include "memory_system.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::detail;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

// A 16 KiB L1 of 128-byte lines in 4 sets (32 ways), 4 tag lookups a cycle.
TimingConfig fourSets(int lookups = 4, long long l1Bytes = 16384) {
  TimingConfig c = test::simpleConfig(4, 1, 1);
  c.l1Bytes = l1Bytes;
  c.l1Ways = 32;
  c.l1TagLookupsPerCycle = lookups;
  return c;
}

// The sectors (address / 32) of lines `lines`, `perLine` sectors of each, line after line.
std::vector<std::uint64_t> sectorsOf(const std::vector<std::uint64_t>& lines, int perLine = 1) {
  std::vector<std::uint64_t> s;
  for (const std::uint64_t line : lines)
    for (int i = 0; i < perLine; ++i) s.push_back(line * 4 + static_cast<std::uint64_t>(i));
  return s;
}

std::vector<std::uint64_t> linesStep(std::uint64_t first, std::uint64_t step, int n) {
  std::vector<std::uint64_t> l;
  for (int i = 0; i < n; ++i) l.push_back(first + step * static_cast<std::uint64_t>(i));
  return l;
}

int wavefronts(const TimingConfig& c, const std::vector<std::uint64_t>& sectors) {
  MemorySystem m(c, WriteBack::WhenEvicted);
  return m.l1TagWavefronts(sectors.data(), static_cast<int>(sectors.size()));
}

TEST(L1TagStage, ACoalescedRequestIsOneWavefront) {
  // 32 lanes x 4 bytes: the 4 sectors of line 0.
  EXPECT_EQ(wavefronts(fourSets(), sectorsOf({0}, 4)), 1);
}

TEST(L1TagStage, ThirtyTwoConsecutiveLinesTakeEightCycles) {
  // Lines 0..31: 8 in each set (0, 4, ..., 28 in set 0), so the busiest set needs 8 cycles: 32
  // lines at 4 a cycle.
  EXPECT_EQ(wavefronts(fourSets(), sectorsOf(linesStep(0, 1, 32))), 8);
}

TEST(L1TagStage, LinesOfOneSetTakeACycleEach) {
  // Lines 2^21 + 32 k (a warp storing 4-byte lanes 4 KiB apart from 0x10000000): all in set 0.
  EXPECT_EQ(wavefronts(fourSets(), sectorsOf(linesStep(1u << 21, 32, 32))), 32);
  // Lines 2 k: sets 0 and 2, 16 each.
  EXPECT_EQ(wavefronts(fourSets(), sectorsOf(linesStep(0, 2, 32))), 16);
  // Lines 3 k: 3 is coprime to 4, so the sets take 8 each.
  EXPECT_EQ(wavefronts(fourSets(), sectorsOf(linesStep(0, 3, 32))), 8);
}

TEST(L1TagStage, ALineCountsOnceWhereverItsSectorsAre) {
  // Lines 0 and 64 (both set 0), their sectors interleaved: 2 lines, 2 cycles.
  const std::vector<std::uint64_t> s = {0, 256, 1, 257, 2, 258, 3, 259};
  EXPECT_EQ(wavefronts(fourSets(), s), 2);
}

TEST(L1TagStage, WithoutTheFigureTheStageIsNotModelled) {
  EXPECT_EQ(wavefronts(fourSets(0), sectorsOf(linesStep(0, 64, 32))), 0);
}

TEST(L1TagStage, ItLooksUpTagsWhetherOrNotTheL1KeepsTheData) {
  // No L1 data (what-if l1=off): the tags are still looked up, the same 32 cycles.
  EXPECT_EQ(wavefronts(fourSets(4, 0), sectorsOf(linesStep(0, 64, 32))), 32);
}

// One warp storing 64 times, lanes `laneStride` bytes apart; its LD/ST time.
double lsuBusy(std::uint64_t laneStride, int lookups) {
  TimingConfig c = fourSets(lookups);
  c.lsuBytesPerCycle = 128;
  c.l2BytesShare = 64ull << 20;
  const auto kernel = test::kernelOf({test::memory(InstrKind::Store, MemorySpace::Global, {}, {2, 3})}, 1, 32);
  const auto r = test::runSynthetic(
      c, {}, kernel, [](auto, auto) { return test::repeat(0, 64); },
      [&](std::uint32_t, std::uint32_t, std::size_t i, int lane) {
        return 0x10000000ull + i * 32 * laneStride + static_cast<std::uint64_t>(lane) * laneStride;
      },
      [](auto, auto, std::size_t) { return 0xFFFFFFFFu; });
  return r.memory.lsuBusyCycles;
}

TEST(L1TagStage, ATransposedStoreHoldsTheLsuALineACycle) {
  // Lanes 4 KiB apart: 32 sectors = 1024 bytes, 8 cycles at 128 B a cycle; with the tag stage 32
  // (32 lines of one set, above). 64 stores: 512 cycles, then 2048.
  EXPECT_DOUBLE_EQ(lsuBusy(4096, 0), 64 * 8);
  EXPECT_DOUBLE_EQ(lsuBusy(4096, 4), 64 * 32);
  // Coalesced: 4 sectors, 1 cycle at the data path's width and 1 in the tag stage.
  EXPECT_DOUBLE_EQ(lsuBusy(4, 0), 64 * 1);
  EXPECT_DOUBLE_EQ(lsuBusy(4, 4), 64 * 1);
}

}  // namespace
