#include "write_back.hpp"

#include <algorithm>

namespace teg::timing::detail {

namespace {

// The simulated blocks' distinct (pc, sector) pairs, sorted (l2_footprint.hpp).
std::vector<PcSector> pcSectors(const std::vector<BlockTrace>& blocks) {
  std::size_t touched = 0;
  for (const BlockTrace& block : blocks) touched += block.sectors.size();
  std::vector<PcSector> byPc;
  byPc.reserve(touched);
  for (const BlockTrace& block : blocks)
    for (const auto& warp : block.warps)
      for (const WarpOp& op : warp) {
        if (op.memory == kNoMemory) continue;
        const MemoryRequest& m = block.memory[op.memory];
        for (std::uint32_t i = 0; i < m.sectorCount; ++i) byPc.emplace_back(op.pc, block.sectors[m.firstSector + i]);
      }
  std::sort(byPc.begin(), byPc.end());
  byPc.erase(std::unique(byPc.begin(), byPc.end()), byPc.end());
  return byPc;
}

// The simulated blocks' distinct sectors, sorted.
std::vector<std::uint64_t> distinctSectors(const std::vector<BlockTrace>& blocks) {
  std::size_t touched = 0;
  for (const BlockTrace& block : blocks) touched += block.sectors.size();
  std::vector<std::uint64_t> sectors;
  sectors.reserve(touched);
  for (const BlockTrace& block : blocks) sectors.insert(sectors.end(), block.sectors.begin(), block.sectors.end());
  std::sort(sectors.begin(), sectors.end());
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
  return sectors;
}

}  // namespace

bool kernelWrites(const trace::KernelInfo& kernel) {
  return std::any_of(kernel.instructions.begin(), kernel.instructions.end(), [](const auto& s) {
    return s.kind == trace::InstrKind::Store || s.kind == trace::InstrKind::Atomic;
  });
}

GpuFootprint gridFootprint(const TimingConfig& config, const trace::KernelInfo& kernel,
                           const std::vector<BlockTrace>& blocks, std::vector<std::vector<PcSector>>& peers,
                           double wholeL2Bytes) {
  std::vector<std::uint64_t> sectors = distinctSectors(blocks);
  const double smBytes = static_cast<double>(sectors.size()) * config.sectorBytes;
  if (smBytes > wholeL2Bytes) {
    // The simulated blocks' own data already outgrow the whole L2, so the grid's do too: the
    // estimate of the rest (a sort of every (pc, sector) pair, the costly part) cannot change
    // any choice made against the L2. The footprint is reported as at least the SM's data.
    GpuFootprint f;
    f.smBytes = smBytes;
    f.bytes = smBytes;
    f.otherBlocks = kernel.grid.count() > blocks.size() ? kernel.grid.count() - blocks.size() : 0;
    f.lowerBound = true;
    return f;
  }
  for (auto& peer : peers) {
    std::sort(peer.begin(), peer.end());
    peer.erase(std::unique(peer.begin(), peer.end()), peer.end());
  }
  return estimateGpuFootprint(sectors, pcSectors(blocks), blocks.size(), kernel.grid.count(), peers, config.sectorBytes);
}

WriteBackChoice chooseWriteBack(const TimingConfig& config, const trace::KernelInfo& kernel,
                                const std::vector<BlockTrace>& blocks, std::uint64_t blocksOnSm,
                                std::vector<std::vector<PcSector>>& peers) {
  WriteBackChoice choice;
  choice.l2Bytes = static_cast<double>(config.l2BytesShare);
  choice.wholeL2Bytes = static_cast<double>(wholeL2Bytes(config));
  if (blocks.empty()) return choice;
  // The count of distinct sectors (a sort of every sector touched) is the costly part.
  if (!kernelWrites(kernel)) return choice;
  choice.footprint = gridFootprint(config, kernel, blocks, peers, choice.wholeL2Bytes);
  const double scale = config.sectorBytes * static_cast<double>(std::max<std::uint64_t>(blocksOnSm, blocks.size())) /
                       static_cast<double>(blocks.size());
  choice.projectedBytes = choice.footprint.smBytes / config.sectorBytes * scale;
  if (config.l2BytesShare > 0 && choice.footprint.bytes <= choice.wholeL2Bytes) {
    choice.policy = WriteBack::Kept;
    return choice;
  }
  const bool sampled = blocksOnSm > blocks.size();
  // With every block simulated the evictions happen inside the simulated time: charge them there.
  choice.policy = sampled && choice.projectedBytes > choice.l2Bytes ? WriteBack::WhenDirtied : WriteBack::WhenEvicted;
  return choice;
}

}  // namespace teg::timing::detail
