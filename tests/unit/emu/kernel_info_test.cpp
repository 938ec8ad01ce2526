// The static description handed to listeners: instruction kinds, throughput classes (the
// Programming Guide's rows), memory spaces, access sizes, defs/uses, source lines, and trace pcs
// of called functions after the kernel's own.
#include <gtest/gtest.h>

#include "emu_test_util.hpp"

namespace teg::emu::test {
namespace {

using device::InstructionClass;
using trace::InstrKind;
using trace::MemorySpace;

const char* kMix = R"(
.file 1 "mix.cu"
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  shl.b32 %r2, %r1, 1;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[128];
  .loc 1 12 1
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  setp.lt.u32 %p1, %r1, 8;
  cvt.rn.f32.s32 %f1, %r2;
  fma.rn.f32 %f2, %f1, %f1, %f1;
  cvt.u64.u32 %rd3, %r2;
  shl.b32 %r3, %r1, 2;
  st.shared.f32 [%r3], %f2;
  bar.sync 0;
  and.b32 %r7, %r3, 120;
  ld.shared.v2.f32 {%f1, %f3}, [%r7];
  shfl.sync.bfly.b32 %r4, %r1, 1, 31, -1;
  atom.global.add.u32 %r5, [%rd1], 1;
  {
  .param .b32 a;
  .param .b32 b;
  st.param.b32 [a], %r1;
  call (b), twice, (a);
  ld.param.b32 %r6, [b];
  }
  ex2.approx.f32 %f3, %f1;
  @%p1 bra END;
END:
  ret;
}
)";

TEST(KernelInfo, KindsUnitsSpacesAndRegisters) {
  const ptx::Module m = parsePtx(kMix);
  Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
  const trace::KernelInfo& k = e.kernelInfo();
  EXPECT_EQ(k.name, "k");
  EXPECT_EQ(k.sharedBytesPerBlock, 128u);
  ASSERT_EQ(k.sourceFiles, std::vector<std::string>{"mix.cu"});
  auto at = [&](const char* text) -> const trace::StaticInstruction& {
    const std::uint32_t pc = pcOf(k, text);
    EXPECT_NE(pc, 0xffffffffu) << text;
    return k.instructions.at(pc);
  };
  struct Row {
    const char* text;
    InstrKind kind;
    InstructionClass unit;
    MemorySpace space;
    int bytes;
  };
  const Row rows[] = {
      {"ld.param.u64", InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Param, 8},
      {"add.s32", InstrKind::Alu, InstructionClass::IntAdd, MemorySpace::None, 0},
      {"mul.wide.u32", InstrKind::Alu, InstructionClass::IntMul, MemorySpace::None, 0},
      {"setp.lt.u32", InstrKind::Alu, InstructionClass::IntCompare, MemorySpace::None, 0},
      {"cvt.rn.f32.s32", InstrKind::Alu, InstructionClass::ConvertOther, MemorySpace::None, 0},
      {"fma.rn.f32", InstrKind::Alu, InstructionClass::Fp32Fma, MemorySpace::None, 0},
      // A 32 -> 64-bit integer widening is a register-pair move for ptxas, no conversion.
      {"cvt.u64.u32", InstrKind::Alu, InstructionClass::IntLogic, MemorySpace::None, 0},
      {"shl.b32 %r3", InstrKind::Alu, InstructionClass::IntShift, MemorySpace::None, 0},
      {"st.shared.f32", InstrKind::Store, InstructionClass::LoadStore, MemorySpace::Shared, 4},
      {"bar.sync", InstrKind::Barrier, InstructionClass::Branch, MemorySpace::None, 0},
      {"ld.shared.v2.f32", InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Shared, 8},
      {"shfl.sync", InstrKind::WarpSync, InstructionClass::WarpShuffle, MemorySpace::None, 0},
      {"atom.global.add", InstrKind::Atomic, InstructionClass::LoadStore, MemorySpace::Global, 4},
      {"ex2.approx", InstrKind::Alu, InstructionClass::Special, MemorySpace::None, 0},
      {"bra", InstrKind::Branch, InstructionClass::Branch, MemorySpace::None, 0},
  };
  for (const Row& r : rows) {
    const auto& s = at(r.text);
    EXPECT_EQ(s.kind, r.kind) << r.text;
    EXPECT_EQ(s.unit, r.unit) << r.text;
    EXPECT_EQ(s.space, r.space) << r.text;
    EXPECT_EQ(s.accessBytes, r.bytes) << r.text;
  }
  const auto& add = at("add.s32");
  EXPECT_EQ(add.defs.size(), 1u);
  EXPECT_EQ(add.uses.size(), 2u);
  EXPECT_EQ(add.sourceLine, 12);
  EXPECT_EQ(add.sourceFile, 0);
  // The callee's instructions follow the kernel's; its ret is a branch, the kernel's an exit.
  const std::uint32_t calleeShl = pcOf(k, "shl.b32 %r2, %r1, 1");
  EXPECT_GT(calleeShl, pcOf(k, "ret"));
  EXPECT_EQ(k.instructions.back().kind, InstrKind::Branch);
  EXPECT_EQ(k.instructions.at(pcOf(k, "ret")).kind, InstrKind::Exit);
  // Callee registers are numbered after the kernel's: no overlap with the kernel's defs.
  EXPECT_GE(k.instructions.at(calleeShl).defs.at(0), m.functions[1].registers.size());
}

