// fmaContractionTargets against hand-read PTX: which mul/add pairs the PTX ISA lets ptxas fuse.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace teg::ptx
