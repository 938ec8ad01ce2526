// The per-source-line view of a SASS function, as Nsight Compute's source view shows it: each
// CUDA source line with the instructions nvdisasm (-gi) attributes to it, in source order. An
// instruction belongs to its innermost position (the line of the inlined callee); the call sites
// it was inlined at stay on the instruction. Per line: the instruction mix (stats.hpp keys, so
// "LDS.128" and "LDS" apart), the shared and global loads by vector width, and the sum of the
// control words' stall counts (static: each instruction once, whatever times it runs).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "teg/sass/ir.hpp"
#include "teg/sass/stats.hpp"

namespace teg::sass {

struct SourceLineView {
  std::string file;                       // "" with line 0: instructions nvdisasm gave no line
  int line = 0;
  std::vector<std::size_t> instructions;  // indices into Function::instructions, address order
  OpcodeMix mix;
  std::map<int, std::uint32_t> sharedLoads;  // bytes per thread (4, 8, 16) -> LDS instructions
  std::map<int, std::uint32_t> globalLoads;  // bytes per thread -> LDG instructions
  std::uint32_t stallCycles = 0;             // sum of the stall counts (instructions with -hex)
};

// One view per distinct (file, line), sorted by file then line; the instructions without a
// line come last in one view with an empty file.
std::vector<SourceLineView> sourceLineViews(const Module& module, const Function& function);

}  // namespace teg::sass
