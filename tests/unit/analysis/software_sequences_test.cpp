// Software sequences (PTX instructions ptxas expands): the table's loader and its errors, the
// mnemonic of an instruction, the choice of architecture and the counts a prediction reports.
#include "teg/analysis/software_sequences.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

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

SequenceTable smallTable() {
  SequenceTable t;
  t.byArchitecture[75]["div.rn.f32"] = 11;
  t.byArchitecture[80]["div.rn.f32"] = 10;
  t.byArchitecture[80]["rem.s32"] = 23;
  t.byArchitecture[90]["div.rn.f32"] = 9;
  return t;
}

TEST(SoftwareSequences, MnemonicIsTheOpcodeWithItsQualifiers) {
  EXPECT_EQ(mnemonicOf("div.rn.f32 \t%f3, %f1, %f2;"), "div.rn.f32");
  EXPECT_EQ(mnemonicOf("@%p1 rem.s32 %r1, %r2, %r3;"), "rem.s32");
  EXPECT_EQ(mnemonicOf("  @!%p2 bra $L__BB0_3;"), "bra");
  EXPECT_EQ(mnemonicOf("ret;"), "ret");
  EXPECT_EQ(mnemonicOf(""), "");
  EXPECT_EQ(mnemonicOf("@%p1"), "");
}

TEST(SoftwareSequences, CountsEachSequenceTheSimulatedBlocksIssued) {
  trace::KernelInfo kernel;
  kernel.instructions = {instruction(0, "div.rn.f32 %f3, %f1, %f2;"), instruction(1, "add.f32 %f4, %f3, %f1;"),
                         instruction(2, "@%p1 div.rn.f32 %f5, %f4, %f2;"), instruction(3, "rem.s32 %r3, %r1, %r2;")};
  timing::TimingResult result;
  result.perInstruction.resize(4);
  result.perInstruction[0].issued = 64;
  result.perInstruction[1].issued = 64;
  result.perInstruction[2].issued = 40;  // the guard held in some warps only
  result.perInstruction[3].issued = 200;
  const SequenceReport report = softwareSequencesOf(kernel, result, smallTable(), 86);
  EXPECT_EQ(report.architecture, 80);  // sm_86 has no counts of its own: sm_80's
  ASSERT_EQ(report.uses.size(), 2u);   // add.f32 is one instruction
  EXPECT_EQ(report.uses[0].instruction, "rem.s32");  // most issued first
  EXPECT_EQ(report.uses[0].warpInstructions, 200u);
  EXPECT_EQ(report.uses[0].sassInstructions, 23);
  EXPECT_EQ(report.uses[1].instruction, "div.rn.f32");
  EXPECT_EQ(report.uses[1].warpInstructions, 104u);  // both division sites
  EXPECT_EQ(report.uses[1].sassInstructions, 10);
  const timing::Provenance row = describeSequences(report, smallTable(), 86);
  EXPECT_EQ(row.parameter, "software sequences");
  EXPECT_EQ(row.value, "rem.s32 x200 (23 SASS), div.rn.f32 x104 (10 SASS)");
  EXPECT_NE(row.origin.find("sm_80 (the nearest measured to sm_86)"), std::string::npos) << row.origin;
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
  EXPECT_TRUE(describeSequences(report, smallTable(), 80).parameter.empty());
}

TEST(SoftwareSequences, LoaderNamesWhatIsWrong) {
  EXPECT_NE(errorOf("{\"architectures\": {\"sm_80\": {\"div.rn.f32\": {\"sass_instructions\": 10}},}}").find(":1:"),
            std::string::npos);  // bad syntax: file:line:col
  EXPECT_NE(errorOf("{\"architectures\": {\"ampere\": {}}}").find("architectures.ampere"), std::string::npos);
  EXPECT_NE(errorOf("{\"architectures\": {\"sm_80\": {\"div.rn.f32\": {\"sass_instructions\": \"ten\"}}}}")
                .find("architectures.sm_80.div.rn.f32.sass_instructions"),
            std::string::npos);
  EXPECT_NE(errorOf("{\"architectures\": {\"sm_80\": {\"div.rn.f32\": {\"sass_instructions\": 0}}}}").find("not a positive"),
            std::string::npos);
  EXPECT_NE(errorOf("[]").find("\"architectures\""), std::string::npos);
}

TEST(SoftwareSequences, ShippedTableCoversTheToolkitsTargets) {
  const SequenceTable table = loadDefaultSequenceTable();
  for (const int sm : {75, 80, 86, 89, 90, 100, 120}) {
    ASSERT_TRUE(table.byArchitecture.count(sm)) << "sm_" << sm;
    const auto& counts = table.byArchitecture.at(sm);
    // A correctly rounded division or square root refines a hardware estimate (MUFU.RCP/RSQ)
    // with several FMAs and checks for special operands; the CUDA C++ Best Practices Guide
    // ("Division Modulo Operations") calls integer division and modulo "particularly costly".
    for (const char* name : {"div.rn.f32", "sqrt.rn.f32", "rcp.rn.f32", "div.rn.f64", "div.s32", "rem.u32"})
      EXPECT_GT(counts.at(name), 4) << name << " on sm_" << sm;
    EXPECT_FALSE(counts.count("add.f32")) << "a single instruction is not a sequence";
  }
}

}  // namespace
