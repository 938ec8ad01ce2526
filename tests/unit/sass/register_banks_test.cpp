// Register-bank conflicts on hand-made SASS, each worked by hand with Jia 2018's Volta layout
// (2 banks, bank = index mod 2, a bank serves two reads a cycle: a conflict only when three
// distinct source registers share a bank), and the data file's published / unpublished rows.
#include <gtest/gtest.h>

#include "teg/sass/parser.hpp"
#include "teg/sass/register_banks.hpp"
#include "teg/support/error.hpp"

using namespace teg::sass;

namespace {

const char* const kText = R"(
	.section	.text.k,"ax",@progbits
        .type           k,@function
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
        /*0000*/                   FFMA R0, R2, R4, R6 ;
        /*0010*/                   FFMA R1, R2, R4, R7 ;
        /*0020*/                   FFMA R1, R3, R5, R7 ;
        /*0030*/                   FFMA R8, R2.reuse, R4, R6 ;
        /*0040*/                   FFMA R9, R2, R10, R12 ;
        /*0050*/                   FFMA R9, R4, R4, R6 ;
        /*0060*/                   FFMA R9, R4, RZ, R6 ;
        /*0070*/                   FFMA R9, R4, 2, R6 ;
        /*0080*/                   STS [R2], R4 ;
        /*0090*/                   FFMA R11, R2.reuse, R4, R6 ;
.L_x:
        /*00a0*/                   FFMA R13, R2, R10, R12 ;
        /*00b0*/                   IMAD R13, R2, R10, R12 ;
        /*00c0*/                   FADD R13, R2, R10 ;
        /*00d0*/                   EXIT ;
)";

RegisterBankLayout volta() { return RegisterBankLayout{"sm_70", 2, 2, 1, "test"}; }

}  // namespace

TEST(RegisterBanks, ThreeSourcesInOneBankCostOneCycleOnVolta) {
  const Module m = parseDisassembly(kText, "k.sass");
  const Function& f = m.functions[0];
  const auto layout = volta();
  EXPECT_EQ(bankConflictCycles(f, 0, layout), 1);  // R2 R4 R6: all even, 3 reads of bank 0 -> 2 cycles
  EXPECT_EQ(bankConflictCycles(f, 1, layout), 0);  // R2 R4 | R7: 2 + 1
  EXPECT_EQ(bankConflictCycles(f, 2, layout), 1);  // R3 R5 R7: all odd
  EXPECT_EQ(bankConflictCycles(f, 3, layout), 1);  // no .reuse before it: R2 R4 R6 all read
  // The previous FFMA marked R2 (slot 1) .reuse and this one reads R2 in slot 1: cached, so
  // bank 0 serves R10 and R12 only.
  EXPECT_EQ(bankConflictCycles(f, 4, layout), 0);
  EXPECT_EQ(bankConflictCycles(f, 5, layout), 0);  // R4 twice is one read: R4 R6
  EXPECT_EQ(bankConflictCycles(f, 6, layout), 0);  // RZ reads no bank
  EXPECT_EQ(bankConflictCycles(f, 7, layout), 0);  // an immediate reads no bank
  EXPECT_EQ(bankConflictCycles(f, 8, layout), 0);  // a store is not an ALU form
  // A label between the .reuse and the use: the instruction may be reached by a jump, nothing
  // is assumed cached: R2 R10 R12 all even.
  EXPECT_EQ(bankConflictCycles(f, 10, layout), 1);
  EXPECT_EQ(bankConflictCycles(f, 11, layout), 1);  // IMAD reads three registers as FFMA does
  EXPECT_EQ(bankConflictCycles(f, 12, layout), 0);  // two sources never exceed two reads
}

TEST(RegisterBanks, AOneReadBankChargesEveryExtraRead) {
  // The rule is ceil(reads / readsPerBank) - 1 per bank (max over banks): with one read per bank
  // per cycle (Kepler-like, seed 000 Table 4.1: two registers on a bank halve the throughput,
  // three cut it to a third), R2 R4 R6 on one of two banks cost 2 extra cycles, R2 R4 | R7 one.
  const Module m = parseDisassembly(kText, "k.sass");
  const RegisterBankLayout oneRead{"x", 2, 1, 1, "test"};
  EXPECT_EQ(bankConflictCycles(m.functions[0], 0, oneRead), 2);
  EXPECT_EQ(bankConflictCycles(m.functions[0], 1, oneRead), 1);
}

TEST(RegisterBanks, PublishedLayoutsOnlyForVoltaAndTuring) {
  const auto v = registerBankLayout("sm_70");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->banks, 2);
  EXPECT_EQ(v->readsPerBank, 2);
  EXPECT_NE(v->source.find("1804.06826"), std::string::npos);
  // Turing: the public RTX 2070 measurement (FFMA CPI 1.758 with a conflict, 1.484 without).
  const auto t = registerBankLayout("sm_75");
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(t->penaltyCycles, 1.758 - 1.484, 1e-12);
  for (const char* arch : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    std::string why;
    EXPECT_FALSE(registerBankLayout(arch, &why).has_value()) << arch;
    EXPECT_NE(why.find("no published register-bank layout"), std::string::npos) << why;
  }
  std::string why;
  EXPECT_FALSE(registerBankLayout("sm_99", &why).has_value());
  EXPECT_NE(why.find("not in"), std::string::npos) << why;
}
