// A sectored, set-associative cache with LRU replacement: lines of `lineBytes` made of
// `sectorBytes` sectors, filled a sector at a time (as NVIDIA's L1 and L2 are, CUDA guide
// "Global Memory" for cc >= 5.x; Jia et al. 2019 ch. 3). It tracks tags only, never data.
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
  [[nodiscard]] bool enabled() const { return sets_ > 0; }

 private:
  std::uint64_t sets_ = 0;
  bool setsArePowerOfTwo_ = false;  // the set index is then a mask, not a division
  int ways_ = 0;
  int sectorsPerLine_ = 1;
  int sectorShift_ = -1;  // log2(sectorsPerLine_) when a power of two (the usual 4), else -1
  std::uint64_t clock_ = 0;
  std::size_t lastWay_ = 0;  // the way of the last access
  // Per way (set-major), kept apart so that the tag search touches only the tags.
  std::vector<std::uint64_t> tags_;
  std::vector<std::uint64_t> lastUse_;
  std::vector<std::uint32_t> sectorMasks_;
};

}  // namespace teg::timing::detail
