// Software sequences (PTX instructions ptxas expands): the table's loader and its errors, the
// mnemonic of an instruction, the choice of architecture and the counts a prediction reports.
#include "teg/analysis/software_sequences.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "teg/support/error.hpp"

using namespace teg;
using namespace teg::analysis;

namespace {

std::string writeTemp(const std::string& text) {
  char path[] = "/tmp/teg_sequences_XXXXXX";
  const int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  std::ofstream(path) << text;
  return path;
}

std::string errorOf(const std::string& text) {
  const std::string path = writeTemp(text);
  try {
    loadSequenceTable(path);
  } catch (const Error& e) {
    std::remove(path.c_str());
    return e.what();
  }
  std::remove(path.c_str());
  return "";
}

trace::StaticInstruction instruction(std::uint32_t pc, const std::string& text) {
  trace::StaticInstruction s;
  s.pc = pc;
  s.text = text;
  return s;
}

// A chain of `steps` fp32 instructions, the first reading the operands.
timing::SoftwareSequence chainOf(int steps) {
  timing::SoftwareSequence sequence;
  for (int k = 0; k < steps; ++k) {
    timing::SequenceStep step;
    step.readsOperands = k == 0;
    if (k > 0) step.after = {k - 1};
    sequence.steps.push_back(step);
  }
  sequence.result = steps - 1;
  return sequence;
}

SequenceTable smallTable() {
  SequenceTable t;
  t.byArchitecture[75]["div.rn.f32"] = chainOf(11);
  t.byArchitecture[80]["div.rn.f32"] = chainOf(10);
  t.byArchitecture[80]["rem.s32"] = chainOf(23);
  t.byArchitecture[90]["div.rn.f32"] = chainOf(9);
  return t;
}

// A one-architecture table whose div.rn.f32 entry is `entry` (JSON).
std::string tableWith(const std::string& entry) {
  return "{\"architectures\": {\"sm_80\": {\"div.rn.f32\": " + entry + "}}}";
}

TEST(SoftwareSequences, MnemonicIsTheOpcodeWithItsQualifiers) {
  EXPECT_EQ(trace::mnemonicOf("div.rn.f32 \t%f3, %f1, %f2;"), "div.rn.f32");
  EXPECT_EQ(trace::mnemonicOf("@%p1 rem.s32 %r1, %r2, %r3;"), "rem.s32");
  EXPECT_EQ(trace::mnemonicOf("  @!%p2 bra $L__BB0_3;"), "bra");
  EXPECT_EQ(trace::mnemonicOf("ret;"), "ret");
  EXPECT_EQ(trace::mnemonicOf(""), "");
  EXPECT_EQ(trace::mnemonicOf("@%p1"), "");
}

TEST(SoftwareSequences, CountsEachSequenceTheSimulatedBlocksExecuted) {
  trace::KernelInfo kernel;
  kernel.instructions = {instruction(0, "div.rn.f32 %f3, %f1, %f2;"), instruction(1, "add.f32 %f4, %f3, %f1;"),
                         instruction(2, "@%p1 div.rn.f32 %f5, %f4, %f2;"), instruction(3, "rem.s32 %r3, %r1, %r2;")};
  timing::TimingResult result;
  result.perInstruction.resize(4);
  result.perInstruction[0].executions = 64;
  result.perInstruction[1].executions = 64;
  result.perInstruction[2].executions = 40;  // the guard held in some warps only
  result.perInstruction[3].executions = 200;
  result.perInstruction[3].issued = 200 * 23;  // issues are not executions
  const SequenceReport report = softwareSequencesOf(kernel, result, smallTable(), 86);
  EXPECT_EQ(report.architecture, 80);  // sm_86 has no counts of its own: sm_80's
  ASSERT_EQ(report.uses.size(), 2u);   // add.f32 is one instruction
  EXPECT_EQ(report.uses[0].instruction, "rem.s32");  // most issued first
  EXPECT_EQ(report.uses[0].warpInstructions, 200u);
  EXPECT_EQ(report.uses[0].sassInstructions, 23);
  EXPECT_EQ(report.uses[1].instruction, "div.rn.f32");
  EXPECT_EQ(report.uses[1].warpInstructions, 104u);  // both division sites
  EXPECT_EQ(report.uses[1].sassInstructions, 10);
  const timing::Provenance row = describeSequences(report, smallTable(), 86, true);
  EXPECT_EQ(row.parameter, "software sequences");
  EXPECT_EQ(row.value, "rem.s32 x200 (23 SASS), div.rn.f32 x104 (10 SASS)");
  EXPECT_NE(row.origin.find("timed as the SASS of their fast path on sm_80 (each"), std::string::npos) << row.origin;
  EXPECT_NE(row.origin.find("(the nearest measured to sm_86)"), std::string::npos) << row.origin;
}

TEST(SoftwareSequences, TheEngineTimesTheNearestMeasuredArchitectureAtOrBelowTheGpus) {
  const SequenceTable table = smallTable();
  EXPECT_EQ(sequencesToTime(table, 86).at("div.rn.f32").steps.size(), 10u);  // sm_80's
  EXPECT_EQ(sequencesToTime(table, 80).count("rem.s32"), 1u);
  EXPECT_EQ(sequencesToTime(table, 100).at("div.rn.f32").steps.size(), 9u);  // sm_90's
  // Older than every measured architecture (GT200, Pascal): nothing is replayed as a sequence,
  // and the report says so.
  EXPECT_TRUE(sequencesToTime(table, 13).empty());
  EXPECT_TRUE(sequencesToTime(table, 61).empty());
  EXPECT_TRUE(sequencesToTime(SequenceTable{}, 80).empty());
  trace::KernelInfo kernel;
  kernel.instructions = {instruction(0, "div.rn.f32 %f3, %f1, %f2;")};
  timing::TimingResult result;
  result.perInstruction.resize(1);
  const timing::Provenance row = describeSequences(softwareSequencesOf(kernel, result, table, 61), table, 61, false);
  EXPECT_NE(row.origin.find("each counted as one instruction: no measurement for sm_61 or older"), std::string::npos)
      << row.origin;
}

TEST(SoftwareSequences, OlderGpusUseTheOldestMeasuredArchitecture) {
  trace::KernelInfo kernel;
  kernel.instructions = {instruction(0, "div.rn.f32 %f3, %f1, %f2;")};
  timing::TimingResult result;
  result.perInstruction.resize(1);
  EXPECT_EQ(softwareSequencesOf(kernel, result, smallTable(), 13).architecture, 75);   // GT200
  EXPECT_EQ(softwareSequencesOf(kernel, result, smallTable(), 100).architecture, 90);  // above the newest
  EXPECT_EQ(softwareSequencesOf(kernel, result, smallTable(), 90).uses.at(0).sassInstructions, 9);
}

TEST(SoftwareSequences, AKernelWithoutSequencesAddsNoRow) {
  trace::KernelInfo kernel;
  kernel.instructions = {instruction(0, "add.f32 %f3, %f1, %f2;")};
  timing::TimingResult result;
  result.perInstruction.resize(1);
  const SequenceReport report = softwareSequencesOf(kernel, result, smallTable(), 80);
  EXPECT_TRUE(report.uses.empty());
  EXPECT_TRUE(describeSequences(report, smallTable(), 80, true).parameter.empty());
}

TEST(SoftwareSequences, LoaderReadsEachStepsUnitAndWhatItWaitsFor) {
  const std::string path = writeTemp(tableWith(
      "{\"sass_instructions\": 3, \"sass_classes\": [\"special\", \"branch\", \"fp32_fma\"], "
      "\"sass_depends\": [[-1], [], [-1, 0]], \"sass_result\": 2}"));
  const SequenceTable table = loadSequenceTable(path);
  std::remove(path.c_str());
  const timing::SoftwareSequence& div = table.byArchitecture.at(80).at("div.rn.f32");
  ASSERT_EQ(div.steps.size(), 3u);
  EXPECT_EQ(div.steps[0].unit, device::InstructionClass::Special);
  EXPECT_TRUE(div.steps[0].readsOperands);
  EXPECT_TRUE(div.steps[0].after.empty());
  EXPECT_EQ(div.steps[1].unit, device::InstructionClass::Branch);
  EXPECT_FALSE(div.steps[1].readsOperands);
  EXPECT_EQ(div.steps[2].after, std::vector<int>{0});
  EXPECT_TRUE(div.steps[2].readsOperands);
  EXPECT_EQ(div.result, 2);
}

TEST(SoftwareSequences, LoaderNamesWhatIsWrong) {
  const std::string good = "\"sass_classes\": [\"fp32_fma\"], \"sass_depends\": [[-1]], \"sass_result\": 0";
  EXPECT_NE(errorOf("{\"architectures\": {\"sm_80\": {\"div.rn.f32\": {\"sass_instructions\": 10}},}}").find(":1:"),
            std::string::npos);  // bad syntax: file:line:col
  EXPECT_NE(errorOf("{\"architectures\": {\"ampere\": {}}}").find("architectures.ampere"), std::string::npos);
  EXPECT_NE(errorOf(tableWith("{\"sass_instructions\": \"ten\"}")).find("architectures.sm_80.div.rn.f32.sass_instructions"),
            std::string::npos);
  EXPECT_NE(errorOf(tableWith("{\"sass_instructions\": 0}")).find("not a positive"), std::string::npos);
  EXPECT_EQ(errorOf(tableWith("{\"sass_instructions\": 1, " + good + "}")), "");
  // The steps' lists: one entry per SASS instruction, a known class, positions before their own.
  EXPECT_NE(errorOf(tableWith("{\"sass_instructions\": 2, " + good + "}")).find("sass_classes: expected a list of 2"),
            std::string::npos);
  EXPECT_NE(errorOf(tableWith("{\"sass_instructions\": 1, \"sass_classes\": [\"fp33\"], \"sass_depends\": [[-1]], "
                              "\"sass_result\": 0}"))
                .find("sass_classes[0]: \"fp33\" is not an instruction class"),
            std::string::npos);
  EXPECT_NE(errorOf(tableWith("{\"sass_instructions\": 1, \"sass_classes\": [\"fp32_fma\"], \"sass_depends\": [[0]], "
                              "\"sass_result\": 0}"))
                .find("sass_depends[0]: 0 is neither -1"),
            std::string::npos);
  EXPECT_NE(errorOf(tableWith("{\"sass_instructions\": 1, \"sass_classes\": [\"fp32_fma\"], \"sass_depends\": [[-1]], "
                              "\"sass_result\": 1}"))
                .find("sass_result: expected the position (0 to 0)"),
            std::string::npos);
  EXPECT_NE(errorOf("[]").find("\"architectures\""), std::string::npos);
}

TEST(SoftwareSequences, ShippedTableCoversTheToolkitsTargets) {
  const SequenceTable table = loadDefaultSequenceTable();
  for (const int sm : {50, 52, 60, 61, 70, 75, 80, 86, 89, 90, 100, 120}) {
    ASSERT_TRUE(table.byArchitecture.count(sm)) << "sm_" << sm;
    const auto& counts = table.byArchitecture.at(sm);
    // A correctly rounded division or square root refines a hardware estimate (MUFU.RCP/RSQ)
    // with several FMAs and checks for special operands; the CUDA C++ Best Practices Guide
    // ("Division Modulo Operations") calls integer division and modulo "particularly costly".
    for (const char* name : {"div.rn.f32", "sqrt.rn.f32", "rcp.rn.f32", "div.rn.f64", "div.s32", "rem.u32"})
      EXPECT_GT(counts.at(name).steps.size(), 4u) << name << " on sm_" << sm;
    EXPECT_FALSE(counts.count("add.f32")) << "a single instruction is not a sequence";
    // The division's result depends on the reciprocal estimate (MUFU.RCP) through the FMAs that
    // refine it (Newton-Raphson: at least an error term, a correction and the quotient's residual).
    const timing::SoftwareSequence& div = counts.at("div.rn.f32");
    std::vector<bool> feeds(div.steps.size(), false);
    feeds[static_cast<std::size_t>(div.result)] = true;
    for (int k = div.result; k >= 0; --k)
      if (feeds[static_cast<std::size_t>(k)])
        for (const int earlier : div.steps[static_cast<std::size_t>(k)].after) feeds[static_cast<std::size_t>(earlier)] = true;
    int special = 0, fma = 0;
    for (std::size_t k = 0; k < div.steps.size(); ++k) {
      if (!feeds[k]) continue;
      special += div.steps[k].unit == device::InstructionClass::Special;
      fma += div.steps[k].unit == device::InstructionClass::Fp32Fma;
    }
    EXPECT_EQ(special, 1) << "sm_" << sm;
    EXPECT_GE(fma, 3) << "sm_" << sm;
  }
}

}  // namespace
