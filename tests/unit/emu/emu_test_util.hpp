// Helpers for emulator tests: parse an inline PTX kernel, run it, read buffers back.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "teg/emu/emulator.hpp"
#include "teg/ptx/parser.hpp"

namespace teg::emu::test {

inline ptx::Module parsePtx(const std::string& body) {
  return ptx::parseModule(".version 8.0\n.target sm_80\n.address_size 64\n" + body, "test.ptx");
}

template <class T>
std::span<const std::byte> bytesOf(const std::vector<T>& v) {
  return std::as_bytes(std::span<const T>(v));
}

template <class T>
std::vector<T> readAs(std::span<const std::byte> bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

template <class T>
std::vector<T> zeros(std::size_t n) { return std::vector<T>(n, T{}); }

// k(out, in): out[i] = in[i + delta] for thread i (delta in elements, may be negative), a 4-byte
// load and store through a register address (the PTX emulator's fast path): a kernel that reads
// just outside its array, for the bounds tests (buffer_margin_test.cpp, overrun_slack_test.cpp).
inline std::string shiftedCopyPtx(int delta) {
  return R"(
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4+)" + std::to_string(4 * delta) + R"(];
  add.s64 %rd5, %rd1, %rd3;
  st.global.u32 [%rd5], %r2;
  ret;
}
)";
}

// Records every event, for tests that look at masks and addresses.
class RecordingListener final : public trace::TraceListener {
 public:
  void beginKernel(const trace::KernelInfo& k) override { kernel = k; }
  void beginBlock(std::uint32_t b) override { order.push_back(b); }
  void instruction(const trace::WarpInstruction& r) override { records.push_back(r); }
  trace::KernelInfo kernel;
  std::vector<std::uint32_t> order;
  std::vector<trace::WarpInstruction> records;
  // Active masks of warp `warp` of block `block` at static pc `pc`, in execution order.
  std::vector<std::uint32_t> masksAt(std::uint32_t pc, std::uint32_t warp = 0, std::uint32_t block = 0) const {
    std::vector<std::uint32_t> m;
    for (const auto& r : records)
      if (r.pc == pc && r.warp == warp && r.block == block) m.push_back(r.activeMask);
    return m;
  }
};

}  // namespace teg::emu::test

namespace teg::emu::test {

// Runs kernel `k(.param .u64 out)` of `body` and returns `count` elements of out.
template <class T>
std::vector<T> runOut(const std::string& body, std::size_t count, Dim3 grid = {1, 1, 1}, Dim3 block = {1, 1, 1},
                      RunOptions options = {}, std::uint32_t dynamicSmem = 0) {
  const ptx::Module m = parsePtx(body);
  Emulator e(m, "k", grid, block, dynamicSmem);
  e.addBuffer("out", bytesOf(std::vector<T>(count, T{})));
  e.run(options);
  return readAs<T>(e.buffer("out"));
}

// The message of the teg::Error that running `body` (kernel k(.param .u64 out)) throws.
inline std::string runError(const std::string& body, std::size_t outBytes, Dim3 grid, Dim3 block,
                            RunOptions options = {}, std::uint32_t dynamicSmem = 0) {
  try {
    (void)runOut<std::uint8_t>(body, outBytes, grid, block, options, dynamicSmem);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

// The trace pc of the first instruction whose text contains `needle` (whitespace ignored).
inline std::uint32_t pcOf(const trace::KernelInfo& k, std::string needle) {
  auto squash = [](std::string s) {
    std::string o;
    for (char c : s)
      if (c != ' ' && c != '\t') o += c;
    return o;
  };
  needle = squash(needle);
  for (const auto& s : k.instructions)
    if (squash(s.text).find(needle) != std::string::npos) return s.pc;
  return 0xffffffffu;
}

}  // namespace teg::emu::test
