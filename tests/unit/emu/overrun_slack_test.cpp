// The overrun slack (Emulator::setOverrunSlack): bytes mapped beside each buffer where an access
// completes and is logged instead of faulting, so that `teg predict` times a kernel that writes a
// little past its array — which runs on a GPU, whose memory beside an allocation is mapped — and
// says so. `teg run` keeps no slack: there the same access is an error (buffer_margin_test.cpp).
#include <gtest/gtest.h>

#include "emu_test_util.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::test {
namespace {

// The input of shiftedCopyPtx (emu_test_util.hpp).
const std::vector<std::uint32_t> kInput = {11, 22, 33, 44, 55, 66, 77, 88};

TEST(OverrunSlack, ReadsPastTheEndCompleteWithZerosAndAreCountedWithTheirReach) {
  const ptx::Module m = parsePtx(shiftedCopyPtx(+3));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.setOverrunSlack(64 * 1024);
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  e.addBuffer("in", bytesOf(kInput));
  e.run({});
  // Threads 5, 6, 7 read in[8], in[9], in[10]: zeros, 3 lane accesses, the farthest ending 12
  // bytes past the 32-byte buffer.
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out")), (std::vector<std::uint32_t>{44, 55, 66, 77, 88, 0, 0, 0}));
  const auto overruns = e.overruns();
  ASSERT_EQ(overruns.size(), 1u);
  EXPECT_EQ(overruns[0].buffer, "in");
  EXPECT_EQ(overruns[0].accesses, 3u);
  EXPECT_EQ(overruns[0].bytesPastEnd, 12u);
  EXPECT_EQ(overruns[0].bytesBeforeStart, 0u);
}

TEST(OverrunSlack, ReadsBeforeTheStartAreCountedApart) {
  const ptx::Module m = parsePtx(shiftedCopyPtx(-2));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.setOverrunSlack(4096);
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  e.addBuffer("in", bytesOf(kInput));
  e.run({});
  // Threads 0 and 1 read in[-2] and in[-1]: the farthest starts 8 bytes before the buffer.
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out")), (std::vector<std::uint32_t>{0, 0, 11, 22, 33, 44, 55, 66}));
  const auto overruns = e.overruns();
  ASSERT_EQ(overruns.size(), 1u);
  EXPECT_EQ(overruns[0].accesses, 2u);
  EXPECT_EQ(overruns[0].bytesPastEnd, 0u);
  EXPECT_EQ(overruns[0].bytesBeforeStart, 8u);
}

TEST(OverrunSlack, TheLaunchsOwnMarginIsNoOverrunButWhatLiesBeyondItIs) {
  // A margin of 4 bytes covers in[-1]; in[-2] lies in the slack beyond it.
  const ptx::Module m = parsePtx(shiftedCopyPtx(-2));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.setOverrunSlack(4096);
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  const std::uint64_t in = e.addBuffer("in", bytesOf(kInput), 4);
  EXPECT_EQ(in % 256, 0u) << "the slack keeps the buffer on cudaMalloc's alignment";
  e.run({});
  const auto overruns = e.overruns();
  ASSERT_EQ(overruns.size(), 1u);
  EXPECT_EQ(overruns[0].accesses, 1u);  // thread 0 only
  EXPECT_EQ(overruns[0].bytesBeforeStart, 8u);
}

TEST(OverrunSlack, StoresLandInTheSlackAndTheBufferKeepsItsSize) {
  // out[i + 4] = i for 8 threads into a 4-element buffer: every thread writes past out[3], and
  // the buffer itself stays untouched.
  const ptx::Module m = parsePtx(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4+16], %r1;
  ret;
}
)");
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.setOverrunSlack(256);
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(4)));
  e.run({});
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out")), (std::vector<std::uint32_t>{0, 0, 0, 0}));
  const auto overruns = e.overruns();
  ASSERT_EQ(overruns.size(), 1u);
  EXPECT_EQ(overruns[0].accesses, 8u);
  EXPECT_EQ(overruns[0].bytesPastEnd, 32u);  // thread 7 writes bytes 44..47 of a 16-byte buffer
}

TEST(OverrunSlack, BeyondTheSlackTheAccessStillFaults) {
  // in[10] ends 12 bytes past the buffer; a slack of 8 does not reach it.
  const ptx::Module m = parsePtx(shiftedCopyPtx(+3));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.setOverrunSlack(8);
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  e.addBuffer("in", bytesOf(kInput));
  try {
    e.run({});
    ADD_FAILURE() << "the read 12 bytes past the end completed with a slack of 8";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("out-of-bounds global load"), std::string::npos) << error.what();
  }
}

TEST(OverrunSlack, WithoutSlackNothingIsLoggedAndInBoundsKernelsReportNone) {
  const ptx::Module m = parsePtx(shiftedCopyPtx(0));
  Emulator e(m, "k", {1, 1, 1}, {8, 1, 1});
  e.setOverrunSlack(64 * 1024);
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(8)));
  e.addBuffer("in", bytesOf(kInput));
  e.run({});
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out")), kInput);
  EXPECT_TRUE(e.overruns().empty());
}

}  // namespace
}  // namespace teg::emu::test
