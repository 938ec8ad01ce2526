#include "teg/report/timing_view.hpp"

#include <gtest/gtest.h>

using namespace teg;

namespace {

timing::TimingResult sample() {
  timing::TimingResult r;
  r.kernel = "saxpy";
  r.device = "A100";
  r.cycles = 1234567;
  r.timeMs = 0.875;
  r.bound = "DRAM bandwidth";
  r.boundExplanation = "x";
  r.stalls[static_cast<int>(timing::StallReason::LongScoreboard)] = 300;
  r.stalls[static_cast<int>(timing::StallReason::Selected)] = 100;
  r.perInstruction.resize(2);
  r.perInstruction[1].issued = 10;
  r.perInstruction[1].executions = 10;
  r.perInstruction[1].stallCycles = 300;
  r.perInstruction[1].stalls[static_cast<int>(timing::StallReason::LongScoreboard)] = 300;
  return r;
}

trace::KernelInfo kernel() {
  trace::KernelInfo k;
  k.sourceFiles = {"/src/saxpy.cu"};
  k.instructions.resize(2);
  k.instructions[1].sourceFile = 0;
  k.instructions[1].sourceLine = 7;
  k.instructions[1].text = "ld.global.f32 %f1, [%rd4];";
  return k;
}

TEST(TimingView, TextShowsCyclesSharesAndTheCostliestLine) {
  const std::string text = report::renderTimingText(sample(), kernel(), {});
  EXPECT_NE(text.find("1,234,567 cycles = 0.875 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("long_scoreboard"), std::string::npos);
  EXPECT_NE(text.find("75.0 %"), std::string::npos);  // 300 of 400 warp-cycles
  EXPECT_NE(text.find("saxpy.cu:7"), std::string::npos);
}

TEST(TimingView, JsonCarriesTheFieldsToolsRelyOn) {
  report::WhatIfOutcome w{"dram-bw=x2", sample()};
  w.result.cycles = 617283.5;
  const auto j = report::timingJson(sample(), kernel(), {w});
  EXPECT_EQ(j["cycles"], 1234567);
  EXPECT_EQ(j["time_ms"], 0.875);
  EXPECT_EQ(j["bound"], "DRAM bandwidth");
  EXPECT_EQ(j["per_line"][0]["line"], "saxpy.cu:7");
  EXPECT_EQ(j["per_line"][0]["issued"], 10);
  EXPECT_EQ(j["per_line"][0]["executed"], 10);
  EXPECT_DOUBLE_EQ(j["what_if"][0]["speedup"].get<double>(), 2.0);
}

TEST(TimingView, ALineOfSoftwareSequencesIssuesMoreThanItExecutes) {
  // div.rn.f32 executed 4 times as 10 SASS instructions each (timing/software_sequence.hpp).
  auto r = sample();
  r.perInstruction[1].issued = 40;
  r.perInstruction[1].executions = 4;
  const auto j = report::timingJson(r, kernel(), {});
  EXPECT_EQ(j["per_line"][0]["issued"], 40);
  EXPECT_EQ(j["per_line"][0]["executed"], 4);
}

TEST(Sparkline, ScalesToTheMaximum) {
  EXPECT_EQ(report::sparkline({0, 4, 8}, 3), " ▄█");
  EXPECT_EQ(report::sparkline({1, 1, 8, 8}, 2), "▁█");  // pairs averaged: 1 and 8 -> 1/8 of full
}

// Issue 24: with extreme device figures the counts exceeded 2^63 and llround wrapped them into
// negative digit groups (undefined behaviour); they print in scientific notation instead.
TEST(TimingView, HugeCountsPrintWithoutWrapping) {
  auto r = sample();
  r.cycles = 3e19;
  r.perInstruction[1].stallCycles = 1e30;
  r.timeline.push_back({0, 0, 1, 0, 1e30});
  r.timeline.push_back({0, 1, 1, 5e29, 2e30});
  const std::string text = report::renderTimingText(r, kernel(), {});
  EXPECT_NE(text.find("3.000e+19 cycles"), std::string::npos) << text;
  EXPECT_NE(text.find("1.000e+30"), std::string::npos) << text;
  EXPECT_EQ(text.find("-9,223"), std::string::npos) << text;
  EXPECT_EQ(report::sparkline({1e308, 1e308 * 10, 0}, 3), "   ");  // an infinite peak: no bars, no NaN cast
}

}  // namespace

namespace {

// One source line of three instructions: the address arithmetic, the load and the use of the
// loaded value. The use stalls most (long_scoreboard: it waits for the load), the load a little
// (lg_throttle); the report must name the use, not the line's first instruction.
TEST(TimingView, PerLineViewNamesTheInstructionThatStalls) {
  using timing::StallReason;
  timing::TimingResult r;
  r.kernel = "_Z5scaleIfEvPT_i";
  r.device = "A100";
  r.perInstruction.resize(3);
  for (auto& c : r.perInstruction) c.issued = c.executions = 4;
  r.perInstruction[1].stallCycles = 50;
  r.perInstruction[1].stalls[static_cast<int>(StallReason::LgThrottle)] = 50;
  r.perInstruction[2].stallCycles = 900;
  r.perInstruction[2].stalls[static_cast<int>(StallReason::LongScoreboard)] = 700;
  r.perInstruction[2].stalls[static_cast<int>(StallReason::Wait)] = 200;
  trace::KernelInfo k;
  k.sourceFiles = {"scale.cu"};
  k.instructions.resize(3);
  const char* texts[] = {"mul.wide.s32 %rd2, %r1, 4;", "ld.global.f32 %f1, [%rd3];", "mul.f32 %f2, %f1, 0f40000000;"};
  for (int i = 0; i < 3; ++i) {
    k.instructions[static_cast<std::size_t>(i)].sourceFile = 0;
    k.instructions[static_cast<std::size_t>(i)].sourceLine = 3;
    k.instructions[static_cast<std::size_t>(i)].text = texts[i];
  }
  const auto j = report::timingJson(r, k, {});
  ASSERT_EQ(j["per_line"].size(), 1u);
  const auto& s = j["per_line"][0]["stalling_instruction"];
  EXPECT_EQ(s["pc"], 2);
  EXPECT_EQ(s["opcode"], "mul.f32");
  EXPECT_EQ(s["top_stall"], "long_scoreboard");
  EXPECT_DOUBLE_EQ(s["stall_cycles"].get<double>(), 900);
  EXPECT_EQ(j["per_line"][0]["instruction"], texts[0]);  // the line's first instruction, as before
  const std::string text = report::renderTimingText(r, k, {});
  EXPECT_NE(text.find("mul.f32 %f2, %f1, 0f40000000;  long_scoreboard"), std::string::npos) << text;
}

TEST(TimingView, KernelIsDemangledWithTheSymbolBeside) {
  timing::TimingResult r;
  r.kernel = "_Z5scaleIfEvPT_i";
  r.device = "A100";
  const auto j = report::timingJson(r, {}, {});
  EXPECT_EQ(j["kernel"], "void scale<float>(float*, int)");
  EXPECT_EQ(j["mangled"], "_Z5scaleIfEvPT_i");
  EXPECT_NE(report::renderTimingText(r, {}, {}).find("void scale<float>(float*, int) on A100 (_Z5scaleIfEvPT_i)"),
            std::string::npos);
}

TEST(TimingView, EveryJsonFieldHasAScope) {
  const auto j = report::timingJson(sample(), kernel(), {});
  for (const auto& [key, value] : j.items()) {
    ASSERT_TRUE(j["scope"].contains(key)) << key << " has no scope";
    const auto& scope = j["scope"][key];
    if (scope.is_string()) {
      EXPECT_TRUE(scope == "gpu" || scope == "sm" || scope == "sm_sampled" || scope == "none") << key << ": " << scope;
    }
  }
}

}  // namespace
