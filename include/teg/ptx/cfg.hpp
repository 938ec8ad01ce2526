// Control flow of one PTX function: basic blocks, successors/predecessors, immediate dominators
// and post-dominators, natural loops. The immediate post-dominator of a block ending in a
// divergent branch is where a SIMT stack reconverges (the PDOM rule of Fung et al., as in
// GPGPU-Sim and GPU Ocelot); kExitBlock stands for the virtual exit that every return reaches.
#pragma once

#include <cstdint>
#include <vector>

namespace teg::ptx {

struct Function;

inline constexpr std::uint32_t kExitBlock = 0xfffffffeu;  // the virtual exit node

struct BasicBlock {
  std::uint32_t first = 0;  // first instruction index
  std::uint32_t end = 0;    // one past the last instruction
  std::vector<std::uint32_t> successors;    // block indices; kExitBlock for ret/exit/fall-off
  std::vector<std::uint32_t> predecessors;  // block indices
  std::uint32_t idom = kExitBlock;   // immediate dominator (the entry block: itself)
  std::uint32_t ipdom = kExitBlock;  // immediate post-dominator (kExitBlock: the virtual exit)
  std::uint32_t loopDepth = 0;       // number of natural loops containing the block
  bool reachable = false;            // from the entry block
  bool operator==(const BasicBlock&) const = default;
};

struct Loop {  // a natural loop: one header, the blocks of all back edges to it
  std::uint32_t header = 0;
  std::vector<std::uint32_t> latches;  // sources of back edges
  std::vector<std::uint32_t> blocks;   // sorted, header included
  bool operator==(const Loop&) const = default;
};

struct ControlFlowGraph {
  std::vector<BasicBlock> blocks;                // blocks[0] is the entry
  std::vector<std::uint32_t> blockOfInstruction;
  std::vector<Loop> loops;                       // one per header, in header order

  // Reconvergence point of a branch at the end of `block` (its immediate post-dominator).
  [[nodiscard]] std::uint32_t reconvergenceBlock(std::uint32_t block) const {
    return blocks[block].ipdom;
  }
  bool operator==(const ControlFlowGraph&) const = default;
};

// Builds blocks, edges, dominators, post-dominators and loops from the function's instructions
// and resolved labels.
ControlFlowGraph buildControlFlowGraph(const Function& function);

}  // namespace teg::ptx
