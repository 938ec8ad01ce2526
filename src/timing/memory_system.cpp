#include "memory_system.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace teg::timing::detail {

MemorySystem::MemorySystem(const TimingConfig& config, WriteBack writeBack, double ownFetchFraction,
                           double laterWaveOwnFetchFraction)
    : config_(config),
      writeBack_(writeBack),
      ownFetchFraction_(ownFetchFraction),
      laterWaveOwnFetchFraction_(laterWaveOwnFetchFraction >= 0 ? laterWaveOwnFetchFraction : ownFetchFraction),
      sectorsPerLine_(std::max(1, config.lineBytes / std::max(1, config.sectorBytes))),
      l1_(config.l1Bytes, config.lineBytes, config.sectorBytes, config.l1Ways),
      // Shared data is held once in the L2 for all the SMs that read it (l2_sharing.hpp).
      l2_(l2CapacityOfSharedData(config.l2BytesShare, config.smCount, ownFetchFraction), config.lineBytes,
          config.sectorBytes, config.l2Ways),
      l2Near_(config.l2Partitions > 1 && config.l2FarLatency > 0 ? config.l2BytesShare / config.l2Partitions : 0,
              config.lineBytes, config.sectorBytes, config.l2Ways),
      l2SectorCycles_(config.l2BytesPerCycle > 0 ? config.sectorBytes / config.l2BytesPerCycle : 0),
      l2WriteSectorCycles_(config.l2WriteBytesPerCycle > 0 ? config.sectorBytes / config.l2WriteBytesPerCycle
                                                           : l2SectorCycles_),
      dramSectorCycles_(config.dramBytesPerCycle > 0 ? config.sectorBytes / config.dramBytesPerCycle : 0),
      dramTurnaroundCycles_(config.dramMixedBytesPerCycle > 0 && config.dramBytesPerCycle > 0
                                ? std::max(0.0, config.sectorBytes / config.dramMixedBytesPerCycle - dramSectorCycles_)
                                : 0) {}

int MemorySystem::inFlight(double at) const {
  const auto done = std::upper_bound(inFlight_.begin() + static_cast<std::ptrdiff_t>(inFlightStart_), inFlight_.end(), at);
  return static_cast<int>(inFlight_.end() - done);
}

// A request is admitted when half of its sectors fit under C_mem: the LSU hands a request's
// sectors to the memory pipeline one after another, so the first ones are in flight before the
// last are sent; admitting only when all fit left the pipeline short of Lai eq. 3.1's
// concurrency, admitting when any slot is free overfilled it (both tried against the validation
// suites; docs/timing.md gives the figures).
bool MemorySystem::canIssue(double at, int sectors) const {
  if (config_.maxOutstandingSectors <= 0) return true;
  const int busy = inFlight(at);
  return busy == 0 || busy + sectors / 2 <= config_.maxOutstandingSectors;
}

double MemorySystem::nextAcceptTime(double at, int sectors) const {
  if (canIssue(at, sectors)) return at;
  // Enough sectors must complete that at most C_mem - sectors/2 stay in flight (all of them when
  // the request alone exceeds that).
  const int mayStay = std::max(0, config_.maxOutstandingSectors - sectors / 2);
  const auto n = static_cast<std::ptrdiff_t>(inFlight_.size());
  return std::max(at, inFlight_[static_cast<std::size_t>(n - mayStay - 1)]);
}

// track, throughL2 and dramTransfer run once per sector: they are inlined into the request loops
// below (the calls were about a sixth of BM_MemoryBound's time: 2.70 -> 3.02 M warp
// instructions/s).
[[gnu::always_inline]] inline void MemorySystem::track(double now, double completion) {
  if (config_.maxOutstandingSectors <= 0 || completion <= now) return;  // holds no slot
  // Requests issue in time order, so whatever completed by `now` can never count again. It is
  // skipped rather than erased (erasing the front moved the whole queue per sector), and the
  // vector compacted once the skipped part outgrows the live one.
  // A few complete between issues (none between the sectors of one request): a forward scan.
  while (inFlightStart_ < inFlight_.size() && inFlight_[inFlightStart_] <= now) ++inFlightStart_;
  if (inFlightStart_ > 64 && inFlightStart_ * 2 > inFlight_.size()) {
    inFlight_.erase(inFlight_.begin(), inFlight_.begin() + static_cast<std::ptrdiff_t>(inFlightStart_));
    inFlightStart_ = 0;
  }
  // Completions mostly grow (the DRAM pipe is a queue): most go to the back.
  if (inFlight_.size() == inFlightStart_ || inFlight_.back() <= completion) {
    inFlight_.push_back(completion);
    return;
  }
  const auto live = inFlight_.begin() + static_cast<std::ptrdiff_t>(inFlightStart_);
  inFlight_.insert(std::upper_bound(live, inFlight_.end(), completion), completion);
}

