// Basic blocks and natural loops of one SASS function. A block ends at a branch (BRA, BRX, JMP,
// JMX, RET, EXIT, KILL, BPT) and starts at a label or after a branch; CALL returns, so it does
// not end a block, nor does BREAK (it leaves a convergence barrier, it does not jump). A guarded
// branch or exit also falls through. Loops are the natural loops of back edges (an edge to a
// block that dominates its source), as for the PTX CFG.
#pragma once

#include <cstddef>
#include <vector>

#include "teg/sass/ir.hpp"

namespace teg::sass {

struct BasicBlock {
  std::size_t first = 0;           // index of its first instruction
  std::size_t end = 0;             // one past its last instruction
  std::vector<std::size_t> successors;
  bool indirectExit = false;       // ends in BRX/JMX whose targets the text does not name
  int loopDepth = 0;               // how many loops contain it
};

struct Loop {
  std::size_t header = 0;          // block index
  std::vector<std::size_t> blocks; // sorted, header included
  int depth = 1;                   // 1 = outermost
};

struct ControlFlowGraph {
  std::vector<BasicBlock> blocks;  // in address order; block 0 is the entry
  std::vector<Loop> loops;         // outer loops before the loops they contain
  std::vector<std::size_t> blockOf;  // instruction index -> block index
};

ControlFlowGraph buildCfg(const Function& function);

// True for an opcode that may transfer control elsewhere (ends a basic block).
bool isBranch(const Instruction& instruction);

}  // namespace teg::sass
