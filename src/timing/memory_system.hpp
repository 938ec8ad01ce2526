// The memory pipeline of one SM as Lai §3.2.2.4 and §3.2.3 describe it, generalised: global and
// local accesses are split into 32-byte sectors (coalescing) that go through the SM's L1, its
// share of the L2 and its share of the DRAM bandwidth; each level is a pipe with a latency and a
// bandwidth (a request waits for the pipe, occupies it for size / bandwidth cycles, and is done
// one latency later). The number of sectors in flight is bounded by C_mem (Lai eq. 3.1-3.2).
//
// Partition skew (Lai §3.2.3.5) reaches it as a smaller DRAM share (partition_skew.hpp).
// A sector being filled is present for a second request, which waits for the fill (in-flight
// fills, per cache: SectoredCache::lastFillTime). A split L2 (A100, H100) has a near half that
// holds a copy of what the SM reads; a line only the far half holds costs the far latency.
// Not modelled: DRAM pages, the TLB, L2 slices (the L2 is one pipe), interference from other SMs
// except through the bandwidth share and the data they bring into the L2 (l2_sharing.hpp).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "atomic_contention.hpp"
#include "cache.hpp"
#include "l2_sharing.hpp"
#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"
#include "write_back.hpp"

namespace teg::timing::detail {

class MemorySystem {
 public:
  // `ownFetchFraction`: of the reads that miss this SM's L2 share, the fraction it fetches from
  // DRAM itself; the others find the sector brought in by another SM (l2_sharing.hpp).
  // `laterWaveOwnFetchFraction`: the same for the loads of blocks after the first wave, which also
  // find what the first wave's blocks on other SMs left in the L2 (L2Carry; -1: as the first wave).
  MemorySystem(const TimingConfig& config, WriteBack writeBack, double ownFetchFraction = 1.0,
               double laterWaveOwnFetchFraction = -1);

  // Sectors in flight at `at` (a request issued at or after the last issue).
  int inFlight(double at) const;
  // Whether a request of `sectors` can be issued at `at`: half of it must fit under C_mem; a
  // request larger than that may go when nothing else is in flight.
  bool canIssue(double at, int sectors) const;
  // The earliest time >= `at` a request of `sectors` can be accepted, given what is in flight now
  // (later issues can only delay it, so this is a lower bound the caller re-checks).
  double nextAcceptTime(double at, int sectors) const;

  // A load of the given sectors issued at `now`; returns when its data is back. `viaL1`: the L1
  // may serve it (the caller decides from the cache operator and the device's default).
  // `laterWave`: a block after the first wave of the SM issues it (laterWaveOwnFetchFraction).
  double load(double now, const std::uint64_t* sectors, int count, bool viaL1, MemoryCounters& counters,
              bool laterWave = false);
  // A store (no L1 allocation; write-back L2: a sector it dirties costs a DRAM write when it is
  // dirtied or evicted, or none within the kernel where the grid's data fit the L2: write_back.hpp);
  // returns when the pipeline accepted it. The first `partialWordSectors` of the sectors are
  // written in part of an L2 ECC word (TimingConfig::l2EccWordBytes): each holds the L2 pipe for
  // a read-modify-write, twice a whole sector's write time.
  double store(double now, const std::uint64_t* sectors, int count, MemoryCounters& counters,
               int partialWordSectors = 0);
  // An atomic or reduction: performed at the L2; returns when the result is back. Each sector's
  // operations wait for the L2 atomic unit of that sector, which performs `sameWordLanes`
  // operations on one word one after another (TimingConfig::l2AtomicCycles each, times the GPU's
  // operations on the sector per operation of this SM: setAtomicContention).
  double atomic(double now, const std::uint64_t* sectors, int count, int sameWordLanes, MemoryCounters& counters);
  // Cycles the L1TEX tag stage takes for a request of these sectors (TimingConfig::
  // l1TagLookupsPerCycle = the sets it looks up one line in each cycle; 0 when not modelled): the
  // lines of its busiest set, sets indexed line mod that number (memory_system.cpp).
  [[nodiscard]] int l1TagWavefronts(const std::uint64_t* sectors, int count) const;
  // The GPU's operations on each atomic sector per operation of this SM (atomic_contention.hpp);
  // must outlive this.
  void setAtomicContention(const AtomicContention* contention) { contention_ = contention; }

