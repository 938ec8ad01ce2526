// Def-use chains on the diamond-then-loop kernel of cfg_test (registers: %p0..2 = 0..2,
// %r0..3 = 3..6): %r2 (5) is defined in both arms (instructions 3 and 5), %r3 (6) before the
// loop (6) and in it (7).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "teg/ptx/def_use.hpp"
#include "teg/ptx/parser.hpp"

namespace teg::ptx {
namespace {

constexpr const char* kKernel = R"(.version 9.0
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

using V = std::vector<std::uint32_t>;

TEST(PtxDefUse, DefinitionAndUseSites) {
  const Module m = parseModule(kKernel, "k.ptx");
  const DefUseChains du(m.functions[0]);
  EXPECT_EQ(V(du.definitionsOf(5).begin(), du.definitionsOf(5).end()), (V{3, 5}));
  EXPECT_EQ(V(du.usesOf(5).begin(), du.usesOf(5).end()), (V{7}));
  EXPECT_EQ(V(du.usesOf(4).begin(), du.usesOf(4).end()), (V{1, 3, 5}));  // %r1
  EXPECT_EQ(V(du.usesOf(1).begin(), du.usesOf(1).end()), (V{2}));        // %p1 as a guard
}

TEST(PtxDefUse, ReachingDefinitionsThroughBranchesAndLoops) {
  const Module m = parseModule(kKernel, "k.ptx");
  const DefUseChains du(m.functions[0]);
  EXPECT_EQ(du.reachingDefinitions(7, 5), (V{3, 5}));  // both arms reach the join
  EXPECT_EQ(du.reachingDefinitions(7, 6), (V{6, 7}));  // first iteration and the back edge
  EXPECT_EQ(du.reachingDefinitions(8, 6), (V{7}));
  EXPECT_EQ(du.reachedUses(6, 6), (V{7}));
  EXPECT_EQ(du.reachedUses(7, 6), (V{7, 8}));
  EXPECT_TRUE(du.possiblyUndefinedRegisters().empty());
}

TEST(PtxDefUse, GuardedDefinitionsDoNotKill) {
  const Module m = parseModule(R"(.version 9.0
.target sm_80
.entry k()
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	mov.u32 %r2, 1;
	@%p1 mov.u32 %r2, 2;
	@%p1 mov.u32 %r3, 7;
	add.u32 %r1, %r2, %r3;
	ret;
}
)", "g.ptx");
  const DefUseChains du(m.functions[0]);
  // %r2 (register 4): both the plain and the guarded definition reach the add.
  EXPECT_EQ(du.reachingDefinitions(5, 4), (V{2, 3}));
  // %r3 (register 5) has only a guarded definition: possibly undefined.
  EXPECT_EQ(du.possiblyUndefinedRegisters(), (V{5}));
}

TEST(PtxDefUse, VectorDestinationsAndPipePairsAreDefinitions) {
  const Module m = parseModule(R"(.version 9.0
.target sm_80
.entry k()
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	mov.u64 %rd1, 0;
	ld.global.v2.u32 {%r1, %r2}, [%rd1];
	shfl.sync.bfly.b32 %r3|%p1, %r1, 1, 31, -1;
	st.global.v2.u32 [%rd1], {%r3, %r2};
	ret;
}
)", "v.ptx");
  const Function& f = m.functions[0];
  std::vector<std::pair<std::uint32_t, bool>> accesses;
  forEachRegisterAccess(f, f.instructions[1], [&](std::uint32_t r, bool d) { accesses.push_back({r, d}); });
  // {%r1, %r2} defined (registers 3, 4); %rd1 (7) used as the address base.
  EXPECT_EQ(accesses, (std::vector<std::pair<std::uint32_t, bool>>{{3, true}, {4, true}, {7, false}}));
  accesses.clear();
  forEachRegisterAccess(f, f.instructions[2], [&](std::uint32_t r, bool d) { accesses.push_back({r, d}); });
  EXPECT_EQ(accesses, (std::vector<std::pair<std::uint32_t, bool>>{{5, true}, {1, true}, {3, false}}));
  accesses.clear();
  forEachRegisterAccess(f, f.instructions[3], [&](std::uint32_t r, bool d) { accesses.push_back({r, d}); });
  EXPECT_EQ(accesses, (std::vector<std::pair<std::uint32_t, bool>>{{7, false}, {5, false}, {4, false}}));
}

TEST(PtxDefUse, RedefinitionsInOneBlockKillAndGuardedOnesAdd) {
  const Module m = parseModule(R"(.version 9.0
.target sm_80
.entry k()
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	mov.u32 %r1, 5;
	@%p1 mov.u32 %r1, 6;
	add.u32 %r2, %r1, %r1;
	mov.u32 %r1, 7;
	add.u32 %r2, %r1, 1;
	ret;
}
)", "r.ptx");
  const DefUseChains du(m.functions[0]);
  // %r1 is register 3 (%p0, %p1, %r0, %r1, ...).
  EXPECT_EQ(du.reachingDefinitions(1, 3), (V{0}));
  EXPECT_EQ(du.reachingDefinitions(4, 3), (V{2, 3}));  // the guarded 6 may or may not replace 5
  EXPECT_EQ(du.reachingDefinitions(6, 3), (V{5}));
  EXPECT_EQ(du.reachedUses(2, 3), (V{4}));
  EXPECT_TRUE(du.possiblyUndefinedRegisters().empty());
}

// Issue 24: 50k straight-line instructions that redefine two accumulators took minutes (each
// use rescanned every definition of its register in the block). The answer is known: each fma
// reads the accumulator the previous one wrote.
TEST(PtxDefUse, FiftyThousandStraightLineInstructions) {
  constexpr int kFmas = 50000;
  std::string text = ".version 9.0\n.target sm_80\n.entry k()\n{\n\t.reg .f32 %f<5>;\n"
                     "\tmov.f32 %f1, 0f3F800000;\n\tmov.f32 %f2, 0f40000000;\n";
  for (int i = 0; i < kFmas; ++i)  // %f3 = %f4 * %f2 + %f1, then %f4 = %f3 * %f2 + %f1, ...
    text += fmt::format("\tfma.rn.f32 %f{}, %f{}, %f2, %f1;\n", 3 + i % 2, i == 0 ? 1 : 3 + (i + 1) % 2);
  text += "\tret;\n}\n";
  const Module m = parseModule(text, "long.ptx");
  const Function& f = m.functions[0];
  ASSERT_EQ(f.instructions.size(), std::size_t{kFmas + 3});
  const DefUseChains du(f);
  // %f0..%f4 are registers 0..4; fma i is instruction i + 2.
  for (std::uint32_t i : {1u, 2u, 1000u, 25001u, 49999u}) {
    const std::uint32_t reads = 3 + (i + 1) % 2;
    EXPECT_EQ(du.reachingDefinitions(i + 2, reads), (V{i + 1})) << "fma " << i;
  }
  EXPECT_EQ(du.definitionsOf(3).size(), std::size_t{kFmas / 2});
  EXPECT_EQ(du.reachingDefinitions(2, 1), (V{0}));        // %f1 from the first mov, everywhere
  EXPECT_EQ(du.reachingDefinitions(kFmas + 1, 1), (V{0}));
  EXPECT_TRUE(du.possiblyUndefinedRegisters().empty());
}

}  // namespace
}  // namespace teg::ptx
