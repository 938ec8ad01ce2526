// The committed nvdisasm outputs (scripts/regen-sass-inputs.sh) of real kernels: they parse,
// print back to the same IR, and show what the PTX does not (ptxas's LDS.128, source lines
// through inlined functions, a subroutine beside the kernel).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "teg/sass/parser.hpp"
#include "teg/sass/printer.hpp"
#include "teg/sass/stats.hpp"
#include "test_inputs.hpp"

using namespace teg::sass;
using teg::sass::test::inputPath;

namespace {

const char* const kTexts[] = {"matmul_shared.sm_80.sass", "reduce_warp_shuffle.sm_100.sass", "softmax.sm_120.sass"};

// Every wait-mask bit names a barrier that some earlier instruction of the function (in address
// order, or through a loop, any instruction) sets: the control words are consistent with each
// other, which they are only if the field boundaries are right.
void expectWaitsHaveSetters(const Function& f) {
  std::uint8_t set = 0;
  for (const auto& ins : f.instructions) {
    if (ins.control.writeBarrier >= 0) set |= static_cast<std::uint8_t>(1u << ins.control.writeBarrier);
    if (ins.control.readBarrier >= 0) set |= static_cast<std::uint8_t>(1u << ins.control.readBarrier);
  }
  for (const auto& ins : f.instructions)
    EXPECT_EQ(ins.control.waitMask & ~set, 0) << f.name << " " << formatInstruction(ins);
}

}  // namespace

TEST(SassInputs, ParseAndRoundTrip) {
  for (const char* name : kTexts) {
    SCOPED_TRACE(name);
    const Module m = parseDisassemblyFile(inputPath(name));
    ASSERT_FALSE(m.functions.empty());
    for (const auto& f : m.functions) {
      ASSERT_FALSE(f.instructions.empty());
      for (const auto& ins : f.instructions) {
        EXPECT_TRUE(ins.hasEncoding);
        // -lineinfo: every kernel instruction has a line (CUDA's internal math subroutines,
        // such as the slow path of a division, have none).
        if (f.isEntry) {
          EXPECT_GE(ins.source, 0) << formatInstruction(ins);
        }
        // The .reuse marks nvdisasm prints and the reuse bits of the control word agree.
        const bool marked = std::any_of(ins.operands.begin(), ins.operands.end(), [](const Operand& o) { return o.reuse; });
        EXPECT_EQ(marked, ins.control.reuse != 0) << formatInstruction(ins);
      }
      expectWaitsHaveSetters(f);
    }
    const Module again = parseDisassembly(printModule(m), "printed.sass");
    const auto difference = firstDifference(m, again);
    EXPECT_FALSE(difference.has_value()) << *difference;
  }
}

TEST(SassInputs, MatmulSharedLoadsFuseIntoLds128) {
  // The PTX of matmul_shared.cu (sm_80) has 32 scalar ld.shared.f32 in the unrolled tile loop
  // (checked with `teg compile --ptx-out`); ptxas reads each row of As with 128-bit loads.
  const Module m = parseDisassemblyFile(inputPath("matmul_shared.sm_80.sass"));
  ASSERT_EQ(m.target, "sm_80");
  ASSERT_EQ(m.functions.size(), 1u);
  const FunctionStats s = computeStats(m, m.functions[0]);
  EXPECT_TRUE(s.isEntry);
  EXPECT_EQ(s.registersReported, 32);
  const std::uint32_t lds128 = s.mix.count("LDS.128") ? s.mix.at("LDS.128") : 0;
  const std::uint32_t lds32 = s.mix.count("LDS") ? s.mix.at("LDS") : 0;
  EXPECT_GT(lds128, 0u);
  EXPECT_EQ(lds32 + 4 * lds128, 32u);  // the same 32 words, fewer instructions
  EXPECT_EQ(s.loops, 1u);
  // The loads sit on line 22 (sum += As[ty][k] * Bs[k][tx]).
  for (const auto& ins : m.functions[0].instructions)
    if (ins.opcode == "LDS") {
      EXPECT_EQ(m.sources[static_cast<std::size_t>(ins.source)].line, 22);
    }
}

TEST(SassInputs, InlinedLinesKeepTheirCallSites) {
  const Module m = parseDisassemblyFile(inputPath("reduce_warp_shuffle.sm_100.sass"));
  EXPECT_EQ(m.target, "sm_100");
  const bool inlined = std::any_of(m.sources.begin(), m.sources.end(), [](const SourcePosition& p) {
    return !p.inlinedAt.empty() && std::filesystem::path(p.inlinedAt.back().first).filename() == "reduce_warp_shuffle.cu";
  });
  EXPECT_TRUE(inlined);
  // Blackwell code uses uniform registers (LDCU loads kernel parameters into them).
  bool uniform = false;
  for (const auto& ins : m.functions[0].instructions)
    for (const auto& op : ins.operands) uniform = uniform || op.kind == OperandKind::UniformRegister;
  EXPECT_TRUE(uniform);
}

TEST(SassInputs, SubroutineBesideTheKernel) {
  const Module m = parseDisassemblyFile(inputPath("softmax.sm_120.sass"));
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_TRUE(m.functions[0].isEntry);
  EXPECT_FALSE(m.functions[1].isEntry);
  EXPECT_EQ(m.functions[0].section, m.functions[1].section);
  bool calls = false;
  for (const auto& ins : m.functions[0].instructions)
    if (ins.opcode == "CALL")
      for (const auto& op : ins.operands) calls = calls || (op.kind == OperandKind::Label && op.name == m.functions[1].name);
  EXPECT_TRUE(calls);
  EXPECT_TRUE(std::any_of(m.functions[1].instructions.begin(), m.functions[1].instructions.end(),
                          [](const Instruction& i) { return i.opcode == "RET"; }));
}
