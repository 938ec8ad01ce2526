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

namespace {

// With encodings (nvdisasm -hex): the control word (decoded as in parser_test.cpp) and the
// general-register sources by operand slot reach the trace description.
const char* const kEncoded = R"(
	.section	.text.e,"ax",@progbits
        .type           e,@function
        .other          e,@"STO_CUDA_ENTRY STV_DEFAULT"
e:
        /*0000*/                   S2R R5, SR_CTAID.X ;                                /* 0x0000000000057919 */
                                                                                       /* 0x000e220000002500 */
        /*0010*/                   IMAD R12, R13.reuse, c[0x0][0x17c], R2.reuse ;      /* 0x00005f000d0c7a24 */
                                                                                       /* 0x140fe200078e0202 */
        /*0020*/                   LDG.E.128 R4, desc[UR4][R14.64+0x10] ;              /* 0x000000040e1da981 */
                                                                                       /* 0x0000a6000c1e1900 */
        /*0030*/                   FFMA R6, R4, R5, RZ ;                               /* 0x0000000504067223 */
                                                                                       /* 0x004fe20000000100 */
        /*0040*/                   EXIT ;                                              /* 0x000000000000794d */
                                                                                       /* 0x000fea0003800000 */
)";

}  // namespace

TEST(SassDescribe, ControlWordsAndSourceSlotsReachTheTrace) {
  const Module module = parseDisassembly(kEncoded, "e.sass");
  const auto k = describeKernel(module, module.functions.at(0));
  EXPECT_EQ(k.isa, teg::trace::Isa::Sass);
  ASSERT_EQ(k.instructions.size(), 5u);
  const auto& s2r = k.instructions[0];
  EXPECT_EQ(s2r.control.stall, 1);
  EXPECT_EQ(s2r.control.writeBarrier, 0);  // S2R is variable-latency: its consumers wait on barrier 0
  EXPECT_EQ(s2r.control.readBarrier, -1);
  const auto& imad = k.instructions[1];
  EXPECT_EQ(imad.control.reuse, 0b0101);
  // Slots a = R13, b = a constant (no register bank), c = R2.
  EXPECT_EQ(imad.sourceSlots, (teg::trace::OperandSlots{13, -1, 2, -1}));
  const auto& ldg = k.instructions[2];
  EXPECT_EQ(ldg.control.stall, 3);
  EXPECT_EQ(ldg.control.writeBarrier, 2);
  EXPECT_EQ(ldg.accessBytes, 16);
  EXPECT_EQ(ldg.sourceSlots[0], 14);  // the address's base register
  const auto& ffma = k.instructions[3];
  EXPECT_EQ(ffma.control.waitMask, 1u << 2);  // waits for the LDG's R4
  EXPECT_EQ(ffma.sourceSlots, (teg::trace::OperandSlots{4, 5, -1, -1}));  // RZ reads no bank
}

// The atomics ptxas writes for atomicAdd (RED where the result is unused, ATOMG where it is read,
// ATOMS in shared memory), read by hand: each must reach the engine as a global or shared
// atomic of the right width, or the same-address serialisation (src/timing/memory_system.cpp,
// MemorySystem::atomic; trace::sameWordLanes) never sees it.
TEST(SassDescribe, AtomicsAndReductionsAreAtomicsOfTheirSpaceAndWidth) {
  const char* const text = R"(
	.section	.text.a,"ax",@progbits
        .type           a,@function
        .other          a,@"STO_CUDA_ENTRY STV_DEFAULT"
a:
        /*0000*/                   RED.E.ADD.64.STRONG.GPU [R4.64], R2 ;
        /*0010*/                   ATOMG.E.ADD.STRONG.GPU PT, R3, [R4.64], R6 ;
        /*0020*/                   ATOMS.ADD R7, [R8], R9 ;
        /*0030*/                   EXIT ;
)";
  const Module module = parseDisassembly(text, "a.sass");
  const auto info = describeKernel(module, module.functions.at(0));
  const auto& red = info.instructions.at(0);
  EXPECT_EQ(red.kind, InstrKind::Atomic);
  EXPECT_EQ(red.space, MemorySpace::Global);
  EXPECT_EQ(red.accessBytes, 8);
  EXPECT_EQ(red.defs, (V{}));  // a reduction writes no register: no warp waits for it
  EXPECT_EQ(red.uses, (V{2, 3, 4, 5}));
  const auto& atomg = info.instructions.at(1);
  EXPECT_EQ(atomg.kind, InstrKind::Atomic);
  EXPECT_EQ(atomg.space, MemorySpace::Global);
  EXPECT_EQ(atomg.accessBytes, 4);
  EXPECT_EQ(atomg.defs, (V{3}));
  EXPECT_EQ(atomg.uses, (V{4, 5, 6}));
  const auto& atoms = info.instructions.at(2);
  EXPECT_EQ(atoms.kind, InstrKind::Atomic);
  EXPECT_EQ(atoms.space, MemorySpace::Shared);
  EXPECT_EQ(atoms.defs, (V{7}));
  EXPECT_EQ(atoms.uses, (V{8, 9}));
}

