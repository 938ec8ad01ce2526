// fmaContractionTargets against hand-read PTX: which mul/add pairs the PTX ISA lets ptxas fuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "teg/ptx/contraction.hpp"
#include "teg/ptx/parser.hpp"

namespace teg::ptx {
namespace {

std::vector<std::int32_t> targetsOf(const std::string& body) {
  const std::string text = ".version 9.0\n.target sm_80\n.entry k()\n{\n\t.reg .pred %p<4>;\n\t.reg .f32 %f<16>;\n"
                           "\t.reg .f64 %fd<16>;\n" + body + "\tret;\n}\n";
  const Module m = parseModule(text, "k.ptx");
  return m.functions.at(0).instructions.size() ? fmaContractionTargets(m.functions[0]) : std::vector<std::int32_t>{};
}

using T = std::vector<std::int32_t>;

TEST(FmaContraction, AnUnroundedMultiplyFeedingOneAddIsFused) {
  const T t = targetsOf("\tmov.f32 %f1, 0f3F800000;\n"
                        "\tmul.f32 %f2, %f1, %f1;\n"
                        "\tadd.f32 %f3, %f2, %f1;\n"
                        "\tmul.f64 %fd1, %fd2, %fd3;\n"
                        "\tsub.f64 %fd4, %fd5, %fd1;\n");
  EXPECT_EQ(t, (T{-1, 2, -1, 4, -1, -1}));
}

TEST(FmaContraction, ExplicitRoundingSaturationOrAMismatchedTypeForbidsIt) {
  const T t = targetsOf("\tmul.rn.f32 %f2, %f1, %f1;\n"       // .rn: IEEE multiply, never fused
                        "\tadd.f32 %f3, %f2, %f1;\n"
                        "\tmul.f32 %f4, %f1, %f1;\n"
                        "\tadd.rz.f32 %f5, %f4, %f1;\n"       // rounded add
                        "\tmul.sat.f32 %f6, %f1, %f1;\n"
                        "\tadd.f32 %f7, %f6, %f1;\n"
                        "\tmul.ftz.f32 %f8, %f1, %f1;\n"
                        "\tadd.f32 %f9, %f8, %f1;\n");        // .ftz differs
  EXPECT_EQ(t, (T(9, -1)));
}

TEST(FmaContraction, AProductUsedTwiceOrGuardedStaysAMultiply) {
  const T t = targetsOf("\tmul.f32 %f2, %f1, %f1;\n"
                        "\tadd.f32 %f3, %f2, %f1;\n"
                        "\tadd.f32 %f4, %f2, %f3;\n"           // second use of %f2
                        "\tmul.f32 %f5, %f1, %f1;\n"
                        "\tadd.f32 %f6, %f5, %f5;\n"           // both operands are the product
                        "\tsetp.lt.f32 %p1, %f1, %f6;\n"
                        "\t@%p1 mul.f32 %f7, %f1, %f1;\n"
                        "\tadd.f32 %f8, %f7, %f1;\n");
  EXPECT_EQ(t, (T(9, -1)));
}

TEST(FmaContraction, AnAddAbsorbsOneMultiplyTheFirst) {
  // (a*b) + (c*d): one FFMA and one FMUL, as ptxas emits.
  const T t = targetsOf("\tmul.f32 %f3, %f1, %f2;\n"
                        "\tmul.f32 %f4, %f5, %f6;\n"
                        "\tadd.f32 %f7, %f3, %f4;\n");
  EXPECT_EQ(t, (T{2, -1, -1, -1}));
}

TEST(FmaContraction, NotAcrossABlockBoundaryOrARedefinedSource) {
  const T t = targetsOf("\tmul.f32 %f3, %f1, %f2;\n"
                        "\tmov.f32 %f1, 0f00000000;\n"          // a source of the multiply changes
                        "\tadd.f32 %f4, %f3, %f2;\n"
                        "\tmul.f32 %f5, %f1, %f2;\n"
                        "\tbra.uni $L_next;\n"
                        "$L_next:\n"
                        "\tadd.f32 %f6, %f5, %f2;\n");
  EXPECT_EQ(t, (T(7, -1)));
}

std::vector<std::int32_t> logicTargetsOf(const std::string& body) {
  const std::string text = ".version 9.0\n.target sm_90\n.entry k()\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<40>;\n"
                           "\t.reg .b64 %rd<8>;\n" + body + "\tret;\n}\n";
  const Module m = parseModule(text, "k.ptx");
  return logicContractionTargets(m.functions.at(0));
}

TEST(LogicContraction, AChainOfSixteenXorsBecomesEightThreeInputOperations) {
  // l1_bandwidth.cu's fold: r0 ^= r1; r0 ^= r2; ... (16 loads' values); ptxas emits 8 LOP3.
  std::string body = "\tmov.b32 %r0, 0;\n";
  for (int k = 1; k <= 16; ++k)
    body += "\txor.b32 %r" + std::to_string(k + 20) + ", %r" + std::to_string(k == 1 ? 0 : k + 19) + ", %r" +
            std::to_string(k) + ";\n";
  const T t = logicTargetsOf(body);
  // Instruction 0 is the mov; xor k is instruction k. Xor 1 folds into xor 2, 3 into 4, ...
  T expected(18, -1);
  for (int k = 1; k <= 15; k += 2) expected[static_cast<std::size_t>(k)] = k + 1;
  EXPECT_EQ(t, expected);
  EXPECT_EQ(std::count_if(t.begin(), t.end(), [](std::int32_t x) { return x >= 0; }), 8);
}

TEST(LogicContraction, MixedAndOrXorFoldButNotTwoImmediatesAUsedTwiceValueOrAnotherType) {
  const T t = logicTargetsOf("\tand.b32 %r3, %r1, 255;\n"       // one immediate: folds
                             "\tor.b32 %r4, %r3, %r2;\n"
                             "\tand.b32 %r5, %r1, 255;\n"       // two immediates in all: no
                             "\txor.b32 %r6, %r5, 7;\n"
                             "\txor.b32 %r7, %r1, %r2;\n"       // used twice: no
                             "\tand.b32 %r8, %r7, %r1;\n"
                             "\tor.b32 %r9, %r7, %r2;\n"
                             "\txor.b64 %rd1, %rd2, %rd3;\n"    // 64-bit: not one LOP3
                             "\txor.b64 %rd4, %rd1, %rd2;\n"
                             "\tadd.s32 %r10, %r1, %r2;\n"      // not a logic operation
                             "\txor.b32 %r11, %r10, %r1;\n");
  EXPECT_EQ(t, (T{1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}));
}

TEST(LogicContraction, NotAcrossABlockOrARedefinedSourceAndNeverFourInputs) {
  const T t = logicTargetsOf("\txor.b32 %r3, %r1, %r2;\n"
                             "\tmov.b32 %r1, 0;\n"             // a source changes in between
                             "\txor.b32 %r4, %r3, %r2;\n"
                             "\txor.b32 %r5, %r1, %r2;\n"
                             "\tbra.uni $L_next;\n"
                             "$L_next:\n"
                             "\txor.b32 %r6, %r5, %r2;\n"
                             "\tand.b32 %r7, %r1, %r2;\n"       // r7 -> r8 folds; r8 (now three-input) -> r9 may not
                             "\tor.b32 %r8, %r7, %r2;\n"
                             "\txor.b32 %r9, %r8, %r1;\n");
  EXPECT_EQ(t, (T{-1, -1, -1, -1, -1, -1, 7, -1, -1, -1}));
}

}  // namespace
}  // namespace teg::ptx
