// Control flow: blocks, edges, dominators, post-dominators (reconvergence points) and loops of
// a kernel whose graph is drawn here by hand:
//
//   B0 [0,3)  -> B1 [3,5) (fall through), B2 [5,6) (@p1 bra $L_else)
//   B1, B2    -> B3 [6,7) ($L_join)
//   B3        -> B4 [7,10) ($L_loop, a self loop) -> B5 [10,11) (ret) -> exit
#include <gtest/gtest.h>

#include "teg/ptx/parser.hpp"
#include "test_inputs.hpp"

namespace teg::ptx {
namespace {

constexpr const char* kDiamondThenLoop = R"(.version 9.0
.target sm_80
.entry k()
{
	.reg .pred %p<3>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $L_else;
	add.u32 %r2, %r1, 1;
	bra.uni $L_join;
$L_else:
	add.u32 %r2, %r1, 2;
$L_join:
	mov.u32 %r3, 0;
$L_loop:
	add.u32 %r3, %r3, %r2;
	setp.lt.u32 %p2, %r3, 100;
	@%p2 bra $L_loop;
	ret;
}
)";

using Blocks = std::vector<std::uint32_t>;

TEST(PtxCfg, BlocksAndEdges) {
  const Module m = parseModule(kDiamondThenLoop, "k.ptx");
  const ControlFlowGraph& g = m.functions[0].cfg;
  ASSERT_EQ(g.blocks.size(), 6u);
  const std::uint32_t firsts[] = {0, 3, 5, 6, 7, 10};
  for (std::size_t b = 0; b < 6; ++b) EXPECT_EQ(g.blocks[b].first, firsts[b]) << b;
  EXPECT_EQ(g.blocks[0].successors, (Blocks{1, 2}));
  EXPECT_EQ(g.blocks[1].successors, (Blocks{3}));
  EXPECT_EQ(g.blocks[2].successors, (Blocks{3}));
  EXPECT_EQ(g.blocks[3].successors, (Blocks{4}));
  EXPECT_EQ(g.blocks[4].successors, (Blocks{4, 5}));
  EXPECT_EQ(g.blocks[5].successors, (Blocks{kExitBlock}));
  EXPECT_EQ(g.blocks[3].predecessors, (Blocks{1, 2}));
  EXPECT_EQ(g.blockOfInstruction[8], 4u);
}

TEST(PtxCfg, ImmediatePostDominatorsAreTheReconvergencePoints) {
  const Module m = parseModule(kDiamondThenLoop, "k.ptx");
  const ControlFlowGraph& g = m.functions[0].cfg;
  EXPECT_EQ(g.reconvergenceBlock(0), 3u);  // the if/else joins at $L_join
  EXPECT_EQ(g.blocks[1].ipdom, 3u);
  EXPECT_EQ(g.blocks[2].ipdom, 3u);
  EXPECT_EQ(g.blocks[3].ipdom, 4u);
  EXPECT_EQ(g.reconvergenceBlock(4), 5u);  // the loop exits to the ret block
  EXPECT_EQ(g.blocks[5].ipdom, kExitBlock);
}

TEST(PtxCfg, DominatorsAndNaturalLoops) {
  const Module m = parseModule(kDiamondThenLoop, "k.ptx");
  const ControlFlowGraph& g = m.functions[0].cfg;
  EXPECT_EQ(g.blocks[1].idom, 0u);
  EXPECT_EQ(g.blocks[2].idom, 0u);
  EXPECT_EQ(g.blocks[3].idom, 0u);
  EXPECT_EQ(g.blocks[4].idom, 3u);
  EXPECT_EQ(g.blocks[5].idom, 4u);
  ASSERT_EQ(g.loops.size(), 1u);
  EXPECT_EQ(g.loops[0].header, 4u);
  EXPECT_EQ(g.loops[0].latches, (Blocks{4}));
  EXPECT_EQ(g.loops[0].blocks, (Blocks{4}));
  EXPECT_EQ(g.blocks[4].loopDepth, 1u);
  EXPECT_EQ(g.blocks[3].loopDepth, 0u);
}

TEST(PtxCfg, NestedLoopsAndAnUnconditionalExit) {
  // Outer loop B1..B3 (header B1), inner self-loop B2; an @p ret inside the outer loop.
  const Module m = parseModule(R"(.version 9.0
.target sm_80
.entry k()
{
	.reg .pred %p<4>;
	.reg .b32 %r<4>;
	mov.u32 %r1, 0;
$L_outer:
	mov.u32 %r2, 0;
$L_inner:
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 8;
	@%p1 bra $L_inner;
	add.u32 %r1, %r1, 1;
	setp.eq.u32 %p3, %r1, 5;
	@%p3 ret;
	setp.lt.u32 %p2, %r1, 8;
	@%p2 bra $L_outer;
	ret;
}
)", "n.ptx");
  const ControlFlowGraph& g = m.functions[0].cfg;
  // B0 [0,1) B1 [1,2) B2 [2,5) B3 [5,8) B4 [8,10) B5 [10,11)
  ASSERT_EQ(g.blocks.size(), 6u);
  ASSERT_EQ(g.loops.size(), 2u);
  EXPECT_EQ(g.loops[0].header, 1u);
  EXPECT_EQ(g.loops[0].blocks, (Blocks{1, 2, 3, 4}));
  EXPECT_EQ(g.loops[1].header, 2u);
  EXPECT_EQ(g.loops[1].blocks, (Blocks{2}));
  EXPECT_EQ(g.blocks[2].loopDepth, 2u);
  EXPECT_EQ(g.blocks[3].successors, (Blocks{4, kExitBlock}));
  // The guarded ret means B3's paths join only at the virtual exit.
  EXPECT_EQ(g.blocks[3].ipdom, kExitBlock);
  EXPECT_EQ(g.blocks[2].ipdom, 3u);
}

TEST(PtxCfg, BranchTableEdges) {
  const Module m = parseFile(test::inputsDir() + "/handwritten_features_v9.ptx");
  const ControlFlowGraph& g = m.functions[0].cfg;
  // B0 ends with brx.idx over L_case0 (B1), L_case1 (B2), L_case2 (B3), L_done (B4).
  EXPECT_EQ(g.blocks[0].successors, (Blocks{1, 2, 3, 4}));
  EXPECT_EQ(g.reconvergenceBlock(0), 4u);
}

TEST(PtxCfg, RealKernelLoopCounts) {
  // misc.cu: reduceShfl has one loop left after unrolling (the grid-stride loop; both shuffle
  // loops have constant trip counts and are unrolled); vecAdd has none.
  const Module m = parseFile(test::inputsDir() + "/nvcc13_misc_sm80_lineinfo.ptx");
  const Function* reduce = m.findFunction("_Z10reduceShflPKfPfi");
  const Function* add = m.findFunction("_Z6vecAddPKfS0_Pfi");
  ASSERT_NE(reduce, nullptr);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(reduce->cfg.loops.size(), 1u);
  EXPECT_EQ(add->cfg.loops.size(), 0u);
  // tiles.cu: matmul's tile loop and scan's doubling loop are the only loops.
  const Module t = parseFile(test::inputsDir() + "/nvcc13_tiles_sm80.ptx");
  EXPECT_EQ(t.findFunction("_Z6matmulPKfS0_Pfi")->cfg.loops.size(), 1u);
  EXPECT_EQ(t.findFunction("_Z4scanPfi")->cfg.loops.size(), 1u);
}

}  // namespace
}  // namespace teg::ptx
