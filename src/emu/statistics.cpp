// Execution statistics from the warp trace (see statistics.hpp for what each count means).
#include "teg/emu/statistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "teg/support/error.hpp"
#include "teg/trace/memory_access.hpp"

namespace teg::emu {

using trace::InstrKind;
using trace::MemorySpace;

MemoryGeometry MemoryGeometry::forDevice(const device::Device& gpu) {
  MemoryGeometry g;
  g.sharedBanks = gpu.limits.sharedMemoryBanks;
  g.sharedBankWidth = gpu.limits.sharedMemoryBankWidth;
  g.halfWarpShared = gpu.cc.major == 1;  // guide, cc 1.x: shared requests per half-warp
  g.sectorBytes = gpu.memory.sectorBytes;
  g.lineBytes = gpu.memory.l1LineBytes;
  g.coalescing = trace::coalescingOf(gpu.cc.major, gpu.cc.minor);
  g.pairedSharedLoads = trace::sharedLoadsPairLanes(gpu.cc.major);
  const auto missing = [&](const char* key) {
    throw Error(fmt::format("device '{}' has no {} (needed for memory statistics)", gpu.id, key));
  };
  if (g.sharedBanks <= 0) missing("limits.shared_memory_banks");
  if (g.sharedBankWidth <= 0) missing("limits.shared_memory_bank_width");
  if (g.sectorBytes <= 0) missing("memory.sector_bytes");
  if (g.lineBytes <= 0) missing("memory.l1_line_bytes");
  if (g.sharedBanks > kMaxBanks)
    throw Error(fmt::format("device '{}': {} shared memory banks, statistics handle at most {}", gpu.id,
                            g.sharedBanks, kMaxBanks));
  return g;
}

namespace {

// Lanes served together in one shared-memory phase, as trace::sharedWavefronts splits them.
std::uint32_t phaseLanes(const MemoryGeometry& g, std::uint32_t bytesPerLane, bool pairedLanes) {
  const auto passBytes = static_cast<std::uint32_t>(g.sharedBanks * g.sharedBankWidth);
  std::uint32_t lanes = std::clamp<std::uint32_t>(passBytes / std::max<std::uint32_t>(bytesPerLane, 1), 1,
                                                  trace::kWarpLanes);
  if (pairedLanes) lanes = std::min<std::uint32_t>(2 * lanes, trace::kWarpLanes);
  if (g.halfWarpShared) lanes = std::min<std::uint32_t>(lanes, trace::kWarpLanes / 2);
  return lanes;
}

std::uint32_t laneBits(std::uint32_t first, std::uint32_t count) {
  return count >= 32 ? 0xffffffffu : ((1u << count) - 1u) << first;
}

}  // namespace

std::uint32_t sharedIdealWavefronts(const MemoryGeometry& g, std::uint32_t activeMask, std::uint32_t bytesPerLane,
                                    bool pairedLanes) {
  const std::uint32_t lanes = phaseLanes(g, bytesPerLane, pairedLanes);
  std::uint32_t phases = 0;
  for (std::uint32_t first = 0; first < trace::kWarpLanes; first += lanes)
    if (activeMask & laneBits(first, lanes)) ++phases;
  return phases;
}

std::uint64_t GlobalCounters::bytesMoved(int sectorBytes) const {
  return transactions > 0 ? transactionBytes : sectors * static_cast<std::uint64_t>(sectorBytes);
}

double GlobalCounters::efficiency(int sectorBytes) const {
  const auto moved = static_cast<double>(bytesMoved(sectorBytes));
  return moved > 0 ? static_cast<double>(bytesRequested) / moved : 0.0;
}

GlobalCounters& GlobalCounters::operator+=(const GlobalCounters& o) {
  requests += o.requests;
  threadAccesses += o.threadAccesses;
  bytesRequested += o.bytesRequested;
  sectors += o.sectors;
  lines += o.lines;
  transactions += o.transactions;
  transactionBytes += o.transactionBytes;
  return *this;
}

SharedCounters& SharedCounters::operator+=(const SharedCounters& o) {
  requests += o.requests;
  threadAccesses += o.threadAccesses;
  bytesRequested += o.bytesRequested;
  wavefronts += o.wavefronts;
  idealWavefronts += o.idealWavefronts;
  return *this;
}

SimpleMemoryCounters& SimpleMemoryCounters::operator+=(const SimpleMemoryCounters& o) {
  requests += o.requests;
  threadAccesses += o.threadAccesses;
  bytesRequested += o.bytesRequested;
  distinctAddresses += o.distinctAddresses;
  return *this;
}

double ExecutionCounters::simdEfficiency() const {
  return warpInstructions == 0
             ? 0.0
             : static_cast<double>(activeLanes) / (static_cast<double>(warpInstructions) * trace::kWarpLanes);
}

double ExecutionCounters::nonPredicatedEfficiency() const {
  return warpInstructions == 0
             ? 0.0
             : static_cast<double>(threadInstructions) / (static_cast<double>(warpInstructions) * trace::kWarpLanes);
}

ExecutionCounters& ExecutionCounters::operator+=(const ExecutionCounters& o) {
  warpInstructions += o.warpInstructions;
  activeLanes += o.activeLanes;
  threadInstructions += o.threadInstructions;
  idleLanes += o.idleLanes;
  predicatedOffLanes += o.predicatedOffLanes;
  for (int i = 0; i < kInstrKinds; ++i) byKind[static_cast<std::size_t>(i)] += o.byKind[static_cast<std::size_t>(i)];
  for (int i = 0; i < kInstructionClasses; ++i)
    aluByClass[static_cast<std::size_t>(i)] += o.aluByClass[static_cast<std::size_t>(i)];
  branches += o.branches;
  divergentBranches += o.divergentBranches;
  globalLoads += o.globalLoads;
  globalStores += o.globalStores;
  globalAtomics += o.globalAtomics;
  sharedLoads += o.sharedLoads;
  sharedStores += o.sharedStores;
  sharedAtomics += o.sharedAtomics;
  local += o.local;
  constant += o.constant;
  param += o.param;
  return *this;
}

StatisticsCollector::StatisticsCollector(MemoryGeometry geometry) : geometry_(geometry) {
  if (geometry_.sharedBanks <= 0 || geometry_.sharedBankWidth <= 0 || geometry_.sectorBytes <= 0 ||
      geometry_.lineBytes <= 0 || geometry_.sharedBanks > kMaxBanks)
    throw Error(fmt::format("statistics: memory geometry needs 1 to {} banks, bank width, sector and line sizes > 0",
                            kMaxBanks));
}

void StatisticsCollector::beginKernel(const trace::KernelInfo& kernel) {
  KernelStatistics k;
  k.kernel = kernel;
  k.byPc.resize(kernel.instructions.size());
  kernels_.push_back(std::move(k));
  guarded_.assign(kernel.instructions.size(), false);
  for (std::size_t pc = 0; pc < kernel.instructions.size(); ++pc) {
    const std::string& text = kernel.instructions[pc].text;
    const auto first = text.find_first_not_of(" \t");
    guarded_[pc] = first != std::string::npos && text[first] == '@';
  }
  warpMask_.clear();
  inKernel_ = true;
}

void StatisticsCollector::beginBlock(std::uint32_t block) {
  if (!inKernel_) throw Error("statistics: beginBlock outside a kernel");
  ++kernels_.back().blocksObserved;
  (void)block;
}

void StatisticsCollector::countMemory(const trace::StaticInstruction& si, const trace::WarpInstruction& r,
                                      ExecutionCounters& c) const {
  const std::uint32_t mask = r.activeMask;
  const auto lanes = static_cast<std::uint64_t>(std::popcount(mask));
  const std::uint32_t size = si.accessBytes;
  const std::uint64_t bytes = lanes * size;
  switch (si.space) {
    // A texture fetch reads its texels from global memory (one per lane in the trace), so it
    // counts as a global load, as the timing engine's memory counters count it.
    case MemorySpace::Texture:
    case MemorySpace::Global: {
      GlobalCounters& g = si.kind == InstrKind::Atomic ? c.globalAtomics
                          : si.kind == InstrKind::Store ? c.globalStores
                                                        : c.globalLoads;
      ++g.requests;
      g.threadAccesses += lanes;
      g.bytesRequested += bytes;
      const trace::GlobalAccessShape shape =
          trace::globalAccessShape(r.addresses, mask, size, static_cast<unsigned>(geometry_.sectorBytes),
                                   static_cast<unsigned>(geometry_.lineBytes));
      g.sectors += shape.sectors;
      g.lines += shape.lines;
      if (geometry_.coalescing != trace::Coalescing::Sectors) {
        std::uint32_t transactions = 0;
        g.transactionBytes += trace::segmentTransactions(geometry_.coalescing, r.addresses, mask, size, &transactions);
        g.transactions += transactions;
      }
      return;
    }
    case MemorySpace::Shared: {
      SharedCounters& s = si.kind == InstrKind::Atomic ? c.sharedAtomics
                          : si.kind == InstrKind::Store ? c.sharedStores
                                                        : c.sharedLoads;
      ++s.requests;
      s.threadAccesses += lanes;
      s.bytesRequested += bytes;
      // As the timing engine counts them (engine.cpp): loads of paired lanes take half the wavefronts.
      const bool paired = geometry_.pairedSharedLoads && si.kind == InstrKind::Load &&
                          trace::pairUniformAddresses(r.addresses, mask);
      s.wavefronts += trace::sharedWavefronts(r.addresses, mask, size, static_cast<unsigned>(geometry_.sharedBanks),
                                              static_cast<unsigned>(geometry_.sharedBankWidth),
                                              geometry_.halfWarpShared, paired);
      s.idealWavefronts += sharedIdealWavefronts(geometry_, mask, size, paired);
      return;
    }
    case MemorySpace::Local:
    case MemorySpace::Constant:
    case MemorySpace::Param: {
      SimpleMemoryCounters& m = si.space == MemorySpace::Local      ? c.local
                                : si.space == MemorySpace::Constant ? c.constant
                                                                     : c.param;
      ++m.requests;
      m.threadAccesses += lanes;
      m.bytesRequested += bytes;
      // Distinct byte addresses: the constant cache serves one address per pass.
      m.distinctAddresses += trace::globalAccessShape(r.addresses, mask, 1, 1, 1).sectors;
      return;
    }
    case MemorySpace::None:
      return;
  }
}

void StatisticsCollector::instruction(const trace::WarpInstruction& r) {
  if (!inKernel_) throw Error("statistics: instruction outside a kernel");
  KernelStatistics& k = kernels_.back();
  if (r.pc >= k.byPc.size())
    throw Error(fmt::format("statistics: pc {} is outside kernel '{}' ({} instructions)", r.pc, k.kernel.name,
                            k.byPc.size()));
  const trace::StaticInstruction& si = k.kernel.instructions[r.pc];
  ExecutionCounters& c = k.byPc[r.pc];
  // The lanes that reached the instruction: its mask if unguarded; for a guarded one, the warp's
  // mask at its last unguarded instruction (nvcc's PTX computes a guard with an unguarded setp in
  // the same basic block), or all the warp's threads before any.
  const std::uint64_t warpKey = std::uint64_t{r.block} << 32 | r.warp;
  std::uint32_t reached = r.activeMask;
  if (!guarded_[r.pc]) {
    warpMask_[warpKey] = r.activeMask;
  } else {
    const auto it = warpMask_.find(warpKey);
    if (it != warpMask_.end()) {
      reached = it->second;
    } else {
      const std::uint64_t threads = k.kernel.block.count();
      const std::uint64_t first = std::uint64_t{r.warp} * trace::kWarpLanes;
      const std::uint64_t live = threads > first ? std::min<std::uint64_t>(threads - first, 32) : 0;
      reached = laneBits(0, static_cast<std::uint32_t>(live));
    }
    reached |= r.activeMask;
    // A guarded branch diverges when some, but not all, of the lanes that reached it take it.
    if (si.kind == InstrKind::Branch && r.activeMask != 0 && r.activeMask != reached) ++c.divergentBranches;
  }
  const auto active = static_cast<std::uint32_t>(std::popcount(reached));
  const auto executed = static_cast<std::uint32_t>(std::popcount(r.activeMask));
  ++c.warpInstructions;
  c.activeLanes += active;
  c.threadInstructions += executed;
  c.idleLanes += trace::kWarpLanes - active;
  c.predicatedOffLanes += active - executed;
  ++c.byKind[static_cast<std::size_t>(si.kind)];
  if (si.kind == InstrKind::Alu) ++c.aluByClass[static_cast<std::size_t>(si.unit)];
  if (si.kind == InstrKind::Branch) ++c.branches;
  if (r.activeMask != 0 && (si.kind == InstrKind::Load || si.kind == InstrKind::Store || si.kind == InstrKind::Atomic))
    countMemory(si, r, c);
}

void StatisticsCollector::endBlock(std::uint32_t block) {
  // Forget the block's warps: their masks mean nothing for the next block with the same id.
  for (auto it = warpMask_.begin(); it != warpMask_.end();)
    it = (it->first >> 32) == block ? warpMask_.erase(it) : std::next(it);
}

void StatisticsCollector::endKernel() {
  if (!inKernel_) throw Error("statistics: endKernel without beginKernel");
  KernelStatistics& k = kernels_.back();
  k.total = ExecutionCounters{};
  k.byLine.clear();
  for (std::size_t pc = 0; pc < k.byPc.size(); ++pc) {
    const ExecutionCounters& c = k.byPc[pc];
    if (c.warpInstructions == 0) continue;
    k.total += c;
    const auto& si = k.kernel.instructions[pc];
    k.byLine[SourceLineKey{si.sourceFile, si.sourceFile < 0 ? 0 : si.sourceLine}] += c;
  }
  warpMask_.clear();
  inKernel_ = false;
}

}  // namespace teg::emu
