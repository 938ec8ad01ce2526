// The sections of a cubin (an ELF64 file) by name: what nvdisasm -c does not print but a SASS
// emulator needs, such as the compiler's constant bank of a kernel (".nv.constant2.<kernel>" on
// sm_75..sm_89: constants ptxas folds out of the code, e.g. an address offset an unrolled loop
// reads as c[0x2][0x0]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace teg::sass {

// The bytes of the section named `name`, or an empty vector when the cubin has none. Throws
// teg::Error when `cubin` is not a well-formed little-endian ELF64 file (every offset is checked
// against its size).
std::vector<std::byte> cubinSection(std::string_view cubin, std::string_view name);

// One relocation of a section: the driver writes the address of `symbol` (plus the addend) at
// `offset` when it loads the module. nvcc's cubins relocate ".nv.constant4" this way: the 64-bit
// addresses of the module's __device__ variables a kernel reads as c[0x4][...] (type 2,
// R_CUDA_64; REL, so the addend is the value already at `offset`).
struct CubinRelocation {
  std::uint64_t offset = 0;
  std::uint32_t type = 0;
  std::string symbol;
  std::int64_t addend = 0;  // RELA's explicit addend (0 for REL)
  bool explicitAddend = false;
};

// The relocations of section `name` (from ".rel<name>" and ".rela<name>"), empty when none.
// Throws teg::Error on a malformed file (every offset is checked against its size).
std::vector<CubinRelocation> cubinRelocations(std::string_view cubin, std::string_view name);

}  // namespace teg::sass
