// The sectored cache's set index (src/timing/cache.cpp): power-of-two strides must not thrash a
// few-way cache, and a run of consecutive lines that fits must still fit.
#include <gtest/gtest.h>

#include <cstdint>

#include "cache.hpp"

namespace teg::timing::detail {
namespace {

constexpr int kLine = 128, kSector = 32, kSectorsPerLine = kLine / kSector;

std::uint64_t firstSectorOfLine(std::uint64_t line) { return line * kSectorsPerLine; }

// 32 rows of a 4096-float matrix, one line of each: lines 128 apart (16 KiB). A 128 KiB, 4-way
// cache has 256 sets; with the plain index `line mod 256` the 32 lines fall into 2 sets (8 ways)
// and evict each other on every pass. On the GPU they stay (an SGEMM's A rows).
TEST(SectoredCache, PowerOfTwoStridedLinesThatFitStayInTheCache) {
  SectoredCache cache(128 * 1024, kLine, kSector, 4);
  for (int pass = 0; pass < 3; ++pass) {
    int hits = 0;
    for (std::uint64_t row = 0; row < 32; ++row) hits += cache.access(firstSectorOfLine(1000000 + row * 128));
    EXPECT_EQ(hits, pass == 0 ? 0 : 32) << "pass " << pass;
  }
}

// A run of consecutive lines as large as the cache, aligned or not: every line still has a way
// (the index stays one-to-one within an aligned run of `sets` lines), so a second pass hits all.
TEST(SectoredCache, AContiguousFootprintOfTheCachesSizeFitsExactly) {
  for (const std::uint64_t start : {0ull, 4096ull, 77777ull}) {
    SectoredCache cache(128 * 1024, kLine, kSector, 4);
    const std::uint64_t lines = 128 * 1024 / kLine;
    for (std::uint64_t l = 0; l < lines; ++l) cache.access(firstSectorOfLine(start + l));
    int hits = 0;
    for (std::uint64_t l = 0; l < lines; ++l) hits += cache.access(firstSectorOfLine(start + l));
    // An unaligned run spans two aligned runs whose folds differ: allow what that can cost,
    // a handful of sets shared by both halves.
    if (start % 256 == 0)
      EXPECT_EQ(hits, static_cast<int>(lines)) << "start " << start;
    else
      EXPECT_GE(hits, static_cast<int>(lines) * 9 / 10) << "start " << start;
  }
}

// One line more than the cache holds, read in a cycle: LRU then misses every time (the capacity
// step of a pointer chase stays where the cache's size puts it).
TEST(SectoredCache, AFootprintBeyondTheCapacityMissesUnderLru) {
  SectoredCache cache(4 * 1024, kLine, kSector, 4);  // 32 lines: 8 sets of 4
  const std::uint64_t lines = 64;
  for (std::uint64_t l = 0; l < lines; ++l) cache.access(firstSectorOfLine(l));
  int hits = 0;
  for (std::uint64_t l = 0; l < lines; ++l) hits += cache.access(firstSectorOfLine(l));
  EXPECT_EQ(hits, 0);
}

}  // namespace
}  // namespace teg::timing::detail
