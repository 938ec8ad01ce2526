// The GPU-wide footprint of a launch: the distinct sectors the whole grid touches (reads, writes,
// atomics), measured against the whole L2. The L2 is one cache for the GPU: a sector several SMs
// write is one line for all of them, so what decides whether dirty lines must leave the L2 while
// the kernel runs is the grid's footprint against the whole L2, not one SM's data against its
// share (L2 / SMs). mt4g's L2-write program (every block rewrites the columns of itself and the
// next 127 blocks of an array of exactly l2CacheSize bytes) touches megabytes per SM but only the
// L2's size in all, and every GPU it ran on wrote above its DRAM peak.
//
// The simulated SM sees its own blocks and the traced peer blocks only, so the footprint is
// estimated from them: the SM's distinct sectors S (every simulated block), plus the data of the
// rest of the grid beyond S, estimated per static instruction (pc) — one instruction's sectors are
// mostly of one kind (a table every block reads, an output each block writes its own part of) —
// as the smaller of two estimates:
//   - private: each of the grid's blocks not simulated adds as much data beyond S as a traced peer
//     does on average, U_pc / P (U_pc: the distinct sectors of the pc's accesses in the P peers that
//     S lacks). Exact for data each block has its own of; high where unsimulated blocks share it.
//   - capture-recapture (Lincoln-Petersen): the SM's blocks and the peers are two samples of the
//     pc's data; with n1 = |S_pc| (the SM's sectors of the pc), n2 = |Q_pc| (the peers') and m of
//     the peers' in S_pc, the pc's data are n1 n2 / m, of which n1 (n2 - m) / m beyond S_pc.
//     Exact where the peers' data are a fair sample of it (every block rewrites one array: m = n2,
//     nothing more; mt4g on a GPU of more SMs than 128, whose SM's blocks leave 4 columns of every
//     132 to others); unbounded for private data (m = 0), where the first estimate holds.
// F = |S| + the sum over pcs. Data two pcs share beyond S (a load and a store of one array) is
// counted once per pc, so F errs high there: towards the write-backs of the rule before.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace teg::timing::detail {

// A sector a static instruction touches: (pc, sector).
using PcSector = std::pair<std::uint32_t, std::uint64_t>;

struct GpuFootprint {
  double bytes = 0;               // the estimate F x sector bytes
  double smBytes = 0;             // |S| x sector bytes
  double beyondBytes = 0;         // the rest of the grid's data beyond S (estimated)
  std::uint64_t otherBlocks = 0;  // blocks of the grid not simulated
  std::size_t peers = 0;          // traced peers used (0: the others are taken to touch data of their own)
  bool lowerBound = false;        // the rest not estimated: S alone outgrows the whole L2 (write_back.cpp)
};

// `sm`: the distinct sectors (sorted) of the simulated SM's blocks, all of them; `smByPc`: the same
// as distinct (pc, sector) pairs, sorted; `simulatedBlocks`: how many; `gridBlocks`: the launch's;
// `peers`: per traced peer block, its distinct (pc, sector) pairs, sorted. Without peers, an
// unsimulated block is taken to touch as much data of its own as a simulated one does on average
// (|S| / simulated blocks).
GpuFootprint estimateGpuFootprint(const std::vector<std::uint64_t>& sm, const std::vector<PcSector>& smByPc,
                                  std::uint64_t simulatedBlocks, std::uint64_t gridBlocks,
                                  const std::vector<std::vector<PcSector>>& peers, double sectorBytes);

}  // namespace teg::timing::detail
