// formatDevicePrintf against hand-written expectations: the argument buffer laid out as nvcc packs
// it (each argument at an offset aligned to its size, floats as doubles, %s/%p as 64-bit
// pointers), read through the emulated-memory reader, which refuses what is not the kernel's.
#include "device_printf.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "teg/support/error.hpp"

namespace teg::emu {
namespace {

// A toy address space: bytes at the addresses written; anything else is "unmapped".
struct Memory {
  std::map<std::uint64_t, std::uint8_t> bytes;
  void put(std::uint64_t at, const void* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) bytes[at + i] = static_cast<const std::uint8_t*>(p)[i];
  }
  void string(std::uint64_t at, const char* s) { put(at, s, std::strlen(s) + 1); }
  EmulatedRead reader() const {
    return [this](std::uint64_t address, std::uint32_t n) {
      std::uint64_t v = 0;
      for (std::uint32_t i = 0; i < n; ++i) {
        const auto it = bytes.find(address + i);
        if (it == bytes.end()) throw Error("unmapped address");
        v |= std::uint64_t{it->second} << (8 * i);
      }
      return v;
    };
  }
};

TEST(DevicePrintf, EveryConversionReadsItsArgumentAtItsAlignedOffset) {
  Memory m;
  m.string(0x1000, "%d|%u|%x|%5.2f|%s|%c|%lld|%-4d|%e|%%");
  m.string(0x3000, "ok");
  const std::int32_t d = -7;
  const std::uint32_t u = 4294967295u, x = 255;
  const double f = 3.14159, e = 12345.0;
  const std::uint64_t s = 0x3000;
  const std::int32_t c = 'Z';
  const std::int64_t ll = 1234567890123;
  const std::int32_t left = 42;
  // Offsets: d 0, u 4, x 8, f 16 (8-aligned), s 24, c 32, ll 40 (8-aligned), left 48, e 56.
  m.put(0x2000, &d, 4);
  m.put(0x2004, &u, 4);
  m.put(0x2008, &x, 4);
  m.put(0x2010, &f, 8);
  m.put(0x2018, &s, 8);
  m.put(0x2020, &c, 4);
  m.put(0x2028, &ll, 8);
  m.put(0x2030, &left, 4);
  m.put(0x2038, &e, 8);
  EXPECT_EQ(formatDevicePrintf(0x1000, 0x2000, m.reader()), "-7|4294967295|ff| 3.14|ok|Z|1234567890123|42  |1.234500e+04|%");
}

TEST(DevicePrintf, AStringPointerOutsideTheKernelsMemoryIsTheEmulatorsError) {
  Memory m;
  m.string(0x1000, "%s");
  const std::uint64_t wild = 0xdead0000;
  m.put(0x2000, &wild, 8);
  EXPECT_THROW(formatDevicePrintf(0x1000, 0x2000, m.reader()), Error);
}

TEST(DevicePrintf, AConversionPrintfDoesNotHaveEndsTheFormattingAsText) {
  Memory m;
  m.string(0x1000, "a=%d %q %d");
  const std::int32_t a = 5;
  m.put(0x2000, &a, 4);
  EXPECT_EQ(formatDevicePrintf(0x1000, 0x2000, m.reader()), "a=5 %q %d");
}

TEST(DevicePrintf, FlagsCLeavesUndefinedForAConversionAreDropped) {
  // '#' with d and '0' with s are undefined in C; the text is as without them.
  Memory m;
  m.string(0x1000, "[%#5d|%05s]");
  m.string(0x3000, "ab");
  const std::int32_t d = 42;
  const std::uint64_t s = 0x3000;
  m.put(0x2000, &d, 4);
  m.put(0x2008, &s, 8);
  EXPECT_EQ(formatDevicePrintf(0x1000, 0x2000, m.reader()), "[   42|   ab]");
}

}  // namespace
}  // namespace teg::emu