// cp.async.wait_group 2 on sm_80 (nvcc 13 -arch=sm_80, nvdisasm -hex; a three-stage pipeline):
// each LDGDEPBAR (commit_group) sets write barrier 0 and commits a group, and
// `DEPBAR.LE SB0, 0x2` waits for the groups on barrier 0 but the two most recent (PTX ISA
// cp.async.wait_group), not for every copy: no bit 0 in its wait mask. wait_group 0 keeps the
// wait for everything.
TEST(SassDescribe, WaitGroupNKeepsTheNMostRecentCopyGroupsInFlight) {
  const char* const text = R"(
	.section	.text.p,"ax",@progbits
        .type           p,@function
        .other          p,@"STO_CUDA_ENTRY STV_DEFAULT"
p:
        /*0000*/                   LDGSTS.E [R7], [R2.64] ;                      /* 0x0000000002077fae */
                                                                                 /* 0x0003e2000b921848 */
        /*0010*/                   LDGDEPBAR ;                                   /* 0x00000000000079af */
                                                                                 /* 0x000e280000000000 */
        /*0020*/                   LDGSTS.E [R7+0x400], [R2.64+0x400] ;          /* 0x0040040002077fae */
                                                                                 /* 0x0003e8000b921848 */
        /*0030*/                   LDGDEPBAR ;                                   /* 0x00000000000079af */
                                                                                 /* 0x000e280000000000 */
        /*0040*/                   DEPBAR.LE SB0, 0x2 ;                          /* 0x000080800000791a */
                                                                                 /* 0x000fc80000000000 */
        /*0050*/                   DEPBAR.LE SB0, 0x0 ;                          /* 0x000080000000791a */
                                                                                 /* 0x000fc80000000000 */
        /*0060*/                   EXIT ;                                        /* 0x000000000000794d */
                                                                                 /* 0x000fea0003800000 */
)";
  const Module module = parseDisassembly(text, "p.sass");
  const auto info = describeKernel(module, module.functions.at(0));
  ASSERT_EQ(info.instructions.size(), 7u);
  for (int pc : {1, 3}) {
    EXPECT_EQ(info.instructions[pc].control.writeBarrier, 0) << pc;
    EXPECT_TRUE(info.instructions[pc].control.commitGroup) << pc;
  }
  for (int pc : {0, 2}) {
    EXPECT_EQ(info.instructions[pc].control.writeBarrier, 0) << pc;  // a copy sets its group's barrier
    EXPECT_FALSE(info.instructions[pc].control.commitGroup) << pc;
  }
  const auto& keepTwo = info.instructions[4].control;
  EXPECT_EQ(keepTwo.waitMask & 1u, 0u);
  EXPECT_EQ(keepTwo.groupWaitBarrier, 0);
  EXPECT_EQ(keepTwo.groupWaitKeep, 2);
  const auto& all = info.instructions[5].control;
  EXPECT_EQ(all.waitMask & 1u, 1u);
  EXPECT_EQ(all.groupWaitBarrier, -1);
}
