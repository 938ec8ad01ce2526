// Static statistics of the kernels of a module (what `teg ptx stats` prints): instruction mix by
// timing class, basic blocks, loops, declared registers, static shared memory.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "teg/ptx/ir.hpp"

namespace teg::ptx {

struct FunctionStats {
  std::string name;
  bool isEntry = false;
  std::uint32_t instructions = 0;
  std::uint32_t basicBlocks = 0;
  std::uint32_t loops = 0;
  std::uint32_t maxLoopDepth = 0;
  std::uint32_t unmodelled = 0;
  std::array<std::uint32_t, static_cast<int>(InstrClass::Count)> mix{};
  std::uint32_t registersDeclared = 0;   // every declared register, predicates included
  std::uint32_t predicatesDeclared = 0;
  std::uint64_t sharedBytes = 0;         // static: own .shared + module .shared it references
  bool usesDynamicShared = false;        // references an unsized extern .shared array
  std::uint64_t localBytes = 0;          // .local declared in the body
  std::vector<std::uint32_t> sourceFiles;
};

FunctionStats computeStats(const Module& module, const Function& function);

// Bytes the IR holds for one function (pools and tables, not counting the CFG).
std::uint64_t irBytes(const Function& function);

}  // namespace teg::ptx
