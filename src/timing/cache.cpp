#include "cache.hpp"

#include <algorithm>

namespace teg::timing::detail {

SectoredCache::SectoredCache(long long bytes, int lineBytes, int sectorBytes, int ways)
    : ways_(std::max(1, ways)), sectorsPerLine_(std::max(1, lineBytes / std::max(1, sectorBytes))) {
  if (bytes <= 0 || lineBytes <= 0) return;
  sets_ = static_cast<std::uint64_t>(bytes) / static_cast<std::uint64_t>(lineBytes) / static_cast<std::uint64_t>(ways_);
  if (sets_ == 0) {  // smaller than one set: a fully associative cache of what fits
    ways_ = static_cast<int>(std::max<long long>(1, bytes / lineBytes));
    sets_ = 1;
  }
  lines_.resize(sets_ * static_cast<std::uint64_t>(ways_));
}

bool SectoredCache::access(std::uint64_t sector) {
  if (sets_ == 0) return false;
  const std::uint64_t line = sector / static_cast<std::uint64_t>(sectorsPerLine_);
  const std::uint32_t bit = 1u << (sector % static_cast<std::uint64_t>(sectorsPerLine_));
  Way* set = &lines_[(line % sets_) * static_cast<std::uint64_t>(ways_)];
  ++clock_;
  Way* victim = set;
  for (int w = 0; w < ways_; ++w) {
    if (set[w].tag == line) {
      set[w].lastUse = clock_;
      const bool hit = (set[w].sectorMask & bit) != 0;
      set[w].sectorMask |= bit;
      return hit;
    }
    if (set[w].lastUse < victim->lastUse) victim = &set[w];
  }
  victim->tag = line;
  victim->lastUse = clock_;
  victim->sectorMask = bit;
  return false;
}

}  // namespace teg::timing::detail