 private:
  enum class Access { Read, Write, Atomic };
  // `writeSlots`: the L2 pipe times a written sector holds (2: a read-modify-write).
  double throughL2(double now, std::uint64_t sector, Access kind, MemoryCounters& counters, double& slotFree,
                   double ownFetchFraction, int writeSlots = 1);
  // One sector through this SM's share of the DRAM bandwidth, queued from `start`; returns when
  // its data is back and sets when it gives back its C_mem slot.
  // `write`: a write-back (else a read): the pipe's time per sector grows with the mix of the two
  // (read/write turnaround, config.dramMixedBytesPerCycle).
  double dramTransfer(double now, double start, bool write, MemoryCounters& counters, double& slotFree);
  // Every sector through the L2 (and DRAM on a miss); returns when the last is done. The first
  // `partialWordSectors` writes are read-modify-writes (two pipe times).
  double viaL2(double now, const std::uint64_t* sectors, int count, Access kind, MemoryCounters& counters,
               int partialWordSectors = 0);
  bool l2Hit(std::uint64_t sector);
  bool keptFromPreviousLaunch();
  std::uint64_t warmDraws_ = 0;  // keptFromPreviousLaunch's draws
  bool nearLookUp(std::uint64_t sector, Access kind);
  double nearFill(double start, bool nearHit, double ready);
  void track(double now, double completion);

  const TimingConfig& config_;
  WriteBack writeBack_;
  double ownFetchFraction_ = 1.0;
  double laterWaveOwnFetchFraction_ = 1.0;
  // Another SM fetched a whole line or none of it (the decision is per line): a warp's request
  // for one line then waits for DRAM with probability ownFetchFraction, not 1 - (1 - it)^sectors.
  int sectorsPerLine_ = 4;
  SectoredCache l1_;
  mutable std::vector<std::uint64_t> tagLines_;  // l1TagWavefronts's scratch (no allocation per request)
  SectoredCache l2_;
  // The SM's half of a split L2 (config.l2Partitions > 1 with a far latency): a copy of the lines
  // the SM uses, as the A100 whitepaper describes ("each L2 partition localizes and caches data for
  // memory accesses from SMs in the GPCs directly connected to the partition"). Disabled (0 bytes)
  // on a one-piece L2.
  SectoredCache l2Near_;
  // Cycles the L2 and DRAM pipes are busy per sector (sector bytes / bandwidth), divided once:
  // a read (or atomic) sector, a written one.
  double l2SectorCycles_ = 0;
  double l2WriteSectorCycles_ = 0;
  double dramSectorCycles_ = 0;
  // Extra pipe cycles per direction change between DRAM reads and writes (0: not modelled), and
  // the DRAM reads and writes so far, whose mix says how often the direction changes.
  double dramTurnaroundCycles_ = 0;
  double dramReads_ = 0, dramWrites_ = 0;
  double l2FreeAt_ = 0;
  double dramFreeAt_ = 0;
  std::uint64_t l2Lookups_ = 0;
  // Completion times of the sectors in flight, sorted, from inFlightStart_ on (those before it
  // were done by the last issue). Queries may look ahead (a warp asking when it could issue
  // later) without losing entries.
  std::vector<double> inFlight_;
  std::size_t inFlightStart_ = 0;
  // Atomics: when each sector's L2 atomic unit is free again, and the GPU's operations on each
  // sector per operation of this SM (atomic_contention.hpp).
  // Per sector, its L2 atomic unit: when it is next free, and the time charged to it so far.
  struct AtomicUnit {
    double freeAt = 0, busy = 0;
  };
  std::unordered_map<std::uint64_t, AtomicUnit> atomicUnits_;
  const AtomicContention* contention_ = nullptr;
};

}  // namespace teg::timing::detail
