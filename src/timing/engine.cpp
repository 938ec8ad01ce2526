#include "teg/timing/engine.hpp"
#include "teg/timing/launch_views.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
#include <random>
#include <unordered_map>

#include "atomic_contention.hpp"
#include "block_trace.hpp"
#include "bounds.hpp"
#include "l2_sharing.hpp"
#include "load_hoisting.hpp"
#include "loop_extrapolation.hpp"
#include "partition_skew.hpp"
#include "tail_wave.hpp"
#include "sm_model.hpp"
#include "teg/support/error.hpp"
#include "teg/trace/memory_access.hpp"

namespace teg::timing {

namespace detail {

bool takesSharedOperand(const trace::KernelInfo& kernel, std::uint32_t pc) {
  if (pc == 0 || pc >= kernel.instructions.size()) return false;
  const auto& alu = kernel.instructions[pc];
  const auto& load = kernel.instructions[pc - 1];
  if (alu.kind != trace::InstrKind::Alu || load.kind != trace::InstrKind::Load ||
      load.space != trace::MemorySpace::Shared || load.defs.size() != 1 || load.accessBytes > 4)
    return false;
  return std::find(alu.uses.begin(), alu.uses.end(), load.defs.front()) != alu.uses.end();
}

void fuseMultiplyAdd(trace::KernelInfo& kernel, std::uint32_t mulPc) {
  const auto& mul = kernel.instructions[mulPc];
  if (mul.fusedInto < 0 || static_cast<std::size_t>(mul.fusedInto) >= kernel.instructions.size() || mul.defs.size() != 1)
    return;
  auto& add = kernel.instructions[static_cast<std::size_t>(mul.fusedInto)];
  // The fma reads the multiply's sources instead of its product.
  std::vector<std::uint32_t> uses;
  for (std::uint32_t r : add.uses)
    if (r != mul.defs.front()) uses.push_back(r);
  for (std::uint32_t r : mul.uses)
    if (std::find(uses.begin(), uses.end(), r) == uses.end()) uses.push_back(r);
  add.uses = std::move(uses);
}

}  // namespace detail

int residentSlots(const TimingConfig& config, const EngineOptions& options) {
  return config.maxResidentBlocks > 0 ? std::min(options.residentBlocks, config.maxResidentBlocks) : options.residentBlocks;
}

std::vector<std::uint64_t> blocksOfSimulatedSm(std::uint64_t gridBlocks, int smCount, std::uint64_t limit) {
  std::vector<std::uint64_t> blocks;
  const auto stride = static_cast<std::uint64_t>(std::max(1, smCount));
  for (std::uint64_t b = 0; b < gridBlocks && (limit == 0 || blocks.size() < limit); b += stride) blocks.push_back(b);
  return blocks;
}

PeerSample peerBlocksOfSimulatedSm(const trace::Dim3& grid, int smCount, int residentBlocks, int count) {
  PeerSample sample;
  if (smCount < 2 || count <= 0) return sample;
  const auto sms = static_cast<std::uint64_t>(smCount);
  const std::uint64_t wave = std::min(grid.count(), sms * static_cast<std::uint64_t>(std::max(1, residentBlocks)));
  const std::array<std::int64_t, 3> extent = {grid.x, grid.y, grid.z};
  auto coordinates = [&](std::uint64_t b) {
    return std::array<std::int64_t, 3>{static_cast<std::int64_t>(b % grid.x),
                                       static_cast<std::int64_t>(b / grid.x % grid.y),
                                       static_cast<std::int64_t>(b / (std::uint64_t{grid.x} * grid.y))};
  };
  std::vector<bool> neighbour(wave, false);  // SM 0's first-wave blocks and their grid neighbours
  std::array<std::vector<bool>, 3> ownCoordinate;  // per dimension: values SM 0's first wave has
  for (std::size_t d = 0; d < 3; ++d) ownCoordinate[d].assign(static_cast<std::size_t>(extent[d]), false);
  for (std::uint64_t b = 0; b < wave; b += sms) {
    const auto [x, y, z] = coordinates(b);
    ownCoordinate[0][static_cast<std::size_t>(x)] = ownCoordinate[1][static_cast<std::size_t>(y)] =
        ownCoordinate[2][static_cast<std::size_t>(z)] = true;
    // The 3 x 3 x 3 neighbourhood: diagonal neighbours share a corner sector of a 2-D halo.
    for (std::int64_t dz = -1; dz <= 1; ++dz)
      for (std::int64_t dy = -1; dy <= 1; ++dy)
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
          const std::int64_t nx = x + dx, ny = y + dy, nz = z + dz;
          if (nx < 0 || ny < 0 || nz < 0 || nx >= extent[0] || ny >= extent[1] || nz >= extent[2]) continue;
          const auto n = static_cast<std::uint64_t>(nx + extent[0] * (ny + extent[1] * nz));
          if (n < wave) neighbour[n] = true;
        }
  }
  // Strata by the coordinates shared with SM 0's first wave; only dimensions longer than 1 count
  // (every block shares a coordinate of extent 1). A neighbour that shares a row or column with
  // one of SM 0's blocks stays in: it reads that row's or column's panel like the stratum's other
  // blocks, and may be the only block of the wave that does (a 32 x 32 GEMM on 24 SMs x 2: block
  // 32 = (0,1) is the only one sharing block 0's B panel). A neighbour sharing neither (a
  // diagonal; every neighbour of a 1-D grid) is left out: all it can share is a halo.
  std::array<std::vector<std::uint64_t>, 8> byKey;
  for (std::uint64_t b = 0; b < wave; ++b) {
    if (b % sms == 0) continue;  // SM 0's own
    const auto c = coordinates(b);
    unsigned key = 0;
    for (std::size_t d = 0; d < 3; ++d)
      if (extent[d] > 1 && ownCoordinate[d][static_cast<std::size_t>(c[d])]) key |= 1u << d;
    if (neighbour[b] && key == 0) continue;
    byKey[key].push_back(b);
    ++sample.population;
  }
  std::vector<unsigned> keys;  // non-empty strata, largest first (then by key)
  for (unsigned key = 0; key < byKey.size(); ++key)
    if (!byKey[key].empty()) keys.push_back(key);
  std::stable_sort(keys.begin(), keys.end(), [&](unsigned a, unsigned b) { return byKey[a].size() > byKey[b].size(); });
  // An even share of the peers each, one at a time in that order, skipping a stratum once all
  // of its blocks are taken.
  std::vector<std::size_t> drawn(keys.size(), 0);
  const auto wanted = std::min<std::uint64_t>(sample.population, static_cast<std::uint64_t>(count));
  for (std::uint64_t given = 0; given < wanted;)
    for (std::size_t i = 0; i < keys.size() && given < wanted; ++i)
      if (drawn[i] < byKey[keys[i]].size()) ++drawn[i], ++given;
  // Drawn at random within each stratum (a fixed seed: the same launch always gets the same
  // peers): evenly spaced peers alias with the grid's shape. A 32 x 32 grid on 108 SMs puts SM
  // 0's first wave in rows {0, 3, 6, 10, ...} and columns {0, 12, 24, 4, ...}, and every 107th
  // block lies in none of them.
  std::mt19937_64 random(0x7465672d6c32ull);
  std::vector<std::pair<std::uint64_t, std::size_t>> chosen;  // block, stratum index
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto& candidates = byKey[keys[i]];
    for (std::size_t k = 0; k < drawn[i]; ++k)  // a partial Fisher-Yates shuffle
      std::swap(candidates[k], candidates[k + random() % (candidates.size() - k)]);
    for (std::size_t k = 0; k < drawn[i]; ++k) chosen.emplace_back(candidates[k], i);
    sample.strata.push_back(PeerStratum{keys[i], candidates.size(), drawn[i]});
  }
  std::sort(chosen.begin(), chosen.end());
  for (const auto& [block, stratum] : chosen) {
    sample.blocks.push_back(block);
    sample.stratumOf.push_back(stratum);
  }
  return sample;
}

