// The sectored cache's set index (src/timing/cache.cpp): power-of-two strides must not thrash a
// few-way cache, and a run of consecutive lines that fits must still fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <list>
#include <numeric>
#include <random>
#include <vector>

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


// Hand-worked LRU order in one set of 64 ways (the hash-indexed path: more than 32 ways). Lines
// 0..63 fill it; touching line 0 makes line 1 the least recent, so line 64 evicts line 1 and
// line 0 stays; line 1 then misses and evicts line 2, which misses and evicts line 3; 64 and 4
// are still there, 3 is not.
TEST(SectoredCache, ManyWaysEvictTheLeastRecentlyUsedLine) {
  SectoredCache cache(64 * kLine, kLine, kSector, 64);  // one set of 64 ways
  for (std::uint64_t l = 0; l < 64; ++l) EXPECT_FALSE(cache.access(firstSectorOfLine(l)));
  EXPECT_TRUE(cache.access(firstSectorOfLine(0)));
  EXPECT_FALSE(cache.access(firstSectorOfLine(64)));
  EXPECT_TRUE(cache.access(firstSectorOfLine(0)));
  EXPECT_FALSE(cache.access(firstSectorOfLine(1)));
  EXPECT_FALSE(cache.access(firstSectorOfLine(2)));
  EXPECT_TRUE(cache.access(firstSectorOfLine(64)));
  EXPECT_TRUE(cache.access(firstSectorOfLine(4)));
  EXPECT_FALSE(cache.access(firstSectorOfLine(3)));
}

// The hash-indexed path against a plain reference LRU (a std::list, most recent first): 200k
// random accesses to 416 lines (3 apart, so that probe runs of the index collide) in one set of
// 320 ways, so that evictions, index deletions and re-insertions all happen many times.
TEST(SectoredCache, ManyWaysAgreeWithAReferenceLruWithinOneSet) {
  SectoredCache cache(320 * kLine, kLine, kSector, 320);
  std::list<std::uint64_t> reference;  // most recent first
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> pick(0, 415);
  int disagreements = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t line = 5000 + pick(rng) * 3;  // not consecutive: probe runs collide
    const auto it = std::find(reference.begin(), reference.end(), line);
    const bool expected = it != reference.end();
    if (expected) reference.erase(it);
    reference.push_front(line);
    if (reference.size() > 320) reference.pop_back();
    if (cache.access(firstSectorOfLine(line)) != expected) ++disagreements;
  }
  EXPECT_EQ(disagreements, 0);
}

// The capacity step of gpu-benches' pointer chase (gpu-latency: one random cycle through N
// 64-byte segments, two of them per 128-byte line, 32-byte sectors filled one at a time) in a
// fully associative LRU cache of C lines. A pointer hits when its line stayed since the chase
// last visited that pointer, one full cycle ago: the line is touched twice per cycle, at random
// points x and 1 - x of it, and survives both gaps iff the lines other than it touched in the
// longer gap y = max(x, 1 - x) number fewer than C. In a fraction y of the cycle the chase touches
// each other line with probability 1 - (1 - y)^2 (either of its two pointers), so the line
// survives iff N_lines (1 - (1 - y)^2) < C, i.e. y < 1 - sqrt(1 - C / N_lines); with y uniform on
// [1/2, 1] the hit fraction is 1 - 2 sqrt(1 - C / N_lines) (0 once N_lines >= 4C/3). Hand values for
// C = 1024 lines (128 KiB): 130.8 KiB -> 0.707, 144.9 KiB -> 0.317, 160.3 KiB -> 0.101.
TEST(SectoredCache, APointerChaseJustBeyondTheCapacityStillHitsOnTheLinesBothGapsKeep) {
  const int cacheLines = 1024;
  for (const auto& [segments, expected] : std::vector<std::pair<int, double>>{{2093, 0.707}, {2318, 0.317}, {2565, 0.101}}) {
    SectoredCache cache(static_cast<long long>(cacheLines) * kLine, kLine, kSector, cacheLines);
    // The cycle: segment order shuffled as gpu-latency's host code does (order of 1..N-1, back to 0).
    std::vector<std::uint64_t> order(static_cast<std::size_t>(segments));
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(static_cast<std::uint64_t>(segments));
    std::shuffle(order.begin() + 1, order.end(), rng);
    const auto sectorOfSegment = [](std::uint64_t s) { return s * 64 / kSector; };
    for (const std::uint64_t s : order) cache.access(sectorOfSegment(s));  // the warm-up pass
    int hits = 0, loads = 0;
    for (int pass = 0; pass < 4; ++pass)
      for (const std::uint64_t s : order) {
        hits += cache.access(sectorOfSegment(s));
        ++loads;
      }
    EXPECT_NEAR(static_cast<double>(hits) / loads, expected, 0.04) << segments << " segments";
  }
}

}  // namespace
}  // namespace teg::timing::detail
