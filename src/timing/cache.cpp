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
  // Each set's list from its last way (most recent) to its first (least recent): the first misses
  // fill ways 0, 1, ... in order.
  newer_.assign(allWays, kNone);
  older_.assign(allWays, kNone);
  mru_.assign(sets_, 0);
  lru_.assign(sets_, 0);
  const auto setWays = static_cast<std::uint64_t>(ways_);
  for (std::uint64_t s = 0; s < sets_; ++s) {
    const auto first = static_cast<std::uint32_t>(s * setWays);
    const auto last = static_cast<std::uint32_t>(first + setWays - 1);
    mru_[s] = last;
    lru_[s] = first;
    for (std::uint32_t w = first; w <= last; ++w) {
      newer_[w] = w == last ? kNone : w + 1;
      older_[w] = w == first ? kNone : w - 1;
    }
  }
  if (ways_ > kScanWays) {
    const int bits = static_cast<int>(std::bit_width(allWays * 2 - 1));  // at most half full
    index_.assign(std::size_t{1} << bits, kNone);
    indexShift_ = 64 - bits;
  }
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

void SectoredCache::moveToFront(std::size_t way) {
  const auto w = static_cast<std::uint32_t>(way);
  const std::uint32_t newer = newer_[w], older = older_[w];  // newer != kNone: w is not the head
  older_[newer] = older;
  if (older != kNone) newer_[older] = newer; else lru_[lastSet_] = newer;
  newer_[w] = kNone;
  older_[w] = mru_[lastSet_];
  newer_[mru_[lastSet_]] = w;
  mru_[lastSet_] = w;
}

std::size_t SectoredCache::findIndexed(std::uint64_t line) const {
  const std::size_t mask = index_.size() - 1;
  for (std::size_t i = homeOf(line);; i = (i + 1) & mask) {
    const std::uint32_t w = index_[i];
    if (w == kNone || tags_[w] == line) return w;
  }
}

void SectoredCache::insertIndexed(std::size_t way) {
  const std::size_t mask = index_.size() - 1;
  std::size_t i = homeOf(tags_[way]);
  while (index_[i] != kNone) i = (i + 1) & mask;
  index_[i] = static_cast<std::uint32_t>(way);
}

// Linear probing's deletion without tombstones: later entries of the probe run move back into
// the hole unless their home lies cyclically in (hole, their slot].
void SectoredCache::eraseIndexed(std::size_t way) {
  const std::size_t mask = index_.size() - 1;
  std::size_t hole = homeOf(tags_[way]);
  while (index_[hole] != way) hole = (hole + 1) & mask;
  for (std::size_t j = (hole + 1) & mask; index_[j] != kNone; j = (j + 1) & mask) {
    const std::size_t home = homeOf(tags_[index_[j]]);
    const bool homeInRun = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (homeInRun) continue;
    index_[hole] = index_[j];
    hole = j;
  }
  index_[hole] = kNone;
}

bool SectoredCache::lookUp(std::uint64_t line, std::uint32_t bit) {
  const std::uint64_t set = setOf(line);
  lastSet_ = static_cast<std::size_t>(set);
  if (!index_.empty()) {
    if (const std::size_t w = findIndexed(line); w != kNone) return touch(w, bit);
  } else {
    const std::size_t first = static_cast<std::size_t>(set * static_cast<std::uint64_t>(ways_));
    const std::size_t end = first + static_cast<std::size_t>(ways_);
    for (std::size_t w = first; w < end; ++w)
      if (tags_[w] == line) return touch(w, bit);
  }
  // A miss: the least recently used way of the set takes the line.
  const std::size_t victim = lru_[lastSet_];
  if (!index_.empty()) {
    if (tags_[victim] != ~std::uint64_t{0}) eraseIndexed(victim);
    tags_[victim] = line;
    insertIndexed(victim);
  } else {
    tags_[victim] = line;
  }
  evictedDirty_ = dirtyCounts_[victim];
  if (mru_[lastSet_] != victim) moveToFront(victim);
  lastWay_ = victim;
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