struct TimingEngine::Impl {
  TimingConfig config;
  EngineOptions options;
  trace::KernelInfo kernel;
  std::unordered_map<std::uint64_t, std::size_t> position;  // block id -> index in SM order
  std::vector<detail::BlockTrace> blocks;                    // in SM order
  std::vector<bool> recorded;
  detail::BlockTrace* current = nullptr;
  // Peer blocks (EngineOptions::peerBlocks): the distinct sectors each reads, sorted.
  std::unordered_map<std::uint64_t, std::size_t> peerPosition;
  std::vector<std::vector<std::uint64_t>> peerSectors;
  std::vector<bool> peerTraced;
  std::vector<std::size_t> peerStratum;   // per peer: its stratum (PeerSample::stratumOf)
  std::vector<double> strataPopulation;   // per stratum: the blocks its peers were drawn from
  std::vector<std::uint64_t>* currentPeer = nullptr;
  // Per peer: the (pc, sector) pairs of every global, texture and local access it makes, reads and
  // writes, unsorted and with repeats (chooseWriteBack sorts them only when it needs them): what it
  // adds to the grid's L2 footprint (l2_footprint.hpp): for the write-back rule of a kernel that
  // stores or does atomics, and for what later waves find in the L2 (boundByGridFootprint), so
  // wherever the L2 tracks lines.
  std::vector<std::vector<detail::PcSector>> peerTouched;
  bool recordPeerTouched = false;
  static constexpr std::size_t kPeerTouchedCompactMin = std::size_t{1} << 16;
  std::size_t peerTouchedCompactAt = kPeerTouchedCompactMin;  // the current peer's list is compacted at this size
  std::vector<detail::PcSector>* currentPeerTouched = nullptr;
  // Per peer, per DRAM partition (config.dramPartitions > 1; else empty): the sectors its global
  // accesses touch (partition_skew.hpp).
  std::vector<std::vector<std::uint64_t>> peerPartitionSectors;
  std::vector<std::uint64_t>* currentPeerPartitions = nullptr;
  std::vector<std::uint64_t> scratchSectors;
  bool haveKernel = false;

  // no-divergence what-if: per warp of the current block, its full mask (the lanes of its first
  // instruction) and the fraction of a packed instruction accumulated so far.
  std::vector<std::uint32_t> fullMask;
  std::vector<double> packed;

  // With config.noDivergence, an ALU or branch instruction run by k of the warp's n lanes counts
  // as k/n of an instruction: as if the lanes of divergent paths were packed into full warps.
  // An approximation (the packing ignores dependences); memory and barrier instructions are kept.
  bool keepUnderNoDivergence(const trace::WarpInstruction& r, const trace::StaticInstruction& s) {
    if (r.warp >= fullMask.size()) {
      fullMask.resize(r.warp + 1, 0);
      packed.resize(r.warp + 1, 0.0);
    }
    if (fullMask[r.warp] == 0) fullMask[r.warp] = r.activeMask;
    const bool packable = s.kind == trace::InstrKind::Alu || s.kind == trace::InstrKind::Branch;
    if (!packable || r.activeMask == fullMask[r.warp] || fullMask[r.warp] == 0) return true;
    packed[r.warp] += static_cast<double>(std::popcount(r.activeMask)) / std::popcount(fullMask[r.warp]);
    if (packed[r.warp] < 1.0 - 1e-9) return false;
    packed[r.warp] -= 1.0;
    return true;
  }

  std::vector<trace::MemoryTransaction> scratchTransactions;  // segmentTraffic's, reused
  std::vector<bool> sharedOperandTarget;  // per pc: detail::takesSharedOperand, when fusing
  std::vector<bool> fusedAway;            // per pc: a multiply replayed as part of its fma
  std::uint32_t idealMask = 0;             // the last conflict-free wavefront count and its key
  unsigned idealBytes = 0;
  std::uint16_t idealWavefronts = 0;

  // What L2 sharing compares (the simulated SM's first wave and the peer blocks): the sectors of
  // global reads and atomics, what one SM's reads can find in the L2 because another brought them.
  static bool readsSharableData(const trace::StaticInstruction& s) {
    return (s.kind == trace::InstrKind::Load || s.kind == trace::InstrKind::Atomic) &&
           (s.space == trace::MemorySpace::Global || s.space == trace::MemorySpace::Texture);
  }

  // What partition skew counts: every global access (reads, writes, atomics). Local memory is
  // left out: the hardware interleaves it by thread, and the emulator's addresses are not its.
  static bool countsForPartitions(const trace::StaticInstruction& s) {
    const bool memory = s.kind == trace::InstrKind::Load || s.kind == trace::InstrKind::Store ||
                        s.kind == trace::InstrKind::Atomic;
    return memory && (s.space == trace::MemorySpace::Global || s.space == trace::MemorySpace::Texture);
  }

  void countPartition(std::uint64_t sector, std::vector<std::uint64_t>& byPartition) const {
    ++byPartition[detail::partitionOfSector(sector, config.sectorBytes, config.dramPartitionBytes, config.dramPartitions)];
  }

  // The sectors of a warp's local access of `bytesRequested` bytes (see record: interleaved by the
  // hardware, so one run of sectors per warp and offset; tagged with the warp and kLocalSectorTag),
  // appended to `out`; returns how many.
  std::uint32_t appendLocalSectors(const trace::WarpInstruction& r, std::uint32_t bytesRequested,
                                   std::vector<std::uint64_t>& out) const {
    const auto sectors = (bytesRequested + config.sectorBytes - 1) / config.sectorBytes;
    const std::uint64_t warpId = std::uint64_t{r.block} * kernel.warpsPerBlock() + r.warp;
    const std::uint64_t base = (warpId << 32) + r.addresses[0] / 4 * 128 / config.sectorBytes;
    for (std::uint32_t i = 0; i < sectors; ++i) out.push_back((base + i) | detail::kLocalSectorTag);
    return static_cast<std::uint32_t>(sectors);
  }

