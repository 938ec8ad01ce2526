// `teg bound`'s property on every row of every validation suite: no row is predicted faster than
// its binding bound (bound_allowance.hpp). The rows come from the two whole `teg validate --json`
// runs the ctest fixtures ValidationRun.ptx and ValidationRun.auto make once (CMakeLists.txt,
// run_to_file.cmake): a whole validation takes minutes, and the README's `teg validate` and
// `teg validate --models` make the same predictions as the auto run (readme_commands_test.cpp
// runs those two on a few rows of each suite).
// Needs nvcc (skipped without it); ctest label "validation".
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "bound_allowance.hpp"

using nlohmann::json;
using teg::test::allowed;

namespace {

bool haveNvcc() { return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || std::getenv("CUDA_HOME") != nullptr; }

// The fixture's output: `teg validate --json ...` as it printed it.
json wholeRun(const std::string& name) {
  const std::string path = std::string(TEG_VALIDATION_RUNS) + "/" + name;
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << path << " is missing: its fixture (ctest -R ValidationRun) did not complete";
    return json();
  }
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    ADD_FAILURE() << path << ": " << e.what();
    return json();
  }
}

// Whether the suite fixes its instruction stream whatever --isa asks (its `isa` and `isa_why`:
// the reason teg validate gives then starts so).
bool fixesItsIsa(const json& suite) {
  if (!suite.contains("isa") || !suite["isa"].contains("reasons")) return false;
  for (const auto& reason : suite["isa"]["reasons"])
    if (reason.get<std::string>().rfind("the suite asks for", 0) == 0) return true;
  return false;
}

// Every row of the run: bound no faster than the prediction. Returns the rows timed on SASS of
// the suites that leave the instruction stream to --isa.
std::size_t checkRows(const json& report, const std::string& isa) {
  std::size_t rows = 0, onSass = 0;
  if (report.is_null()) return 0;
  for (const auto& suite : report["suites"])
    for (const auto& row : suite["rows"]) {
      ++rows;
      onSass += row["isa"] == "sass" && !fixesItsIsa(suite);
      EXPECT_LE(row["bound_cycles"].get<double>(),
                row["predicted_cycles"].get<double>() * (1 + allowed(row["binding_resource"])))
          << isa << " " << suite["name"] << " " << row["label"] << " bound by " << row["binding_resource"];
    }
  EXPECT_GE(rows, 850u);  // 853 rows in the 74 suites today
  return onSass;
}

}  // namespace

TEST(BoundProperty, EveryValidationRowIsPredictedNoFasterThanItsBound) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const json report = wholeRun("validate-ptx.json");
  EXPECT_EQ(checkRows(report, "ptx"), 0u) << "--isa ptx times every row on PTX but those of suites that fix their ISA";
}

// --isa auto (the default): SASS wherever it can be timed (cc >= 7.0; Volta's through CUDA 11.8's
// ptxas, so the V100 and TITAN V suites too).
TEST(BoundProperty, EveryValidationRowOnSassIsPredictedNoFasterThanItsBound) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const json report = wholeRun("validate-auto.json");
  EXPECT_GE(checkRows(report, "auto"), 700u);  // 775 rows are timed on SASS today (398 before Volta's SASS)
}

// timing.block_launch_cycles of sm_70 and sm_80 (data/devices/generic) is derived from one row
// each: gpu-stream's init kernel at 64 threads per block, whose measured block turnover minus
// teg's SASS simulation of the block itself is the launch and retire cost. With that figure the
// row must come out as measured (within the rounding to a whole cycle), on SASS: a change to how
// the engine times that block, or to the figure, that breaks the derivation fails here.
TEST(DeviceFigureDerivation, BlockLaunchCostReproducesTheRowItIsDerivedFrom) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const json report = wholeRun("validate-auto.json");
  if (report.is_null()) return;
  int found = 0;
  for (const auto& suite : report["suites"]) {
    if (suite["name"] != "gpustream-v100-init" && suite["name"] != "gpustream-a100-init") continue;
    for (const auto& row : suite["rows"]) {
      if (row["label"] != "64") continue;
      ++found;
      EXPECT_EQ(row["isa"], "sass") << suite["name"];
      EXPECT_NEAR(row["error_pct"].get<double>(), 0.0, 1.0) << suite["name"] << ": measured " << row["measured"]
                                                             << ", predicted " << row["predicted"];
    }
  }
  EXPECT_EQ(found, 2);
}
