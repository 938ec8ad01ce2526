#include "loop_extrapolation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace teg::timing::detail {

namespace {

bool sameOp(const WarpOp& x, const WarpOp& y) {
  return x.pc == y.pc && x.activeMask == y.activeMask && (x.memory == kNoMemory) == (y.memory == kNoMemory);
}

// Positions of the ops that take the back-edge branchPc -> targetPc.
std::vector<std::size_t> backEdgePositions(const std::vector<WarpOp>& ops, std::uint32_t branchPc, std::uint32_t targetPc) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i + 1 < ops.size(); ++i)
    if (ops[i].pc == branchPc && ops[i + 1].pc == targetPc) at.push_back(i);
  return at;
}

// The number of taken back-edges when every iteration between two of them is the same stream;
// 0 otherwise.
std::uint64_t steadyBackEdges(const std::vector<WarpOp>& ops, std::uint32_t branchPc, std::uint32_t targetPc) {
  const auto at = backEdgePositions(ops, branchPc, targetPc);
  if (at.size() < 2) return at.size();
  const std::size_t length = at[1] - at[0];
  for (std::size_t j = 1; j < at.size(); ++j) {
    if (at[j] - at[j - 1] != length) return 0;
    for (std::size_t k = 1; k <= length; ++k)
      if (!sameOp(ops[at[j - 1] + k], ops[at[0] + k])) return 0;
  }
  return at.size();
}

const std::vector<WarpOp>* firstNonEmptyWarp(const std::vector<BlockTrace>& blocks) {
  for (const auto& block : blocks)
    for (const auto& warp : block.warps)
      if (!warp.empty()) return &warp;
  return nullptr;
}

double affine(double xa, double xb, double f) { return xb + f * (xb - xa); }

std::uint64_t affineCount(std::uint64_t xa, std::uint64_t xb, double f) {
  return static_cast<std::uint64_t>(std::llround(std::max(0.0, affine(static_cast<double>(xa), static_cast<double>(xb), f))));
}

}  // namespace

std::optional<SteadyLoop> findSteadyLoop(const std::vector<BlockTrace>& blocks, std::uint64_t minBackEdges) {
  const std::vector<WarpOp>* first = firstNonEmptyWarp(blocks);
  if (first == nullptr) return std::nullopt;
  // Candidate back-edges of the first warp: a jump to a pc not after the branch, by how often.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> taken;
  for (std::size_t i = 0; i + 1 < first->size(); ++i)
    if ((*first)[i + 1].pc <= (*first)[i].pc) ++taken[{(*first)[i].pc, (*first)[i + 1].pc}];
  std::vector<std::pair<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>>> candidates;
  for (const auto& [edge, count] : taken)
    if (count >= minBackEdges) candidates.emplace_back(count, edge);
  std::sort(candidates.begin(), candidates.end(), std::greater<>());
  // One candidate per loop of the kernel that ran often enough; each check reads the stream once.
  for (const auto& [count, edge] : candidates) {
    if (steadyBackEdges(*first, edge.first, edge.second) != count) continue;
    bool everywhere = true;
    for (const auto& block : blocks) {
      for (const auto& warp : block.warps)
        if (!warp.empty() && steadyBackEdges(warp, edge.first, edge.second) != count) {
          everywhere = false;
          break;
        }
      if (!everywhere) break;
    }
    if (everywhere) return SteadyLoop{edge.first, edge.second, count};
  }
  return std::nullopt;
}

bool loopStreamsNewData(const std::vector<BlockTrace>& blocks, const SteadyLoop& loop) {
  std::unordered_map<std::uint64_t, std::uint64_t> iterationOf;  // sector -> the iteration that touched it
  for (const BlockTrace& block : blocks)
    for (const auto& ops : block.warps) {
      std::uint64_t iteration = 0;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const WarpOp& op = ops[i];
        if (op.memory != kNoMemory) {
          const MemoryRequest& m = block.memory[op.memory];
          for (std::uint32_t k = 0; k < m.sectorCount; ++k) {
            const std::uint64_t sector = block.sectors[m.firstSector + k];
            if ((sector & kLocalSectorTag) != 0) continue;
            const auto [it, inserted] = iterationOf.emplace(sector, iteration);
            if (!inserted && it->second != iteration) return false;
          }
        }
        if (op.pc == loop.branchPc && i + 1 < ops.size() && ops[i + 1].pc == loop.targetPc) ++iteration;
      }
    }
  return true;
}

std::vector<BlockTrace> keepIterations(const std::vector<BlockTrace>& blocks, const SteadyLoop& loop, std::uint64_t kept) {
  std::vector<BlockTrace> out;
  out.reserve(blocks.size());
  for (const BlockTrace& block : blocks) {
    BlockTrace& copy = out.emplace_back();
    copy.block = block.block;
    copy.warps.resize(block.warps.size());
    const auto keepOp = [&](const WarpOp& op, std::vector<WarpOp>& into) {
      WarpOp o = op;
      if (op.memory != kNoMemory) {
        MemoryRequest m = block.memory[op.memory];
        const auto first = block.sectors.begin() + m.firstSector;
        m.firstSector = static_cast<std::uint32_t>(copy.sectors.size());
        copy.sectors.insert(copy.sectors.end(), first, first + m.sectorCount);
        o.memory = static_cast<std::uint32_t>(copy.memory.size());
        copy.memory.push_back(m);
      }
      into.push_back(o);
    };
    for (std::size_t w = 0; w < block.warps.size(); ++w) {
      const auto& ops = block.warps[w];
      auto& into = copy.warps[w];
      if (ops.empty()) continue;
      const auto at = backEdgePositions(ops, loop.branchPc, loop.targetPc);
      if (at.size() != loop.backEdges || kept >= at.size() || kept == 0) {
        for (const WarpOp& op : ops) keepOp(op, into);
        continue;
      }
      for (std::size_t i = 0; i <= at[kept - 1]; ++i) keepOp(ops[i], into);
      for (std::size_t i = at.back() + 1; i < ops.size(); ++i) keepOp(ops[i], into);
    }
  }
  return out;
}

