// Reads PTX text into the IR (ir.hpp): PTX ISA 1.x–9.x as nvcc and people write it. Malformed
// input throws teg::Error with `file:line:col: message`; instructions the IR does not model
// (textures, tensor cores, ...) are kept and flagged, and unknown mnemonics that still have an
// instruction's shape are kept with a warning (Module::warnings).
#pragma once

#include <string>
#include <string_view>

#include "teg/ptx/ir.hpp"

namespace teg::ptx {

struct ParseOptions {
  // An error inside a function body does not stop the module: the function keeps its header,
  // loses its body and records the error (Function::deferredError). For nvcc's PTX of a whole
  // .cu, where one construct teg does not read must not block the file's other kernels.
  bool deferFunctionErrors = false;
};

// `fileName` is only used in messages.
Module parseModule(std::string_view text, const std::string& fileName, ParseOptions options = {});

// Reads and parses a file; a missing file is a teg::Error too.
Module parseFile(const std::string& path);

}  // namespace teg::ptx
