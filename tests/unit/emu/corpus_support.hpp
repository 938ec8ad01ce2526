// Helpers for the corpus tests: compile a kernel of examples/kernels once, build small launches
// in code, run them on the emulator, and compare with a CPU reference written from the algorithm.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "teg/emu/emulator.hpp"
#include "teg/emu/launch.hpp"
#include "teg/ptx/ir.hpp"
#include "launch_arg_support.hpp"

namespace teg::emu::corpus {

// The PTX module of examples/kernels/<name>.cu (or of <source tree>/<name>.cu when name has a
// '/', e.g. "tests/unit/emu/kernels/x") compiled for sm_80 (cached per process), or null
// when nvcc is not installed (callers GTEST_SKIP).
const ptx::Module* module(const std::string& name);
std::string kernelsDir();

#define TEG_CORPUS_MODULE(var, name)                                                     \
  const ::teg::ptx::Module* var = ::teg::emu::corpus::module(name);                     \
  if (var == nullptr) GTEST_SKIP() << "nvcc not found: corpus kernel " << name << " not compiled"

// Launch building.
using testsupport::buffer;
LaunchArg i32(const std::string& name, std::int64_t value);
LaunchArg f32(const std::string& name, double value);
LaunchDescription launch(const std::string& kernel, Dim3 grid, Dim3 block, std::vector<LaunchArg> args,
                         std::uint32_t dynamicSmem = 0);
inline Dim3 dim(std::uint32_t x, std::uint32_t y = 1, std::uint32_t z = 1) { return Dim3{x, y, z}; }
inline RandomInit random(std::uint64_t seed, double min, double max) { return RandomInit{seed, min, max}; }

// The initial contents of a buffer argument of `l`, as the emulator receives them.
template <typename T>
std::vector<T> initial(const LaunchDescription& l, const std::string& name) {
  for (const auto& a : l.args) {
    if (a.name != name || !a.isBuffer()) continue;
    const auto& b = std::get<BufferArg>(a.value);
    const auto bytes = materializeBuffer(b.type, b.count, b.init, name);
    std::vector<T> v(bytes.size() / sizeof(T));
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  }
  ADD_FAILURE() << "no buffer " << name;
  return {};
}

template <typename T>
std::vector<T> contents(const Emulator& e, const std::string& name) {
  const auto bytes = e.buffer(name);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

// Runs the launch on all blocks, two worker threads (the suite also checks the parallel path).
Emulator runLaunch(const ptx::Module& module, const LaunchDescription& l, unsigned threads = 2);

// Element-wise comparison; reports the first few mismatches with their index.
void expectExact(const std::vector<std::int32_t>& actual, const std::vector<std::int32_t>& expected);
void expectExact(const std::vector<std::uint32_t>& actual, const std::vector<std::uint32_t>& expected);
// |a - e| <= absTol + relTol * |e| for every element (NaN only matches NaN).
void expectNear(const std::vector<float>& actual, const std::vector<float>& expected, double absTol,
                double relTol = 0);

}  // namespace teg::emu::corpus
