// State spaces and generic addressing (local, const with initializers, module .global
// variables, static and dynamic shared memory, vector loads/stores, kernel params via generic
// pointers) and sanitizer-style errors naming block, thread, instruction, source line and address.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "emu_test_util.hpp"

namespace teg::emu::test {
namespace {

TEST(MemorySpaces, LocalConstGlobalAndGenericAddressing) {
  const std::string src = R"(
.const .align 4 .u32 tab[4] = {10, 20, 30, 40};
.global .align 4 .u32 gvar[2] = {5, 6};
.visible .entry k(.param .u64 out)
{
  .local .align 4 .b8 buf[64];
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, buf;
  cvta.local.u64 %rd3, %rd2;
  mul.lo.u32 %r2, %r1, 3;
  st.u32 [%rd3+8], %r2;
  ld.local.u32 %r3, [buf+8];
  ld.const.u32 %r4, [tab+8];
  mov.u64 %rd4, gvar;
  ld.global.u32 %r5, [%rd4+4];
  mov.u64 %rd5, tab;
  cvta.const.u64 %rd6, %rd5;
  ld.u32 %r6, [%rd6+12];
  add.u32 %r7, %r3, %r4;
  add.u32 %r7, %r7, %r5;
  add.u32 %r7, %r7, %r6;
  isspacep.local %p1, %rd3;
  selp.u32 %r8, 1000, 0, %p1;
  add.u32 %r7, %r7, %r8;
  mul.wide.u32 %rd7, %r1, 4;
  add.s64 %rd8, %rd1, %rd7;
  st.global.u32 [%rd8], %r7;
  ret;
}
)";
  // The kernel declares .pred %p1 implicitly through isspacep: add the declaration.
  std::string fixed = src;
  fixed.replace(fixed.find("  .reg .b32 %r<32>;"), 0, "  .reg .pred %p<2>;\n");
  const ptx::Module m = parsePtx(fixed);
  Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(32)));
  e.run();
  const auto out = readAs<std::uint32_t>(e.buffer("out"));
  // 3 tid (local, written through a generic pointer) + 30 + 6 + 40 + 1000 (isspacep.local)
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], 3 * t + 76 + 1000) << t;
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("gvar")), (std::vector<std::uint32_t>{5, 6}));
}

TEST(MemorySpaces, DynamicSharedMemoryAndVectorAccess) {
  // Each thread stores a v4 of (t, 2t, 3t, 4t) into dynamic shared memory, then thread t reads
  // the vector of thread (t + 1) % 32 with ld.shared.v4 and writes its sum and %dynamic_smem_size.
  const std::string src = R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, dyn;
  shl.b32 %r3, %r1, 4;
  add.u32 %r4, %r2, %r3;
  shl.b32 %r5, %r1, 1;
  mul.lo.u32 %r6, %r1, 3;
  shl.b32 %r7, %r1, 2;
  st.shared.v4.u32 [%r4], {%r1, %r5, %r6, %r7};
  bar.sync 0;
  add.u32 %r8, %r1, 1;
  and.b32 %r8, %r8, 31;
  shl.b32 %r9, %r8, 4;
  add.u32 %r10, %r2, %r9;
  ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r10];
  add.u32 %r15, %r11, %r12;
  add.u32 %r15, %r15, %r13;
  add.u32 %r15, %r15, %r14;
  mov.u32 %r16, %dynamic_smem_size;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r15, %r16};
  ret;
}
)";
  const auto out = runOut<std::uint32_t>(src, 64, {1, 1, 1}, {32, 1, 1}, {}, 512);
  for (std::uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(out[2 * t], 10 * ((t + 1) % 32)) << t;
    EXPECT_EQ(out[2 * t + 1], 512u);
  }
}

// A kernel whose thread (5,0,0) of block (1,0,0) reads data[16 + extra] (the buffer has 16 ints).
std::string oobKernel(int byteOffset) {
  return fmt::format(R"(
.file 1 "oob.cu"
.visible .entry k(.param .u64 data)
{{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [data];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  add.u32 %r3, %r1, %r2;
  setp.ne.u32 %p1, %r3, 6;
  @%p1 bra END;
  .loc 1 7 3
  ld.global.u32 %r4, [%rd1+{}];
END:
  ret;
}}
)", byteOffset);
}

std::string runOob(int byteOffset) {
  const ptx::Module m = parsePtx(oobKernel(byteOffset));
  Emulator e(m, "k", {2, 1, 1}, {32, 1, 1});
  e.addBuffer("data", bytesOf(zeros<std::int32_t>(16)));
  try {
    e.run();
  } catch (const std::exception& ex) {
    return ex.what();
  }
  return "(no error)";
}

// A load from a symbol address is the same for every lane (read once and broadcast): each active
// lane gets the value, sign-extended by its type, vector elements in order; inactive lanes keep
// their register. Hand-worked: byte 0xF6 is -10 as .s8 and 246 as .u8.
TEST(MemorySpaces, ASymbolAddressLoadGivesEveryActiveLaneTheSameValue) {
  const auto out = runOut<std::int32_t>(R"(
.visible .entry k(.param .u64 out)
{
  .shared .align 8 .b8 s[8];
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [s], 246;
  @%p1 st.shared.u32 [s+4], 7;
  bar.sync 0;
  mov.u32 %r2, 99;
  mov.u32 %r3, 99;
  mov.u32 %r4, 99;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 ld.shared.s8 %r2, [s];
  @%p1 ld.shared.v2.u32 {%r3, %r4}, [s];
  add.s32 %r5, %r2, %r3;
  add.s32 %r5, %r5, %r4;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
})", 32, {1, 1, 1}, {32, 1, 1});
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], t < 5 ? -10 + 246 + 7 : 3 * 99) << t;
}

