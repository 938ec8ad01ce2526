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
  indexBits_ = std::max(1, static_cast<int>(std::bit_width(sets_ - 1)));
  if (std::has_single_bit(static_cast<unsigned>(sectorsPerLine_))) sectorShift_ = std::countr_zero(static_cast<unsigned>(sectorsPerLine_));
}

// NVIDIA does not publish its caches' index functions, but a power-of-two stride does not thrash
// them: rows of a 4096-float matrix (16 KiB apart) stay in the L1 together. Accel-Sim, validated
// against Volta to Ada, models the L1 as 4 sets of up to 256 ways and hashes the L2's sets
// (IPOLY) (accel-sim/gpgpu-sim_distribution configs/tested-cfgs/SM86_RTX3070/gpgpusim.config:
// "-gpgpu_cache:dl1 S:4:128:256", "-gpgpu_cache:dl2 S:64:128:16,L:B:m:L:P"). teg keeps its
// few-way LRU sets (a scan of 256 ways per miss would slow every load) and folds the higher line
// bits into the set index: lines 2^k apart spread over the sets, and a run of consecutive lines
// that fits the cache still maps one line per way (within an aligned run of `sets` lines the fold
// only XORs a constant into the index).
std::uint64_t SectoredCache::setOf(std::uint64_t line) const {
  const std::uint64_t folded = line ^ (line >> indexBits_) ^ (line >> (2 * indexBits_));
  return setsArePowerOfTwo_ ? folded & (sets_ - 1) : folded % sets_;
}

bool SectoredCache::lookUp(std::uint64_t line, std::uint32_t bit) {
  const std::uint64_t set = setOf(line);
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
