// Global atomics on one address from several SMs meet at the one L2 atomic unit that owns the
// address, which performs them one after another (timing.l2_atomic_cycles each). The simulated SM
// sees only its own blocks, so each of its atomic sectors is given the factor by which the whole
// GPU's operations on it outnumber this SM's, from the peer blocks traced for L2 sharing
// (l2_sharing.hpp): a sector that c of P peers touch is touched by about c / P of the blocks the
// other SMs run alongside the first wave, against this SM's first-wave blocks, so the factor is
// 1 + (c / P x other blocks) / own blocks (the blocks taken to update it equally often). The
// memory system scales the unit's time per operation by it: the other SMs' operations
// interleave with this SM's, and the unit finishes the GPU's operations when this SM finishes
// its own.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "l2_sharing.hpp"

namespace teg::timing::detail {

// Sector -> the GPU's operations on it per operation of this SM; a sector absent is this SM's alone.
using AtomicContention = std::unordered_map<std::uint64_t, double>;

// `ownAtomicSectors`: distinct sectors (any order) of the first wave's global atomics; `peers`:
// the traced peers (sorted sectors); `otherRunningBlocks`: the blocks the other SMs run alongside
// the first wave (the peers are a sample of them); `ownRunningBlocks`: this SM's first-wave blocks.
// Sharing seen by fewer than kMinPeersSharing peers is not counted unless every such block was
// traced (one draw scaled up to the wave is noise), as for the L2 sharing estimate.
AtomicContention estimateAtomicContention(const std::vector<std::uint64_t>& ownAtomicSectors,
                                          const std::vector<TracedPeer>& peers, double otherRunningBlocks,
                                          double ownRunningBlocks);

}  // namespace teg::timing::detail