TEST(MemoryErrors, ASymbolAddressPastTheEndOfSharedNamesTheFirstActiveThread) {
  const std::string msg = runError(R"(
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b8 s[16];
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 9;
  @%p1 ld.shared.u32 %r2, [s+16];
  ret;
})", 4, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(msg.find("out-of-bounds shared load of 4 bytes at 0x10 (the block has 16 bytes"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("thread (9,0,0)"), std::string::npos) << msg;
}

TEST(MemoryErrors, OutOfBoundsNamesBlockThreadInstructionLineAndAddress) {
  const ptx::Module m = parsePtx(oobKernel(64));
  Emulator e(m, "k", {2, 1, 1}, {32, 1, 1});
  const std::uint64_t base = e.addBuffer("data", bytesOf(zeros<std::int32_t>(16)));
  std::string msg;
  try {
    e.run();
  } catch (const std::exception& ex) {
    msg = ex.what();
  }
  // Thread (5,0,0) of block (1,0,0) is the only one with tid + ctaid == 6 ... and so is thread
  // (6,0,0) of block (0,0,0), which runs first: the first faulting thread in block order is named.
  EXPECT_NE(msg.find("out-of-bounds global load of 4 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("block (0,0,0) thread (6,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ld.global.u32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("oob.cu:7"), std::string::npos) << msg;
  EXPECT_NE(msg.find(fmt::format("0x{:x}", base + 64)), std::string::npos) << msg;
  EXPECT_NE(msg.find("0 bytes after the end of 'data'"), std::string::npos) << msg;
}

TEST(MemoryErrors, MisalignedUnmappedSharedAndLocal) {
  EXPECT_NE(runOob(2).find("misaligned global load of 4 bytes"), std::string::npos) << runOob(2);
  EXPECT_EQ(runOob(60), "(no error)");  // the last element is fine
  const std::string farAway = runOob(1 << 20);
  EXPECT_NE(farAway.find("out-of-bounds global load"), std::string::npos) << farAway;
  const std::string unmapped = runError(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u64 %rd1, 16;
  ld.global.u32 %r1, [%rd1];
  ret;
})", 4, {1, 1, 1}, {1, 1, 1});
  EXPECT_NE(unmapped.find("at 0x10"), std::string::npos) << unmapped;
  EXPECT_NE(unmapped.find("thread (0,0,0)"), std::string::npos) << unmapped;
  const std::string shared = runError(R"(
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b8 s[64];
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  st.shared.u32 [%r2], %r1;
  ret;
})", 4, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(shared.find("out-of-bounds shared store of 4 bytes at 0x40 (the block has 64 bytes"), std::string::npos)
      << shared;
  EXPECT_NE(shared.find("thread (16,0,0)"), std::string::npos) << shared;
  const std::string local = runError(R"(
.visible .entry k(.param .u64 out)
{
  .local .align 4 .b8 l[8];
  .reg .b32 %r<4>;
  st.local.u32 [l+8], 1;
  ret;
})", 4, {1, 1, 1}, {1, 1, 1});
  EXPECT_NE(local.find("out-of-bounds local store"), std::string::npos) << local;
}

TEST(MemoryErrors, TrapAndUnsupportedInstructionsNameTheThread) {
  const std::string trap = runError(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 3;
  @%p1 trap;
  ret;
})", 4, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(trap.find("trap in block (0,0,0) thread (3,0,0)"), std::string::npos) << trap;
  const std::string video = runError(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  vadd.s32.s32.s32 %r1, %r2, %r3;
  ret;
})", 4, {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(video.find("not supported by the emulator"), std::string::npos) << video;
  EXPECT_NE(video.find("vadd"), std::string::npos) << video;
}

}  // namespace
}  // namespace teg::emu::test

namespace teg::emu::test {
namespace {

// Issue 24: two .shared arrays of 3 GB each placed the second at a wrapped 32-bit offset,
// overlapping the first; the layout refuses it, naming the variable. (The kernel names both:
// a kernel gets only the shared variables it uses.)
TEST(MemoryErrors, SharedLayoutBeyond32BitsIsRefused) {
  const ptx::Module m = parsePtx(R"(.shared .b8 first[3000000000];
.shared .b8 second[3000000000];
.visible .entry k()
{
	.reg .b32 %r<3>;
	mov.u32 %r1, first;
	mov.u32 %r2, second;
	ret;
}
)");
  try {
    Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
    FAIL() << "no error";
  } catch (const Error& ex) {
    EXPECT_EQ(std::string(ex.what()),
              "shared variable 'second' (3000000000 bytes after 3000000000 bytes of others) does not fit 32-bit offsets");
  }
}

}  // namespace
}  // namespace teg::emu::test
