// The per-source-line view on hand-made SASS: lines in source order (not address order), an
// inlined callee's line keeps its instructions' call sites, loads by width, stall sums.
#include <gtest/gtest.h>

#include "teg/sass/lines.hpp"
#include "teg/sass/parser.hpp"

using namespace teg::sass;

TEST(SassLines, GroupsByInnermostLineInSourceOrder) {
  const Module m = parseDisassembly(R"(
	.section	.text.k,"ax",@progbits
        .type           k,@function
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
	//## File "k.cu", line 9
        /*0000*/                   LDG.E.128 R4, [R2.64] ;
	//## File "k.cu", line 4 inlined at "k.cu", line 9
        /*0010*/                   LDS R8, [R1] ;
        /*0020*/                   LDS.64 R10, [R1+0x8] ;
	//## File "k.cu", line 9
        /*0030*/                   FFMA R0, R4, R8, R0 ;
	//## File "k.cu", line 4 inlined at "k.cu", line 12
        /*0040*/                   LDS.128 R12, [R1+0x10] ;
        /*0050*/                   EXIT ;
)", "k.sass");
  const auto views = sourceLineViews(m, m.functions[0]);
  ASSERT_EQ(views.size(), 2u);
  EXPECT_EQ(views[0].line, 4);  // line 4 first although its first instruction is at 0x10
  EXPECT_EQ(views[0].instructions, (std::vector<std::size_t>{1, 2, 4, 5}));
  EXPECT_EQ(views[0].sharedLoads, (std::map<int, std::uint32_t>{{4, 1}, {8, 1}, {16, 1}}));
  EXPECT_TRUE(views[0].globalLoads.empty());
  // Both call sites of the inlined line stay on its instructions.
  EXPECT_EQ(m.sources[static_cast<std::size_t>(m.functions[0].instructions[1].source)].inlinedAt.front().second, 9);
  EXPECT_EQ(m.sources[static_cast<std::size_t>(m.functions[0].instructions[4].source)].inlinedAt.front().second, 12);
  EXPECT_EQ(views[1].line, 9);
  EXPECT_EQ(views[1].instructions, (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(views[1].globalLoads, (std::map<int, std::uint32_t>{{16, 1}}));
  EXPECT_EQ(views[1].mix.at("LDG.128"), 1u);
  EXPECT_EQ(views[1].mix.at("FFMA"), 1u);
  EXPECT_EQ(views[1].stallCycles, 0u);  // no -hex: no control words
}

// nvdisasm -gi prints an inlined position, then the plain one -g would give (the outermost call
// site). The instructions after both are the callee's line, inlined at the call site.
TEST(SassLines, TheCallSiteCommentAfterAnInlinedPositionKeepsTheInlinedLine) {
  const Module m = parseDisassembly(R"(
	.section	.text.k,"ax",@progbits
        .type           k,@function
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
	//## File "k.cu", line 17
        /*0000*/                   FFMA R3, R4, R5, R3 ;
	//## File "k.cu", line 5 inlined at "k.cu", line 17
	//## File "k.cu", line 17
        /*0010*/                   MUFU.SIN R3, R0 ;
	//## File "k.cu", line 17
        /*0020*/                   FADD R3, R3, R3 ;
	//## File "k.cu", line 5 inlined at "k.cu", line 17
	//## File "k.cu", line 18
        /*0030*/                   EXIT ;
)", "k.sass");
  const auto& ins = m.functions[0].instructions;
  const auto pos = [&](std::size_t i) { return m.sources[static_cast<std::size_t>(ins[i].source)]; };
  EXPECT_EQ(pos(0).line, 17);
  EXPECT_TRUE(pos(0).inlinedAt.empty());
  EXPECT_EQ(pos(1).line, 5);
  ASSERT_EQ(pos(1).inlinedAt.size(), 1u);
  EXPECT_EQ(pos(1).inlinedAt[0].second, 17);
  EXPECT_EQ(pos(2).line, 17);  // a plain comment after an instruction is a new position
  EXPECT_EQ(pos(3).line, 18);  // a different line after the inlined one is not the call site
  EXPECT_TRUE(pos(3).inlinedAt.empty());
}
