// The CUDA runtime's device-side printf (vprintf), formatted on the host: the format string and
// the argument buffer the compiler packs (each argument at an offset aligned to its size; floats
// promoted to double; %s and %p as 64-bit pointers), read through a bounds-checked reader so a
// kernel's printf can never read host memory.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace teg::emu {

// Reads `bytes` (1, 4 or 8) at an emulated generic address; throws teg::Error (the emulator's
// fault message) when the address is not the kernel's to read.
using EmulatedRead = std::function<std::uint64_t(std::uint64_t address, std::uint32_t bytes)>;

// The text printf(format, args...) prints: `format` and `args` are the two pointers vprintf
// receives. Conversions: d i u o x X c s p f F e E g G a A and %%, with flags, width, precision
// and the h hh l ll z j t length modifiers. A conversion printf does not have, or a string longer
// than 4096 bytes, is printed as written and the rest of the format as text (the GPU's printf
// prints garbage or stops; teg says nothing worse than the GPU would).
std::string formatDevicePrintf(std::uint64_t format, std::uint64_t args, const EmulatedRead& read);

}  // namespace teg::emu
