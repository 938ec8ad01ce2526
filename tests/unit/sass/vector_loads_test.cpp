// Scalar LDS a vector load could replace, on hand-made SASS whose groups are known: four words of
// one aligned 16-byte window feeding FFMAs (one LDS.128), a pair in an 8-byte window (LDS.64),
// words not feeding an FFMA, a base register rewritten between loads, and an unaligned run.
#include <gtest/gtest.h>

#include "teg/sass/parser.hpp"
#include "teg/sass/vector_loads.hpp"

using namespace teg::sass;

namespace {

const char* const kText = R"(
	.section	.text.k,"ax",@progbits
        .type           k,@function
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
        /*0000*/                   LDS R4, [R2+0x10] ;
        /*0010*/                   LDS R5, [R2+0x14] ;
        /*0020*/                   LDS R6, [R2+0x18] ;
        /*0030*/                   LDS R7, [R2+0x1c] ;
        /*0040*/                   LDS R8, [R2+0x28] ;
        /*0050*/                   LDS R9, [R2+0x2c] ;
        /*0060*/                   LDS R20, [R2+0x30] ;
        /*0070*/                   LDS R21, [R3+0x4] ;
        /*0080*/                   IADD3 R3, R3, 0x100, RZ ;
        /*0090*/                   LDS R22, [R3+0x8] ;
        /*00a0*/                   LDS R23, [R3+0xc] ;
        /*00b0*/                   FFMA R0, R4, R5, R0 ;
        /*00c0*/                   FFMA R0, R6, R7, R0 ;
        /*00d0*/                   FFMA R0, R8, R9, R0 ;
        /*00e0*/                   FFMA R0, R21, R22, R0 ;
        /*00f0*/                   FFMA R0, R23, R0, R0 ;
        /*0100*/                   STS [R2], R20 ;
        /*0110*/                   EXIT ;
)";

}  // namespace

TEST(VectorLoads, AlignedAdjacentWordsFeedingFfmasGroup) {
  const Module m = parseDisassembly(kText, "k.sass");
  const auto groups = vectorisableSharedLoads(m.functions[0]);
  // 0x10..0x1c: one LDS.128 (indices 0-3); 0x28, 0x2c: an 8-byte window (0x28 % 8 == 0): LDS.64.
  // 0x30 (R20) feeds only a store. [R3+0x4] is before R3 is rewritten; [R3+0x8], [R3+0xc] after:
  // a pair in the 8-byte window 0x8 (indices 9, 10); 0x4 has no partner.
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].bytes, 16);
  EXPECT_EQ(groups[0].loads, (std::vector<std::size_t>{0, 1, 2, 3}));
  std::vector<std::vector<std::size_t>> pairs;
  for (std::size_t g = 1; g < 3; ++g) {
    EXPECT_EQ(groups[g].bytes, 8);
    pairs.push_back(groups[g].loads);
  }
  std::sort(pairs.begin(), pairs.end());
  EXPECT_EQ(pairs[0], (std::vector<std::size_t>{4, 5}));
  EXPECT_EQ(pairs[1], (std::vector<std::size_t>{9, 10}));
}

TEST(VectorLoads, VectorLoadsAlreadyThereAreNotSuggested) {
  const Module m = parseDisassembly(R"(
	.section	.text.k,"ax",@progbits
        .type           k,@function
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
        /*0000*/                   LDS.128 R4, [R2+0x10] ;
        /*0010*/                   FFMA R0, R4, R5, R0 ;
        /*0020*/                   FFMA R0, R6, R7, R0 ;
        /*0030*/                   EXIT ;
)", "k.sass");
  EXPECT_TRUE(vectorisableSharedLoads(m.functions[0]).empty());
}
