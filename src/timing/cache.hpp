// A sectored, set-associative cache with LRU replacement: lines of `lineBytes` made of
// `sectorBytes` sectors, filled a sector at a time (as NVIDIA's L1 and L2 are, CUDA guide
// "Global Memory" for cc >= 5.x; Jia et al. 2019 ch. 3). It tracks tags and which sectors were
// written (dirty), never data.
#pragma once

#include <cstdint>
#include <vector>

namespace teg::timing::detail {

class SectoredCache {
 public:
  // A cache of `bytes` (0: no cache; every access misses).
  SectoredCache(long long bytes, int lineBytes, int sectorBytes, int ways);

  // Looks up sector number `sector` (address / sectorBytes); on a miss, fills it (allocating the
  // line, evicting the least recently used one). Returns true on a hit.
  bool access(std::uint64_t sector);
  // A write of sector number `sector`: as access(), and marks the sector dirty (a miss allocates
  // it without a fill: NVIDIA's L2 keeps byte masks, so a write needs no read of the sector).
  struct WriteResult {
    bool hit = false;
    bool wasDirty = false;  // written before, and not evicted since
  };
  WriteResult write(std::uint64_t sector);
  // Dirty sectors the last access evicted with its line (0 on a hit or a clean victim).
  [[nodiscard]] int evictedDirtySectors() const { return evictedDirty_; }
  [[nodiscard]] bool enabled() const { return sets_ > 0; }

 private:
  std::uint64_t sets_ = 0;
  bool setsArePowerOfTwo_ = false;  // the set index is then a mask, not a division
  int ways_ = 0;
  int sectorsPerLine_ = 1;
  int sectorShift_ = -1;  // log2(sectorsPerLine_) when a power of two (the usual 4), else -1
  std::uint64_t clock_ = 0;
  std::size_t lastWay_ = 0;  // the way of the last access
  std::uint32_t lastBit_ = 0;  // the sector's bit in its line's masks, of the last access
  int evictedDirty_ = 0;
  // Per way (set-major), kept apart so that the tag search touches only the tags.
  std::vector<std::uint64_t> tags_;
  std::vector<std::uint64_t> lastUse_;
  std::vector<std::uint32_t> sectorMasks_;
  std::vector<std::uint32_t> dirtyMasks_;
};

}  // namespace teg::timing::detail
