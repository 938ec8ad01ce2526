#include "cache.hpp"

#include <algorithm>
#include <bit>

namespace teg::timing::detail {

SectoredCache::SectoredCache(long long bytes, int lineBytes, int sectorBytes, int ways)
    : ways_(std::max(1, ways)), sectorsPerLine_(std::max(1, lineBytes / std::max(1, sectorBytes))) {
  if (bytes <= 0 || lineBytes <= 0) return;
  sets_ = static_cast<std::uint64_t>(bytes) / static_cast<std::uint64_t>(lineBytes) / static_cast<std::uint64_t>(ways_);
  if (sets_ == 0) {  // smaller than one set: a fully associative cache of what fits
    ways_ = static_cast<int>(std::max<long long>(1, bytes / lineBytes));
    sets_ = 1;
  }
  const auto allWays = sets_ * static_cast<std::uint64_t>(ways_);
  tags_.assign(allWays, ~std::uint64_t{0});
  lastUse_.assign(allWays, 0);
  sectorMasks_.assign(allWays, 0);
  dirtyMasks_.assign(allWays, 0);
  dirtyCounts_.assign(allWays, 0);
  fillTimes_.assign(allWays * static_cast<std::uint64_t>(sectorsPerLine_), 0.0);
  if (sectorsPerLine_ > 16) pendingShift_ = 0;
  setsArePowerOfTwo_ = std::has_single_bit(sets_);
  if (std::has_single_bit(static_cast<unsigned>(sectorsPerLine_))) sectorShift_ = std::countr_zero(static_cast<unsigned>(sectorsPerLine_));
}

bool SectoredCache::lookUp(std::uint64_t line, std::uint32_t bit) {
  const std::uint64_t set = setsArePowerOfTwo_ ? line & (sets_ - 1) : line % sets_;
  const std::size_t first = static_cast<std::size_t>(set * static_cast<std::uint64_t>(ways_));
  const std::size_t end = first + static_cast<std::size_t>(ways_);
  // One pass finds the line or, for a miss, the least recently used way (the first of equals).
  std::size_t victim = first;
  for (std::size_t w = first; w < end; ++w) {
    if (tags_[w] == line) return touch(w, bit);
    if (lastUse_[w] < lastUse_[victim]) victim = w;
  }
  evictedDirty_ = dirtyCounts_[victim];
  tags_[victim] = line;
  lastWay_ = victim;
  lastUse_[victim] = clock_;
  sectorMasks_[victim] = bit;
  dirtyMasks_[victim] = 0;
  dirtyCounts_[victim] = 0;
  return false;
}

SectoredCache::WriteResult SectoredCache::write(std::uint64_t sector) {
  if (sets_ == 0) return {};
  WriteResult result;
  result.hit = access(sector);
  std::uint32_t& dirty = dirtyMasks_[lastWay_];
  result.wasDirty = (dirty & lastBit_) != 0;
  if (!result.wasDirty) ++dirtyCounts_[lastWay_];
  dirty |= lastBit_;
  return result;
}

}  // namespace teg::timing::detail
