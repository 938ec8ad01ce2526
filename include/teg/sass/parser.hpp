// Reading nvdisasm's text into the SASS IR. The input is what `nvdisasm -hex -gi -c` (or -g, or
// without -hex: then no encodings) prints for a cubin; non-code sections are skipped if present.
// Malformed input is refused with a teg::Error located at file:line:col of the text.
#pragma once

#include <string>
#include <string_view>

#include "teg/sass/ir.hpp"

namespace teg::sass {

Module parseDisassembly(std::string_view text, const std::string& fileName);

// Reads and parses a file of nvdisasm output.
Module parseDisassemblyFile(const std::string& path);

}  // namespace teg::sass
