#include "teg/trace/memory_access.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace teg::trace {

namespace {

// Appends `value` to a small set kept as a vector in insertion order (a warp touches at most a
// few dozen items, so a linear scan beats hashing). Lanes usually ascend, so a value above the
// largest so far (or equal to the last) is decided without the scan.
struct DistinctList {
  std::uint64_t* items;
  std::uint32_t& count;
  std::uint64_t largest = 0;

  bool insert(std::uint64_t value) {
    if (count > 0 && value <= largest) {
      if (items[count - 1] == value) return false;
      for (std::uint32_t i = 0; i + 1 < count; ++i)
        if (items[i] == value) return false;
    }
    items[count++] = value;
    largest = std::max(largest, value);
    return true;
  }
};

constexpr std::uint32_t kFullWarp = 0xFFFFFFFFu;

// The stride of a full warp whose lane addresses are base + lane x stride with 0 <= stride, the
// last lane's address not wrapped round; -1 otherwise. Most accesses are such (a thread index
// times the element size, plus a base), and their sectors and bank conflicts follow from the
// stride without looking at each lane.
std::int64_t affineStride(const std::array<std::uint64_t, kWarpLanes>& addresses) {
  const std::uint64_t base = addresses[0];
  const std::uint64_t stride = addresses[1] - base;
  if (addresses[1] < base || stride > (~std::uint64_t{0} - base) / (kWarpLanes - 1)) return -1;
  for (int lane = 2; lane < kWarpLanes; ++lane)
    if (addresses[lane] - addresses[lane - 1] != stride) return -1;
  return static_cast<std::int64_t>(stride);
}

}  // namespace

std::uint32_t sectorsWritingPartOfAWord(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask,
                                        unsigned bytesPerLane, unsigned sectorBytes, unsigned wordBytes) {
  if (sectorBytes == 0 || sectorBytes > 64 || wordBytes == 0 || sectorBytes % wordBytes != 0) return 0;
  const unsigned bytes = std::max(1u, bytesPerLane);
  // The bytes written per sector, one bit a byte; a lane's access spans at most bytes / sector + 1
  // sectors (16-byte accesses: 1, as CUDA aligns them).
  struct Written {
    std::uint64_t sector = 0;
    std::uint64_t mask = 0;
  };
  std::array<Written, kWarpLanes * 4> written{};
  std::size_t count = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if ((activeMask >> lane & 1u) == 0) continue;
    // Bytes past 2^64 are not counted (no sum wraps).
    std::uint64_t address = addresses[lane];
    for (std::uint64_t remaining = std::min<std::uint64_t>(bytes, ~address + 1 == 0 ? bytes : ~address + 1);
         remaining > 0;) {
      const std::uint64_t sector = address / sectorBytes;
      const unsigned offset = static_cast<unsigned>(address % sectorBytes);
      const unsigned span = static_cast<unsigned>(std::min<std::uint64_t>(sectorBytes - offset, remaining));
      remaining -= span;
      const std::uint64_t bits = (span >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << span) - 1) << offset;
      std::size_t i = 0;
      while (i < count && written[i].sector != sector) ++i;
      if (i == count) {
        if (count == written.size()) break;  // beyond any real request: counted as written
        written[count++] = {sector, 0};
      }
      written[i].mask |= bits;
      address += span;  // wraps to 0 only when remaining is 0
    }
  }
  const std::uint64_t wordMask = wordBytes >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << wordBytes) - 1;
  std::uint32_t partial = 0;
  for (std::size_t i = 0; i < count; ++i)
    for (unsigned word = 0; word < sectorBytes / wordBytes; ++word) {
      const std::uint64_t bits = written[i].mask >> (word * wordBytes) & wordMask;
      if (bits != 0 && bits != wordMask) {
        ++partial;
        break;
      }
    }
  return partial;
}

