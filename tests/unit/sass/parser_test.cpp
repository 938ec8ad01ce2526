// The parser on hand-written excerpts in nvdisasm's layout (lines copied from real -hex -gi
// output and edited), each field checked; malformed text refused at its line and column.
#include <gtest/gtest.h>

#include "teg/sass/parser.hpp"
#include "teg/sass/printer.hpp"

using namespace teg::sass;

namespace {

// A kernel section as nvdisasm -hex -gi -c prints it (matmul_shared.cu, sm_80, shortened).
const char* const kKernel = R"(	.target	sm_80

	.elftype	@"ET_EXEC"


//--------------------- .text._Z3fooPf --------------------------
	.section	.text._Z3fooPf,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=32"
	.align	128
        .global         _Z3fooPf
        .type           _Z3fooPf,@function
        .size           _Z3fooPf,(.L_x_2 - _Z3fooPf)
        .other          _Z3fooPf,@"STO_CUDA_ENTRY STV_DEFAULT"
_Z3fooPf:
.text._Z3fooPf:
	//## File "/src/foo.cu", line 10
        /*0000*/                   MOV R1, c[0x0][0x28] ;                              /* 0x00000a0000017a02 */
                                                                                       /* 0x000fe40000000f00 */
	//## File "/src/foo.cu", line 9 inlined at "/src/foo.cu", line 17 inlined at "/src/bar.cu", line 3
        /*0010*/                   S2R R5, SR_CTAID.X ;                                /* 0x0000000000057919 */
                                                                                       /* 0x000e220000002500 */
.L_x_1:
        /*0020*/                   IMAD R12, R13.reuse, c[0x0][0x17c], R2.reuse ;      /* 0x00005f000d0c7a24 */
                                                                                       /* 0x140fe200078e0202 */
        /*0030*/              @!P2 LDG.E.128 R4, desc[UR4][R14.64+0x10] ;              /* 0x000000040e1da981 */
                                                                                       /* 0x0000a6000c1e1900 */
        /*0040*/                   HFMA2.MMA R15, -RZ, RZ, 0, 2.384185791015625e-07 ;  /* 0x00000004ff0f7435 */
                                                                                       /* 0x000fe200000001ff */
        /*0050*/                   FADD R0, -|R3|.reuse, -c[0x0][0x10] ;                   /* 0x00000004ff0f7435 */
                                                                                       /* 0x000fe200000001ff */
        /*0060*/                   LDS.U.128 R8, [R17+-0x4] ;                          /* 0x00000004ff0f7435 */
                                                                                       /* 0x000fe200000001ff */
        /*0070*/               @P0 BRA `(.L_x_1) ;                                     /* 0x0000045000009947 */
                                                                                       /* 0x000fd80003800000 */
        /*0080*/                   RET.REL.NODEC R20 `(_Z3fooPf) ;                     /* 0x0000045000009947 */
                                                                                       /* 0x000fd80003800000 */
        /*0090*/                   EXIT ;                                              /* 0x000000000000794d */
                                                                                       /* 0x000fea0003800000 */
.L_x_2:
)";

Module parse(const std::string& text) { return parseDisassembly(text, "k.sass"); }

// The location of the error parse(text) throws, as "line:col".
std::string errorAt(const std::string& text) {
  try {
    parse(text);
  } catch (const teg::Error& e) {
    if (!e.location()) return "no location: " + std::string(e.what());
    return std::to_string(e.location()->line) + ":" + std::to_string(e.location()->column);
  }
  return "no error";
}

std::string kernelWith(const std::string& line, const std::string& high = "/* 0x000fe40000000f00 */") {
  return ".section .text.k,\"ax\",@progbits\n.type k,@function\nk:\n" + line + "\n        " + high + "\n";
}

}  // namespace

TEST(SassParser, FunctionFacts) {
  const Module m = parse(kKernel);
  EXPECT_EQ(m.target, "sm_80");
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& f = m.functions[0];
  EXPECT_EQ(f.name, "_Z3fooPf");
  EXPECT_EQ(f.section, ".text._Z3fooPf");
  EXPECT_TRUE(f.isEntry);
  EXPECT_EQ(f.registers, 32);
  ASSERT_EQ(f.instructions.size(), 10u);
  EXPECT_EQ(f.labels.at(".L_x_1"), 2u);
  EXPECT_EQ(f.labels.at(".L_x_2"), 10u);  // after the last instruction
}

