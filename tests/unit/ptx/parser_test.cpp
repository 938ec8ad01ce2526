// What the parser puts in the IR, checked field by field on small hand-written kernels whose
// expected register numbers, operands and source lines are worked out in the comments.
#include <gtest/gtest.h>

#include "teg/ptx/parser.hpp"
#include "teg/ptx/printer.hpp"
#include "test_inputs.hpp"

namespace teg::ptx {
namespace {

// Registers are numbered in declaration order: %p0..%p2 = 0..2, %r0..%r4 = 3..7,
// %f0..%f3 = 8..11, %rd0..%rd2 = 12..14.
constexpr const char* kKernel = R"(.version 8.0
.target sm_80
.address_size 64
.global .align 4 .b8 buf[16];
.visible .entry k(
	.param .u64 k_p0,
	.param .u32 k_p1
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<5>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<3>;
	.loc 1 10 5
	ld.param.u64 %rd1, [k_p0];
	mov.u32 %r1, %tid.x;
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra $L_end;
	.loc 1 11 7
	cvt.rn.f32.u32 %f1, %r1;
	fma.rn.ftz.f32 %f2, %f1, 0f3F800000, %f1;
	st.global.v2.f32 [%rd1+8], {%f1, %f2};
	mul.wide.u32 %rd2, %r1, 4;
	ld.global.nc.L1::evict_last.f32 %f3, [buf+4];
$L_end:
	ret;
}
)";

class PtxParserTest : public ::testing::Test {
 protected:
  Module m = parseModule(kKernel, "k.ptx");
  const Function& k() { return m.functions.at(0); }
  const Instruction& in(std::size_t i) { return k().instructions.at(i); }
  Operand op(std::size_t i, std::size_t j) { return k().operandsOf(in(i))[j]; }
};

TEST_F(PtxParserTest, ModuleDirectivesAndVariables) {
  EXPECT_EQ(m.version, "8.0");
  EXPECT_EQ(m.ptxVersionTimes10(), 80);
  EXPECT_EQ(m.target, std::vector<std::string>{"sm_80"});
  EXPECT_EQ(m.addressSize, 64u);
  ASSERT_EQ(m.globals.size(), 1u);
  EXPECT_EQ(m.globals[0].name, "buf");
  EXPECT_EQ(m.globals[0].space, StateSpace::Global);
  EXPECT_EQ(m.globals[0].align, 4u);
  EXPECT_EQ(m.globals[0].sizeBytes(), 16u);
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_TRUE(k().isEntry);
  EXPECT_EQ(k().linkage, Linkage::Visible);
  ASSERT_EQ(k().params.size(), 2u);
  EXPECT_EQ(k().params[1].type, Type::U32);
}

TEST_F(PtxParserTest, RegistersAreDenseIndicesWithTheirDeclaredType) {
  ASSERT_EQ(k().registers.size(), 3u + 5u + 4u + 3u);
  EXPECT_EQ(k().registers[0].type, Type::Pred);
  EXPECT_EQ(k().registers[3].type, Type::B32);
  EXPECT_EQ(k().registers[8].type, Type::F32);
  EXPECT_EQ(k().registers[14].type, Type::B64);
  EXPECT_EQ(k().registerName(13), "%rd1");
  EXPECT_EQ(k().registerName(4), "%r1");
}

TEST_F(PtxParserTest, LoadFromParameter) {
  EXPECT_EQ(in(0).opcode, Opcode::Ld);
  EXPECT_EQ(in(0).space, StateSpace::Param);
  EXPECT_EQ(in(0).type, Type::U64);
  EXPECT_EQ(in(0).instrClass, InstrClass::LoadParam);
  ASSERT_EQ(in(0).numOperands, 2);
  EXPECT_EQ(op(0, 0).kind, OperandKind::Register);
  EXPECT_EQ(op(0, 0).index, 13u);
  EXPECT_EQ(op(0, 1).kind, OperandKind::Address);
  EXPECT_EQ(op(0, 1).addressBase(), AddressBase::Symbol);
  EXPECT_EQ(op(0, 1).symbolKind(), SymbolKind::Param);
  EXPECT_EQ(op(0, 1).index, 0u);
  EXPECT_EQ(op(0, 1).value, 0);
}

TEST_F(PtxParserTest, SpecialRegisterCompareAndGuardedBranch) {
  EXPECT_EQ(op(1, 1).kind, OperandKind::Special);
  EXPECT_EQ(op(1, 1).index, static_cast<std::uint32_t>(SpecialRegister::Tid));
  EXPECT_EQ(op(1, 1).component, 1);  // .x
  EXPECT_EQ(in(2).compare, CompareOp::Ge);
  EXPECT_EQ(in(2).type, Type::U32);
  EXPECT_EQ(op(2, 2).kind, OperandKind::Immediate);
  EXPECT_EQ(op(2, 2).value, 32);
  EXPECT_EQ(in(3).opcode, Opcode::Bra);
  EXPECT_EQ(in(3).guard, 1u);  // %p1
  EXPECT_FALSE(in(3).guardNegated());
  EXPECT_EQ(op(3, 0).kind, OperandKind::Label);
  EXPECT_EQ(op(3, 0).value, 9);  // ret is instruction 9
  ASSERT_EQ(k().labels.size(), 1u);
  EXPECT_EQ(k().labels[0].name, "$L_end");
  EXPECT_EQ(k().labels[0].instruction, 9u);
}

TEST_F(PtxParserTest, ArithmeticModifiersAndFloatImmediates) {
  EXPECT_EQ(in(4).opcode, Opcode::Cvt);
  EXPECT_EQ(in(4).rounding, Rounding::Rn);
  EXPECT_EQ(in(4).type, Type::F32);   // destination type
  EXPECT_EQ(in(4).type2, Type::U32);  // source type
  EXPECT_EQ(in(4).instrClass, InstrClass::Conversion);
  EXPECT_TRUE(in(5).has(modifier::kFtz));
  EXPECT_FALSE(in(5).has(modifier::kSat));
  EXPECT_EQ(in(5).instrClass, InstrClass::Fp32);
  EXPECT_EQ(op(5, 2).kind, OperandKind::FloatImm32);
  EXPECT_EQ(op(5, 2).value, 0x3F800000);  // 1.0f
  EXPECT_TRUE(in(7).has(modifier::kWide));
  EXPECT_EQ(in(7).instrClass, InstrClass::IntMul);
}

TEST_F(PtxParserTest, VectorStoreAndCacheQualifiedLoad) {
  EXPECT_EQ(in(6).instrClass, InstrClass::StoreGlobal);
  EXPECT_EQ(in(6).vectorWidth, 2);
  EXPECT_EQ(op(6, 0).addressBase(), AddressBase::Register);
  EXPECT_EQ(op(6, 0).index, 13u);
  EXPECT_EQ(op(6, 0).value, 8);
  ASSERT_EQ(op(6, 1).kind, OperandKind::Vector);
  const auto elems = k().children(op(6, 1));
  ASSERT_EQ(elems.size(), 2u);
  EXPECT_EQ(elems[0].index, 9u);   // %f1
  EXPECT_EQ(elems[1].index, 10u);  // %f2
  EXPECT_TRUE(in(8).has(modifier::kNc));
  EXPECT_TRUE(in(8).has(modifier::kCacheHint));
  EXPECT_EQ(in(8).instrClass, InstrClass::LoadGlobal);
  EXPECT_EQ(op(8, 1).symbolKind(), SymbolKind::Global);
  EXPECT_EQ(op(8, 1).value, 4);
  EXPECT_EQ(printInstruction(m, k(), in(8)), "ld.global.nc.L1::evict_last.f32 \t%f3, [buf+4];");
}

TEST_F(PtxParserTest, SourceLinesFollowLocDirectives) {
  for (std::size_t i = 0; i < 4; ++i) {
    const SourceLine& l = k().sourceLines.at(in(i).sourceLine);
    EXPECT_EQ(l.line, 10u);
    EXPECT_EQ(l.column, 5u);
  }
  for (std::size_t i = 4; i < 10; ++i) EXPECT_EQ(k().sourceLines.at(in(i).sourceLine).line, 11u);
  EXPECT_EQ(in(9).opcode, Opcode::Ret);
  EXPECT_EQ(in(9).instrClass, InstrClass::Return);
}

Module parseBody(const std::string& body) {
  return parseModule(".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n" + body + "}\n", "b.ptx");
}

TEST(PtxParser, UnmodelledInstructionsAreKeptAndFlagged) {
  const Module m = parseBody(
      "\t.reg .f32 %f<5>;\n\t.reg .b64 %rd<2>;\n"
      "\ttld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];\n"
      "\tadd.f32 %f1, %f2, %f3;\n"
      "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];\n");
  const Function& f = m.functions[0];
  ASSERT_EQ(f.instructions.size(), 3u);
  EXPECT_EQ(f.instructions[0].opcode, Opcode::Tld4);
  EXPECT_TRUE(f.instructions[0].unmodelled());
  EXPECT_EQ(f.instructions[0].instrClass, InstrClass::Texture);
  EXPECT_EQ(f.operandsOf(f.instructions[0])[1].kind, OperandKind::List);
  EXPECT_FALSE(f.instructions[1].unmodelled());
  // tex is modelled (the emulator samples textures); its coordinates are a list too.
  EXPECT_EQ(f.instructions[2].opcode, Opcode::Tex);
  EXPECT_FALSE(f.instructions[2].unmodelled());
  EXPECT_EQ(f.operandsOf(f.instructions[2])[1].kind, OperandKind::List);
  EXPECT_TRUE(m.warnings.empty());
}

TEST(PtxParser, UnknownMnemonicWithAnInstructionShapeIsKeptWithAWarning) {
  const Module m = parseBody("\t.reg .b32 %r<3>;\n\tfrobnicate.b32 %r1, %r2;\n\tret;\n");
  const Function& f = m.functions[0];
  ASSERT_EQ(f.instructions.size(), 2u);
  EXPECT_EQ(f.instructions[0].opcode, Opcode::Unknown);
  EXPECT_TRUE(f.instructions[0].unmodelled());
  EXPECT_EQ(m.mnemonic(f, f.instructions[0]), "frobnicate");
  ASSERT_EQ(m.warnings.size(), 1u);
  // Line 7 of the text: 5 header lines, .reg on line 6.
  EXPECT_EQ(m.warnings[0].where.str(), "b.ptx:7:2");
  EXPECT_EQ(m.warnings[0].message, "unknown instruction 'frobnicate' kept as unmodelled");
  EXPECT_EQ(printInstruction(m, f, f.instructions[0]), "frobnicate.b32 \t%r1, %r2;");
}

TEST(PtxParser, NestedScopesShadowAndAreHoistedUnderUniqueNames) {
  // Inline asm declares `q` and the label LOOP twice in sibling scopes.
  const Module m = parseBody(
      "\t.reg .b32 %r<3>;\n"
      "\t{ .reg .pred q; setp.eq.s32 q, %r1, 0;\nLOOP:\n\t@q bra DONE; add.s32 %r2, %r2, 1; bra LOOP;\nDONE:\n\t}\n"
      "\t{ .reg .pred q; setp.eq.s32 q, %r1, 0;\nLOOP:\n\t@q bra DONE; add.s32 %r2, %r2, 2; bra LOOP;\nDONE:\n\t}\n"
      "\tret;\n");
  const Function& f = m.functions[0];
  ASSERT_EQ(f.registers.size(), 5u);
  EXPECT_EQ(f.registerName(3), "q");
  EXPECT_EQ(f.registerName(4), "q$1");
  ASSERT_EQ(f.labels.size(), 4u);
  EXPECT_EQ(f.labels[2].name, "LOOP$1");
  // Instructions: setp 0, @q bra 1, add 2, bra 3 | setp 4, @q bra 5, add 6, bra 7 | ret 8.
  // Second block: setp (4) defines q$1 (register 4); its branch (5) targets DONE$1 (instr 8).
  EXPECT_EQ(f.operandsOf(f.instructions[4])[0].index, 4u);
  EXPECT_EQ(f.instructions[5].guard, 4u);
  EXPECT_EQ(f.operandsOf(f.instructions[5])[0].value, 8);
  EXPECT_EQ(f.operandsOf(f.instructions[7])[0].value, 5);  // bra LOOP$1 -> instr 5
}

TEST(PtxParser, CallSequenceAndBranchTargets) {
  const Module m = parseFile(test::inputsDir() + "/handwritten_features_v9.ptx");
  const Function& f = m.functions.at(0);
  ASSERT_EQ(f.branchTargets.size(), 1u);
  EXPECT_EQ(f.branchTargets[0].labels.size(), 4u);
  const Instruction& brx = f.instructions.at(4);
  EXPECT_EQ(brx.opcode, Opcode::Brx);
  EXPECT_EQ(f.operandsOf(brx)[1].symbolKind(), SymbolKind::BranchTargets);
  // setp.lt.and.s32 %p1|%p2, ...: the pair is two operands joined by a pipe.
  const Instruction& setp = f.instructions.at(10);
  EXPECT_EQ(setp.opcode, Opcode::Setp);
  EXPECT_EQ(setp.compare, CompareOp::Lt);
  EXPECT_EQ(setp.numOperands, 5);
  EXPECT_TRUE(f.operandsOf(setp)[0].flags & operand_flags::kPipeNext);
  EXPECT_TRUE(f.operandsOf(f.instructions.at(11))[2].negated());
  // Initializers: -7, 1.5 (decimal, stored as binary64 bits), generic(counter)+4.
  EXPECT_EQ(m.globals[0].init.at(0).bits, static_cast<std::uint64_t>(-7));
  EXPECT_EQ(m.globals[2].init.at(0).bits, 0x3FF8000000000000u);
  EXPECT_EQ(m.globals[1].init.at(1).text, "generic(counter)");
  EXPECT_EQ(m.globals[1].init.at(1).bits, 4u);

  const Module fermi = parseFile(test::inputsDir() + "/handwritten_fermi_func_v2.0.ptx");
  const Function& entry = fermi.functions.at(1);
  const auto call = std::find_if(entry.instructions.begin(), entry.instructions.end(),
                                 [](const Instruction& i) { return i.opcode == Opcode::Call; });
  ASSERT_NE(call, entry.instructions.end());
  const auto ops = entry.operandsOf(*call);
  EXPECT_EQ(ops[0].kind, OperandKind::ParamList);
  EXPECT_EQ(ops[1].symbolKind(), SymbolKind::Function);
  EXPECT_EQ(fermi.functions[ops[1].index].name, "_Z4sqr3i");
  EXPECT_TRUE(call->has(modifier::kUni));
}

}  // namespace
}  // namespace teg::ptx
