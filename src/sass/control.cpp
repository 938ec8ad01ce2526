// The control-word layout is in include/teg/sass/control.hpp (Jia et al. 2018; CuAssembler).
#include "teg/sass/control.hpp"

#include <fmt/format.h>

namespace teg::sass {

namespace {
// Bit 105 of the 128-bit instruction is bit 41 of its high 64-bit word.
constexpr int kControlShift = 41;
constexpr std::uint32_t kControlBits = 21;
constexpr int kNoBarrier = 7;
}  // namespace

Control decodeControl(std::uint64_t highWord) {
  const auto raw = static_cast<std::uint32_t>((highWord >> kControlShift) & ((1u << kControlBits) - 1));
  Control c;
  c.raw = raw;
  c.stall = static_cast<int>(raw & 0xF);
  c.yield = ((raw >> 4) & 1) == 0;
  const int write = static_cast<int>((raw >> 5) & 7);
  const int read = static_cast<int>((raw >> 8) & 7);
  c.writeBarrier = write == kNoBarrier ? -1 : write;
  c.readBarrier = read == kNoBarrier ? -1 : read;
  c.waitMask = static_cast<std::uint8_t>((raw >> 11) & 0x3F);
  c.reuse = static_cast<std::uint8_t>((raw >> 17) & 0xF);
  return c;
}

std::string formatControl(const Control& c) {
  std::string reuse, wait;
  for (int i = 0; i < 4; ++i) reuse += (c.reuse >> i) & 1 ? 'R' : '-';
  for (int i = 0; i < 6; ++i) wait += (c.waitMask >> i) & 1 ? static_cast<char>('0' + i) : '-';
  const auto barrier = [](int b) { return b < 0 ? std::string("-") : std::to_string(b); };
  return fmt::format("{}:B{}:R{}:W{}:{}:S{:02}", reuse, wait, barrier(c.readBarrier), barrier(c.writeBarrier),
                     c.yield ? "Y" : "-", c.stall);
}

}  // namespace teg::sass