GlobalAccessShape globalAccessShape(const std::array<std::uint64_t, kWarpLanes>& addresses,
                                    std::uint32_t activeMask, unsigned bytesPerLane, unsigned sectorBytes,
                                    unsigned lineBytes, std::vector<std::uint64_t>* sectorsOut) {
  GlobalAccessShape shape;
  const unsigned bytes = std::max(1u, bytesPerLane);
  // A lane's access spans at most bytes / sectorBytes + 1 sectors; 16-byte accesses span <= 2.
  std::uint64_t sectors[kWarpLanes * 4];
  std::uint64_t lines[kWarpLanes * 4];
  std::uint32_t lineCount = 0;
  // Shifts instead of 64-bit divisions for the usual power-of-two sizes (a division per lane
  // cost more than the rest of the loop).
  const bool shifts = std::has_single_bit(sectorBytes) && std::has_single_bit(lineBytes);
  const int sectorShift = std::countr_zero(sectorBytes), lineShift = std::countr_zero(lineBytes);
  auto sectorOf = [&](std::uint64_t address) { return shifts ? address >> sectorShift : address / sectorBytes; };
  auto lineOf = [&](std::uint64_t sector) {
    return shifts ? (sector << sectorShift) >> lineShift : sector * sectorBytes / lineBytes;
  };
  // A full warp of ascending lanes at most a sector apart, each within a sector's size, touches
  // every sector from the first lane's to the last lane's (a gap between two lanes is smaller
  // than a sector), in ascending order, which is the first-touch order the loop below produces.
  if (shifts && activeMask == kFullWarp && bytes <= sectorBytes) {
    const std::int64_t stride = affineStride(addresses);
    const std::uint64_t end = addresses[kWarpLanes - 1] + bytes - 1;
    if (stride >= 0 && static_cast<std::uint64_t>(stride) <= sectorBytes && end >= addresses[kWarpLanes - 1]) {
      const std::uint64_t first = sectorOf(addresses[0]), last = sectorOf(end);
      shape.bytesRequested = kWarpLanes * bytes;
      shape.sectors = static_cast<std::uint32_t>(last - first + 1);
      shape.lines = static_cast<std::uint32_t>(lineOf(last) - lineOf(first) + 1);
      if (sectorsOut != nullptr)
        for (std::uint64_t sector = first; sector <= last; ++sector) sectorsOut->push_back(sector);
      return shape;
    }
  }
  DistinctList distinctSectors{sectors, shape.sectors};
  DistinctList distinctLines{lines, lineCount};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if ((activeMask >> lane & 1u) == 0) continue;
    shape.bytesRequested += bytes;
    const std::uint64_t first = sectorOf(addresses[lane]);
    const std::uint64_t last = sectorOf(addresses[lane] + bytes - 1);
    for (std::uint64_t s = first; s <= last && shape.sectors < kWarpLanes * 4; ++s) {
      if (distinctSectors.insert(s) && sectorsOut != nullptr) sectorsOut->push_back(s);
      if (lineCount < kWarpLanes * 4) distinctLines.insert(lineOf(s));
    }
  }
  shape.lines = lineCount;
  return shape;
}

