// `teg sass` on the committed nvdisasm text of matmul_shared.cu for sm_80 (needs no tools): the
// control word and source line beside each instruction, the mix per block and line, JSON, and
// errors located in the nvdisasm text.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_teg.hpp"

using teg::test::runTeg;

namespace {

std::string input() { return std::string(TEG_SOURCE_DIR) + "/tests/unit/sass/inputs/matmul_shared.sm_80.sass"; }

}  // namespace

TEST(CliSass, PrintShowsControlWordsAndLines) {
  const auto r = runTeg({"sass", "print", input()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The second instruction, S2R R5, SR_CTAID.X (high word 0x000e220000002500): stall 1, sets
  // write barrier 0; matmul_shared.cu line 15 (int col = blockIdx.x * TILE + threadIdx.x).
  EXPECT_NE(r.out.find("/*0010*/ S2R R5, SR_CTAID.X ;"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("----:B------:R-:W0:-:S01 matmul_shared.cu:15"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel matmulShared(float const*, float const*, float*, int, int, int) (32 registers)"),
            std::string::npos);
  EXPECT_NE(r.out.find("(loop depth 1)"), std::string::npos);
}

TEST(CliSass, StatsJsonHasTheMixPerBlockAndLine) {
  const auto r = runTeg({"sass", "stats", input(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("target"), "sm_80");
  const auto& k = j.at("kernels").at(0);
  EXPECT_EQ(k.at("mangled"), "_Z12matmulSharedPKfS0_Pfiii");
  EXPECT_EQ(k.at("mix").at("LDS.128"), 4);
  EXPECT_EQ(k.at("mix").at("LDS"), 16);
  EXPECT_EQ(k.at("loops"), 1);
  int line22 = 0;
  for (const auto& l : k.at("lines"))
    if (l.at("source").at("line") == 22) line22 = l.at("instructions");
  EXPECT_EQ(line22, 16 + 16 + 4);  // FFMA, LDS, LDS.128 of sum += As[ty][k] * Bs[k][tx]
  int blocks = 0;
  for (const auto& b : k.at("blocks")) blocks += b.at("instructions").get<int>();
  EXPECT_EQ(blocks, k.at("instructions").get<int>());
}

TEST(CliSass, KernelSelectionAndUnknownKernel) {
  EXPECT_EQ(runTeg({"sass", "stats", input(), "--kernel", "matmulShared"}).exitCode, 0);
  const auto r = runTeg({"sass", "stats", input(), "--kernel", "nosuch"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("nosuch"), std::string::npos) << r.err;
}

TEST(CliSass, MalformedTextIsLocated) {
  const std::string path = teg::test::writeTempFile(
      "bad.sass", ".section .text.k,\"ax\",@progbits\nk:\n /*0000*/ LDS R1, [R2 ;\n");
  const auto r = runTeg({"sass", "print", path});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("bad.sass:3:19: unbalanced brackets"), std::string::npos) << r.err;
}
