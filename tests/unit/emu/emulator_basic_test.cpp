// Basic execution: parameters, special registers, global loads/stores, guards, blocks.
#include <gtest/gtest.h>

#include "emu_test_util.hpp"
#include "teg/support/error.hpp"

namespace teg::emu::test {
namespace {

// out[i] = in[i] * 2 + i for i < n, with i = ctaid.x * ntid.x + tid.x.
const char* kScale = R"(
.visible .entry scale(.param .u64 in, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  mul.wide.s32 %rd4, %r5, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.u32 %r6, [%rd5];
  shl.b32 %r6, %r6, 1;
  add.s32 %r6, %r6, %r5;
  cvta.to.global.u64 %rd6, %rd2;
  add.s64 %rd7, %rd6, %rd4;
  st.global.u32 [%rd7], %r6;
DONE:
  ret;
}
)";

TEST(EmulatorBasic, ScaleKernelOverPartialGrid) {
  const ptx::Module m = parsePtx(kScale);
  const int n = 100;  // 4 blocks of 32: the last block has 28 idle threads
  std::vector<std::int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = 1000 - 3 * i;
  Emulator emu(m, "scale", Dim3{4, 1, 1}, Dim3{32, 1, 1});
  emu.addBuffer("in", bytesOf(in));
  emu.addBuffer("out", bytesOf(zeros<std::int32_t>(n)));
  const std::int32_t nv = n;
  emu.addScalar("n", std::as_bytes(std::span(&nv, 1)));
  const RunSummary s = emu.run();
  EXPECT_EQ(s.blocksRun, 4u);
  const auto out = readAs<std::int32_t>(emu.buffer("out"));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], (1000 - 3 * i) * 2 + i) << i;
}

TEST(EmulatorBasic, SameResultWithTwoThreadsAndListenerOrder) {
  const ptx::Module m = parsePtx(kScale);
  const int n = 1000;
  std::vector<std::int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * 7;
  auto make = [&] {
    Emulator emu(m, "scale", Dim3{32, 1, 1}, Dim3{32, 1, 1});
    emu.addBuffer("in", bytesOf(in));
    emu.addBuffer("out", bytesOf(zeros<std::int32_t>(n)));
    const std::int32_t nv = n;
    emu.addScalar("n", std::as_bytes(std::span(&nv, 1)));
    return emu;
  };
  Emulator one = make(), two = make();
  RecordingListener l1, l2;
  RunOptions o1;
  o1.listener = &l1;
  RunOptions o2;
  o2.listener = &l2;
  o2.threads = 2;
  const RunSummary s1 = one.run(o1), s2 = two.run(o2);
  EXPECT_EQ(s1.threadInstructions, s2.threadInstructions);
  EXPECT_EQ(readAs<std::int32_t>(one.buffer("out")), readAs<std::int32_t>(two.buffer("out")));
  ASSERT_EQ(l2.order.size(), 32u);
  for (std::uint32_t b = 0; b < 32; ++b) EXPECT_EQ(l2.order[b], b);  // blocks delivered in order
  ASSERT_EQ(l1.records.size(), l2.records.size());
  for (std::size_t i = 0; i < l1.records.size(); ++i) {
    EXPECT_EQ(l1.records[i].pc, l2.records[i].pc);
    EXPECT_EQ(l1.records[i].activeMask, l2.records[i].activeMask);
  }
}

TEST(EmulatorBasic, KernelFoundByDemangledName) {
  EXPECT_EQ(demangledBaseName("_Z5saxpyifPKfPf"), "saxpy");
  EXPECT_EQ(demangledBaseName("_ZN2ns3fooEv"), "ns::foo");
  EXPECT_EQ(demangledBaseName("plain"), "plain");
  const ptx::Module m = parsePtx(R"(.visible .entry _Z3fooPi(.param .u64 p) { ret; })");
  EXPECT_EQ(findKernel(m, "foo").name, "_Z3fooPi");
  EXPECT_EQ(findKernel(m, "_Z3fooPi").name, "_Z3fooPi");
  try {
    (void)findKernel(m, "bar");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    // The candidates by signature, with the symbol beside (support/kernel_name.hpp).
    EXPECT_NE(std::string(e.what()).find("foo(int*) (_Z3fooPi)"), std::string::npos) << e.what();
  }
}

