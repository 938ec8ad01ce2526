// The emulator's sandbox (issue 24): an emulated kernel never reads or writes host memory. Every
// address check is overflow-proof, shared addresses wrap at 32 bits as on the GPU, each kernel of
// a file gets only its own shared variables, and an endless kernel stops by itself.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "emu_test_util.hpp"

namespace teg::emu::test {
namespace {

// s[threadIdx.x - 1] with a 64-bit address: thread 0 computes 0 - 4 = 2^64 - 4, which passed
// the old check `addr + 4 > size` because the sum wrapped to 0; the load then read 4 bytes
// before the shared array in host memory.
TEST(Sandbox, NegativeSharedOffsetIn64BitRegisterIsOutOfBoundsLoad) {
  const std::string body = R"(
.shared .align 4 .b8 s[128];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd2, %r1;
  mov.u64 %rd3, s;
  shl.b64 %rd4, %rd2, 2;
  add.s64 %rd5, %rd3, %rd4;
  ld.shared.u32 %r2, [%rd5+-4];
  st.global.u32 [%rd1], %r2;
  ret;
}
)";
  const std::string error = runError(body, 128, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(error.find("out-of-bounds shared load"), std::string::npos) << error;
  EXPECT_NE(error.find("thread (0,0,0)"), std::string::npos) << error;
}

// The same for a store: before, this wrote 4 bytes before the array (heap corruption).
TEST(Sandbox, NegativeSharedOffsetIn64BitRegisterIsOutOfBoundsStore) {
  const std::string body = R"(
.shared .align 4 .b8 s[128];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd2, %r1;
  mov.u64 %rd3, s;
  shl.b64 %rd4, %rd2, 2;
  add.s64 %rd5, %rd3, %rd4;
  st.shared.u32 [%rd5+-4], %r1;
  ret;
}
)";
  const std::string error = runError(body, 4, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(error.find("out-of-bounds shared store"), std::string::npos) << error;
}

// Rodinia nw's pattern: a 32-bit address register holding -64 plus an offset of 68 is byte 4 of
// shared memory on the GPU (32-bit wrap), not byte 2^32 + 4.
TEST(Sandbox, SharedAddressInA32BitRegisterWrapsAt32Bits) {
  const std::string body = R"(
.shared .align 4 .b8 s[64];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, s;
  mov.u32 %r2, 1234;
  st.shared.u32 [%r1+4], %r2;
  add.s32 %r3, %r1, -64;
  ld.shared.u32 %r4, [%r3+68];
  st.global.u32 [%rd1], %r4;
  ret;
}
)";
  EXPECT_EQ(runOut<std::uint32_t>(body, 1), std::vector<std::uint32_t>{1234});
}

// A generic pointer 4 GiB past a shared array stays in the shared window but past the block's
// shared memory: out of bounds, not wrapped back onto the array as an explicit .shared offset is.
TEST(Sandbox, GenericSharedPointerPastTheArrayIsNotWrapped) {
  const std::string body = R"(
.shared .align 4 .b8 s[64];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u64 %rd1, s;
  cvta.shared.u64 %rd2, %rd1;
  add.s64 %rd3, %rd2, 4294967300;
  ld.u32 %r1, [%rd3];
  ret;
}
)";
  const std::string error = runError(body, 4, {1, 1, 1}, {1, 1, 1});
  EXPECT_NE(error.find("out-of-bounds shared load"), std::string::npos) << error;
}

// A 64-bit global index near 2^62 times 4 bytes wraps the address around 2^64: the access is
// out of bounds, reported, never a host pointer. (Index 2^62 itself wraps to the buffer's own
// start, as it does on the GPU, so it is not among them.)
TEST(Sandbox, GlobalIndexNear2To62IsReportedNotFollowed) {
  for (const char* index : {"4611686018427387903", "4611686018427387900", "4611686018427388004"}) {
    const std::string body = fmt::format(R"(
.visible .entry k(.param .u64 out)
{{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, {};
  shl.b64 %rd3, %rd2, 2;
  add.s64 %rd4, %rd1, %rd3;
  mov.u32 %r1, 7;
  st.global.u32 [%rd4], %r1;
  ret;
}}
)", index);
    const std::string error = runError(body, 16, {1, 1, 1}, {32, 1, 1});
    EXPECT_NE(error.find("out-of-bounds global store"), std::string::npos) << index << ": " << error;
  }
}

