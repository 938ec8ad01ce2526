// Structural comparison of two modules (the round-trip test's oracle): every field of every
// variable, function, register, instruction and operand, recursively. Source files and raw
// text are compared too; warnings are not.
#pragma once

#include <optional>
#include <string>

#include "teg/ptx/ir.hpp"

namespace teg::ptx {

// A description of the first difference ("function 2 (_Z3foo): instruction 17: operand 1
// differs"), or nullopt when the modules are structurally equal.
std::optional<std::string> firstDifference(const Module& a, const Module& b);

}  // namespace teg::ptx
