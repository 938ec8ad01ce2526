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
  struct Way {
    std::uint64_t tag = ~std::uint64_t{0};
    std::uint64_t lastUse = 0;
    std::uint32_t sectorMask = 0;
  };
  std::uint64_t sets_ = 0;
  int ways_ = 0;
  int sectorsPerLine_ = 1;
  std::uint64_t clock_ = 0;
  std::vector<Way> lines_;
};

}  // namespace teg::timing::detail