// The split L2's near partition, out of line: only the A100s have one.
[[gnu::noinline]] bool MemorySystem::nearLookUp(std::uint64_t sector, Access kind) {
  return kind == Access::Read ? l2Near_.access(sector) : l2Near_.write(sector).hit;
}

[[gnu::noinline]] double MemorySystem::nearFill(double start, bool nearHit, double ready) {
  if (nearHit) return std::max(ready, l2Near_.hitReady(start, config_.l2HitLatency));
  l2Near_.setLastFillTime(ready);
  return ready;
}

// A read miss of a launch run back to back after its like: deterministically, round(fraction x n)
// of the first n such misses find the line the previous launch left (TimingConfig::l2WarmFraction).
// The line is filled as a miss fills it, so the launch's own reuse of it is unchanged.
bool MemorySystem::keptFromPreviousLaunch() {
  if (config_.l2WarmFraction <= 0) return false;
  const auto before = static_cast<std::uint64_t>(std::floor(config_.l2WarmFraction * static_cast<double>(warmDraws_)));
  ++warmDraws_;
  return static_cast<std::uint64_t>(std::floor(config_.l2WarmFraction * static_cast<double>(warmDraws_))) > before;
}

bool MemorySystem::l2Hit(std::uint64_t sector) {
  if (config_.forcedL2HitRate >= 0) {
    // Deterministic: exactly round(rate × n) of the first n lookups hit.
    const auto before = static_cast<std::uint64_t>(std::floor(config_.forcedL2HitRate * static_cast<double>(l2Lookups_)));
    ++l2Lookups_;
    const auto after = static_cast<std::uint64_t>(std::floor(config_.forcedL2HitRate * static_cast<double>(l2Lookups_)));
    return after > before;
  }
  return l2_.access(sector);
}

