// SASS -> trace description on a hand-made section whose operands are read by hand: which
// registers each instruction writes and reads (64-bit pairs, vector loads and stores, carry and
// compare predicates), its kind, unit and memory space, and the pc layout of a kernel with a
// helper routine in its section.
#include <gtest/gtest.h>

#include "teg/sass/describe.hpp"
#include "teg/sass/parser.hpp"

using namespace teg::sass;
using teg::device::InstructionClass;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;
using V = std::vector<std::uint32_t>;

namespace {

const char* const kText = R"(
	.section	.text.k,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=24"
        .type           k,@function
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
	//## File "k.cu", line 3
        /*0000*/                   CS2R R6, SR_CLOCKLO ;
        /*0010*/                   IMAD.WIDE R2, R9, 0x4, R2 ;
        /*0020*/                   LDG.E.128 R4, desc[UR4][R2.64] ;
	//## File "k.cu", line 4
        /*0030*/                   ISETP.GE.AND P0, PT, R9, UR5, PT ;
        /*0040*/                   IADD3 R0, P1, R2, 0x10, RZ ;
        /*0050*/               @P0 STS.64 [R0+0x10], R12 ;
        /*0060*/                   DFMA R10, R4, R6, R10 ;
        /*0070*/                   SHFL.BFLY PT, R3, R2, 0x1, 0x1f ;
        /*0080*/                   F2F.F64.F32 R14, R7 ;
        /*0090*/                   LDS.U.128 R16, [R0] ;
        /*00a0*/                   CALL.REL.NOINC `($k$helper) ;
        /*00b0*/                   HMMA.16816.F32 R4, R8, R12, R4 ;
        /*00c0*/                   EXIT ;
	.section	.text.k,"ax",@progbits
        .type           $k$helper,@function
$k$helper:
        /*00d0*/                   MUFU.RCP R1, R2 ;
        /*00e0*/                   RET.REL.NODEC R20 `(k) ;
)";

const teg::trace::KernelInfo& kernel() {
  static const Module module = parseDisassembly(kText, "k.sass");
  static const teg::trace::KernelInfo info = describeKernel(module, module.functions.at(0));
  return info;
}

const teg::trace::StaticInstruction& at(std::uint32_t pc) { return kernel().instructions.at(pc); }

}  // namespace

TEST(SassDescribe, SectionLayoutPutsTheEntryFirstThenItsHelpers) {
  const Module module = parseDisassembly(kText, "k.sass");
  ASSERT_EQ(module.functions.size(), 2u);
  const SectionLayout layout = layoutSection(module, module.functions[0]);
  EXPECT_EQ(layout.instructionCount, 15u);
  EXPECT_EQ(layout.entryPcOf("$k$helper"), 13u);
  EXPECT_EQ(layout.at(13).opcode, "MUFU");
  EXPECT_EQ(kernel().instructions.size(), 15u);
  EXPECT_EQ(kernel().registersPerThread, 24u);
  for (std::uint32_t pc = 0; pc < 15; ++pc) EXPECT_EQ(at(pc).pc, pc);
}

TEST(SassDescribe, SixtyFourBitResultsWriteARegisterPair) {
  EXPECT_EQ(at(0).defs, (V{6, 7}));  // CS2R is a 64-bit move
  EXPECT_TRUE(at(0).readsClock);
  // IMAD.WIDE R2, R9, 0x4, R2: R2:R3 = R9 * 4 + R2:R3
  EXPECT_EQ(at(1).defs, (V{2, 3}));
  EXPECT_EQ(at(1).uses, (V{2, 3, 9}));
  EXPECT_EQ(at(1).unit, InstructionClass::IntMul);
  // DFMA R10, R4, R6, R10: every operand a pair
  EXPECT_EQ(at(6).defs, (V{10, 11}));
  EXPECT_EQ(at(6).uses, (V{4, 5, 6, 7, 10, 11}));
  EXPECT_EQ(at(6).unit, InstructionClass::Fp64Fma);
  // F2F.F64.F32 R14, R7: a double from a float
  EXPECT_EQ(at(8).defs, (V{14, 15}));
  EXPECT_EQ(at(8).uses, (V{7}));
  EXPECT_EQ(at(8).unit, InstructionClass::Convert64);
}

TEST(SassDescribe, VectorLoadsAndStoresCoverEveryRegisterTheyMove) {
  // LDG.E.128 R4, desc[UR4][R2.64]: R4..R7 from the address R2:R3 (descriptor UR4:UR5)
  EXPECT_EQ(at(2).kind, InstrKind::Load);
  EXPECT_EQ(at(2).space, MemorySpace::Global);
  EXPECT_EQ(at(2).accessBytes, 16);
  EXPECT_EQ(at(2).defs, (V{4, 5, 6, 7}));
  EXPECT_EQ(at(2).uses, (V{2, 3, kUniformRegisterBase + 4, kUniformRegisterBase + 5}));
  // @P0 STS.64 [R0+0x10], R12: stores R12:R13, reads the guard and the address
  EXPECT_EQ(at(5).kind, InstrKind::Store);
  EXPECT_EQ(at(5).space, MemorySpace::Shared);
  EXPECT_EQ(at(5).defs, (V{}));
  EXPECT_EQ(at(5).uses, (V{0, 12, 13, kPredicateBase + 0}));
  EXPECT_EQ(at(9).accessBytes, 16);  // LDS.U.128: what ptxas fused four ld.shared.f32 into
  EXPECT_EQ(at(9).defs, (V{16, 17, 18, 19}));
}

TEST(SassDescribe, PredicateOutputsAreWrittenAndConstantsAreNotRegisters) {
  // ISETP.GE.AND P0, PT, R9, UR5, PT: writes P0 (PT is a sink), reads R9 and UR5
  EXPECT_EQ(at(3).defs, (V{kPredicateBase + 0}));
  EXPECT_EQ(at(3).uses, (V{9, kUniformRegisterBase + 5}));
  EXPECT_EQ(at(3).unit, InstructionClass::IntCompare);
  // IADD3 R0, P1, R2, 0x10, RZ: R0 and the carry P1; RZ is no register
  EXPECT_EQ(at(4).defs, (V{0, kPredicateBase + 1}));
  EXPECT_EQ(at(4).uses, (V{2}));
  // SHFL.BFLY PT, R3, R2, 0x1, 0x1f: the lane-valid predicate (PT here) then R3
  EXPECT_EQ(at(7).kind, InstrKind::WarpSync);
  EXPECT_EQ(at(7).defs, (V{3}));
  EXPECT_EQ(at(7).uses, (V{2}));
}

TEST(SassDescribe, ControlTensorAndSourceLines) {
  EXPECT_EQ(at(10).kind, InstrKind::Branch);      // CALL
  EXPECT_EQ(at(11).kind, InstrKind::Unmodelled);  // HMMA: tensor cores come later
  EXPECT_EQ(at(12).kind, InstrKind::Exit);
  EXPECT_EQ(at(13).unit, InstructionClass::Special);  // MUFU.RCP
  EXPECT_EQ(at(0).sourceLine, 3);
  EXPECT_EQ(at(3).sourceLine, 4);
  ASSERT_EQ(kernel().sourceFiles.size(), 1u);
  EXPECT_EQ(kernel().sourceFiles[0], "k.cu");
  EXPECT_EQ(at(0).sourceFile, 0);
  EXPECT_EQ(at(2).text, "LDG.E.128 R4, desc[UR4][R2.64]");
}