  // A peer block contributes the sectors readsSharableData counts, those of every global, texture
  // and local access (its L2 footprint) and, with DRAM partitions, the partitions of all its global
  // accesses' sectors.
  void recordPeer(const trace::WarpInstruction& r) {
    const auto& s = kernel.instructions[r.pc];
    if (r.activeMask == 0) return;
    const bool memory = s.kind == trace::InstrKind::Load || s.kind == trace::InstrKind::Store ||
                        s.kind == trace::InstrKind::Atomic;
    if (!memory) return;
    const bool sharable = readsSharableData(s);
    const bool partitioned = currentPeerPartitions != nullptr && countsForPartitions(s);
    const bool local = s.space == trace::MemorySpace::Local;
    if (!local && s.space != trace::MemorySpace::Global && s.space != trace::MemorySpace::Texture) return;
    scratchSectors.clear();
    const trace::GlobalAccessShape shape = trace::globalAccessShape(
        r.addresses, r.activeMask, std::max<unsigned>(1, s.accessBytes), static_cast<unsigned>(config.sectorBytes),
        static_cast<unsigned>(config.lineBytes), &scratchSectors);
    if (local) {
      scratchSectors.clear();
      appendLocalSectors(r, shape.bytesRequested, scratchSectors);
    }
    if (recordPeerTouched) {
      for (const std::uint64_t sector : scratchSectors) currentPeerTouched->emplace_back(r.pc, sector);
      // A loop re-reading its data would grow the list with every pass: deduplicate it whenever it
      // doubles, so it holds at most twice the peer's distinct pairs.
      if (currentPeerTouched->size() >= peerTouchedCompactAt) {
        std::sort(currentPeerTouched->begin(), currentPeerTouched->end());
        currentPeerTouched->erase(std::unique(currentPeerTouched->begin(), currentPeerTouched->end()),
                                  currentPeerTouched->end());
        peerTouchedCompactAt = std::max<std::size_t>(kPeerTouchedCompactMin, 2 * currentPeerTouched->size());
      }
    }
    if (local) return;
    if (sharable) currentPeer->insert(currentPeer->end(), scratchSectors.begin(), scratchSectors.end());
    if (!partitioned) return;
    // What reaches DRAM is what the simulated SM's own blocks record: cc 1.x moves whole segment
    // transactions (their sectors, a sector two of them fetch counted twice).
    if (s.space == trace::MemorySpace::Global && config.coalescing != Coalescing::Sectors) {
      scratchSectors.clear();
      segmentTraffic(r, std::max<unsigned>(1, s.accessBytes), scratchSectors);
    }
    for (const std::uint64_t sector : scratchSectors) countPartition(sector, *currentPeerPartitions);
  }

  // Per block of the simulated SM's first `count` blocks and of the traced peers: its DRAM
  // sectors per partition (partition_skew.hpp).
  std::vector<std::vector<std::uint64_t>> firstWavePartitionSectors(const std::vector<detail::BlockTrace>& traced,
                                                                    std::size_t count) const {
    std::vector<std::vector<std::uint64_t>> blocks;
    for (std::size_t i = 0; i < peerPartitionSectors.size(); ++i)
      if (peerTraced[i]) blocks.push_back(peerPartitionSectors[i]);
    for (std::size_t b = 0; b < std::min(count, traced.size()); ++b) {
      const detail::BlockTrace& block = traced[b];
      auto& byPartition = blocks.emplace_back(static_cast<std::size_t>(config.dramPartitions), 0);
      for (const auto& warp : block.warps)
        for (const detail::WarpOp& op : warp) {
          if (op.memory == detail::kNoMemory || !countsForPartitions(kernel.instructions[op.pc])) continue;
          const detail::MemoryRequest& m = block.memory[op.memory];
          for (std::uint32_t i = 0; i < m.sectorCount; ++i) countPartition(block.sectors[m.firstSector + i], byPartition);
        }
    }
    return blocks;
  }

  // The distinct sectors that the instructions `selected` picks touch in the simulated SM's first
  // `count` blocks, sorted.
  template <typename Selected>
  std::vector<std::uint64_t> firstWaveSectorsOf(const std::vector<detail::BlockTrace>& traced, std::size_t count,
                                                Selected selected, std::size_t from = 0) const {
    std::vector<std::uint64_t> sectors;
    for (std::size_t b = from; b < std::min(count, traced.size()); ++b) {
      const detail::BlockTrace& block = traced[b];
      for (const auto& warp : block.warps)
        for (const detail::WarpOp& op : warp) {
          if (op.memory == detail::kNoMemory || !selected(kernel.instructions[op.pc])) continue;
          const detail::MemoryRequest& m = block.memory[op.memory];
          sectors.insert(sectors.end(), block.sectors.begin() + m.firstSector,
                         block.sectors.begin() + m.firstSector + m.sectorCount);
        }
    }
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    return sectors;
  }

  // The distinct sectors of the global atomics of the simulated SM's first `count` blocks.
  std::vector<std::uint64_t> firstWaveAtomicSectors(const std::vector<detail::BlockTrace>& traced,
                                                    std::size_t count) const {
    return firstWaveSectorsOf(traced, count, [](const trace::StaticInstruction& s) {
      return s.kind == trace::InstrKind::Atomic && s.space == trace::MemorySpace::Global;
    });
  }

  // The distinct sectors the simulated SM's first `count` blocks read (readsSharableData), sorted.
  std::vector<std::uint64_t> firstWaveSectors(const std::vector<detail::BlockTrace>& traced, std::size_t count) const {
    return firstWaveSectorsOf(traced, count, [](const trace::StaticInstruction& s) { return readsSharableData(s); });
  }
  // The same of the simulated blocks after the first `firstWave` (the later waves).
  std::vector<std::uint64_t> laterWaveSectors(const std::vector<detail::BlockTrace>& traced, std::size_t firstWave) const {
    return firstWaveSectorsOf(
        traced, traced.size(), [](const trace::StaticInstruction& s) { return readsSharableData(s); }, firstWave);
  }

  // Compute capability 1.x: the transactions of the half-warp segment rules, each moving all of
  // its sectors (a sector two half-warps both fetch is fetched twice, as the two transactions
  // are). Appends them to `sectorsOut`.
  trace::GlobalAccessShape segmentTraffic(const trace::WarpInstruction& r, unsigned bytes,
                                         std::vector<std::uint64_t>& sectorsOut) {
    scratchTransactions.clear();
    trace::segmentTransactions(config.coalescing, r.addresses, r.activeMask, bytes, nullptr, &scratchTransactions);
    trace::GlobalAccessShape shape;
    const auto sectorBytes = static_cast<std::uint64_t>(config.sectorBytes);
    for (const trace::MemoryTransaction& t : scratchTransactions)
      for (std::uint64_t sector = t.address / sectorBytes; sector * sectorBytes < t.address + t.bytes; ++sector) {
        sectorsOut.push_back(sector);
        ++shape.sectors;
      }
    shape.bytesRequested = static_cast<std::uint32_t>(std::popcount(r.activeMask)) * bytes;
    return shape;
  }

