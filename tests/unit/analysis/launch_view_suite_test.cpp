// Which time a validation suite's measurement took (metric.launch) and the time_ms metric: read
// from the shipped suites and refused with the file and the field when wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "teg/analysis/validation.hpp"
#include "teg/support/error.hpp"

using namespace teg::analysis;

namespace {

const std::string kSuites = std::string(TEG_SOURCE_DIR) + "/data/validation/suites";

std::string errorOf(const std::string& name, const std::string& metric) {
  const auto dir = std::filesystem::temp_directory_path() / "teg-launch-view-test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << R"({"name": "x", "title": "t", "source": "s", "gpu": "a100", "launch": "l.json", "metric": )"
                      << metric << R"(, "rows": [{"label": "r", "measured": 1}]})";
  try {
    loadValidationSuite(path);
  } catch (const teg::Error& e) {
    return e.what();
  }
  return "";
}

// gpu-benches times launch, launch, synchronise and halves it (gpu-stream/main.cu): every
// gpu-stream suite says so; the atomic suite's program uses CUDA events around one launch.
TEST(LaunchViewSuite, ShippedSuitesSayWhichTimeWasMeasured) {
  for (const char* kernel : {"init", "read", "scale", "triad", "stencil3pt", "stencil5pt"})
    for (const char* gpu : {"a100", "v100"}) {
      const auto suite = loadValidationSuite(kSuites + "/gpustream-" + gpu + "-" + kernel + ".json");
      EXPECT_EQ(suite.launch, "two_launches") << gpu << " " << kernel;
    }
  const auto atomics = loadValidationSuite(kSuites + "/atomic-contention-rtx-a2000.json");
  EXPECT_EQ(atomics.metric, ValidationMetric::TimeMs);
  EXPECT_EQ(atomics.launch, "kernel");
  ASSERT_EQ(atomics.rows.size(), 6u);
  EXPECT_EQ(atomics.rows.front().measured, 113.703331);  // atomic_contention.csv, 1024 threads at 256
  EXPECT_EQ(atomics.rows.front().grid->x, 4u);
  // Every other suite keeps the kernel's own time (the default).
  EXPECT_EQ(loadValidationSuite(kSuites + "/l2-bandwidth-t4.json").launch, "kernel");
}

TEST(LaunchViewSuite, BadLaunchViewsAreRefusedByName) {
  EXPECT_NE(errorOf("view.json", R"({"kind": "time_ms", "launch": "warm"})").find("metric.launch 'warm'"),
            std::string::npos);
  EXPECT_NE(errorOf("cycles.json", R"({"kind": "cycles", "launch": "stream"})")
                .find("metric.launch applies to bandwidth_gbps and time_ms only"),
            std::string::npos);
  EXPECT_EQ(errorOf("ok.json", R"({"kind": "time_ms", "launch": "graph"})"), "");
}

}  // namespace