TEST(EmulatorBasic, ArgumentsMustMatchParameters) {
  const ptx::Module m = parsePtx(kScale);
  Emulator emu(m, "scale", Dim3{1, 1, 1}, Dim3{32, 1, 1});
  const std::int32_t four = 4;
  EXPECT_THROW(emu.addScalar("in", std::as_bytes(std::span(&four, 1))), Error);  // 4 bytes for a .u64
  emu.addBuffer("in", bytesOf(zeros<int>(4)));
  EXPECT_THROW(emu.run(), Error);  // missing arguments
  EXPECT_THROW(Emulator(m, "scale", Dim3{1, 1, 1}, Dim3{2048, 1, 1}), Error);  // > 1024 threads
}

// Issue 24: grid dimensions past CUDA's limits, or a grid whose block numbers would wrap at
// 32 bits, are refused at launch rather than run with wrapped block indices.
TEST(EmulatorBasic, GridsBeyondTheLimitsAreRefused) {
  const ptx::Module m = parsePtx(kScale);
  const auto error = [&](Dim3 grid) -> std::string {
    try {
      Emulator emu(m, "scale", grid, Dim3{32, 1, 1});
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error(Dim3{2147483648u, 1, 1}), "launch of 'scale': grid x = 2147483648 exceeds 2^31-1");
  EXPECT_EQ(error(Dim3{65536, 65535, 2}),
            "launch of 'scale': a grid of 65536 x 65535 x 2 = 8589803520 blocks is more than teg numbers (2^32-1)");
  EXPECT_EQ(error(Dim3{1, 65536, 1}), "launch of 'scale': grid y and z are limited to 65535");
  EXPECT_EQ(error(Dim3{2147483647u, 1, 1}), "(no error)");
}

TEST(EmulatorBasic, SpecialRegistersIn3dBlocks) {
  // out[linear tid] = tid.x + 10*tid.y + 100*tid.z + 1000*ctaid.y + 10000*ntid.z
  const ptx::Module m = parsePtx(R"(
.visible .entry sr(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ntid.y;
  mad.lo.u32 %r6, %r3, %r5, %r2;
  mad.lo.u32 %r7, %r6, %r4, %r1;
  mad.lo.u32 %r8, %r2, 10, %r1;
  mad.lo.u32 %r8, %r3, 100, %r8;
  mov.u32 %r9, %ctaid.y;
  mad.lo.u32 %r8, %r9, 1000, %r8;
  mov.u32 %r10, %ntid.z;
  mad.lo.u32 %r8, %r10, 10000, %r8;
  mov.u32 %r11, %nctaid.y;
  mul.lo.u32 %r12, %r9, 24;
  add.u32 %r7, %r7, %r12;
  mul.wide.u32 %rd2, %r7, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
}
)");
  Emulator emu(m, "sr", Dim3{1, 2, 1}, Dim3{4, 3, 2});
  emu.addBuffer("out", bytesOf(zeros<std::uint32_t>(48)));
  emu.run();
  const auto out = readAs<std::uint32_t>(emu.buffer("out"));
  for (std::uint32_t by = 0; by < 2; ++by)
    for (std::uint32_t z = 0; z < 2; ++z)
      for (std::uint32_t y = 0; y < 3; ++y)
        for (std::uint32_t x = 0; x < 4; ++x)
          EXPECT_EQ(out[by * 24 + (z * 3 + y) * 4 + x], x + 10 * y + 100 * z + 1000 * by + 20000);
}

}  // namespace
}  // namespace teg::emu::test
