// Launch-description arguments for emulator tests, shared by the PTX corpus tests (corpus_support)
// and the SASS emulator tests (sass/sass_support).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "teg/emu/launch.hpp"

namespace teg::emu::testsupport {

// A buffer argument of a launch description (zero-filled unless `init` says otherwise).
inline LaunchArg buffer(const std::string& name, ScalarType type, std::uint64_t count, BufferInit init = ZerosInit{}) {
  BufferArg b;
  b.type = type;
  b.count = count;
  b.init = std::move(init);
  return LaunchArg{name, b};
}

}  // namespace teg::emu::testsupport
