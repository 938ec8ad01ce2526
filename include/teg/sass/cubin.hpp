// The sections of a cubin (an ELF64 file) by name: what nvdisasm -c does not print but a SASS
// emulator needs, such as the compiler's constant bank of a kernel (".nv.constant2.<kernel>" on
// sm_75..sm_89: constants ptxas folds out of the code, e.g. an address offset an unrolled loop
// reads as c[0x2][0x0]).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace teg::sass {

// The bytes of the section named `name`, or an empty vector when the cubin has none. Throws
// teg::Error when `cubin` is not a well-formed little-endian ELF64 file (every offset is checked
// against its size).
std::vector<std::byte> cubinSection(std::string_view cubin, std::string_view name);

}  // namespace teg::sass
