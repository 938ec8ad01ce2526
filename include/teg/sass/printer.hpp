// Writing the SASS IR back as nvdisasm prints it (-hex -gi -c layout). The output parses back to
// the same IR (compare.hpp), which is what the unit tests and the fuzzer check.
#pragma once

#include <optional>
#include <string>

#include "teg/sass/ir.hpp"

namespace teg::sass {

std::string printModule(const Module& module);

// "@!P0 LDS.U.128 R4, [R2+0x10]" (no address, no encoding).
std::string formatInstruction(const Instruction& instruction);

// The first structural difference between two modules ("function 0 instruction 3: opcode LDS vs
// LDG"), nullopt when they are the same; the text locations are not compared.
std::optional<std::string> firstDifference(const Module& a, const Module& b);

}  // namespace teg::sass