// `slotFree` is when the sector gives back its C_mem slot: Lai eq. 3.1 counts a request as
// outstanding for one memory latency (its own transfer plus the latency), not while it queues
// behind others for the bandwidth — the queue is the bandwidth limit, counted once.
[[gnu::always_inline]] inline double MemorySystem::throughL2(double now, std::uint64_t sector, Access kind,
                                                             MemoryCounters& counters, double& slotFree,
                                                             double ownFetchFraction, int writeSlots) {
  double start = now;
  if (config_.l2BytesPerCycle > 0) {
    // Reads and writes share the pipe, each at its own measured rate (timing.l2_write_bytes_per_clk).
    start = std::max(now, l2FreeAt_);
    l2FreeAt_ = start + (kind == Access::Write ? l2WriteSectorCycles_ * writeSlots : l2SectorCycles_);
  }
  if (kind == Access::Write) {
    ++counters.l2WriteSectors;
    if (writeSlots > 1) ++counters.l2PartialWordWrites;
  }
  // The L2 is write-back (write_back.hpp says when a dirty sector's DRAM write is charged). Without
  // an L2 to hold it (or under a what-if hit rate) a write that misses goes to DRAM at once.
  const bool l2Tracks = l2_.enabled() && config_.forcedL2HitRate < 0;
  bool hit = false;
  bool writeThrough = false;  // this access's own write is charged to DRAM now
  bool cachedHit = false;     // found in this SM's L2 share (its fill time applies)
  // Split L2 (l2Near_ enabled): the SM's half keeps a copy of what the SM reads; a line the whole
  // L2 holds but the near half does not is served by the far half.
  bool nearHit = true;
  const bool split = l2Tracks && l2Near_.enabled();
  if (split) [[unlikely]] nearHit = nearLookUp(sector, kind);
  if (!l2Tracks) {
    hit = l2Hit(sector);
    writeThrough = kind != Access::Read && !hit;
  } else if (kind == Access::Read) {
    hit = cachedHit = l2_.access(sector);
    if (!hit && l2Near_.enabled() && nearHit) hit = true;  // the near copy outlived the line's LRU place
    // A miss in this SM's share that another SM has already brought into the (one, shared) L2.
    // Local memory is per thread: no other SM reads it.
    if (!hit && (sector & kLocalSectorTag) == 0 && fetchedByAnotherSm(sector / sectorsPerLine_, ownFetchFraction)) {
      hit = true;
      ++counters.l2PeerHits;
    }
    if (!hit && keptFromPreviousLaunch()) hit = true;
  } else {
    const auto w = l2_.write(sector);  // a miss allocates the sector without reading it
    hit = w.hit;
    if (!hit && kind == Access::Atomic && fetchedByAnotherSm(sector / sectorsPerLine_, ownFetchFraction_)) {
      hit = true;  // an atomic on data other SMs update too (a histogram's bins): already in the L2
      ++counters.l2PeerHits;
    }
    if (!hit && kind == Access::Atomic && keptFromPreviousLaunch()) hit = true;
    writeThrough = writeBack_ == WriteBack::WhenDirtied && !w.wasDirty;
  }
  const int evictedWrites = l2Tracks && writeBack_ == WriteBack::WhenEvicted ? l2_.evictedDirtySectors() : 0;

  slotFree = now;
  bool l2Slot = false;
  const double hitLatency = kind == Access::Read && !nearHit ? config_.l2FarLatency : config_.l2HitLatency;
  // A sector still being filled: the request waits for that fill (no second DRAM access).
  double ready = cachedHit ? l2_.hitReady(start, hitLatency) : start + hitLatency;
  if (hit) ++counters.l2Hits;
  if (hit || (l2Tracks && kind == Access::Write)) {
    // Served by the L2. C_mem (Lai eq. 3.2) is the DRAM pipeline's concurrency: GT200, where it
    // was measured, had no L2 for global data. Where the device gives the L2's bandwidth, the L2
    // pipe above bounds these accesses' rate and they hold no slot (a hit holding one capped a
    // T4's L2 throughput at C_mem x 32 B / L2 latency, 57 % of its measured 1270 GB/s). Without
    // that figure, C_mem stays the only limit on them: a slot for the L2 latency.
    if (config_.l2BytesPerCycle <= 0) {
      slotFree = now + config_.l2HitLatency;
      l2Slot = true;
    }
  } else if (kind != Access::Write) {
    ready = dramTransfer(now, start, false, counters, slotFree);  // a read or an atomic fetches the sector
  }
  if (l2Tracks && kind == Access::Read && !cachedHit) l2_.setLastFillTime(ready);
  if (split && kind == Access::Read) [[unlikely]] ready = nearFill(start, nearHit, ready);
  if (writeThrough) {
    double writeSlotFree = now;
    dramTransfer(now, start, true, counters, writeSlotFree);
    ++counters.dramWriteSectors;
    if (writeSlotFree > slotFree) slotFree = writeSlotFree, l2Slot = false;
  }
  if (l2Slot) ++counters.l2SlotSectors;
  // The write-backs of the dirty sectors this access evicted: DRAM transfers holding a C_mem slot
  // each, as reads do.
  for (int i = 0; i < evictedWrites; ++i) {
    double writeSlotFree = now;
    dramTransfer(now, start, true, counters, writeSlotFree);
    ++counters.dramWriteSectors;
    track(now, writeSlotFree);
  }
  return ready;
}