std::uint32_t segmentTransactionsCc13(const std::array<std::uint64_t, kWarpLanes>& addresses,
                                      std::uint32_t activeMask, unsigned bytesPerLane,
                                      std::uint32_t* transactions, std::vector<MemoryTransaction>* out) {
  std::uint32_t bytesMoved = 0, count = 0;
  const unsigned bytes = std::max(1u, bytesPerLane);
  // The segment size depends on the word size: 32 bytes for 1-byte words, 64 for 2-byte words,
  // 128 for 4-, 8- and 16-byte words.
  const std::uint64_t segmentBytes = bytes == 1 ? 32 : bytes == 2 ? 64 : 128;
  for (int half = 0; half < 2; ++half) {
    // Segment base -> lowest and highest byte touched in it.
    std::uint64_t segment[16 * 2];
    std::uint64_t low[16 * 2], high[16 * 2];
    std::uint32_t segments = 0;
    for (int lane = half * 16; lane < half * 16 + 16; ++lane) {
      if ((activeMask >> lane & 1u) == 0) continue;
      for (std::uint64_t a : {addresses[lane], addresses[lane] + bytes - 1}) {
        const std::uint64_t base = a / segmentBytes * segmentBytes;
        std::uint32_t i = 0;
        while (i < segments && segment[i] != base) ++i;
        if (i == segments) {
          segment[segments] = base;
          low[segments] = high[segments] = a;
          ++segments;
        } else {
          low[i] = std::min(low[i], a);
          high[i] = std::max(high[i], a);
        }
      }
    }
    for (std::uint32_t i = 0; i < segments; ++i) {
      // Shrink 128 -> 64 -> 32 while the touched bytes stay inside one half of the segment.
      auto size = static_cast<unsigned>(segmentBytes);
      while (size > 32 && low[i] / (size / 2) == high[i] / (size / 2)) size /= 2;
      bytesMoved += size;
      ++count;
      if (out != nullptr) out->push_back(MemoryTransaction{low[i] / size * size, size});
    }
  }
  if (transactions != nullptr) *transactions = count;
  return bytesMoved;
}

std::uint32_t segmentTransactionsCc10(const std::array<std::uint64_t, kWarpLanes>& addresses,
                                      std::uint32_t activeMask, unsigned bytesPerLane,
                                      std::uint32_t* transactions, std::vector<MemoryTransaction>* out) {
  std::uint32_t bytesMoved = 0, count = 0;
  auto emit = [&](std::uint64_t address, std::uint32_t size) {
    bytesMoved += size;
    ++count;
    if (out != nullptr) out->push_back(MemoryTransaction{address, size});
  };
  const unsigned bytes = bytesPerLane;
  // The coalesced request's span: 16 words of 4 bytes (64), of 8 bytes (128), of 16 bytes (256:
  // two 128-byte segments, issued as two transactions); aligned to its size, at most 128.
  const unsigned span = bytes == 4 || bytes == 8 || bytes == 16 ? 16 * bytes : 0;
  const unsigned alignment = std::min(span, 128u);
  for (int half = 0; half < 2; ++half) {
    const std::uint32_t lanes = activeMask >> (half * 16) & 0xFFFFu;
    if (lanes == 0) continue;
    bool coalesced = span != 0;
    std::uint64_t base = 0;
    bool haveBase = false;
    for (int k = 0; k < 16 && coalesced; ++k) {
      if ((lanes >> k & 1u) == 0) continue;
      const std::uint64_t a = addresses[static_cast<std::size_t>(half * 16 + k)];
      // Thread k must access word k of the segment: address = base + k * bytes, base aligned.
      const std::uint64_t expectedBase = a - static_cast<std::uint64_t>(k) * bytes;
      if (a < static_cast<std::uint64_t>(k) * bytes || expectedBase % alignment != 0) coalesced = false;
      else if (!haveBase) base = expectedBase, haveBase = true;
      else if (expectedBase != base) coalesced = false;
    }
    if (coalesced) {
      if (span <= 128) {
        emit(base, span);
      } else {
        emit(base, 128);
        emit(base + 128, 128);
      }
      continue;
    }
    for (int k = 0; k < 16; ++k)
      if ((lanes >> k & 1u) != 0) emit(addresses[static_cast<std::size_t>(half * 16 + k)] / 32 * 32, 32);
  }
  if (transactions != nullptr) *transactions = count;
  return bytesMoved;
}

Coalescing coalescingOf(int ccMajor, int ccMinor) {
  if (ccMajor != 1) return Coalescing::Sectors;
  return ccMinor >= 2 ? Coalescing::Cc13Segments : Coalescing::Cc10Segments;
}