TEST(SassParser, InstructionFieldsAndEncoding) {
  const Module m = parse(kKernel);
  const Function& f = m.functions[0];
  const Instruction& mov = f.instructions[0];
  EXPECT_EQ(mov.address, 0u);
  EXPECT_EQ(mov.opcode, "MOV");
  EXPECT_TRUE(mov.modifiers.empty());
  ASSERT_EQ(mov.operands.size(), 2u);
  EXPECT_EQ(mov.operands[0].kind, OperandKind::Register);
  EXPECT_EQ(mov.operands[0].index, 1);
  EXPECT_EQ(mov.operands[1].kind, OperandKind::ConstantBank);
  EXPECT_EQ(mov.operands[1].bank, 0);
  EXPECT_EQ(mov.operands[1].address.offset, 0x28);
  EXPECT_TRUE(mov.hasEncoding);
  EXPECT_EQ(mov.low, 0x00000a0000017a02ULL);
  EXPECT_EQ(mov.high, 0x000fe40000000f00ULL);
  EXPECT_EQ(mov.control.stall, 2);

  const Instruction& s2r = f.instructions[1];
  EXPECT_EQ(s2r.address, 0x10u);
  EXPECT_EQ(s2r.operands[1].kind, OperandKind::SpecialRegister);
  EXPECT_EQ(s2r.operands[1].name, "SR_CTAID.X");
  EXPECT_EQ(s2r.control.writeBarrier, 0);

  const Instruction& imad = f.instructions[2];
  EXPECT_TRUE(imad.operands[1].reuse);
  EXPECT_FALSE(imad.operands[2].reuse);
  EXPECT_TRUE(imad.operands[3].reuse);
  EXPECT_EQ(imad.operands[3].text, "R2.reuse");
  EXPECT_EQ(imad.control.reuse, 0b0101);  // slots a and c: the text and the bits agree
}

TEST(SassParser, GuardsMemoryOperandsAndWidths) {
  const Module m = parse(kKernel);
  const Function& f = m.functions[0];
  const Instruction& ldg = f.instructions[3];
  ASSERT_TRUE(ldg.guard.has_value());
  EXPECT_EQ(ldg.guard->kind, OperandKind::Predicate);
  EXPECT_EQ(ldg.guard->index, 2);
  EXPECT_TRUE(ldg.guard->logicalNot);
  EXPECT_EQ(ldg.mnemonic(), "LDG.E.128");
  const Operand& address = ldg.operands[1];
  EXPECT_EQ(address.kind, OperandKind::Memory);
  EXPECT_EQ(address.name, "desc");
  EXPECT_EQ(address.descriptorRegister, 4);
  EXPECT_EQ(address.address.baseRegister, 14);
  EXPECT_TRUE(address.address.base64);
  EXPECT_FALSE(address.address.base32);
  EXPECT_EQ(address.address.offset, 0x10);
  EXPECT_EQ(accessBytes(ldg), 16);
  EXPECT_EQ(memorySpace(ldg), "global");

  const Instruction& lds = f.instructions[6];
  EXPECT_EQ(lds.operands[1].address.baseRegister, 17);
  EXPECT_EQ(lds.operands[1].address.offset, -4);  // nvdisasm's "+-0x4"
  EXPECT_EQ(accessBytes(lds), 16);
  EXPECT_EQ(memorySpace(lds), "shared");
  EXPECT_EQ(accessBytes(f.instructions[0]), std::nullopt);  // MOV is no memory access
}

