// NumPy .npy files (format 1.0-3.0): enough to read and write 1-D little-endian arrays of the
// launch-description element types, so buffers move between teg and Python without glue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "teg/emu/scalar_type.hpp"

namespace teg::emu {

struct NpyArray {
  std::string descr;                 // e.g. "<f4"
  std::vector<std::uint64_t> shape;  // C order
  std::vector<std::byte> data;
  [[nodiscard]] std::uint64_t elementCount() const;
};

// Reads a .npy file; throws teg::Error naming the file on malformed headers, Fortran order,
// or a size that does not match the header.
NpyArray readNpy(const std::string& path);
void writeNpy(const std::string& path, ScalarType type, const std::vector<std::byte>& data);

}  // namespace teg::emu