const char* kCacheAndFma = R"(
.visible .entry k(.param .u64 in)
{
  .reg .f32 %f<12>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [in];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.f32 %f1, [%rd2];
  ld.global.ca.f32 %f2, [%rd2+4];
  ld.global.cg.f32 %f3, [%rd2+8];
  ld.global.nc.f32 %f4, [%rd2+12];
  ld.volatile.global.f32 %f5, [%rd2+16];
  ld.global.cs.f32 %f6, [%rd2+20];
  mul.f32 %f7, %f1, %f2;
  add.f32 %f8, %f7, %f3;
  mul.rn.f32 %f9, %f4, %f5;
  add.f32 %f10, %f9, %f6;
  st.global.f32 [%rd2], %f8;
  st.global.f32 [%rd2+4], %f10;
  ret;
}
)";

// PTX ISA "Cache Operators": .ca and .nc cache in L1, .cg and volatile bypass it, no operator (and
// the eviction hint .cs) leave the device's default. Contraction: the unrounded mul feeds the add.
TEST(KernelInfo, CacheOperatorsAndFusedMultiplies) {
  const ptx::Module m = parsePtx(kCacheAndFma);
  Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
  const trace::KernelInfo& k = e.kernelInfo();
  auto at = [&](const char* text) -> const trace::StaticInstruction& { return k.instructions.at(pcOf(k, text)); };
  EXPECT_EQ(at("ld.global.f32 %f1").cache, trace::CachePolicy::Default);
  EXPECT_EQ(at("ld.global.ca.f32").cache, trace::CachePolicy::CacheL1);
  EXPECT_EQ(at("ld.global.cg.f32").cache, trace::CachePolicy::BypassL1);
  EXPECT_EQ(at("ld.global.nc.f32").cache, trace::CachePolicy::CacheL1);
  EXPECT_EQ(at("ld.volatile.global.f32").cache, trace::CachePolicy::BypassL1);
  EXPECT_EQ(at("ld.global.cs.f32").cache, trace::CachePolicy::Default);
  EXPECT_EQ(at("mul.f32").fusedInto, static_cast<std::int32_t>(pcOf(k, "add.f32 %f8")));
  EXPECT_EQ(at("mul.rn.f32").fusedInto, -1);
  EXPECT_EQ(at("add.f32 %f8").fusedInto, -1);
}

const char* kConversions = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b16 %h<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<6>;
  .reg .f64 %fd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd2, %r1;
  cvt.s64.s32 %rd3, %r1;
  cvt.u32.u64 %r2, %rd2;
  cvt.u16.u32 %h1, %r1;
  cvt.u64.u16 %rd4, %h1;
  cvt.s32.s16 %r3, %h1;
  cvt.rn.f32.s32 %f1, %r1;
  cvt.f64.f32 %fd1, %f1;
  cvt.rn.f64.u64 %fd1, %rd2;
  ret;
}
)";

