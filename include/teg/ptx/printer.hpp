// Writes a Module back as PTX that parseModule reads into the same IR (the round-trip
// property, tested over every input). Nested-scope declarations come out hoisted to the top of
// their function, under the unique names the parser gave them.
#pragma once

#include <string>

#include "teg/ptx/ir.hpp"

namespace teg::ptx {

std::string printModule(const Module& module);
std::string printInstruction(const Module& module, const Function& function,
                             const Instruction& instruction);

}  // namespace teg::ptx