// DRAM: the SM's share of the bandwidth is a pipe; the data returns one DRAM latency after the
// pipe has moved it. The share bounds the sustained rate, not a burst: Lai eq. 3.1 has C_mem =
// share x latency / sector transactions in flight complete in one memory latency, so the pipe's
// clock may lag up to one DRAM latency behind (the share this SM left unused in that time, which
// other SMs, running the same code out of step, did not take either).
//
// Read/write turnaround: the bus idles when it changes direction. A read-only or write-only stream
// never does; where a share w of the traffic is writes and the two alternate, 2 min(w, 1 - w) of
// the sectors follow a change, each costing the turnaround. Its size comes from the device's
// sustained (copy-stream, w = 1/2) bandwidth: sector / sustained = sector / peak + turnaround.
[[gnu::always_inline]] inline double MemorySystem::dramTransfer(double now, double start, bool write,
                                                                MemoryCounters& counters, double& slotFree) {
  double transfer = dramSectorCycles_;
  if (dramTurnaroundCycles_ > 0) {
    (write ? dramWrites_ : dramReads_) += 1;
    const double w = dramWrites_ / (dramReads_ + dramWrites_);
    transfer += dramTurnaroundCycles_ * 2 * std::min(w, 1 - w);
  }
  const double shareClock = std::max(dramFreeAt_, start - config_.dramLatency);
  dramFreeAt_ = shareClock + transfer;
  const double dramStart = std::max(start, shareClock);
  ++counters.dramSectors;
  counters.dramBytes += config_.sectorBytes;
  slotFree = now + transfer + config_.dramLatency;
  return dramStart + transfer + config_.dramLatency;
}

double MemorySystem::load(double now, const std::uint64_t* sectors, int count, bool viaL1, MemoryCounters& counters,
                          bool laterWave) {
  const double fetchFraction = laterWave ? laterWaveOwnFetchFraction_ : ownFetchFraction_;
  double done = now + (viaL1 ? config_.l1HitLatency : config_.l2HitLatency);
  counters.sectorsRequested += static_cast<std::uint64_t>(count);
  for (int i = 0; i < count; ++i) {
    double ready = 0;
    double slotFree = 0;
    if (viaL1 && l1_.access(sectors[i])) {
      ++counters.l1Hits;
      // An L1 hit never reaches the memory pipeline whose concurrency C_mem is (Lai eq. 3.2: DRAM
      // share x DRAM latency / sector; GT200, where it was measured, had no L1 for global data).
      // Where the LD/ST data path has a width, that path paces the hits (the LSU's busy time per
      // request) and a hit holds no slot, as an L2 hit holds none where the L2 has a bandwidth.
      // Holding one for the L1 latency capped the L1 at C_mem x 32 B / L1 latency: an RTX 4090
      // (C_mem 53 sectors) streamed L1 hits at 36 B/clk/SM against Luo 2024's 63.7 (suite
      // l1-bandwidth-rtx4090), the H800 at 90.5 against 125.8.
      slotFree = config_.lsuBytesPerCycle > 0 ? now : now + config_.l1HitLatency;
      // A sector another request is still filling: this one waits for that fill (the MSHR
      // merges them) instead of getting it at L1 latency.
      ready = l1_.hitReady(now, config_.l1HitLatency);
    } else {
      ready = throughL2(now, sectors[i], Access::Read, counters, slotFree, fetchFraction);
      if (viaL1) l1_.setLastFillTime(ready);
    }
    track(now, slotFree);
    done = std::max(done, ready);
  }
  return done;
}

double MemorySystem::viaL2(double now, const std::uint64_t* sectors, int count, Access kind, MemoryCounters& counters,
                           int partialWordSectors) {
  counters.sectorsRequested += static_cast<std::uint64_t>(count);
  double done = now;
  for (int i = 0; i < count; ++i) {
    double slotFree = 0;
    const double ready =
        throughL2(now, sectors[i], kind, counters, slotFree, ownFetchFraction_, i < partialWordSectors ? 2 : 1);
    track(now, slotFree);
    done = std::max(done, ready);
  }
  return done;
}

// A store goes to the L2 (no L1 allocation): it occupies the L2 pipe and, where it dirties a
// sector, the DRAM pipe for the write-back; the warp does not wait for it.
//
// A store that writes part of an ECC word (partialWordSectors of them, the first ones: which ones
// changes no total) makes the L2 read the word, merge the bytes and recompute the code before it
// writes: two pipe times. V100 whitepaper ("ECC Memory Resiliency"): SECDED ECC protects GV100's
// L2, 8 check bits per 8 bytes. The H100 SXM5's naive transpose (4-byte stores, 32 sectors a warp:
// suite transpose-yencal-h100-sxm) runs at 0.227 written sectors per clock per SM, half of the
// 0.45 that mt4g's whole-sector L2 write program reaches on it.
double MemorySystem::store(double now, const std::uint64_t* sectors, int count, MemoryCounters& counters,
                           int partialWordSectors) {
  return viaL2(now, sectors, count, Access::Write, counters, partialWordSectors);
}

