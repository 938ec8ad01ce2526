// Control-word decodes checked by hand against the published layout (Jia et al. 2018,
// arXiv:1804.06826; CuAssembler CuAsm/common.py): the high word's bits 41..61 are, from the
// least significant, stall(4) yield(1, 0 = yield) write barrier(3) read barrier(3) wait mask(6)
// reuse(4). The words are nvdisasm -hex output of matmul_shared.cu for sm_80.
#include <gtest/gtest.h>

#include "teg/sass/control.hpp"

using teg::sass::Control;
using teg::sass::decodeControl;
using teg::sass::formatControl;

TEST(Control, MovWithNoBarrier) {
  // MOV R1, c[0x0][0x28]: high word 0x000fe40000000f00. >> 41 = 0x7f2 = 0b0111_1111_0010:
  // stall 0b0010 = 2, yield bit 1 (no yield), write 0b111 and read 0b111 (none), wait 0.
  const Control c = decodeControl(0x000fe40000000f00ULL);
  EXPECT_EQ(c.raw, 0x7f2u);
  EXPECT_EQ(c.stall, 2);
  EXPECT_FALSE(c.yield);
  EXPECT_EQ(c.writeBarrier, -1);
  EXPECT_EQ(c.readBarrier, -1);
  EXPECT_EQ(c.waitMask, 0);
  EXPECT_EQ(c.reuse, 0);
}

TEST(Control, S2RSetsAWriteBarrier) {
  // S2R R5, SR_CTAID.X (variable latency): 0x000e220000002500 >> 41 = 0x711 = 0b0111_0001_0001:
  // stall 1, yield bit 1, write barrier 0b000 = 0, read barrier 0b111 = none.
  const Control c = decodeControl(0x000e220000002500ULL);
  EXPECT_EQ(c.stall, 1);
  EXPECT_FALSE(c.yield);
  EXPECT_EQ(c.writeBarrier, 0);
  EXPECT_EQ(c.readBarrier, -1);
}

TEST(Control, ConsumerWaitsOnTheBarrierAndYields) {
  // LEA R0, R5, R2, 0x4 reads the S2R's R5: 0x001fc800078e20ff >> 41 = 0xfe4 =
  // 0b1111_1110_0100: stall 4, yield bit 0 (yield), no barriers set, wait mask 0b000001.
  const Control c = decodeControl(0x001fc800078e20ffULL);
  EXPECT_EQ(c.stall, 4);
  EXPECT_TRUE(c.yield);
  EXPECT_EQ(c.writeBarrier, -1);
  EXPECT_EQ(c.readBarrier, -1);
  EXPECT_EQ(c.waitMask, 0b000001);
  EXPECT_EQ(formatControl(c), "----:B0-----:R-:W-:Y:S04");
}

TEST(Control, ReuseFlagsOfOperandSlotsAAndC) {
  // IMAD R12, R13.reuse, c[0x0][0x17c], R2.reuse: 0x140fe200078e0202 >> 41 = 0xa07f1; reuse =
  // 0xa07f1 >> 17 = 0b0101 (slots a and c, the two .reuse operands), stall 1.
  const Control c = decodeControl(0x140fe200078e0202ULL);
  EXPECT_EQ(c.reuse, 0b0101);
  EXPECT_EQ(c.stall, 1);
  EXPECT_EQ(c.waitMask, 0);
  EXPECT_EQ(formatControl(c), "R-R-:B------:R-:W-:-:S01");
}

TEST(Control, GlobalLoadSetsReadAndWriteBarriers) {
  // @!P2 LDG.E R29, [R14.64]: 0x0000a6000c1e1900 >> 41 = 0x53 = 0b0_0101_0011: stall 3,
  // yield bit 1, write barrier 0b010 = 2 (result), read barrier 0b000 = 0 (address registers).
  const Control c = decodeControl(0x0000a6000c1e1900ULL);
  EXPECT_EQ(c.stall, 3);
  EXPECT_EQ(c.writeBarrier, 2);
  EXPECT_EQ(c.readBarrier, 0);
  EXPECT_EQ(formatControl(c), "----:B------:R0:W2:-:S03");
}

TEST(Control, CuAssemblerExamplesDecodeToTheirNotation) {
  // CuAssembler's own examples (CuAsm/common.py, __main__), their codes computed by hand from
  // its encodeCtrlCodes: reuse<<17 | wait<<11 | read<<8 | write<<5 | yieldbit<<4 | stall.
  struct Case {
    std::uint32_t code;
    const char* text;
  };
  const Case cases[] = {
      {(4u << 11) | (0u << 8) | (1u << 5) | (1u << 4) | 7u, "----:B--2---:R0:W1:-:S07"},
      {(0x21u << 11) | (0u << 8) | (5u << 5) | (0u << 4) | 5u, "----:B0----5:R0:W5:Y:S05"},
      {(2u << 17) | (7u << 8) | (7u << 5) | (1u << 4) | 1u, "-R--:B------:R-:W-:-:S01"},
      {(7u << 8) | (0u << 5) | (1u << 4) | 1u, "----:B------:R-:W0:-:S01"},
  };
  for (const auto& c : cases) {
    const std::uint64_t high = static_cast<std::uint64_t>(c.code) << 41;
    EXPECT_EQ(formatControl(decodeControl(high)), c.text) << std::hex << c.code;
    EXPECT_EQ(decodeControl(high).raw, c.code);
  }
}

TEST(Control, BitsOutsideTheControlFieldAreIgnored) {
  // Bits 0..40 (operand encoding) and 62..63 of the high word are not control bits.
  const std::uint64_t noise = ((1ULL << 41) - 1) | (3ULL << 62);
  EXPECT_EQ(decodeControl(0x001fc800078e20ffULL | noise), decodeControl((0x001fc800078e20ffULL & ~noise)));
}