  void record(const trace::WarpInstruction& r) {
    if (r.warp >= current->warps.size()) current->warps.resize(r.warp + 1);
    detail::WarpOp op{r.pc, r.activeMask, detail::kNoMemory};
    const auto& s = kernel.instructions[r.pc];
    if (!fusedAway.empty() && fusedAway[r.pc]) return;
    if (config.noDivergence && !keepUnderNoDivergence(r, s)) return;
    if (!sharedOperandTarget.empty() && sharedOperandTarget[r.pc]) {
      // The shared load this warp just executed becomes this instruction's operand.
      auto& ops = current->warps[r.warp];
      if (!ops.empty() && ops.back().pc == r.pc - 1 && ops.back().memory != detail::kNoMemory &&
          ops.back().activeMask == r.activeMask) {
        ops.back().pc = r.pc;
        return;
      }
    }
    const bool memory = s.kind == trace::InstrKind::Load || s.kind == trace::InstrKind::Store ||
                        s.kind == trace::InstrKind::Atomic;
    if (memory && r.activeMask != 0) {
      detail::MemoryRequest m;
      const unsigned bytes = std::max<unsigned>(1, s.accessBytes);
      if (s.space == trace::MemorySpace::Shared) {
        const bool paired = config.sharedPairedLoads && s.kind == trace::InstrKind::Load &&
                            trace::pairUniformAddresses(r.addresses, r.activeMask);
        m.wavefronts = static_cast<std::uint16_t>(trace::sharedWavefronts(
            r.addresses, r.activeMask, bytes, static_cast<unsigned>(config.sharedBanks),
            static_cast<unsigned>(config.sharedBankWidth), config.halfWarpShared, paired));
        // Conflict-free: consecutive words, one wavefront per phase with an active lane. It depends
        // only on the mask and the width, so the last answer is kept (nearly always a full warp).
        if (r.activeMask != idealMask || bytes != idealBytes) {
          std::array<std::uint64_t, trace::kWarpLanes> ideal{};
          for (int lane = 0; lane < trace::kWarpLanes; ++lane) ideal[lane] = static_cast<std::uint64_t>(lane) * bytes;
          idealMask = r.activeMask;
          idealBytes = bytes;
          idealWavefronts = static_cast<std::uint16_t>(trace::sharedWavefronts(
              ideal, r.activeMask, bytes, static_cast<unsigned>(config.sharedBanks),
              static_cast<unsigned>(config.sharedBankWidth), config.halfWarpShared));
        }
        m.idealWavefronts = std::min(idealWavefronts, m.wavefronts);  // a paired load may need fewer
        // An atomic's lanes on one word are serialised, not broadcast (trace::sharedAtomicPasses).
        if (s.kind == trace::InstrKind::Atomic && config.sharedAtomicCycles > 0)
          m.wavefronts = static_cast<std::uint16_t>(trace::sharedAtomicPasses(
              r.addresses, r.activeMask, bytes, static_cast<unsigned>(config.sharedBanks),
              static_cast<unsigned>(config.sharedBankWidth)));
      } else if (s.space == trace::MemorySpace::Global || s.space == trace::MemorySpace::Local ||
                 s.space == trace::MemorySpace::Texture) {
        m.firstSector = static_cast<std::uint32_t>(current->sectors.size());
        trace::GlobalAccessShape shape;
        if (s.space == trace::MemorySpace::Global && config.coalescing != Coalescing::Sectors)
          shape = segmentTraffic(r, bytes, current->sectors);
        else
          shape = trace::globalAccessShape(r.addresses, r.activeMask, bytes, static_cast<unsigned>(config.sectorBytes),
                                           static_cast<unsigned>(config.lineBytes), &current->sectors);
        if (s.space == trace::MemorySpace::Local) {
          // Local memory is per thread but interleaved by the hardware so that the same local
          // address of consecutive threads is consecutive (CUDA guide, "Local Memory"); the
          // emulator reports per-thread addresses, so count it as perfectly coalesced.
          // Interleaved layout: word o of lane l of warp w sits at ((w·words + o)·32 + l)·4, so a
          // warp's access of one offset is one contiguous run of sectors; tag it with the warp so
          // that different warps never share lines, and tag it (kLocalSectorTag) to keep it apart from global.
          current->sectors.resize(m.firstSector);
          shape.sectors = appendLocalSectors(r, shape.bytesRequested, current->sectors);
        }
        m.sectorCount = static_cast<std::uint16_t>(shape.sectors);
        m.minimalSectors = static_cast<std::uint16_t>(
            std::max<std::uint32_t>(1, (shape.bytesRequested + config.sectorBytes - 1) / config.sectorBytes));
        m.minimalSectors = std::min(m.minimalSectors, m.sectorCount);
        if (s.kind == trace::InstrKind::Atomic && s.space == trace::MemorySpace::Global)
          m.sameWordLanes = static_cast<std::uint16_t>(trace::sameWordLanes(r.addresses, r.activeMask, bytes));
        if (s.kind == trace::InstrKind::Store && s.space == trace::MemorySpace::Global && config.l2EccWordBytes > 0)
          m.partialWordSectors = static_cast<std::uint16_t>(std::min<std::uint32_t>(
              m.sectorCount, trace::sectorsWritingPartOfAWord(r.addresses, r.activeMask, bytes,
                                                               static_cast<unsigned>(config.sectorBytes),
                                                               static_cast<unsigned>(config.l2EccWordBytes))));
      }
      op.memory = static_cast<std::uint32_t>(current->memory.size());
      current->memory.push_back(m);
    }
    current->warps[r.warp].push_back(op);
  }
};

TimingEngine::TimingEngine(TimingConfig config, EngineOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  impl_->options = options;
}

TimingEngine::~TimingEngine() = default;

void TimingEngine::beginKernel(const trace::KernelInfo& kernel) {
  impl_->kernel = kernel;
  impl_->haveKernel = true;
  impl_->recordPeerTouched = detail::kernelWrites(kernel) || impl_->config.l2BytesShare > 0;
  impl_->sharedOperandTarget.clear();
  // The PTX-side approximations of what ptxas does (cc 1.x shared operands, FMA contraction, load
  // hoisting below) do not apply to SASS: it is what ptxas did.
  const bool ptx = kernel.isa == trace::Isa::Ptx;
  if (impl_->config.sharedOperandLatency > 0 && ptx) {
    impl_->sharedOperandTarget.resize(kernel.instructions.size());
    for (std::uint32_t pc = 0; pc < kernel.instructions.size(); ++pc)
      impl_->sharedOperandTarget[pc] = detail::takesSharedOperand(kernel, pc);
  }
  impl_->fusedAway.clear();
  if (impl_->config.fuseMultiplyAdds && ptx) {
    impl_->fusedAway.resize(kernel.instructions.size());
    for (std::uint32_t pc = 0; pc < kernel.instructions.size(); ++pc) {
      // A multiply with a cc 1.x shared operand is already one instruction with its load.
      const bool sharedOperand = !impl_->sharedOperandTarget.empty() && impl_->sharedOperandTarget[pc];
      if (kernel.instructions[pc].fusedInto < 0 || sharedOperand) continue;
      impl_->fusedAway[pc] = true;
      detail::fuseMultiplyAdd(impl_->kernel, pc);
    }
  }
  const auto order = blocksOfSimulatedSm(kernel.grid.count(), impl_->config.smCount, impl_->options.maxSampledBlocks);
  impl_->blocks.assign(order.size(), {});
  impl_->recorded.assign(order.size(), false);
  impl_->position.clear();
  impl_->peerPosition.clear();
  impl_->peerSectors.clear();
  impl_->currentPeer = nullptr;
  impl_->peerTouched.clear();
  impl_->currentPeerTouched = nullptr;
  impl_->peerPartitionSectors.clear();
  impl_->currentPeerPartitions = nullptr;
  const int slots = residentSlots(impl_->config, impl_->options);
  const PeerSample peers = peerBlocksOfSimulatedSm(kernel.grid, impl_->config.smCount, slots, impl_->options.peerBlocks);
  impl_->peerStratum = peers.stratumOf;
  impl_->strataPopulation.clear();
  for (const PeerStratum& stratum : peers.strata) impl_->strataPopulation.push_back(static_cast<double>(stratum.population));
  impl_->peerSectors.resize(peers.blocks.size());
  impl_->peerTouched.resize(peers.blocks.size());
  impl_->peerTraced.assign(peers.blocks.size(), false);
  if (impl_->config.dramPartitions > 1)
    impl_->peerPartitionSectors.assign(peers.blocks.size(),
                                       std::vector<std::uint64_t>(static_cast<std::size_t>(impl_->config.dramPartitions), 0));
  for (std::size_t i = 0; i < peers.blocks.size(); ++i) impl_->peerPosition[peers.blocks[i]] = i;
  for (std::size_t i = 0; i < order.size(); ++i) {
    impl_->position[order[i]] = i;
    impl_->blocks[i].block = static_cast<std::uint32_t>(order[i]);
    impl_->blocks[i].warps.resize(kernel.warpsPerBlock());
  }
}

