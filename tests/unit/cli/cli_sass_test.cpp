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

// `teg sass lines`: the source view. Expectations read from the committed text by hand and by a
// separate decode of the high words (bits 41..44; a Python one-off over the file): line 22,
// `sum += As[ty][k] * Bs[k][tx]` unrolled 16 times, has 36 instructions (16 FFMA, 16 LDS of Bs's
// column, 4 LDS.128 of As's row) whose stall counts sum to 102; line 26 (the store) 16
// instructions, 5 stall cycles.
TEST(CliSass, LinesShowTheSourceTextThenItsSass) {
  const std::string sources = std::string(TEG_SOURCE_DIR) + "/examples/kernels";
  const auto r = runTeg({"sass", "lines", input(), "--source-dir", sources});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto line22 = r.out.find("matmul_shared.cu:22");
  ASSERT_NE(line22, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];", line22), std::string::npos);
  EXPECT_NE(r.out.find("36 instrs, 102 stall cycles; FFMA 16, LDS 16, LDS.128 4; loads: LDS x16, LDS.128 x4", line22),
            std::string::npos)
      << r.out.substr(line22, 400);
  // Source order: line 22 after line 19 and before line 26, whatever the addresses.
  EXPECT_LT(r.out.find("matmul_shared.cu:19"), line22);
  EXPECT_GT(r.out.find("matmul_shared.cu:26"), line22);
}

TEST(CliSass, LinesJsonHasMixLoadsAndStallsPerLine) {
  const auto r = runTeg({"sass", "lines", input(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& lines = j.at("kernels").at(0).at("lines");
  bool seen = false;
  for (const auto& l : lines) {
    if (l.at("line") != 22) continue;
    seen = true;
    EXPECT_EQ(l.at("instructions"), 36);
    EXPECT_EQ(l.at("stall_cycles"), 102);
    EXPECT_EQ(l.at("shared_loads").at("32"), 16);
    EXPECT_EQ(l.at("shared_loads").at("128"), 4);
    EXPECT_TRUE(l.at("global_loads").empty());
    EXPECT_EQ(l.at("sass").size(), 36u);
    EXPECT_TRUE(l.at("text").is_string());  // the path /tmp/teg-sass-inputs/... is not here: empty text
  }
  EXPECT_TRUE(seen);
}
