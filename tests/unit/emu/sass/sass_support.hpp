// Helpers for the SASS emulator tests: compile a .cu for one architecture (compile cache), keep
// its PTX and SASS modules alive for the test binary, and compare buffers bit for bit.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "teg/emu/emulator.hpp"
#include "teg/emu/launch.hpp"
#include "teg/ptx/ir.hpp"
#include "teg/sass/ir.hpp"
#include "../launch_arg_support.hpp"

namespace teg::emu::sasstest {

// A buffer's bytes as elements of T, and a buffer filled from elements of T.
template <typename T>
std::vector<T> contents(const Emulator& e, const std::string& name) {
  const auto bytes = e.buffer(name);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

template <typename T>
void fill(Emulator& e, const std::string& name, const std::vector<T>& v) {
  std::memcpy(e.mutableBuffer(name).data(), v.data(), v.size() * sizeof(T));
}

// sm_70: nvcc 13's compute_75 PTX assembled by CUDA 11.8's ptxas (toolchain/volta_sass.cpp).
inline const char* const kArchs[] = {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};

struct Compiled {
  ptx::Module ptx;
  sass::Module sass;
  std::string cubin;
  int smVersion = 0;
};

// Whether nvcc and nvdisasm can be found (tests skip without them; the sm_70 cases also need CUDA
// 11.8's ptxas and nvdisasm, which scripts/install-deps.sh installs, and fail naming them).
bool haveTools();
// The PTX and SASS of `cuPath` for `arch` ("sm_86"), cached per process.
const Compiled& compile(const std::string& cuPath, const std::string& arch, const std::vector<std::string>& defines = {},
                        const std::vector<std::string>& includeDirs = {});
// Writes `cudaSource` to a file in the test's temporary directory and compiles it.
const Compiled& compileSource(const std::string& name, const std::string& cudaSource, const std::string& arch);

using testsupport::buffer;  // a buffer argument of a launch description

// The index of the first byte that differs, or -1.
long long firstDifference(std::span<const std::byte> a, std::span<const std::byte> b);

#define TEG_SASS_TOOLS_OR_SKIP()                                                                   \
  if (!::teg::emu::sasstest::haveTools())                                                          \
  GTEST_SKIP() << "nvcc or nvdisasm not found (CUDA toolkit; scripts/install-deps.sh for nvdisasm)"

}  // namespace teg::emu::sasstest