std::uint32_t segmentTransactions(Coalescing rules, const std::array<std::uint64_t, kWarpLanes>& addresses,
                                  std::uint32_t activeMask, unsigned bytesPerLane, std::uint32_t* transactions,
                                  std::vector<MemoryTransaction>* out) {
  switch (rules) {
    case Coalescing::Cc10Segments: return segmentTransactionsCc10(addresses, activeMask, bytesPerLane, transactions, out);
    case Coalescing::Cc13Segments: return segmentTransactionsCc13(addresses, activeMask, bytesPerLane, transactions, out);
    case Coalescing::Sectors: break;
  }
  if (transactions != nullptr) *transactions = 0;
  return 0;
}

bool pairUniformAddresses(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask) {
  if (activeMask == 0) return false;
  const auto pairedBy = [&](unsigned flip) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if ((activeMask >> lane & 1u) == 0) continue;
      const unsigned partner = lane ^ flip;
      if ((activeMask >> partner & 1u) == 0 || addresses[partner] != addresses[lane]) return false;
    }
    return true;
  };
  return pairedBy(1) || pairedBy(2);
}

std::uint32_t sharedWavefronts(const std::array<std::uint64_t, kWarpLanes>& addresses,
                               std::uint32_t activeMask, unsigned bytesPerLane, unsigned banks,
                               unsigned bankWidth, bool halfWarpPhases, bool pairedLanes) {
  if (activeMask == 0 || banks == 0 || bankWidth == 0) return 0;
  const unsigned bytes = std::max(1u, bytesPerLane);
  const unsigned bytesPerPhase = banks * bankWidth;
  unsigned lanesPerPhase = std::clamp(bytesPerPhase / bytes, 1u, 32u);
  if (pairedLanes) lanesPerPhase = std::min(2 * lanesPerPhase, 32u);
  if (halfWarpPhases) lanesPerPhase = std::min(lanesPerPhase, 16u);
  // Shifts and masks instead of 64-bit divisions for the usual power-of-two bank width and count
  // (two 64-bit divisions per lane were half of this function's time).
  const bool widthShift = std::has_single_bit(bankWidth);
  const int wordShift = std::countr_zero(bankWidth);
  auto wordOf = [&](std::uint64_t address) { return widthShift ? address >> wordShift : address / bankWidth; };
  const bool banksPowerOfTwo = std::has_single_bit(banks);
  // A full warp of one-word accesses base + lane x stride (the base word-aligned): lane l reads
  // word w0 + l s (s = stride / width), so the banks repeat every banks / gcd(s, banks) lanes, all
  // with different words unless s = 0 (a broadcast). Each phase of P lanes then needs
  // ceil(P / (banks / g)) wavefronts.
  if (widthShift && banksPowerOfTwo && activeMask == kFullWarp && bytes == bankWidth &&
      addresses[0] % bankWidth == 0) {
    const std::int64_t stride = affineStride(addresses);
    if (stride >= 0 && static_cast<std::uint64_t>(stride) % bankWidth == 0) {
      const std::uint64_t words = static_cast<std::uint64_t>(stride) >> wordShift;
      const unsigned phases = (32 + lanesPerPhase - 1) / lanesPerPhase;
      if (words == 0) return phases;
      const auto sameBank = static_cast<unsigned>(std::gcd(words & (banks - 1), std::uint64_t{banks}));
      const unsigned period = banks / sameBank;  // lanes between two visits of one bank
      return phases * ((lanesPerPhase + period - 1) / period);
    }
  }
  std::uint32_t total = 0;
  for (unsigned start = 0; start < 32; start += lanesPerPhase) {
    // The words this phase touches; each distinct word of a bank costs that bank one wavefront
    // (the same word is broadcast).
    // Fast path for the common cases (conflict-free, broadcast, vector accesses of consecutive
    // words): no bank is asked for two different words. Any doubt falls through to the general
    // count below.
    if (banks <= 64) {
      std::uint64_t bankWord[64];
      std::uint64_t used = 0;
      bool simple = true, any = false;
      for (unsigned lane = start; lane < start + lanesPerPhase && lane < 32 && simple; ++lane) {
        if ((activeMask >> lane & 1u) == 0) continue;
        any = true;
        const std::uint64_t first = wordOf(addresses[lane]);
        const std::uint64_t last = wordOf(addresses[lane] + bytes - 1);
        for (std::uint64_t w = first; w <= last && simple; ++w) {
          const auto bank = static_cast<unsigned>(banksPowerOfTwo ? w & (banks - 1) : w % banks);
          if ((used >> bank & 1u) == 0) {
            used |= std::uint64_t{1} << bank;
            bankWord[bank] = w;
          } else if (bankWord[bank] != w) {
            simple = false;
          }
        }
      }
      if (simple) {
        total += any ? 1 : 0;
        continue;
      }
    }
    std::uint64_t words[kWarpLanes * 4];
    std::uint32_t wordCount = 0;
    for (unsigned lane = start; lane < start + lanesPerPhase && lane < 32; ++lane) {
      if ((activeMask >> lane & 1u) == 0) continue;
      const std::uint64_t first = wordOf(addresses[lane]);
      const std::uint64_t last = wordOf(addresses[lane] + bytes - 1);
      for (std::uint64_t w = first; w <= last && wordCount < kWarpLanes * 4; ++w) words[wordCount++] = w;
    }
    if (wordCount == 0) continue;
    // Sorting then skipping repeats is O(n log n); a linear set insert was O(n^2) per warp.
    std::sort(words, words + wordCount);
    std::uint32_t perBank[64] = {};
    std::uint32_t worst = 0;
    for (std::uint32_t i = 0; i < wordCount; ++i) {
      if (i > 0 && words[i] == words[i - 1]) continue;
      const auto bank = static_cast<std::uint32_t>(banksPowerOfTwo ? words[i] & (banks - 1) : words[i] % banks) % 64;
      worst = std::max(worst, ++perBank[bank]);
    }
    total += worst;
  }
  return total;
}

}  // namespace teg::trace

