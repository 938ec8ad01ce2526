// `--isa sass|ptx|auto` (issue 26 point 5): SASS where the GPU, the source, the tools and the
// SASS emulator allow it, PTX otherwise with the obstacle named; `--isa sass` refuses, naming it.
#include "teg/analysis/isa_choice.hpp"

#include <gtest/gtest.h>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/disassembler.hpp"

using namespace teg;
using namespace teg::analysis;

namespace {

// An RTX 4060 kernel compiled for its own architecture, nvdisasm found, the emulator able to run it.
IsaFacts everythingThere() {
  IsaFacts f;
  f.gpu = "RTX 4060";
  f.computeCapability = 89;
  f.compiledArch = "sm_89";
  f.gpuArch = "sm_89";
  f.haveNvdisasm = true;
  f.haveVoltaToolchain = true;
  return f;
}

TEST(IsaChoice, ParsesTheThreeRequestsAndRefusesOthers) {
  EXPECT_EQ(parseIsaRequest("auto"), IsaRequest::Auto);
  EXPECT_EQ(parseIsaRequest("ptx"), IsaRequest::Ptx);
  EXPECT_EQ(parseIsaRequest("sass"), IsaRequest::Sass);
  EXPECT_THROW(parseIsaRequest("SASS"), Error);
  EXPECT_THROW(parseIsaRequest("sm_89"), Error);
}

TEST(IsaChoice, AutoTakesSassWhenNothingStandsInTheWay) {
  const auto c = chooseIsa(IsaRequest::Auto, everythingThere());
  EXPECT_EQ(c.isa, trace::Isa::Sass);
  EXPECT_NE(c.reason.find("sm_89"), std::string::npos) << c.reason;
  EXPECT_EQ(chooseIsa(IsaRequest::Sass, everythingThere()).isa, trace::Isa::Sass);
}

TEST(IsaChoice, PtxWhenAskedEvenWhereSassIsPossible) {
  const auto c = chooseIsa(IsaRequest::Ptx, everythingThere());
  EXPECT_EQ(c.isa, trace::Isa::Ptx);
  EXPECT_EQ(c.reason, "--isa ptx");
}

struct Obstacle {
  const char* name;
  void (*apply)(IsaFacts&);
  const char* named;  // a phrase the reason must contain
};

class IsaObstacles : public ::testing::TestWithParam<Obstacle> {};

TEST_P(IsaObstacles, AutoFallsBackToPtxNamingItAndSassRefuses) {
  IsaFacts f = everythingThere();
  GetParam().apply(f);
  const auto c = chooseIsa(IsaRequest::Auto, f);
  EXPECT_EQ(c.isa, trace::Isa::Ptx);
  EXPECT_NE(c.reason.find("auto: PTX because"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find(GetParam().named), std::string::npos) << c.reason;
  try {
    chooseIsa(IsaRequest::Sass, f);
    FAIL() << "--isa sass should refuse";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(GetParam().named), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Each, IsaObstacles,
    ::testing::Values(
        Obstacle{"Pascal", [](IsaFacts& f) { f.computeCapability = 61, f.gpuArch = "sm_61", f.compiledArch = "sm_75"; },
                 "cc 6.1"},
        // Volta's SASS needs CUDA 11.8's ptxas and nvdisasm; with them, a kernel compiled for
        // sm_75 (nvcc 13's PTX stood in: CUDA 11.8's ptxas refused it) is still not the GPU's.
        Obstacle{"VoltaWithoutCuda118",
                 [](IsaFacts& f) {
                   f.computeCapability = 70, f.gpuArch = "sm_70", f.compiledArch = "sm_70", f.haveVoltaToolchain = false;
                 },
                 "CUDA 11.8's ptxas and nvdisasm were not found"},
        Obstacle{"VoltaPtxStandingIn", [](IsaFacts& f) { f.computeCapability = 70, f.gpuArch = "sm_70", f.compiledArch = "sm_75"; },
                 "compiled for sm_75, not the GPU's sm_70"},
        Obstacle{"PtxFile", [](IsaFacts& f) { f.ptxSource = true, f.compiledArch = ""; }, ".ptx file"},
        Obstacle{"OtherArch", [](IsaFacts& f) { f.compiledArch = "sm_86"; }, "compiled for sm_86"},
        Obstacle{"NoNvdisasm", [](IsaFacts& f) { f.haveNvdisasm = false; }, "nvdisasm"},
        Obstacle{"Emulator", [](IsaFacts& f) { f.sassEmulatorGap = "opcode HMMA is not run by the SASS emulator"; },
                 "HMMA"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(IsaChoice, TheFirstObstacleIsNamed) {
  // An old GPU given as PTX without nvdisasm: the architecture is what rules SASS out first.
  IsaFacts f = everythingThere();
  f.computeCapability = 61;
  f.ptxSource = true;
  f.haveNvdisasm = false;
  EXPECT_NE(sassObstacle(f).find("cc 6.1"), std::string::npos) << sassObstacle(f);
  EXPECT_EQ(sassObstacle(everythingThere()), "");
}

// What teg validate --isa sass falls back on (PTX with this reason) for a suite's GPU: only the
// architecture rule, which holds for every kernel on it; the GPUs' cc from the database.
TEST(IsaChoice, TheArchitectureObstacleIsTheCcRuleOfTheDatabasesGpus) {
  const auto db = device::DeviceDatabase::loadDirectory(TEG_SOURCE_DIR "/data/devices");
  EXPECT_NE(sassArchitectureObstacle(db.find("gtx280")).find("cc 1.3"), std::string::npos);
  EXPECT_NE(sassArchitectureObstacle(db.find("tesla-p100-sxm2-16gb")).find("cc 6.0"), std::string::npos);
  // Volta: SASS when CUDA 11.8's tools are there (scripts/install-deps.sh), else the rule names them.
  if (toolchain::haveVoltaToolchain())
    EXPECT_EQ(sassArchitectureObstacle(db.find("tesla-v100-pcie-16gb")), "");
  else
    EXPECT_NE(sassArchitectureObstacle(db.find("tesla-v100-pcie-16gb")).find("cc 7.0"), std::string::npos);
  EXPECT_EQ(sassArchitectureObstacle(db.find("tesla-t4")), "");  // cc 7.5, the oldest CUDA 13 target
  EXPECT_EQ(sassArchitectureObstacle(db.find("a100-pcie-40gb")), "");
  // The same sentence auto gives for that GPU.
  IsaFacts f = everythingThere();
  const auto& v100 = db.find("tesla-v100-pcie-16gb");
  f.gpu = v100.name, f.computeCapability = v100.cc.code(), f.haveVoltaToolchain = toolchain::haveVoltaToolchain();
  EXPECT_EQ(sassObstacle(f), sassArchitectureObstacle(v100));
}

}  // namespace
