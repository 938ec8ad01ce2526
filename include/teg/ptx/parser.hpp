// Reads PTX text into the IR (ir.hpp): PTX ISA 1.x–9.x as nvcc and people write it. Malformed
// input throws teg::Error with `file:line:col: message`; instructions the IR does not model
// (textures, tensor cores, ...) are kept and flagged, and unknown mnemonics that still have an
// instruction's shape are kept with a warning (Module::warnings).
#pragma once

#include <string>
#include <string_view>

#include "teg/ptx/ir.hpp"

namespace teg::ptx {

// `fileName` is only used in messages.
Module parseModule(std::string_view text, const std::string& fileName);

// Reads and parses a file; a missing file is a teg::Error too.
Module parseFile(const std::string& path);

}  // namespace teg::ptx