// A cvt between 32- and 64-bit integers is a register-pair move for ptxas (zero-extension: the
// high register is zero, folded into IMAD.WIDE.U32 in address arithmetic; sign-extension: one
// SHF.R.S32.HI; truncation: the low register), not the Programming Guide's 64-bit conversion row;
// the float conversions and the 16-bit ones stay on their conversion rows.
TEST(KernelInfo, IntegerWideningAndNarrowingAreMovesNotConversions) {
  const ptx::Module m = parsePtx(kConversions);
  Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
  const trace::KernelInfo& k = e.kernelInfo();
  auto unitOf = [&](const char* text) { return k.instructions.at(pcOf(k, text)).unit; };
  EXPECT_EQ(unitOf("cvt.u64.u32"), InstructionClass::IntLogic);
  EXPECT_EQ(unitOf("cvt.s64.s32"), InstructionClass::IntShift);
  EXPECT_EQ(unitOf("cvt.u32.u64"), InstructionClass::IntLogic);
  EXPECT_EQ(unitOf("cvt.u16.u32"), InstructionClass::ConvertOther);
  EXPECT_EQ(unitOf("cvt.u64.u16"), InstructionClass::Convert64);
  EXPECT_EQ(unitOf("cvt.s32.s16"), InstructionClass::ConvertNarrowInt);
  EXPECT_EQ(unitOf("cvt.rn.f32.s32"), InstructionClass::ConvertOther);
  EXPECT_EQ(unitOf("cvt.f64.f32"), InstructionClass::Convert64);
  EXPECT_EQ(unitOf("cvt.rn.f64.u64"), InstructionClass::Convert64);
}

TEST(KernelInfo, TraceCarriesCalleePcsAndMemoryAddresses) {
  const ptx::Module m = parsePtx(kMix);
  Emulator e(m, "k", {1, 1, 1}, {32, 1, 1});
  e.addBuffer("out", bytesOf(zeros<std::uint32_t>(1)));
  RecordingListener l;
  RunOptions o;
  o.listener = &l;
  e.run(o);
  const std::uint32_t calleeShl = pcOf(l.kernel, "shl.b32 %r2, %r1, 1");
  EXPECT_EQ(l.masksAt(calleeShl), std::vector<std::uint32_t>{0xffffffffu});
  // st.shared.f32 [%r3]: offsets 4 * lane in the block's shared window.
  const std::uint32_t st = pcOf(l.kernel, "st.shared.f32");
  bool seen = false;
  for (const auto& r : l.records)
    if (r.pc == st) {
      seen = true;
      for (std::uint32_t lane = 0; lane < 32; ++lane) EXPECT_EQ(r.addresses[lane], 4u * lane);
    }
  EXPECT_TRUE(seen);
  // The atomic's 32 lanes all hit the buffer's first word.
  const std::uint32_t atom = pcOf(l.kernel, "atom.global.add");
  for (const auto& r : l.records) {
    if (r.pc != atom) continue;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(r.addresses[lane], e.bufferAddress("out"));
    }
  }
  EXPECT_EQ(readAs<std::uint32_t>(e.buffer("out"))[0], 32u);
}

TEST(KernelInfo, LaneSpecialRegistersAndBlockSubset) {
  // out[gid] = laneid + 100 * warpid + 10000 * popc(lanemask_lt) + 1000000 * (lanemask_ge == ~lt)
  const std::string src = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  mov.u32 %r2, %warpid;
  mov.u32 %r3, %lanemask_lt;
  mov.u32 %r4, %lanemask_ge;
  popc.b32 %r5, %r3;
  not.b32 %r6, %r3;
  setp.eq.u32 %p1, %r4, %r6;
  selp.u32 %r7, 1000000, 0, %p1;
  mad.lo.u32 %r8, %r2, 100, %r1;
  mad.lo.u32 %r8, %r5, 10000, %r8;
  add.u32 %r8, %r8, %r7;
  mov.u32 %r9, %tid.x;
  mov.u32 %r10, %ctaid.x;
  mov.u32 %r11, %ntid.x;
  mad.lo.u32 %r12, %r10, %r11, %r9;
  mul.wide.u32 %rd2, %r12, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
})";
  const ptx::Module m = parsePtx(src);
  Emulator e(m, "k", {4, 1, 1}, {64, 1, 1});
  e.addBuffer("out", bytesOf(std::vector<std::uint32_t>(256, 7)));
  RunOptions o;
  o.blocks = BlockRange{1, 2};  // blocks 1 and 2 only
  const RunSummary s = e.run(o);
  EXPECT_TRUE(s.partialGrid);
  EXPECT_EQ(s.blocksRun, 2u);
  const auto out = readAs<std::uint32_t>(e.buffer("out"));
  for (std::uint32_t g = 0; g < 256; ++g) {
    const std::uint32_t t = g % 64, lane = t % 32, warp = t / 32;
    const bool ran = g >= 64 && g < 192;
    EXPECT_EQ(out[g], ran ? lane + 100 * warp + 10000 * lane + 1000000 : 7u) << g;
  }
}

}  // namespace
}  // namespace teg::emu::test