void TimingEngine::beginBlock(std::uint32_t block) {
  const auto it = impl_->position.find(block);
  impl_->current = it == impl_->position.end() ? nullptr : &impl_->blocks[it->second];
  const auto peer = impl_->current == nullptr ? impl_->peerPosition.find(block) : impl_->peerPosition.end();
  impl_->currentPeer = peer == impl_->peerPosition.end() ? nullptr : &impl_->peerSectors[peer->second];
  if (impl_->currentPeer != nullptr) impl_->peerTraced[peer->second] = true;
  impl_->currentPeerTouched = impl_->currentPeer != nullptr ? &impl_->peerTouched[peer->second] : nullptr;
  impl_->peerTouchedCompactAt = Impl::kPeerTouchedCompactMin;
  impl_->currentPeerPartitions = impl_->currentPeer != nullptr && !impl_->peerPartitionSectors.empty()
                                     ? &impl_->peerPartitionSectors[peer->second]
                                     : nullptr;
  impl_->fullMask.clear();
  impl_->packed.clear();
  if (impl_->current != nullptr) impl_->recorded[it->second] = true;
}

void TimingEngine::instruction(const trace::WarpInstruction& record) {
  if (record.pc >= impl_->kernel.instructions.size()) return;
  if (impl_->current != nullptr) impl_->record(record);
  else if (impl_->currentPeer != nullptr) impl_->recordPeer(record);
}

void TimingEngine::endBlock(std::uint32_t) {
  impl_->current = nullptr;
  if (auto* peer = impl_->currentPeer) {
    std::sort(peer->begin(), peer->end());
    peer->erase(std::unique(peer->begin(), peer->end()), peer->end());
  }
  impl_->currentPeer = nullptr;
  impl_->currentPeerTouched = nullptr;
  impl_->currentPeerPartitions = nullptr;
}

namespace {

// Steady state: the time per block after the first wave (which also pays the start-up latency),
// i.e. from the slots-th completion to the last. Windows of a wave or two measure how blocks pair
// up rather than the rate. `done` sorted.
double steadyTimePerBlock(const std::vector<double>& done, std::uint64_t slots) {
  const std::size_t k = done.size();
  double perBlock = 0;
  if (k > slots) perBlock = (done[k - 1] - done[slots - 1]) / static_cast<double>(k - slots);
  if (perBlock <= 0) perBlock = done[k - 1] / static_cast<double>(k);
  return perBlock;
}

// The launch's cycles as the block extrapolation projects them from these completions (before
// the resource floors): what loop sampling's error estimate must hold for, not only the last
// completion (a sample of 4 blocks projects 43 from the difference of two completions).
double projectedCycles(std::vector<double> done, std::uint64_t slots, std::uint64_t blocksOnSm) {
  std::sort(done.begin(), done.end());
  const std::size_t k = done.size();
  if (k == 0) return 0;
  if (blocksOnSm <= k) return done[k - 1];
  return done[k - 1] + steadyTimePerBlock(done, slots) * static_cast<double>(blocksOnSm - k);
}

std::vector<double> scaled(std::vector<double> values, double factor) {
  for (double& v : values) v *= factor;
  return values;
}

// Loop-iteration sampling (loop_extrapolation.hpp): the completion times and the simulated part
// of `result` extrapolated from runs with q, 2q, 3q iterations of the blocks' steady loop, q
// doubling until the error estimate is within the tolerance; empty (result's sampling note set)
// when it does not apply.
template <typename Simulate>
std::vector<double> simulateSampledLoop(const EngineOptions& options, const std::vector<detail::BlockTrace>& blocks,
                                        const Simulate& simulate, TimingResult& result) {
  const auto q0 = static_cast<std::uint64_t>(std::max(0, options.loopSampleIterations));
  if (q0 == 0) return {};
  const std::optional<detail::SteadyLoop> loop = detail::findSteadyLoop(blocks, 12 * q0);
  if (!loop) return {};
  LoopSampling sampling;
  sampling.branchPc = loop->branchPc;
  sampling.targetPc = loop->targetPc;
  sampling.backEdges = loop->backEdges;
  const auto total = static_cast<double>(loop->backEdges);
  if (!detail::loopStreamsNewData(blocks, *loop)) {
    sampling.note = "the loop touches a global sector in more than one of its iterations (data reused across "
                    "iterations, whose cache hits shortened runs would miss): every iteration simulated";
    result.loopSampling = sampling;
    return {};
  }
  for (std::uint64_t q = q0; 12 * q <= loop->backEdges; q *= 2) {
    std::array<TimingResult, 3> runs{result, result, result};
    std::array<std::vector<double>, 3> done;
    for (std::size_t i = 0; i < 3; ++i) {
      sampling.simulatedBackEdges[i] = (i + 1) * q;
      std::vector<detail::BlockTrace> kept = detail::keepIterations(blocks, *loop, (i + 1) * q);
      done[i] = simulate(kept, runs[i]);
      if (!runs[i].clockReads.empty()) {
        // A microbenchmark's own timer reads would have to be extrapolated one by one.
        sampling.note = "the kernel reads %clock: every iteration simulated";
        result.loopSampling = sampling;
        return {};
      }
    }
    // Plain copies, not a structured binding: clang 14 (Debian's) cannot capture bindings in a lambda.
    const std::uint64_t a = sampling.simulatedBackEdges[0];
    const std::uint64_t b = sampling.simulatedBackEdges[1];
    const std::uint64_t c = sampling.simulatedBackEdges[2];
    // The estimate for a quantity y measured in the three runs: the change of its slope times the
    // iterations extrapolated, over its extrapolated value. It must hold for the simulated cycles
    // and for the launch's cycles the block extrapolation projects from the completions.
    const auto estimate = [&](double y0, double y1, double y2, double* slopeOut) {
      const double slopeFirst = (y1 - y0) / static_cast<double>(b - a);
      const double slope = (y2 - y1) / static_cast<double>(c - b);
      const double extrapolated = y2 + slope * (total - static_cast<double>(c));
      if (slopeOut != nullptr) *slopeOut = slope;
      return extrapolated > 0 && slope > 0 ? std::abs(slope - slopeFirst) * (total - static_cast<double>(c)) / extrapolated
                                           : 1.0;
    };
    double slope = 0;
    const double simulated =
        estimate(runs[0].simulatedCycles, runs[1].simulatedCycles, runs[2].simulatedCycles, &slope);
    const auto slots = static_cast<std::uint64_t>(std::max(1, options.residentBlocks));
    const double projected = estimate(projectedCycles(done[0], slots, result.blocksOnSm),
                                      projectedCycles(done[1], slots, result.blocksOnSm),
                                      projectedCycles(done[2], slots, result.blocksOnSm), nullptr);
    // Where blocks beyond the sample are extrapolated, the estimate must also hold for each wave's
    // end: the completions are extrapolated along them (extrapolateCompletion), and the steady
    // pace per block and the last partial wave's start (tail_wave.hpp) are read off them. A short
    // run's first waves are a start-up transient whose end need not lie on one line with the
    // others' (RTX 4090, gpu-bench's stream on SASS: the first wave's end extrapolated to 1.33 M
    // cycles, 1.13 M in the full run, and the pace per block 6 % short).
    double waveEnds = 0;
    if (result.blocksOnSm > blocks.size()) {
      std::array<std::vector<double>, 3> sorted = done;
      for (auto& run : sorted) std::sort(run.begin(), run.end());
      for (std::size_t end = slots; end <= sorted[0].size() && end <= sorted[2].size(); end += slots)
        waveEnds = std::max(waveEnds, estimate(sorted[0][end - 1], sorted[1][end - 1], sorted[2][end - 1], nullptr));
    }
    sampling.cyclesPerIteration = slope;
    sampling.errorEstimate = std::max({simulated, projected, waveEnds});
    if (!(slope > 0 && sampling.errorEstimate <= options.loopTolerance)) {
      sampling.rejectedEstimates.push_back(sampling.errorEstimate);
    } else {
      sampling.applied = true;
      result = detail::extrapolateIterations(runs[1], runs[2], static_cast<double>(b), static_cast<double>(c), total);
      result.loopSampling = sampling;
      return detail::extrapolateCompletion(done[1], done[2], static_cast<double>(b), static_cast<double>(c), total,
                                           static_cast<std::size_t>(slots));
    }
  }
  sampling.note = fmt::format("no steady state within the iterations tried (error estimate {:.1f} % > {:.1f} %): every "
                              "iteration simulated",
                              100 * sampling.errorEstimate, 100 * options.loopTolerance);
  result.loopSampling = sampling;
  return {};
}

}  // namespace

