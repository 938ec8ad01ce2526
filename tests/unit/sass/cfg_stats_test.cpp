// Basic blocks, loops and statistics on a hand-made function whose shape is known: a guarded
// early exit, a two-level loop nest, an unconditional branch, a trailing self-loop after EXIT
// (ptxas's padding, unreachable).
#include <gtest/gtest.h>

#include "teg/sass/cfg.hpp"
#include "teg/sass/parser.hpp"
#include "teg/sass/stats.hpp"

using namespace teg::sass;

namespace {

// block 0: 0x00..0x10  (@P0 EXIT falls through)
// block 1: 0x20        outer loop header (.L_outer)
// block 2: 0x30..0x60  inner loop (.L_inner), back edge @P1 BRA .L_inner
// block 3: 0x70..0x80  @P2 BRA .L_outer (outer back edge)
// block 4: 0x90        BRA .L_end (unconditional: no fall-through)
// block 5: 0xa0        skipped (reached by nothing)
// block 6: 0xb0        .L_end: EXIT
// block 7: 0xc0        .L_pad: BRA .L_pad (unreachable self-loop)
const char* const kText = R"(
	.section	.text.k,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=40"
        .type           k,@function
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
	//## File "k.cu", line 3
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/               @P0 EXIT ;
.L_outer:
	//## File "k.cu", line 5
        /*0020*/                   MOV R2, RZ ;
.L_inner:
	//## File "k.cu", line 7
        /*0030*/                   LDS.128 R4, [R2] ;
        /*0040*/                   LDG.E.64 R8, [R10.64] ;
        /*0050*/                   FFMA R39, R4, R5, R6 ;
        /*0060*/               @P1 BRA `(.L_inner) ;
	//## File "k.cu", line 5
        /*0070*/                   IADD3 R2, R2, 0x1, RZ ;
        /*0080*/               @P2 BRA `(.L_outer) ;
        /*0090*/                   BRA `(.L_end) ;
        /*00a0*/                   NOP ;
.L_end:
        /*00b0*/                   EXIT ;
.L_pad:
        /*00c0*/                   BRA `(.L_pad) ;
)";

}  // namespace

TEST(SassCfg, BlocksSuccessorsAndLoops) {
  const Module m = parseDisassembly(kText, "k.sass");
  const ControlFlowGraph g = buildCfg(m.functions[0]);
  ASSERT_EQ(g.blocks.size(), 8u);
  const std::vector<std::size_t> firsts{0, 2, 3, 7, 9, 10, 11, 12};
  for (std::size_t b = 0; b < 8; ++b) EXPECT_EQ(g.blocks[b].first, firsts[b]) << b;
  using V = std::vector<std::size_t>;
  EXPECT_EQ(g.blocks[0].successors, (V{1}));     // @P0 EXIT falls through
  EXPECT_EQ(g.blocks[1].successors, (V{2}));
  EXPECT_EQ(g.blocks[2].successors, (V{2, 3}));  // inner back edge and fall-through
  EXPECT_EQ(g.blocks[3].successors, (V{1, 4}));
  EXPECT_EQ(g.blocks[4].successors, (V{6}));     // BRA: no fall-through
  EXPECT_EQ(g.blocks[6].successors, (V{}));      // EXIT
  EXPECT_EQ(g.blocks[7].successors, (V{7}));

  ASSERT_EQ(g.loops.size(), 2u);  // the unreachable self-loop is no loop
  EXPECT_EQ(g.loops[0].header, 1u);
  EXPECT_EQ(g.loops[0].depth, 1);
  EXPECT_EQ(g.loops[0].blocks, (V{1, 2, 3}));
  EXPECT_EQ(g.loops[1].header, 2u);
  EXPECT_EQ(g.loops[1].depth, 2);
  EXPECT_EQ(g.blocks[2].loopDepth, 2);
  EXPECT_EQ(g.blocks[3].loopDepth, 1);
  EXPECT_EQ(g.blocks[4].loopDepth, 0);
}

TEST(SassStats, MixPerFunctionBlockAndLine) {
  const Module m = parseDisassembly(kText, "k.sass");
  const FunctionStats s = computeStats(m, m.functions[0]);
  EXPECT_EQ(s.instructions, 13u);
  EXPECT_EQ(s.nops, 1u);
  EXPECT_EQ(s.basicBlocks, 8u);
  EXPECT_EQ(s.loops, 2u);
  EXPECT_EQ(s.maxLoopDepth, 2);
  EXPECT_EQ(s.registersReported, 40);
  EXPECT_EQ(s.registersUsed, 40);  // R39 is the highest named
  EXPECT_EQ(s.vectorAccesses, 2u);  // LDS.128 and LDG.E.64
  EXPECT_EQ(s.mix.at("LDS.128"), 1u);
  EXPECT_EQ(s.mix.at("LDG.64"), 1u);
  EXPECT_EQ(s.mix.at("BRA"), 4u);
  EXPECT_EQ(s.mix.at("EXIT"), 2u);
  ASSERT_EQ(s.blocks.size(), 8u);
  EXPECT_EQ(s.blocks[2].instructions, 4u);
  EXPECT_EQ(s.blocks[2].loopDepth, 2);
  EXPECT_EQ(s.blocks[2].firstAddress, 0x30u);
  EXPECT_EQ(s.blocks[2].mix.at("FFMA"), 1u);
  // Lines in order of first appearance: 3, 5, 7 (line 5 gets the IADD3 and what follows).
  ASSERT_EQ(s.lines.size(), 3u);
  EXPECT_EQ(m.sources[static_cast<std::size_t>(s.lines[0].source)].line, 3);
  EXPECT_EQ(s.lines[0].instructions, 2u);
  EXPECT_EQ(m.sources[static_cast<std::size_t>(s.lines[1].source)].line, 5);
  EXPECT_EQ(s.lines[1].instructions, 1u + 6u);
  EXPECT_EQ(s.lines[2].instructions, 4u);
  EXPECT_EQ(s.lines[2].mix.at("LDS.128"), 1u);
}

TEST(SassCfg, ConditionalBranchByPredicateOperandFallsThrough) {
  const Module m = parseDisassembly(
      ".section .text.k,\"ax\",@progbits\n.type k,@function\nk:\n"
      " /*0000*/ BRA.U !UP0, `(.L_x) ;\n /*0010*/ NOP ;\n.L_x:\n /*0020*/ EXIT ;\n",
      "k.sass");
  const ControlFlowGraph g = buildCfg(m.functions[0]);
  ASSERT_EQ(g.blocks.size(), 3u);
  EXPECT_EQ(g.blocks[0].successors, (std::vector<std::size_t>{1, 2}));
}

TEST(SassStats, ConstantLoadsAreNotVectorAccesses) {
  const Module m = parseDisassembly(
      ".section .text.k,\"ax\",@progbits\n.type k,@function\nk:\n"
      " /*0000*/ ULDC.64 UR4, c[0x0][0x118] ;\n /*0010*/ LDS.64 R2, [R4] ;\n /*0020*/ STG.E.U8 [R2.64], R0 ;\n",
      "k.sass");
  const FunctionStats s = computeStats(m, m.functions[0]);
  EXPECT_EQ(s.vectorAccesses, 1u);  // LDS.64 only
  EXPECT_EQ(s.mix.at("ULDC.64"), 1u);
  EXPECT_EQ(s.mix.at("LDS.64"), 1u);
  EXPECT_EQ(s.mix.at("STG"), 1u);  // a 1-byte store is keyed by its opcode
  EXPECT_EQ(accessBytes(m.functions[0].instructions[2]), 1);
}
