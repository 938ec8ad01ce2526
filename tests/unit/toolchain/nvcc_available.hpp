// Whether nvcc can be found, for the toolchain tests that compile (they skip without it).
#pragma once

#include <gtest/gtest.h>

#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::toolchain::test {

inline bool haveNvcc() {
  try {
    findNvcc();
    return true;
  } catch (const teg::Error&) {
    return false;
  }
}

}  // namespace teg::toolchain::test

#define REQUIRE_NVCC() \
  if (!::teg::toolchain::test::haveNvcc()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit to run this test)"
