// Lays out a struct passed by value as the C++ ABI of x86-64 and aarch64 (and so nvcc) does: each
// field at the next multiple of its alignment (a scalar's size; 8 for pointers and texture
// objects; a nested struct's largest), the whole size rounded up to the struct's alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "teg/emu/launch.hpp"

namespace teg::emu {

struct PackedStruct {
  std::vector<std::byte> bytes;
  std::uint32_t align = 1;
  std::string layout;  // "n: i32 at 0, a: f32 at 4, x: pointer at 8", for error messages
};

// `valueOf(path, field)` gives the 64-bit value of a buffer field (its device address) or a
// texture field (its handle); `path` is the field's full name ("p.x").
PackedStruct packStruct(const StructArg& s, const std::string& name,
                        const std::function<std::uint64_t(const std::string&, const LaunchArg&)>& valueOf);

}  // namespace teg::emu
