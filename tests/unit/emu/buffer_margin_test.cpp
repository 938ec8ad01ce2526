// A buffer's margin (launch "margin", BufferArg::marginBytes): zero bytes mapped before and after
// it, for kernels that read just outside their arrays as some public code does harmlessly on the
// GPU (Rodinia srad_v2 reads J[index - cols] in its first block row). Without a margin the read
// faults and the message says how large a margin would cover it.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "emu_test_util.hpp"
#include "teg/emu/launch.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::test {
namespace {

std::string errorOf(Emulator& e) {
  try {
    e.run({});
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

const std::vector<std::uint32_t> kInput = {11, 22, 33, 44, 55, 66, 77, 88};

TEST(BufferMargin, AReadBeforeTheBufferFaultsAndTheMessageSaysWhichMarginCoversIt) {
  const ptx::Module m = parsePtx(shiftedCopyPtx(-1));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  e.addBuffer("in", bytesOf(kInput));
  const std::string error = errorOf(e);
  EXPECT_NE(error.find("4 bytes before 'in'"), std::string::npos) << error;
  // Thread 0 reads 4 bytes at in - 4: a margin of 4 bytes covers it.
  EXPECT_NE(error.find("\"margin\": 4 or more"), std::string::npos) << error;
}

TEST(BufferMargin, WithAMarginTheReadGetsZerosAndTheBufferIsUnchanged) {
  const ptx::Module m = parsePtx(shiftedCopyPtx(-1));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  const std::uint64_t address = e.addBuffer("in", bytesOf(kInput), 4);
  e.run({});
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out")), (std::vector<std::uint32_t>{0, 11, 22, 33, 44, 55, 66, 77}));
  // The buffer as the launch sees it: its own bytes at its own address, margins excluded.
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("in")), kInput);
  EXPECT_EQ(e.bufferAddress("in"), address);
}

TEST(BufferMargin, AReadPastTheEndNeedsAMarginAfterIt) {
  const ptx::Module m = parsePtx(shiftedCopyPtx(+3));
  {
    Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
    e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
    e.addBuffer("in", bytesOf(kInput));
    const std::string error = errorOf(e);
    // The first thread that faults is reported: thread 5 reads in[8], bytes 32..35 of a 32-byte
    // buffer (a margin of 4 covers it); thread 7's in[10] needs 12, which the launch below gives.
    EXPECT_NE(error.find("thread (5,0,0)"), std::string::npos) << error;
    EXPECT_NE(error.find("\"margin\": 4 or more"), std::string::npos) << error;
  }
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  e.addBuffer("in", bytesOf(kInput), 12);
  e.run({});
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out")), (std::vector<std::uint32_t>{44, 55, 66, 77, 88, 0, 0, 0}));
}

TEST(BufferMargin, TheMarginIsTheLimit) {
  // Two elements before the buffer with a margin of one element: still out of bounds.
  const ptx::Module m = parsePtx(shiftedCopyPtx(-2));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  e.addBuffer("in", bytesOf(kInput), 4);
  const std::string error = errorOf(e);
  EXPECT_NE(error.find("out-of-bounds global load"), std::string::npos) << error;
  EXPECT_NE(error.find("\"margin\": 8 or more"), std::string::npos) << error;
}

// A margin maps bytes around the buffer; it does not move the buffer off cudaMalloc's alignment.
// The CUDA C++ Programming Guide (Device Memory Accesses): "any address of a variable residing in
// global memory or returned by one of the memory allocation routines from the driver or runtime
// API is always aligned to at least 256 bytes". A margin of 4 bytes used to put the buffer at
// base + 4, so its first float4 load faulted as misaligned and its accesses straddled sectors.
TEST(BufferMargin, AMarginKeepsTheBufferOnCudaMallocsAlignment) {
  const ptx::Module m = parsePtx(R"(
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  ret;
}
)");
  for (const std::uint64_t margin : {0u, 4u, 12u, 256u, 1788u, 4100u}) {
    Emulator e(m, "k", {1, 1, 1}, {1, 1, 1});
    const std::uint64_t out = e.addBuffer("out", bytesOf(zeros<std::uint32_t>(4)), margin);
    const std::uint64_t in = e.addBuffer("in", bytesOf(kInput), margin);
    EXPECT_EQ(out % 256, 0u) << "margin " << margin;
    EXPECT_EQ(in % 256, 0u) << "margin " << margin;
    e.run({});
    EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out")), (std::vector<std::uint32_t>{11, 22, 33, 44})) << "margin " << margin;
  }
}

TEST(BufferMargin, TheLaunchFileGivesItInBytesWithinALimit) {
  const auto l = parseLaunch(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 8, "args": [
      {"name": "in", "buffer": {"type": "f32", "count": 8, "margin": 2048}}]})",
                             "/work/l.json");
  EXPECT_EQ(std::get<BufferArg>(l.args.at(0).value).marginBytes, 2048u);
  for (const char* margin : {"-4", "1.5", "\"8\"", "2147483648"}) {
    try {
      parseLaunch(fmt::format(R"({{"source": "k.cu", "kernel": "k", "grid": 1, "block": 8, "args": [
          {{"name": "in", "buffer": {{"type": "f32", "count": 8, "margin": {}}}}}]}})",
                              margin),
                  "/work/l.json");
      ADD_FAILURE() << "margin " << margin << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("margin"), std::string::npos) << e.what();
    }
  }
}

// A pointer cycle (the launch's "pointer_cycle") holds its own buffer's addresses: with a margin
// they must still point into the buffer itself, one per 64-byte segment, every segment once, and
// the margin must be there (it was silently dropped for pointer-cycle buffers).
TEST(BufferMargin, APointerCycleWithAMarginPointsIntoTheBufferItself) {
  // The kernel reads the 8 bytes before the buffer: only the margin makes that legal.
  const ptx::Module m = parsePtx(R"(
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.global.u64 %rd2, [%rd1+-8];
  ret;
}
)");
  const auto launch = parseLaunch(R"({"source": "k.ptx", "kernel": "k", "grid": 1, "block": 1, "args": [
      {"name": "p", "buffer": {"type": "u64", "count": 64, "margin": 256, "init": {"pointer_cycle": {"stride": 64, "seed": 3}}}}]})",
                                  "/work/l.json");
  Emulator e(m, launch);
  e.run({});
  const std::uint64_t base = e.bufferAddress("p");
  const auto words = readAs<std::uint64_t>(e.buffer("p"));
  ASSERT_EQ(words.size(), 64u);
  std::vector<bool> seen(8, false);
  for (std::size_t segment = 0; segment < 8; ++segment) {
    const std::uint64_t next = words[segment * 8];
    ASSERT_GE(next, base);
    ASSERT_LT(next, base + 512);
    ASSERT_EQ((next - base) % 64, 0u);
    seen[(next - base) / 64] = true;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 8);
}

}  // namespace
}  // namespace teg::emu::test
