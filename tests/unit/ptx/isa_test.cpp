// The vocabulary tables: every spelling maps back to its enum, and the timing class follows the
// PTX ISA's meaning of type and state space.
#include <gtest/gtest.h>

#include <set>

#include "teg/ptx/isa.hpp"
#include "teg/ptx/parser.hpp"

namespace teg::ptx {
namespace {

TEST(PtxIsa, EveryOpcodeMnemonicIsUniqueAndLooksUpToItself) {
  std::set<std::string_view> seen;
  for (int i = 0; i < static_cast<int>(Opcode::Unknown); ++i) {
    const auto op = static_cast<Opcode>(i);
    const std::string_view m = opcodeInfo(op).mnemonic;
    EXPECT_TRUE(seen.insert(m).second) << m;
    ASSERT_TRUE(lookupOpcode(m).has_value()) << m;
    EXPECT_EQ(*lookupOpcode(m), op);
  }
  EXPECT_FALSE(lookupOpcode("frobnicate").has_value());
}

TEST(PtxIsa, QualifiersTypesAndSpecialRegistersRoundTrip) {
  for (int i = 0; i < static_cast<int>(Qualifier::Count); ++i) {
    const auto q = static_cast<Qualifier>(i);
    ASSERT_TRUE(lookupQualifier(qualifierName(q)).has_value()) << qualifierName(q);
    EXPECT_EQ(*lookupQualifier(qualifierName(q)), q);
  }
  for (int i = 0; i < kTypeCount; ++i) {
    const auto t = static_cast<Type>(i);
    EXPECT_EQ(*lookupType(typeName(t)), t);
    EXPECT_EQ(qualifierCategory(qualifierOf(t)), QualifierCategory::Type);
  }
  EXPECT_EQ(typeBits(Type::F64), 64);
  EXPECT_EQ(typeBits(Type::F16x2), 32);
  for (int i = 0; i < static_cast<int>(SpecialRegister::Count); ++i) {
    const auto r = static_cast<SpecialRegister>(i);
    EXPECT_EQ(*lookupSpecialRegister(specialRegisterName(r)), r);
  }
  EXPECT_TRUE(specialRegisterIsVector(SpecialRegister::Ctaid));
  EXPECT_FALSE(specialRegisterIsVector(SpecialRegister::Clock64));
}

InstrClass classOf(const std::string& instruction) {
  const Module m = parseModule(
      ".version 9.0\n.target sm_90\n.entry k()\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n"
      ".reg .f64 %fd<4>;\n.reg .b16 %h<4>;\n.reg .pred %p<2>;\n.shared .b32 s;\n" +
          instruction + "\n}\n",
      "c.ptx");
  return m.functions[0].instructions.at(0).instrClass;
}

TEST(PtxIsa, TimingClassFollowsTypeAndStateSpace) {
  EXPECT_EQ(classOf("add.f32 %f1, %f2, %f3;"), InstrClass::Fp32);
  EXPECT_EQ(classOf("add.f64 %fd1, %fd2, %fd3;"), InstrClass::Fp64);
  EXPECT_EQ(classOf("add.f16 %h1, %h2, %h3;"), InstrClass::Fp16);
  EXPECT_EQ(classOf("add.s32 %r1, %r2, %r3;"), InstrClass::IntAlu);
  EXPECT_EQ(classOf("mul.lo.s32 %r1, %r2, %r3;"), InstrClass::IntMul);
  EXPECT_EQ(classOf("mul.f32 %f1, %f2, %f3;"), InstrClass::Fp32);
  EXPECT_EQ(classOf("rsqrt.approx.f32 %f1, %f2;"), InstrClass::Sfu);
  EXPECT_EQ(classOf("rcp.rn.f64 %fd1, %fd2;"), InstrClass::Fp64);
  EXPECT_EQ(classOf("ex2.approx.ftz.f32 %f1, %f2;"), InstrClass::Sfu);
  EXPECT_EQ(classOf("setp.lt.f64 %p1, %fd1, %fd2;"), InstrClass::Fp64);
  EXPECT_EQ(classOf("set.gt.u32.f32 %r1, %f1, %f2;"), InstrClass::Fp32);  // compares f32
  EXPECT_EQ(classOf("ld.shared.u32 %r1, [s];"), InstrClass::LoadShared);
  EXPECT_EQ(classOf("st.shared.u32 [s], %r1;"), InstrClass::StoreShared);
  EXPECT_EQ(classOf("ld.global.nc.f32 %f1, [%rd1];"), InstrClass::LoadGlobal);
  EXPECT_EQ(classOf("ld.local.u32 %r1, [%rd1];"), InstrClass::LoadLocal);
  EXPECT_EQ(classOf("ld.u32 %r1, [%rd1];"), InstrClass::LoadGeneric);
  EXPECT_EQ(classOf("atom.shared.add.u32 %r1, [s], 1;"), InstrClass::AtomicShared);
  EXPECT_EQ(classOf("red.global.add.f32 [%rd1], %f1;"), InstrClass::AtomicGlobal);
  EXPECT_EQ(classOf("bar.sync 0;"), InstrClass::Barrier);
  EXPECT_EQ(classOf("membar.gl;"), InstrClass::Fence);
  EXPECT_EQ(classOf("shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;"), InstrClass::Warp);
  EXPECT_EQ(classOf("cvt.rn.f32.s32 %f1, %r1;"), InstrClass::Conversion);
}

}  // namespace
}  // namespace teg::ptx