namespace teg::trace {

// Atomics are read-modify-writes: lanes on the same word cannot share one access as a load's
// broadcast does (CUDA guide, "Atomic Functions": each read-modify-write of a location by the
// threads of a warp is serialised). A bank serves one lane's word per pass, whichever word.
std::uint32_t sharedAtomicPasses(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask,
                                 unsigned bytesPerLane, unsigned banks, unsigned bankWidth) {
  if (activeMask == 0 || banks == 0 || bankWidth == 0) return 0;
  const unsigned bytes = std::max(1u, bytesPerLane);
  std::vector<std::uint32_t> perBank(banks, 0);
  std::uint32_t passes = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if ((activeMask >> lane & 1u) == 0) continue;
    // A word wider than a bank takes the banks it spans, each for this lane's pass.
    for (std::uint64_t word = addresses[lane] / bankWidth; word <= (addresses[lane] + bytes - 1) / bankWidth; ++word)
      passes = std::max(passes, ++perBank[word % banks]);
  }
  return passes;
}

std::uint32_t sameWordLanes(const std::array<std::uint64_t, kWarpLanes>& addresses, std::uint32_t activeMask,
                            unsigned bytesPerLane) {
  const unsigned bytes = std::max(1u, bytesPerLane);
  std::array<std::uint64_t, kWarpLanes> words{};
  int n = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    if ((activeMask >> lane & 1u) != 0) words[static_cast<std::size_t>(n++)] = addresses[lane] / bytes;
  std::sort(words.begin(), words.begin() + n);
  std::uint32_t most = 0, run = 0;
  for (int i = 0; i < n; ++i) {
    run = i > 0 && words[static_cast<std::size_t>(i)] == words[static_cast<std::size_t>(i - 1)] ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

}  // namespace teg::trace