// The fast path remembers the buffer the previous lane hit: lane 0 stores into out, lane 1 at
// 2^64 - 4, where the old check `addr + 4 <= end` wrapped to 0 and passed (a wild host write).
TEST(Sandbox, AddressJustBelow2To64AfterAnInBoundsLaneIsReported) {
  const std::string body = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  selp.b64 %rd4, %rd1, -4, %p1;
  st.global.u32 [%rd4], %r1;
  ld.global.u32 %r2, [%rd4];
  ret;
}
)";
  const std::string error = runError(body, 16, {1, 1, 1}, {2, 1, 1});
  EXPECT_NE(error.find("out-of-bounds global store of 4 bytes at 0xfffffffffffffffc"), std::string::npos) << error;
  EXPECT_NE(error.find("thread (1,0,0)"), std::string::npos) << error;
}

// An address just below 2^64 through the generic path and every checked space.
TEST(Sandbox, AddressesNear2To64AreOutOfBoundsInEverySpace) {
  for (const char* space : {"", ".shared", ".local", ".const", ".param"}) {
    const std::string body = fmt::format(R"(
.shared .align 4 .b8 s[64];
.const .align 4 .b8 c[64];
.visible .entry k(.param .u64 out)
{{
  .local .align 4 .b8 l[64];
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  mov.u64 %rd2, -4;
  ld{}.u32 %r1, [%rd2];
  ret;
}}
)", space);
    const std::string error = runError(body, 4, {1, 1, 1}, {1, 1, 1});
    EXPECT_NE(error.find("out-of-bounds"), std::string::npos) << "ld" << space << ": " << error;
  }
}

// Two kernels of one file each get only their own shared array: an overflow of k's array is an
// error, not a silent write into other's array laid out after it.
TEST(Sandbox, KernelsOfOneFileDoNotShareSharedMemory) {
  const std::string body = R"(
.shared .align 4 .b8 mine[16];
.shared .align 4 .b8 theirs[1024];
.visible .entry other(.param .u64 a, .param .u64 b, .param .u32 c)
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 0;
  st.shared.u32 [theirs], %r1;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, mine;
  add.u32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1;
  ret;
}
)";
  const std::string error = runError(body, 4, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(error.find("out-of-bounds shared store"), std::string::npos) << error;
  EXPECT_NE(error.find("16 bytes of shared memory"), std::string::npos) << error;
}

// A .cu with several kernels whose parameter counts differ: running the one with fewer
// parameters decoded the other's `ld.param` against this kernel's parameter table (an
// out-of-bounds read). Only what the chosen kernel reaches is decoded now.
TEST(Sandbox, KernelsWithDifferentParameterCountsRunEach) {
  const std::string body = R"(
.visible .entry many(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 d)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [c];
  ld.param.u32 %r1, [d];
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 99;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  EXPECT_EQ(runOut<std::uint32_t>(body, 1), std::vector<std::uint32_t>{99});
}

// One construct the emulator does not run, in another kernel of the file, never blocks this one:
// only what the launched kernel reaches is decoded.
TEST(Sandbox, AnUnsupportedInstructionInAnotherKernelDoesNotBlockThisOne) {
  const std::string body = R"(
.visible .entry other(.param .u64 a)
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 1;
  frobnicate.b32 %r2, %r1;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 42;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  EXPECT_EQ(runOut<std::uint32_t>(body, 1), std::vector<std::uint32_t>{42});
  const std::string error = [&] {
    try {
      const ptx::Module m = parsePtx(body);
      Emulator e(m, "other", {1, 1, 1}, {1, 1, 1});
      e.addZeroedBuffer("a", 4);
      e.run();
    } catch (const std::exception& ex) {
      return std::string(ex.what());
    }
    return std::string("(no error)");
  }();
  EXPECT_NE(error.find("frobnicate"), std::string::npos) << error;
}