TimingResult TimingEngine::finish() {
  Impl& m = *impl_;
  if (!m.haveKernel) throw Error("timing: no kernel was traced");
  // A scheduler that may issue again at the same moment would never let time advance.
  if (!(m.config.issueIntervalCycles > 0))
    throw Error(fmt::format("timing: the issue interval (timing.issue_interval) must be a positive number of cycles, "
                            "not {}", m.config.issueIntervalCycles));
  // The simulated SM runs the recorded prefix of its share, in order.
  std::size_t prefix = 0;
  while (prefix < m.recorded.size() && m.recorded[prefix]) ++prefix;
  if (prefix == 0)
    throw Error(fmt::format("timing: block 0 of kernel '{}' was not traced; the simulated SM needs its blocks "
                            "0, {}, {}, ...", m.kernel.name, m.config.smCount, 2 * m.config.smCount));
  std::vector<detail::BlockTrace> blocks(std::make_move_iterator(m.blocks.begin()),
                                         std::make_move_iterator(m.blocks.begin() + static_cast<std::ptrdiff_t>(prefix)));
  TimingResult result;
  result.kernel = m.kernel.name;
  result.isa = m.kernel.isa;
  result.device = m.config.deviceName;
  EngineOptions options = m.options;
  options.residentBlocks = residentSlots(m.config, m.options);
  result.residentBlocks = options.residentBlocks;
  // Load hoisting reorders ops within straight-line runs only, so it commutes with cutting loop
  // iterations out (the cuts are at back-edges) and the estimates below (sector sets and counts)
  // do not depend on it: it is applied to what is simulated, just before.
  const auto hoist = [&](std::vector<detail::BlockTrace>& traced) {
    // Load hoisting is a guess at ptxas's scheduling: a SASS trace already is that schedule.
    if (!m.config.hoistLoads || m.kernel.isa != trace::Isa::Ptx) return;
    for (auto& block : traced)
      for (auto& warp : block.warps) {
        detail::hoistLoads(m.kernel, warp, detail::HoistedLoads::Global);
        if (m.config.hoistSharedLoads) detail::hoistLoads(m.kernel, warp, detail::HoistedLoads::Shared);
      }
  };
  const auto stride = static_cast<std::uint64_t>(std::max(1, m.config.smCount));
  result.blocksOnSm = (m.kernel.grid.count() + stride - 1) / stride;
  // The grid's footprint against the whole L2 (l2_footprint.hpp): the traced peers' sectors.
  std::vector<std::vector<detail::PcSector>> peersTouched;
  for (std::size_t i = 0; i < m.peerTouched.size(); ++i)
    if (m.peerTraced[i]) peersTouched.push_back(std::move(m.peerTouched[i]));
  const detail::WriteBackChoice writeBack =
      detail::chooseWriteBack(m.config, m.kernel, blocks, result.blocksOnSm, peersTouched);
  // Data other SMs bring into the L2: the simulated SM's first wave against the traced peers,
  // drawn from the blocks the other SMs run alongside it (a peer missing from the trace is not
  // part of the sample). Only where the SM has an L2 share that tracks lines.
  detail::L2Sharing sharing;
  detail::L2Carry carry;  // what later waves find that the first wave left in the L2 (l2_sharing.hpp)
  detail::AtomicContention contention;  // the GPU's operations per own one on each atomic sector (atomic_contention.hpp)
  const bool sharedL2 = m.config.l2BytesShare > 0 && m.config.forcedL2HitRate < 0;
  const auto slotCount = static_cast<std::uint64_t>(std::max(1, options.residentBlocks));
  const std::uint64_t firstWave = std::min<std::uint64_t>(slotCount, result.blocksOnSm);
  // The peers also tell how many SMs update each atomic sector, which matters whatever the L2's
  // hit rate (a forced one, what-if l2-hit, left same-address atomics uncontended).
  std::vector<detail::TracedPeer> peers;
  if (sharedL2 || m.config.l2AtomicCycles > 0)
    for (std::size_t i = 0; i < m.peerSectors.size(); ++i)
      if (m.peerTraced[i]) peers.push_back({std::move(m.peerSectors[i]), m.peerStratum[i]});
  if (sharedL2) {
    const std::vector<std::uint64_t> firstOwn = m.firstWaveSectors(blocks, firstWave);
    sharing = detail::estimateL2Sharing(firstOwn, peers, m.strataPopulation, m.config.smCount);
    if (blocks.size() > firstWave) {
      carry = detail::estimateL2Carry(firstOwn, m.laterWaveSectors(blocks, firstWave), peers, m.strataPopulation,
                                      m.config.smCount,
                                      sharing.ownFetchFraction, m.config.sectorBytes,
                                      static_cast<double>(wholeL2Bytes(m.config)));
      if (!carry.fits) {
        // The grid's footprint bounds the span's: the write-back rule's estimate where it made one.
        const detail::GpuFootprint grid =
            detail::kernelWrites(m.kernel)
                ? writeBack.footprint
                : detail::gridFootprint(m.config, m.kernel, blocks, peersTouched, carry.l2Bytes);
        // The grid's reads after its first wave, at the simulated later blocks' data per block.
        const double gpuFirstWave = static_cast<double>(firstWave) * std::max(1, m.config.smCount);
        const double laterBlocks = std::max(0.0, static_cast<double>(m.kernel.grid.count()) - gpuFirstWave);
        const double laterReads = static_cast<double>(carry.laterSectors) * m.config.sectorBytes /
                                  static_cast<double>(blocks.size() - firstWave) * laterBlocks;
        if (!grid.lowerBound) detail::boundByGridFootprint(carry, grid.bytes, sharing.ownFetchFraction, laterReads);
      }
    }
  }
  if (m.config.l2AtomicCycles > 0 && (sharedL2 || m.config.forcedL2HitRate >= 0)) {
    // Every block the other SMs run alongside the first wave updates what the sampled peers
    // show, grid neighbours included (they are left out of the peers' draw only because a
    // stencil's halo is local, which does not matter to a counter all blocks update).
    const double running = static_cast<double>(
        std::min<std::uint64_t>(m.kernel.grid.count(), slotCount * static_cast<std::uint64_t>(m.config.smCount)));
    contention = detail::estimateAtomicContention(m.firstWaveAtomicSectors(blocks, firstWave), peers,
                                                  running - static_cast<double>(firstWave),
                                                  static_cast<double>(firstWave));
  }
  // Lai §3.2.3.5: the GPU's DRAM traffic drains at the pace of its busiest partition, so the
  // SM's share of the bandwidth is divided by the skew the running blocks' sectors show.
  TimingConfig config = m.config;
  detail::PartitionSkewEstimate skew;
  if (m.config.dramPartitions > 1) {
    skew = detail::estimatePartitionSkew(m.firstWavePartitionSectors(blocks, firstWave));
    result.dramSectorsByPartition = skew.sectorsByPartition;
    result.dramPartitionSkew = skew.applied;
    config.dramBytesPerCycle /= skew.applied;
    config.dramMixedBytesPerCycle /= skew.applied;
  }
  // `firstWaveBlocks`: how many of `traced` (in order) are the SM's first wave; the rest find what
  // other SMs' first-wave blocks left in the L2 (carry).
  const auto simulateWith = [&](std::vector<detail::BlockTrace>& traced, TimingResult& into, std::size_t firstWaveBlocks) {
    hoist(traced);
    const detail::L2Fetch fetch{sharing.ownFetchFraction, carry.laterWaveOwnFetchFraction, firstWaveBlocks};
    return detail::simulateSm(config, m.kernel, options, traced, writeBack.policy, fetch, contention, into);
  };
  const auto simulate = [&](std::vector<detail::BlockTrace>& traced, TimingResult& into) {
    return simulateWith(traced, into, static_cast<std::size_t>(firstWave));
  };
  // The last partial wave runs after full waves: all of its blocks are later-wave blocks.
  const auto simulateTail = [&](std::vector<detail::BlockTrace>& traced, TimingResult& into) {
    return simulateWith(traced, into, 0);
  };
  // The last partial wave's blocks run alone (tail_wave.hpp): copies of as many traced blocks,
  // taken before the simulation hoists their loads.
  const auto slots = static_cast<std::uint64_t>(std::max(1, options.residentBlocks));
  std::vector<detail::BlockTrace> tailBlocks(
      blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(detail::tailWaveBlocks(result.blocksOnSm, slots, blocks.size())));
  std::vector<double> completion = simulateSampledLoop(options, blocks, simulate, result);
  if (completion.empty()) completion = simulate(blocks, result);

  result.blocksSimulated = blocks.size();
  result.waves = static_cast<int>((result.blocksOnSm + slots - 1) / slots);
  result.cycles = result.simulatedCycles;
  double tailWaveEnd = 0, tailWaveAdds = 0;
  if (result.blocksSimulated < result.blocksOnSm) {
    // Steady state (steadyTimePerBlock).
    std::vector<double> done = completion;
    std::sort(done.begin(), done.end());
    const std::size_t k = done.size();
    double perBlock = steadyTimePerBlock(done, slots);
    // The window can run ahead of the rate a saturated resource allows: the blocks completing in
    // it started before it opened. No block of the steady state can take less than its share of
    // the busiest resource (a bandwidth, a unit, issue), so that is the floor. C_mem is left out:
    // it admits a request when half of it fits, so the simulation may run slightly above it.
    for (const detail::Bound& bound : detail::simulatedBounds(config, result))
      if (bound.name != detail::kConcurrencyBoundName)
        perBlock = std::max(perBlock, bound.cycles / static_cast<double>(k));
    result.cycles = done[k - 1] + perBlock * static_cast<double>(result.blocksOnSm - k);
    if (!tailBlocks.empty()) {
      TimingResult tailResult;
      tailResult.blocksOnSm = tailBlocks.size();
      std::vector<double> tail = simulateSampledLoop(options, tailBlocks, simulateTail, tailResult);
      if (tail.empty()) tail = simulateTail(tailBlocks, tailResult);
      const double tailDuration = tail.empty() ? 0 : *std::max_element(tail.begin(), tail.end());
      tailWaveEnd = detail::tailWaveFinish(done, slots, result.blocksOnSm, perBlock, tailDuration);
      tailWaveAdds = tailWaveEnd - result.cycles;
      result.cycles = std::max(result.cycles, tailWaveEnd);
    }
    result.extrapolated = true;
  }
  // Over the whole launch the SM's DRAM share moves its blocks' sectors no faster than the bandwidth
  // bound (the peak plus the turnaround of their read/write mix): the simulated blocks may run up to
  // one DRAM latency ahead of the share (a burst, memory_system.cpp), the launch may not (issue 25:
  // a stream is never predicted above the sustained bandwidth). The same holds for the SM's L2
  // share: a load waits for its sector, but nothing waits for a store the L2 keeps (write_back.hpp,
  // Kept), so stores that cost no DRAM write would otherwise queue at the L2 pipe without limit
  // (mt4g's L2-write program on the A100 ran at 7 x the L2 bandwidth).
  if (result.blocksSimulated > 0)
    result.cycles = std::max(result.cycles, std::max(detail::dramBoundCycles(config, result.memory),
                                                     detail::l2BoundCycles(config, result.memory)) *
                                                static_cast<double>(result.blocksOnSm) /
                                                static_cast<double>(result.blocksSimulated));
  result.timeMs = m.config.clockMhz > 0 ? result.cycles / (m.config.clockMhz * 1e3) : 0;
  result.launch = launchViews(result.timeMs, m.config);
  result.ipc = result.simulatedCycles > 0 ? static_cast<double>(result.warpInstructions) / result.simulatedCycles : 0;
  detail::explainBound(config, result);
  result.assumptions = m.config.provenance;
  if (m.config.dramPartitions > 1) result.assumptions.push_back(detail::describePartitionSkew(skew));
  result.assumptions.push_back(
      {"simulated blocks",
       fmt::format("{} of the {} blocks the busiest SM runs ({:.1f} %)", result.blocksSimulated, result.blocksOnSm,
                   100.0 * static_cast<double>(result.blocksSimulated) / static_cast<double>(result.blocksOnSm)),
       result.extrapolated ? "sampled: the rest extrapolated from the steady-state time per block"
                           : "every block of the SM's share simulated"});
  if (!tailBlocks.empty())
    result.assumptions.push_back(
        {"last partial wave",
         fmt::format("{} blocks run alone after the last full wave{}", tailBlocks.size(),
                     tailWaveAdds > 0 ? fmt::format(": {:.0f} cycles more than the steady pace ({:.1f} %)", tailWaveAdds,
                                                    100 * tailWaveAdds / std::max(1.0, result.cycles - tailWaveAdds))
                                      : std::string(" within the steady pace")),
         "model (tail_wave.hpp): they start as the last full wave frees its slots and take the time they take alone "
         "(simulated), not a share of the SM's pace"});
  if (const LoopSampling& loop = result.loopSampling; loop.applied)
    result.assumptions.push_back(
        {"loop iterations sampled",
         fmt::format("the loop closed by pc {} (back to pc {}) runs {} times a warp; the blocks were simulated with {}, "
                     "{} and {} of its iterations, the rest extrapolated at {:.0f} cycles of the simulated SM per "
                     "iteration of every block (error estimate {:.2f} %{})",
                     loop.branchPc, loop.targetPc, loop.backEdges + 1, loop.simulatedBackEdges[0] + 1,
                     loop.simulatedBackEdges[1] + 1, loop.simulatedBackEdges[2] + 1, loop.cyclesPerIteration,
                     100 * loop.errorEstimate,
                     loop.rejectedEstimates.empty()
                         ? std::string()
                         : fmt::format("; fewer iterations were tried first and gave estimates of {:.2f} %",
                                       fmt::join(scaled(loop.rejectedEstimates, 100), " %, "))),
         "model (docs/timing.md, loop-iteration sampling): every iteration of every warp issues the same instructions, "
         "so cycles and counts grow linearly with the iterations once the SM is in its steady state; the line goes "
         "through the last two runs, the first checks it (the change of slope times the iterations extrapolated is "
         "the error estimate)"});
  else if (!loop.note.empty())
    result.assumptions.push_back({"loop iterations sampled", "no", loop.note});
  if (m.config.l2BytesShare > 0 && result.memory.globalStores + result.memory.atomics > 0) {
    const detail::GpuFootprint& f = writeBack.footprint;
    result.assumptions.push_back(
        {"L2 write-back",
         fmt::format("the grid touches {}{:.2f} MiB ({}), the whole L2 holds {:.2f} MiB; the SM's share of the "
                     "launch touches {:.2f} MiB (projected from the simulated blocks), its L2 share holds {:.2f} MiB",
                     f.lowerBound ? "more than " : "", f.bytes / 1048576.0,
                     f.lowerBound ? "the simulated blocks' data alone" : "estimated",
                     writeBack.wholeL2Bytes / 1048576.0, writeBack.projectedBytes / 1048576.0,
                     writeBack.l2Bytes / 1048576.0),
         fmt::format("{} (l2_footprint.hpp: the simulated blocks' {:.2f} MiB plus {:.2f} MiB of the {} other blocks' "
                     "data beyond them, {})",
                     writeBack.policy == detail::WriteBack::Kept
                         ? "model: the grid's data fit in the whole L2, so dirty sectors stay there and no store costs a "
                           "DRAM write within the kernel (the dirty data left at its end are not charged to it)"
                     : writeBack.policy == detail::WriteBack::WhenDirtied
                         ? "model: the data outgrow the L2, so each sector a store dirties costs a DRAM write while "
                           "the kernel runs"
                         : "model: the grid's data outgrow the whole L2; every block simulated (or the SM's "
                           "data fit its share), so a dirty sector costs its DRAM write when the SM's L2 share evicts it",
                     f.smBytes / 1048576.0, f.beyondBytes / 1048576.0, f.otherBlocks,
                     f.lowerBound ? std::string("not estimated: the simulated blocks alone outgrow the whole L2")
                     : f.peers > 0
                         ? fmt::format("estimated per instruction from {} traced peer blocks", f.peers)
                         : std::string("each as much of its own as a simulated block (no peer traced)"))});
  }
  if (sharedL2)
    result.assumptions.push_back(
        sharing.peers == 0
            ? timing::Provenance{"L2 shared with other SMs", "not estimated",
                                 "no peer block traced (a grid of one SM's blocks, or --peer-blocks 0): each SM "
                                 "fetches everything it reads itself"}
        : sharing.strataCounted == 0
            ? timing::Provenance{"L2 shared with other SMs", "not counted",
                                 fmt::format("{} of {} peer blocks of other SMs traced read data this SM reads: too "
                                             "few to extrapolate to the wave, so each SM fetches what it reads itself",
                                             sharing.peersSharing, sharing.peers)}
            : timing::Provenance{
                  "L2 shared with other SMs",
                  fmt::format("{:.1f} % of the {} sectors the first wave reads are read by {:.1f} other running "
                              "blocks too; this SM fetches {:.1f} % of its L2 misses from DRAM",
                              100 * sharing.sharedFraction, sharing.ownSectors, sharing.otherBlocks,
                              100 * sharing.ownFetchFraction),
                  fmt::format("model (l2_sharing.hpp): {} of {} peer blocks of other SMs traced share data with "
                              "it (drawn from {} strata of the wave by the grid coordinates they share with this "
                              "SM's blocks; sharing counted in {}); a sector k SMs read is fetched once, by this SM "
                              "with probability 1/k, and found in the L2 (at its hit latency) otherwise",
                              sharing.peersSharing, sharing.peers, sharing.strata, sharing.strataCounted)});
  if (sharedL2 && carry.laterSectors > 0)
    result.assumptions.push_back(
        {"L2 carried across waves",
         carry.fits ? fmt::format("{:.1f} % of the {} sectors the later waves read were read by a first-wave block (this "
                                  "SM's or another's) and are still in the L2; this SM fetches {:.1f} % of their L2 "
                                  "misses from DRAM",
                                  100 * carry.carriedFraction, carry.laterSectors, 100 * carry.laterWaveOwnFetchFraction)
                    : fmt::format("not carried: what the GPU reads over the simulated blocks' span ({:.2f} MiB) "
                                  "outgrows the L2 ({:.2f} MiB)",
                                  carry.footprintBytes / 1048576.0, carry.l2Bytes / 1048576.0),
         fmt::format("model (l2_sharing.hpp, L2Carry): the SM's first wave and the first-wave peers against its "
                     "later-wave sectors, kept "
                     "while the GPU's reads since (estimated {:.2f} MiB{}) fit in the L2 ({:.2f} MiB)",
                     carry.footprintBytes / 1048576.0,
                     carry.gridBound ? ": the grid's whole footprint, l2_footprint.hpp, the smaller estimate" : "",
                     carry.l2Bytes / 1048576.0)});
  result.assumptions.push_back({"block distribution",
                                fmt::format("round-robin: SM 0 runs blocks 0, {}, {}, ...", stride, 2 * stride),
                                "model: all SMs receive equal shares (Kim eq. 3.2); the first SM has the most"});
  return result;
}

}  // namespace teg::timing