// Turing's .E global access with a 32-bit offset register and a 64-bit uniform base (sm_75,
// a kernel parameter's array indexed by an int): the register is marked .U32, not a pair.
TEST(SassParser, AThirtyTwoBitOffsetRegisterBesideAUniformBase) {
  std::string text = kKernel;
  const std::string from = "@!P2 LDG.E.128 R4, desc[UR4][R14.64+0x10] ;";
  text.replace(text.find(from), from.size(), "     LDG.E.SYS R8, [R8.U32+UR8] ;           ");
  const Module m = parse(text);
  const Operand& address = m.functions[0].instructions[3].operands[1];
  EXPECT_EQ(address.address.baseRegister, 8);
  EXPECT_EQ(address.address.uniformRegister, 8);
  EXPECT_TRUE(address.address.base32);
  EXPECT_FALSE(address.address.base64);
}

TEST(SassParser, ImmediatesPrefixOperatorsLabels) {
  const Module m = parse(kKernel);
  const Function& f = m.functions[0];
  const Instruction& hfma = f.instructions[4];
  ASSERT_EQ(hfma.operands.size(), 5u);
  EXPECT_EQ(hfma.operands[1].kind, OperandKind::Register);
  EXPECT_TRUE(hfma.operands[1].negate);
  EXPECT_EQ(hfma.operands[1].index, teg::sass::kZeroRegister);
  EXPECT_EQ(hfma.operands[3].kind, OperandKind::Immediate);
  EXPECT_EQ(hfma.operands[3].value, 0);
  EXPECT_EQ(hfma.operands[4].kind, OperandKind::FloatImmediate);
  EXPECT_DOUBLE_EQ(hfma.operands[4].floatValue, 2.384185791015625e-07);

  const Instruction& fadd = f.instructions[5];
  EXPECT_TRUE(fadd.operands[1].negate);
  EXPECT_TRUE(fadd.operands[1].absolute);
  EXPECT_TRUE(fadd.operands[1].reuse);  // "-|R3|.reuse": nvdisasm puts the mark after the bars
  EXPECT_EQ(fadd.operands[1].index, 3);
  EXPECT_EQ(fadd.operands[2].kind, OperandKind::ConstantBank);
  EXPECT_TRUE(fadd.operands[2].negate);

  const Instruction& bra = f.instructions[7];
  EXPECT_EQ(bra.operands[0].kind, OperandKind::Label);
  EXPECT_EQ(bra.operands[0].name, ".L_x_1");
  const Instruction& ret = f.instructions[8];  // two operands separated by a blank, no comma
  ASSERT_EQ(ret.operands.size(), 2u);
  EXPECT_EQ(ret.operands[0].index, 20);
  EXPECT_EQ(ret.operands[1].name, "_Z3fooPf");
  EXPECT_TRUE(f.instructions[9].operands.empty());
}

TEST(SassParser, SourceLinesWithInliningChains) {
  const Module m = parse(kKernel);
  const Function& f = m.functions[0];
  ASSERT_EQ(m.sources.size(), 2u);
  EXPECT_EQ(m.sources[static_cast<std::size_t>(f.instructions[0].source)].line, 10);
  const SourcePosition& inlined = m.sources[static_cast<std::size_t>(f.instructions[1].source)];
  EXPECT_EQ(inlined.file, "/src/foo.cu");
  EXPECT_EQ(inlined.line, 9);
  ASSERT_EQ(inlined.inlinedAt.size(), 2u);
  EXPECT_EQ(inlined.inlinedAt[0], (std::pair<std::string, int>{"/src/foo.cu", 17}));
  EXPECT_EQ(inlined.inlinedAt[1], (std::pair<std::string, int>{"/src/bar.cu", 3}));
  // The position holds until the next comment.
  EXPECT_EQ(f.instructions[9].source, f.instructions[1].source);
}

TEST(SassParser, WithoutHexTheEncodingIsAbsent) {
  const Module m = parse(".section .text.k,\"ax\",@progbits\n.type k,@function\nk:\n /*0000*/ @!UP1 BRA.U !UP0, `(k) ;\n");
  const Instruction& ins = m.functions[0].instructions[0];
  EXPECT_FALSE(ins.hasEncoding);
  EXPECT_EQ(ins.guard->kind, OperandKind::UniformPredicate);
  EXPECT_EQ(ins.operands[0].kind, OperandKind::UniformPredicate);
  EXPECT_TRUE(ins.operands[0].logicalNot);
  EXPECT_FALSE(m.functions[0].isEntry);
}

