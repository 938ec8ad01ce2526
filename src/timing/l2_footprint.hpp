// The GPU-wide footprint of a launch: the distinct sectors the whole grid touches (reads, writes,
// atomics), measured against the whole L2. The L2 is one cache for the GPU: a sector several SMs
// write is one line for all of them, so what decides whether dirty lines must leave the L2 while
// the kernel runs is the grid's footprint against the whole L2, not one SM's data against its
// share (L2 / SMs). mt4g's L2-write program (every block rewrites the columns of itself and the
// next 127 blocks of an array of exactly l2CacheSize bytes) touches megabytes per SM but only the
// L2's size in all, and every GPU it ran on wrote above its DRAM peak.
//
// The simulated SM sees its own blocks and the traced peer blocks only, so the footprint is
// estimated from them: the SM's distinct sectors S (every simulated block), plus, for each block
// of the grid not simulated, the distinct data a traced peer adds beyond S. With P peers whose
// sectors outside S have U distinct sectors in all,
//     F = |S| + (grid blocks - simulated blocks) x U / P.
// Exact for data every block rewrites (U = 0: F = |S|), for private per-block data (U / P is a
// block's own data) and for a grid whose blocks are all traced. Data that several unsimulated
// blocks share with each other but not with S is counted once per peer that has it (the peers
// rarely overlap each other), so F errs high there: towards write-backs, the rule before.
#pragma once

#include <cstdint>
#include <vector>

namespace teg::timing::detail {

struct GpuFootprint {
  double bytes = 0;            // the estimate F x sector bytes
  double smBytes = 0;          // |S| x sector bytes
  double newPerPeerBytes = 0;  // U / P x sector bytes: what an unsimulated block adds beyond S
  std::uint64_t otherBlocks = 0;  // blocks of the grid not simulated
  std::size_t peers = 0;          // traced peers used (0: the others are taken to touch data of their own)
};

// `sm`: the distinct sectors (sorted) of the simulated SM's blocks, all of them; `simulatedBlocks`:
// how many; `gridBlocks`: the launch's; `peers`: per traced peer block, its distinct sectors
// (sorted). Without peers, an unsimulated block is taken to touch as much data of its own as a
// simulated one does on average (|S| / simulated blocks).
GpuFootprint estimateGpuFootprint(const std::vector<std::uint64_t>& sm, std::uint64_t simulatedBlocks,
                                  std::uint64_t gridBlocks, const std::vector<std::vector<std::uint64_t>>& peers,
                                  double sectorBytes);

}  // namespace teg::timing::detail
