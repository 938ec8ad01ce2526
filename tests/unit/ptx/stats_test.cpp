// Kernel statistics on real nvcc output, with expectations taken from the CUDA source or
// counted by hand from the PTX text (vecAdd's 22 instructions are listed in the comment).
#include <gtest/gtest.h>

#include "teg/ptx/parser.hpp"
#include "teg/ptx/stats.hpp"
#include "test_inputs.hpp"

namespace teg::ptx {
namespace {

std::uint32_t mixOf(const FunctionStats& s, InstrClass c) { return s.mix[static_cast<int>(c)]; }

TEST(PtxStats, VecAddMixCountedByHand) {
  // nvcc13_misc_sm80_lineinfo.ptx, vecAdd: 4 ld.param; mov x3 + cvta x3 (move 6); mad.lo +
  // mul.wide (int.mul 2); setp + add.s64 x3 (int 4); @p bra; ld.global x2; add.f32;
  // st.global; ret = 22 instructions in 3 blocks (entry, body after the guard, ret).
  const Module m = parseFile(test::inputsDir() + "/nvcc13_misc_sm80_lineinfo.ptx");
  const FunctionStats s = computeStats(m, *m.findFunction("_Z6vecAddPKfS0_Pfi"));
  EXPECT_EQ(s.instructions, 22u);
  EXPECT_EQ(s.basicBlocks, 3u);
  EXPECT_EQ(s.loops, 0u);
  EXPECT_EQ(mixOf(s, InstrClass::LoadParam), 4u);
  EXPECT_EQ(mixOf(s, InstrClass::Move), 6u);
  EXPECT_EQ(mixOf(s, InstrClass::IntMul), 2u);
  EXPECT_EQ(mixOf(s, InstrClass::IntAlu), 4u);
  EXPECT_EQ(mixOf(s, InstrClass::Branch), 1u);
  EXPECT_EQ(mixOf(s, InstrClass::LoadGlobal), 2u);
  EXPECT_EQ(mixOf(s, InstrClass::Fp32), 1u);
  EXPECT_EQ(mixOf(s, InstrClass::StoreGlobal), 1u);
  EXPECT_EQ(mixOf(s, InstrClass::Return), 1u);
  EXPECT_EQ(s.unmodelled, 0u);
  // .reg .pred %p<2>; .reg .f32 %f<4>; .reg .b32 %r<6>; .reg .b64 %rd<11>  = 2+4+6+11
  EXPECT_EQ(s.registersDeclared, 23u);
  EXPECT_EQ(s.predicatesDeclared, 2u);
}

TEST(PtxStats, StaticSharedMemoryFromTheSource) {
  const Module misc = parseFile(test::inputsDir() + "/nvcc13_misc_sm80_lineinfo.ptx");
  // reduceShfl: __shared__ float s[32] = 128 bytes.
  EXPECT_EQ(computeStats(misc, *misc.findFunction("_Z10reduceShflPKfPfi")).sharedBytes, 128u);
  const Module tiles = parseFile(test::inputsDir() + "/nvcc13_tiles_sm80.ptx");
  // matmul: float As[16][16], Bs[16][17] = (256 + 272) * 4 = 2112 bytes.
  EXPECT_EQ(computeStats(tiles, *tiles.findFunction("_Z6matmulPKfS0_Pfi")).sharedBytes, 2112u);
  // scan: extern __shared__ float dyn[] only.
  const FunctionStats scan = computeStats(tiles, *tiles.findFunction("_Z4scanPfi"));
  EXPECT_EQ(scan.sharedBytes, 0u);
  EXPECT_TRUE(scan.usesDynamicShared);
}

TEST(PtxStats, TensorInstructionsCountAsUnmodelledTexturesDoNot) {
  const Module misc = parseFile(test::inputsDir() + "/nvcc13_misc_sm80_lineinfo.ptx");
  const FunctionStats t = computeStats(misc, *misc.findFunction("_Z3texyPf"));
  EXPECT_EQ(t.unmodelled, 0u);  // its one tex.2d is emulated
  EXPECT_EQ(mixOf(t, InstrClass::Texture), 1u);
  const Module features = parseFile(test::inputsDir() + "/nvcc13_features_sm80.ptx");
  // wmmaK: load a, load b, mma, store = 4 wmma instructions.
  const FunctionStats w = computeStats(features, *features.findFunction("_Z5wmmaKPK6__halfS1_Pf"));
  EXPECT_EQ(mixOf(w, InstrClass::Tensor), 4u);
  EXPECT_EQ(w.unmodelled, 4u);
}

TEST(PtxStats, MemoryPerInstructionIsSmall) {
  EXPECT_EQ(sizeof(Instruction), 32u);
  EXPECT_EQ(sizeof(Operand), 16u);
}

}  // namespace
}  // namespace teg::ptx
