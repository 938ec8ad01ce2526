// A sectored, set-associative cache with LRU replacement: lines of `lineBytes` made of
// `sectorBytes` sectors, filled a sector at a time (as NVIDIA's L1 and L2 are, CUDA guide
// "Global Memory" for cc >= 5.x; Jia et al. 2019 ch. 3). It tracks tags and which sectors were
// written (dirty), never data. Each set keeps its ways in recency order (a list), so that a miss
// finds its victim at once; a cache of many ways (the unified L1: 4 sets of up to 320 ways, see
// config.cpp) also finds a line through a hash index instead of scanning its set.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace teg::timing::detail {

class SectoredCache {
 public:
  // A cache of `bytes` (0: no cache; every access misses).
  SectoredCache(long long bytes, int lineBytes, int sectorBytes, int ways);

  // Looks up sector number `sector` (address / sectorBytes); on a miss, fills it (allocating the
  // line, evicting the least recently used one). Returns true on a hit.
  bool access(std::uint64_t sector) {
    if (sets_ == 0) return false;
    const auto perLine = static_cast<std::uint64_t>(sectorsPerLine_);
    const std::uint64_t line = sectorShift_ >= 0 ? sector >> sectorShift_ : sector / perLine;
    const auto index = static_cast<std::uint32_t>(sectorShift_ >= 0 ? sector & (perLine - 1) : sector % perLine);
    const std::uint32_t bit = 1u << index;
    lastBit_ = bit;
    lastIndex_ = index;
    evictedDirty_ = 0;
    // The sectors of a request mostly share lines, so the way used last is tried first, here in
    // the header (a line is in at most one way, so this finds the same way the scan would).
    if (tags_[lastWay_] == line) return touch(lastWay_, bit);
    return lookUp(line, bit);
  }
  // A write of sector number `sector`: as access(), and marks the sector dirty (a miss allocates
  // it without a fill: NVIDIA's L2 keeps byte masks, so a write needs no read of the sector).
  struct WriteResult {
    bool hit = false;
    bool wasDirty = false;  // written before, and not evicted since
  };
  WriteResult write(std::uint64_t sector);
  // Dirty sectors the last access evicted with its line (0 on a hit or a clean victim).
  [[nodiscard]] int evictedDirtySectors() const { return evictedDirty_; }
  // When the sector of the last access() is filled: a miss allocates the sector at once (so that
  // a second request finds it), and the data arrive later. The caller of a miss records the
  // arrival; a hit before it waits for it (the MSHR merges the two requests: Jia et al. 2018
  // and Mei & Chu 2017 see no second transaction for a sector already requested). 0 = present.
  // A sector's fill time is read only while its pending bit (sector bit << kPendingShift in its
  // line's mask, which the access has just read) is set: most hits are on sectors filled long
  // ago, and the times are a larger array than the masks (BM_MemoryBound read it on every hit).
  [[nodiscard]] double lastFillTime() const {
    return sets_ != 0 && (sectorMasks_[lastWay_] & pendingBit()) != 0 ? fillTimes_[lastSlot()] : 0;
  }
  void setLastFillTime(double at) {
    if (sets_ == 0) return;
    fillTimes_[lastSlot()] = at;
    if (pendingShift_ > 0) sectorMasks_[lastWay_] |= pendingBit();
  }
  // When a hit on the last access's sector gets its data: at `now + hitLatency`, or when its
  // fill arrives if that is later. A fill already past is settled (later hits skip its time).
  double hitReady(double now, double hitLatency) {
    const double fill = lastFillTime();
    if (fill > 0 && fill <= now && pendingShift_ > 0) sectorMasks_[lastWay_] &= ~pendingBit();
    return std::max(now + hitLatency, fill);
  }
  [[nodiscard]] bool enabled() const { return sets_ > 0; }
  [[nodiscard]] std::uint64_t sets() const { return sets_; }
  // The set a line maps to (hashed; see cache.cpp). Only for an enabled cache.
  [[nodiscard]] std::uint64_t setOf(std::uint64_t line) const;

 private:
  bool touch(std::size_t way, std::uint32_t bit) {
    if (mru_[lastSet_] != way) moveToFront(way);
    lastWay_ = way;
    const bool hit = (sectorMasks_[way] & bit) != 0;
    sectorMasks_[way] |= bit;  // a sector just allocated has no pending bit (a write needs none)
    return hit;
  }
  // The pending bit of the last access's sector; with more than 16 sectors a line (none in the
  // database) every sector counts as pending.
  [[nodiscard]] std::uint32_t pendingBit() const { return pendingShift_ > 0 ? lastBit_ << pendingShift_ : ~0u; }
  [[nodiscard]] std::size_t lastSlot() const {
    return lastWay_ * static_cast<std::size_t>(sectorsPerLine_) + lastIndex_;
  }
  // access() past the way used last: the set's scan, and the fill on a miss.
  bool lookUp(std::uint64_t line, std::uint32_t bit);
  // The recency list of set lastSet_: `way` becomes its most recently used.
  void moveToFront(std::size_t way);
  // The hash index of caches with many ways (line -> way; open addressing, linear probing).
  [[nodiscard]] std::size_t homeOf(std::uint64_t line) const {
    return static_cast<std::size_t>((line * 0x9E3779B97F4A7C15ull) >> indexShift_);
  }
  [[nodiscard]] std::size_t findIndexed(std::uint64_t line) const;
  void insertIndexed(std::size_t way);
  void eraseIndexed(std::size_t way);

  std::uint64_t sets_ = 0;
  bool setsArePowerOfTwo_ = false;  // the set index is then a mask, not a division
  int indexBits_ = 1;               // bits of a set index (the fold's shift)
  int ways_ = 0;
  int sectorsPerLine_ = 1;
  int sectorShift_ = -1;  // log2(sectorsPerLine_) when a power of two (the usual 4), else -1
  int pendingShift_ = 16;  // where a mask's pending bits start (0: none, lines of > 16 sectors)
  std::size_t lastWay_ = 0;  // the way of the last access
  std::size_t lastSet_ = 0;  // the set of the last access
  std::uint32_t lastBit_ = 0;  // the sector's bit in its line's masks, of the last access
  std::uint32_t lastIndex_ = 0;  // the sector's index in its line, of the last access
  int evictedDirty_ = 0;
  // Per way (set-major), kept apart so that the tag search touches only the tags.
  std::vector<std::uint64_t> tags_;
  // Recency: per way its neighbours in its set's list (global way numbers, kNone at the ends),
  // per set its most and least recently used way.
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  std::vector<std::uint32_t> newer_, older_;
  std::vector<std::uint32_t> mru_, lru_;
  // The hash index (empty unless the sets have more than kScanWays ways): way numbers, kNone free.
  static constexpr int kScanWays = 32;
  std::vector<std::uint32_t> index_;
  int indexShift_ = 64;
  std::vector<std::uint32_t> sectorMasks_;
  std::vector<std::uint32_t> dirtyMasks_;
  // Per way and sector (way-major): when the sector's fill arrives (see lastFillTime).
  std::vector<double> fillTimes_;
  // Bits set in dirtyMasks_, kept as they are set: a popcount at each eviction was a library
  // call (no hardware popcount in the baseline x86-64 target), on clean lines too.
  std::vector<std::uint8_t> dirtyCounts_;
};

}  // namespace teg::timing::detail