// Found by the sandbox fuzzer: an atomic whose address names a local variable ran a host atomic
// on a lane's local frame, 4-byte aligned in host memory for an 8-byte operation (undefined
// behaviour in the emulator itself). Atomics on local memory are undefined in PTX: refused.
TEST(Sandbox, AtomicOnLocalMemoryIsRefused) {
  const std::string body = R"(
.visible .entry k(.param .u64 out)
{
  .local .align 4 .b8 l[12];
  .reg .b64 %rd<4>;
  mov.u64 %rd1, 5;
  atom.shared.cas.b64 %rd2, [l+0], %rd1, %rd1;
  ret;
}
)";
  const std::string error = runError(body, 4, {1, 1, 1}, {2, 1, 1});
  EXPECT_NE(error.find("atomic on local memory"), std::string::npos) << error;
}

constexpr const char* kEndless = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 0;
$L_loop:
  add.u32 %r1, %r1, 1;
  bra.uni $L_loop;
}
)";

// An endless kernel stops with an error by default (the per-block limit), naming the block and
// the option that raises it.
TEST(Sandbox, EndlessKernelStopsAtThePerBlockLimit) {
  RunOptions options;
  options.maxBlockInstructions = 100000;  // the default is 2^28; a smaller one keeps the test short
  const std::string error = runError(kEndless, 4, {2, 1, 1}, {64, 1, 1}, options);
  EXPECT_NE(error.find("block (0,0,0) did not finish within 100000 warp instructions"), std::string::npos) << error;
  EXPECT_NE(error.find("--max-block-instructions"), std::string::npos) << error;
}

TEST(Sandbox, DefaultRunOptionsBoundEveryBlock) {
  const RunOptions options;
  EXPECT_EQ(options.maxBlockInstructions, std::uint64_t{1} << 28);
  EXPECT_EQ(options.maxTraceRecords, std::uint64_t{1} << 26);
}

// With a listener, the trace stops growing at the trace limit even when the per-block limit is
// off, on one thread and with blocks in parallel (buffered).
TEST(Sandbox, TracedRunStopsAtTheTraceLimit) {
  for (unsigned threads : {1u, 2u}) {
    RecordingListener listener;
    RunOptions options;
    options.maxBlockInstructions = 0;
    options.maxTraceRecords = 50000;
    options.listener = &listener;
    options.threads = threads;
    const std::string error = runError(kEndless, 4, {4, 1, 1}, {32, 1, 1}, options);
    EXPECT_NE(error.find("the trace would exceed 50000 warp instructions"), std::string::npos) << error;
    EXPECT_LE(listener.records.size(), 50000u + 4u * 1024u) << threads;
  }
}

// Blocks run in parallel deliver the same trace as on one thread, addresses included (the
// buffered records keep addresses only for memory instructions).
TEST(Sandbox, BufferedTraceEqualsDirectTrace) {
  const std::string body = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  add.u32 %r5, %r4, 1;
  ret;
}
)";
  auto traceOf = [&](unsigned threads) {
    const ptx::Module m = parsePtx(body);
    Emulator e(m, "k", {8, 1, 1}, {64, 1, 1});
    e.addBuffer("out", bytesOf(zeros<std::uint32_t>(512)));
    RecordingListener listener;
    RunOptions options;
    options.listener = &listener;
    options.threads = threads;
    e.run(options);
    return listener.records;
  };
  const auto direct = traceOf(1), buffered = traceOf(2);
  ASSERT_EQ(direct.size(), buffered.size());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    EXPECT_EQ(direct[i].block, buffered[i].block) << i;
    EXPECT_EQ(direct[i].pc, buffered[i].pc) << i;
    EXPECT_EQ(direct[i].activeMask, buffered[i].activeMask) << i;
    EXPECT_EQ(direct[i].addresses, buffered[i].addresses) << i;
  }
}

}  // namespace
}  // namespace teg::emu::test
