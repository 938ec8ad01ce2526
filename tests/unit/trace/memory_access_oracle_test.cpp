// Coalescing and bank conflicts against a brute-force oracle written from the definitions (the
// CUDA guide's: every byte a lane reads belongs to one 32-byte sector and one 128-byte line; in
// a shared-memory phase, each bank serves one distinct word per wavefront), over many strided,
// offset, partial and scattered warps. The library has fast paths for whole warps at a constant
// stride; this checks they count what the definition counts, in the same order.
#include "teg/trace/memory_access.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace teg::trace;

namespace {

using Addresses = std::array<std::uint64_t, kWarpLanes>;

struct OracleShape {
  std::vector<std::uint64_t> sectors;  // first-touch order
  std::size_t lines = 0;
};

OracleShape oracleGlobal(const Addresses& a, std::uint32_t mask, unsigned bytes, unsigned sectorBytes, unsigned lineBytes) {
  OracleShape shape;
  std::set<std::uint64_t> seen, lines;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if ((mask >> lane & 1u) == 0) continue;
    for (std::uint64_t byte = a[lane]; byte < a[lane] + bytes; ++byte) {
      if (seen.insert(byte / sectorBytes).second) shape.sectors.push_back(byte / sectorBytes);
      lines.insert(byte / lineBytes);
    }
  }
  shape.lines = lines.size();
  return shape;
}

std::uint32_t oracleWavefronts(const Addresses& a, std::uint32_t mask, unsigned bytes, unsigned banks, unsigned width,
                               bool halfWarps) {
  unsigned perPhase = std::clamp(banks * width / bytes, 1u, 32u);
  if (halfWarps) perPhase = std::min(perPhase, 16u);
  std::uint32_t total = 0;
  for (unsigned start = 0; start < 32; start += perPhase) {
    std::map<std::uint64_t, std::set<std::uint64_t>> wordsOfBank;
    for (unsigned lane = start; lane < std::min(32u, start + perPhase); ++lane) {
      if ((mask >> lane & 1u) == 0) continue;
      for (std::uint64_t byte = a[lane]; byte < a[lane] + bytes; ++byte) wordsOfBank[byte / width % banks].insert(byte / width);
    }
    std::size_t worst = 0;
    for (const auto& [bank, words] : wordsOfBank) worst = std::max(worst, words.size());
    total += static_cast<std::uint32_t>(worst);
  }
  return total;
}

Addresses strided(std::uint64_t base, std::uint64_t stride) {
  Addresses a{};
  for (int lane = 0; lane < kWarpLanes; ++lane) a[lane] = base + stride * static_cast<std::uint64_t>(lane);
  return a;
}

// Strided warps (the fast paths' case) and their neighbours: a lane moved, lanes off, a
// descending stride; bases aligned and not.
std::vector<std::pair<Addresses, std::uint32_t>> warps() {
  std::vector<std::pair<Addresses, std::uint32_t>> out;
  std::mt19937_64 random(20261125);
  const std::uint64_t bases[] = {0, 4, 0x1000, 0x1004, 0x7f00'0000'0010, 0x7f00'0000'001c, 0x7f00'0000'0ff8};
  for (const std::uint64_t base : bases)
    for (std::uint64_t stride = 0; stride <= 80; ++stride) {
      out.emplace_back(strided(base, stride), 0xFFFFFFFFu);
      Addresses moved = strided(base, stride);
      moved[random() % kWarpLanes] += 4 * (random() % 64);
      out.emplace_back(moved, 0xFFFFFFFFu);
      out.emplace_back(strided(base, stride), static_cast<std::uint32_t>(random()));
      Addresses descending{};
      for (int lane = 0; lane < kWarpLanes; ++lane) descending[lane] = base + 4096 - stride * static_cast<std::uint64_t>(lane);
      out.emplace_back(descending, 0xFFFFFFFFu);
    }
  for (const std::uint64_t stride : {128u, 256u, 1024u, 4096u, 33u * 4u, 65u * 8u}) out.emplace_back(strided(0x2000, stride), 0xFFFFFFFFu);
  return out;
}

TEST(MemoryAccessOracle, GlobalSectorsAndLinesMatchTheDefinition) {
  int checked = 0;
  for (const auto& [addresses, mask] : warps())
    for (const unsigned bytes : {1u, 2u, 4u, 8u, 16u, 32u}) {
      const OracleShape want = oracleGlobal(addresses, mask, bytes, 32, 128);
      std::vector<std::uint64_t> sectors;
      const GlobalAccessShape got = globalAccessShape(addresses, mask, bytes, 32, 128, &sectors);
      ASSERT_EQ(sectors, want.sectors) << "stride " << addresses[1] - addresses[0] << ", bytes " << bytes;
      ASSERT_EQ(got.sectors, want.sectors.size());
      ASSERT_EQ(got.lines, want.lines);
      ASSERT_EQ(got.bytesRequested, static_cast<std::uint32_t>(std::popcount(mask)) * bytes);
      ++checked;
    }
  EXPECT_GT(checked, 10000);
}

TEST(MemoryAccessOracle, SharedWavefrontsMatchTheDefinition) {
  int checked = 0;
  for (const auto& [addresses, mask] : warps())
    for (const unsigned bytes : {1u, 4u, 8u, 16u})
      for (const auto& [banks, width, halfWarps] : {std::tuple{32u, 4u, false}, std::tuple{16u, 4u, true}, std::tuple{32u, 8u, false}}) {
        // Shared addresses are offsets in a 48 KiB window.
        Addresses local{};
        for (int lane = 0; lane < kWarpLanes; ++lane) local[lane] = addresses[lane] % 49152;
        ASSERT_EQ(sharedWavefronts(local, mask, bytes, banks, width, halfWarps),
                  oracleWavefronts(local, mask, bytes, banks, width, halfWarps))
            << "stride " << local[1] - local[0] << ", bytes " << bytes << ", banks " << banks << " x " << width;
        ++checked;
      }
  EXPECT_GT(checked, 10000);
}

}  // namespace