// Atomics to one address are serialised at the L2 (CUDA guide, "Atomic Functions"; one
// operation per clock on a common address: NVIDIA's GK110 whitepaper, timing.l2_atomic_cycles):
// each sector's unit performs this request's operations on its busiest word after whatever it
// had queued, and the other SMs updating the same sector interleave theirs (atomic_contention.hpp).
double MemorySystem::atomic(double now, const std::uint64_t* sectors, int count, int sameWordLanes,
                            MemoryCounters& counters) {
  if (config_.l2AtomicCycles <= 0) return viaL2(now, sectors, count, Access::Atomic, counters);
  counters.sectorsRequested += static_cast<std::uint64_t>(count);
  double done = now;
  for (int i = 0; i < count; ++i) {
    double slotFree = 0;
    const double ready = throughL2(now, sectors[i], Access::Atomic, counters, slotFree, ownFetchFraction_);
    double gpuPerOwn = 1;  // the GPU's operations on this sector per operation of this SM
    if (contention_ != nullptr)
      if (const auto it = contention_->find(sectors[i]); it != contention_->end()) gpuPerOwn = it->second;
    AtomicUnit& unit = atomicUnits_[sectors[i]];
    const double start = std::max(now, unit.freeAt);
    const double unitTime = sameWordLanes * config_.l2AtomicCycles * gpuPerOwn;
    unit.freeAt = start + unitTime;
    unit.busy += unitTime;
    counters.atomicUnitBusyCycles = std::max(counters.atomicUnitBusyCycles, unit.busy);
    track(now, slotFree);  // the wait at the atomic unit holds no C_mem slot: it is not DRAM traffic
    done = std::max(done, ready + (unit.freeAt - now));
  }
  return done;
}

// L1TEX's tag stage (NVIDIA developer forum, Greg Smith: "On GV100+ the L1TEX tag stage can
// resolve 4 sets x 4 sectors per cycle. If not all threads can be resolved in one wavefront then
// the instruction will continue to generate new wavefronts in the tag stage until all threads are
// handled"): each cycle it looks up one line in each set, so a request takes a cycle per line of
// its busiest set. NVIDIA does not publish the L1's index function; Accel-Sim's L1, validated
// against Volta to Ada, indexes its 4 sets linearly (tested-cfgs SM7_QV100 ... SM86_RTX3070:
// "-gpgpu_cache:dl1 S:4:128:...,L:T:m:L:L", the last L its linear set function), line mod 4, and
// so does this stage. (The L1's contents keep their folded index, cache.cpp: with hundreds of
// ways a set, which set a line fills changes little there.) So a warp whose lanes touch 32 lines
// of a row-major matrix's column (rows a multiple of 512 bytes apart) takes 32 cycles, and a
// coalesced one 1, whatever the bytes.
int MemorySystem::l1TagWavefronts(const std::uint64_t* sectors, int count) const {
  const int lookups = config_.l1TagLookupsPerCycle;
  if (lookups <= 0 || count <= 0) return 0;
  const auto perLine = static_cast<std::uint64_t>(sectorsPerLine_);
  // The distinct lines: a line's sectors are mostly adjacent in the request, so neighbours are
  // merged first and the short list left is searched for the rest.
  std::vector<std::uint64_t>& lines = tagLines_;
  lines.clear();
  for (int i = 0; i < count; ++i) {
    const std::uint64_t line = sectors[i] / perLine;
    if (!lines.empty() && lines.back() == line) continue;
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
  std::array<int, 64> perSet{};
  const auto sets = static_cast<std::uint64_t>(std::min<int>(lookups, static_cast<int>(perSet.size())));
  int busiest = 0;
  for (const std::uint64_t line : lines) busiest = std::max(busiest, ++perSet[static_cast<std::size_t>(line % sets)]);
  return busiest;
}

}  // namespace teg::timing::detail
