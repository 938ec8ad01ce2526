// Static statistics of a SASS function: instruction mix (by opcode) for the function, each basic
// block and each source line; block and loop counts; vector memory accesses; registers used.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "teg/sass/cfg.hpp"
#include "teg/sass/ir.hpp"

namespace teg::sass {

using OpcodeMix = std::map<std::string, std::uint32_t>;  // "FFMA" -> 12, "LDS.128" -> 4

// The key an instruction is counted under: its opcode, with the access width for memory
// instructions ("LDS.128", "LDG.64") since the width is what the PTX does not show.
std::string mixKey(const Instruction& instruction);

struct BlockStats {
  std::size_t block = 0;
  std::uint32_t firstAddress = 0;
  std::uint32_t instructions = 0;
  int loopDepth = 0;
  OpcodeMix mix;
};

struct LineStats {
  int source = -1;                 // index in Module::sources, -1: no line information
  std::uint32_t instructions = 0;
  OpcodeMix mix;
};

struct FunctionStats {
  std::string name;
  bool isEntry = false;
  std::uint32_t instructions = 0;  // NOPs included (they occupy issue slots in the text)
  std::uint32_t nops = 0;
  std::size_t basicBlocks = 0;
  std::size_t loops = 0;
  int maxLoopDepth = 0;
  int registersUsed = 0;           // highest R index named + 1 (RZ excluded): a lower bound of
                                   // the allocation (wide operands name only their first register)
  int registersReported = -1;      // SHI_REGISTERS when nvdisasm printed it
  std::uint32_t vectorAccesses = 0;  // global/shared/local/generic accesses of more than 4 bytes
                                     // per thread (constant-bank loads not counted)
  std::uint32_t stallCycles = 0;   // sum of the control words' stall counts (static)
  OpcodeMix mix;
  std::vector<BlockStats> blocks;
  std::vector<LineStats> lines;    // in order of first appearance
};

FunctionStats computeStats(const Module& module, const Function& function);

}  // namespace teg::sass
