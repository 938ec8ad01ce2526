// The committed SASS test inputs (scripts/regen-sass-inputs.sh writes them) and the skip for
// tests that run nvdisasm.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "teg/support/input_file.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::sass::test {

inline std::string inputPath(const std::string& name) { return std::string(TEG_SOURCE_DIR) + "/tests/unit/sass/inputs/" + name; }
inline std::string readInput(const std::string& name) { return readInputFile(inputPath(name)); }

// The architectures CUDA 13 compiles for (sm_75 and newer) that the inputs cover.
inline const char* const kArchitectures[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};

}  // namespace teg::sass::test

#define REQUIRE_NVDISASM()                    \
  if (!::teg::toolchain::haveNvdisasm())      \
  GTEST_SKIP() << "nvdisasm not found (bash scripts/install-deps.sh installs it from PyPI into build/tools/cuda)"