TimingResult extrapolateIterations(const TimingResult& atA, const TimingResult& atB, double a, double b, double target) {
  const double f = (target - b) / (b - a);
  TimingResult r = atB;
  r.simulatedCycles = affine(atA.simulatedCycles, atB.simulatedCycles, f);
  r.warpInstructions = affineCount(atA.warpInstructions, atB.warpInstructions, f);
  for (std::size_t i = 0; i < r.stalls.size(); ++i) r.stalls[i] = std::max(0.0, affine(atA.stalls[i], atB.stalls[i], f));
  for (UnitUsage& u : r.units) {
    UnitUsage none;
    const UnitUsage* ua = &none;
    for (const UnitUsage& x : atA.units)
      if (x.unit == u.unit) ua = &x;
    // utilisation = busy / (cycles x copies): the copies from run b's figures.
    const double copies = u.utilisation > 0 && atB.simulatedCycles > 0 ? u.busyCycles / (u.utilisation * atB.simulatedCycles) : 0;
    u.issued = affineCount(ua->issued, u.issued, f);
    u.busyCycles = std::max(0.0, affine(ua->busyCycles, u.busyCycles, f));
    u.utilisation = copies > 0 && r.simulatedCycles > 0 ? u.busyCycles / (copies * r.simulatedCycles) : 0;
  }
  MemoryCounters& m = r.memory;
  const MemoryCounters& ma = atA.memory;
  m.globalLoads = affineCount(ma.globalLoads, m.globalLoads, f);
  m.globalStores = affineCount(ma.globalStores, m.globalStores, f);
  m.atomics = affineCount(ma.atomics, m.atomics, f);
  m.sectorsRequested = affineCount(ma.sectorsRequested, m.sectorsRequested, f);
  m.l1Hits = affineCount(ma.l1Hits, m.l1Hits, f);
  m.l2Hits = affineCount(ma.l2Hits, m.l2Hits, f);
  m.dramSectors = affineCount(ma.dramSectors, m.dramSectors, f);
  m.l2PeerHits = affineCount(ma.l2PeerHits, m.l2PeerHits, f);
  m.dramWriteSectors = affineCount(ma.dramWriteSectors, m.dramWriteSectors, f);
  m.l2WriteSectors = affineCount(ma.l2WriteSectors, m.l2WriteSectors, f);
  m.l2PartialWordWrites = affineCount(ma.l2PartialWordWrites, m.l2PartialWordWrites, f);
  m.l2SlotSectors = affineCount(ma.l2SlotSectors, m.l2SlotSectors, f);
  m.sharedRequests = affineCount(ma.sharedRequests, m.sharedRequests, f);
  m.sharedWavefronts = affineCount(ma.sharedWavefronts, m.sharedWavefronts, f);
  m.dramBytes = std::max(0.0, affine(ma.dramBytes, m.dramBytes, f));
  m.lsuBusyCycles = std::max(0.0, affine(ma.lsuBusyCycles, m.lsuBusyCycles, f));
  m.atomicUnitBusyCycles = std::max(0.0, affine(ma.atomicUnitBusyCycles, m.atomicUnitBusyCycles, f));
  for (std::size_t pc = 0; pc < r.perInstruction.size() && pc < atA.perInstruction.size(); ++pc) {
    InstructionCost& c = r.perInstruction[pc];
    const InstructionCost& ca = atA.perInstruction[pc];
    c.issued = affineCount(ca.issued, c.issued, f);
    c.executions = affineCount(ca.executions, c.executions, f);
    c.stallCycles = std::max(0.0, affine(ca.stallCycles, c.stallCycles, f));
    for (std::size_t i = 0; i < c.stalls.size(); ++i) c.stalls[i] = std::max(0.0, affine(ca.stalls[i], c.stalls[i], f));
  }
  return r;
}

std::vector<double> extrapolateCompletion(const std::vector<double>& atA, const std::vector<double>& atB, double a,
                                          double b, double target, std::size_t slots) {
  const double f = (target - b) / (b - a);
  std::vector<double> sortedA = atA;
  std::vector<double> out = atB;
  std::sort(sortedA.begin(), sortedA.end());
  std::sort(out.begin(), out.end());
  const std::size_t wave = slots == 0 ? std::max<std::size_t>(1, out.size()) : slots;
  for (std::size_t first = 0; first < out.size(); first += wave) {
    const std::size_t last = std::min(out.size(), first + wave);
    if (last > sortedA.size()) break;  // no such wave in run a: run b's completions as they are
    const double shift = f * (out[last - 1] - sortedA[last - 1]);
    for (std::size_t i = first; i < last; ++i) out[i] += shift;
  }
  return out;
}

}  // namespace teg::timing::detail