TEST(SassParser, DataSectionsAreSkipped) {
  const Module m = parse(
      ".section .nv.info,\"\",@\"SHT_CUDA_INFO\"\n /*0000*/ .byte 0x04, 0x2f\n garbage that is data\n" +
      kernelWith(" /*0000*/ EXIT ; /* 0x000000000000794d */"));
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].instructions.size(), 1u);
}

TEST(SassParser, UnknownOperandFormsAreKeptAsText) {
  const Module m = parse(kernelWith(" /*0000*/ UTMALDG.2D [UR8], [UR4], gdesc[UR4].X ; /* 0x000000000000794d */"));
  const Instruction& ins = m.functions[0].instructions[0];
  ASSERT_EQ(ins.operands.size(), 3u);
  EXPECT_EQ(ins.operands[0].kind, OperandKind::Memory);
  EXPECT_EQ(ins.operands[0].address.uniformRegister, 8);
  EXPECT_EQ(ins.operands[2].kind, OperandKind::Other);
  EXPECT_EQ(ins.operands[2].text, "gdesc[UR4].X");
}

TEST(SassParser, ErrorsNameLineAndColumn) {
  // Missing ';' (reported at the end of the line).
  EXPECT_EQ(errorAt(kernelWith("        /*0000*/ MOV R1, R2")), "4:28");
  // Missing high word on the next line.
  EXPECT_EQ(errorAt(".section .text.k,\"ax\",@progbits\nk:\n /*0000*/ MOV R1, R2 ; /* 0x00000a0000017a02 */\n EXIT\n"),
            "4:2");
  // A register that does not exist.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ MOV R300, R2 ; /* 0x00000a0000017a02 */")), "4:15");
  // An unbalanced bracket.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ LDS R1, [R2+0x4 ; /* 0x00000a0000017a02 */")), "4:19");
  // An empty operand.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ IADD3 R1, , R2 ; /* 0x00000a0000017a02 */")), "4:21");
  // A trailing comma.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ IADD3 R1, R2, ; /* 0x00000a0000017a02 */")), "4:25");
  // A lower-case opcode.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ mov R1, R2 ; /* 0x00000a0000017a02 */")), "4:11");
  // A guard that is not a predicate.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ @R1 MOV R1, R2 ; /* 0x00000a0000017a02 */")), "4:11");
  // A malformed encoding word.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ MOV R1, R2 ; /* 0x00000a00 */")), "4:24");
  // An address that is not hexadecimal.
  EXPECT_EQ(errorAt(kernelWith(" /*00g0*/ MOV R1, R2 ; /* 0x00000a0000017a02 */")), "4:4");
  // A line that is none of the known kinds.
  EXPECT_EQ(errorAt(".section .text.k,\"ax\",@progbits\nk:\n  what is this\n"), "3:3");
  // A source comment without its line number.
  EXPECT_EQ(errorAt(".section .text.k,\"ax\",@progbits\nk:\n\t//## File \"a.cu\", line x\n"), "3:25");
  // A label defined twice.
  EXPECT_EQ(errorAt(".section .text.k,\"ax\",@progbits\nk:\n.L_1:\n.L_1:\n"), "4:1");
  // A constant bank beyond c[0x1f].
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ MOV R1, c[0x40][0x0] ; /* 0x00000a0000017a02 */")), "4:19");
  // A control word whose write barrier field is 6 (bits 110-112: SB0-SB5 exist, 7 is none; found by
  // fuzz_sass_parser), then the same for the read barrier (bits 113-115), at the high word's comment.
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ RET.REL.NODEC R20 `(k) ; /* 0x0000000014007950 */", "/* 0x000fae0003c3ffff */")),
            "5:9");
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ EXIT ; /* 0x000000000001588d */", "/* 0x000cfe0003800000 */")), "5:9");
  EXPECT_EQ(errorAt(kernelWith(" /*0000*/ EXIT ; /* 0x000000000001588d */", "/* 0x000fea0003800000 */")), "no error");
}

// nvdisasm 13 prints the two words of an encoding it cannot disassemble with no instruction line
// (ptxas's sm_75 cvt.rn.satfinite.f16.f32, /*00c0*/ below): an error at the first orphan word that
// says so, never a silently skipped instruction.
TEST(SassParser, AnEncodingWithoutInstructionTextIsAnError) {
  const std::string text =
      ".section .text.k,\"ax\",@progbits\nk:\n"
      "        /*00b0*/                   PRMT R3, R3, 0x5410, R0 ;                  /* 0x0000541003037816 */\n"
      "                                                                              /* 0x000fe40000000000 */\n"
      "                                                                              /* 0x00000004ff08723e */\n"
      "                                                                              /* 0x004fc800000060ff */\n"
      "        /*00d0*/                   HADD2 R9, R3, -R2 ;                        /* 0x8000000203097230 */\n"
      "                                                                              /* 0x008fe20000000000 */\n";
  EXPECT_EQ(errorAt(text), "5:79");
  try {
    parse(text);
  } catch (const teg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nvdisasm could not disassemble"), std::string::npos) << e.what();
  }
}

TEST(SassParser, ErrorMessageCarriesTheFileName) {
  try {
    parseDisassembly(kernelWith(" /*0000*/ MOV R300, R2 ;"), "kernel.sass");
    FAIL() << "no error";
  } catch (const teg::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("kernel.sass:4:15: ", 0), 0u) << e.what();
  }
}

TEST(SassParser, PrintedModuleParsesBackTheSame) {
  const Module m = parse(kKernel);
  const Module again = parseDisassembly(printModule(m), "printed.sass");
  const auto difference = firstDifference(m, again);
  EXPECT_FALSE(difference.has_value()) << *difference;
}

TEST(SassParser, CompareFindsADifference) {
  const Module m = parse(kKernel);
  Module changed = m;
  changed.functions[0].instructions[3].modifiers.back() = "64";
  const auto difference = firstDifference(m, changed);
  ASSERT_TRUE(difference.has_value());
  EXPECT_NE(difference->find("instruction 3"), std::string::npos) << *difference;
}

// nvdisasm writes some constant-bank operands with a blank between the bank and the offset
// (a half-precision add of a bank-2 constant on sm_75: "c[0x2] [0x0].F32"): one operand, as
// "c[0x2][0x0]" would be, not a bank and a memory operand.
TEST(SassParser, ConstantBankWithABlankBetweenItsGroups) {
  const Module m = parse(kernelWith(
      "        /*0000*/                   HADD2 R11, -RZ.H0_H0, c[0x2] [0x0].F32 ;  /* 0x00000000ff0b7230 */"));
  const Instruction& hadd = m.functions[0].instructions[0];
  ASSERT_EQ(hadd.operands.size(), 3u);
  EXPECT_EQ(hadd.operands[2].kind, OperandKind::ConstantBank);
  EXPECT_EQ(hadd.operands[2].bank, 2);
  EXPECT_EQ(hadd.operands[2].address.offset, 0);
  ASSERT_EQ(hadd.operands[2].suffixes.size(), 1u);
  EXPECT_EQ(hadd.operands[2].suffixes[0], "F32");
}

// nvdisasm 11.8, the one that reads Volta cubins, prints no `.target`: the header flags name the
// SM (the real one, not the one inside EF_CUDA_VIRTUAL_SM); a `.target` line still wins.
TEST(SassParser, TargetFromTheHeaderFlagsOfAVoltaDisassembly) {
  const std::string volta =
      "\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM70 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM70)\"\n" +
      kernelWith(" /*0000*/ EXIT ; /* 0x000000000000794d */");
  EXPECT_EQ(parse(volta).target, "sm_70");
  const std::string virtualFirst = "\t.headerflags\t@\"EF_CUDA_VIRTUAL_SM(EF_CUDA_SM75) EF_CUDA_SM72\"\n" +
                                   kernelWith(" /*0000*/ EXIT ; /* 0x000000000000794d */");
  EXPECT_EQ(parse(virtualFirst).target, "sm_72");
  EXPECT_EQ(parse("\t.target\tsm_75\n" + volta).target, "sm_75");
  EXPECT_EQ(parse("\t.headerflags\t@\"EF_CUDA_64BIT_ADDRESS\"\n").target, "");
}
