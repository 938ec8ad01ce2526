// The babelstream-* suites (UoB-HPC/BabelStream's STREAM kernels, run as the program runs them):
// each row must be the CSV line of its GPU and function, with the launch shape and bytes the
// program uses. Worked by hand from the program (BabelStream v4.0 src/main.cpp and
// src/cuda/CUDAStream.{h,cu}; 5.0's src/julia/JuliaStream.jl/src/{Stream,CUDAStream}.jl), not from
// the suites:
//   array_size = 33554432 (the default; the runs print 268.4 MB = 2^25 x 8 B per array)
//   copy, mul, add, triad: array_size / TBSIZE = 2^25 / 1024 = 32768 blocks of 1024 threads
//   dot (C++ only): DOT_NUM_BLOCKS = 256 blocks of 1024 threads
//   bytes per call: copy, mul, dot 2 x 8 x 2^25 = 536870912; add, triad 3 x 8 x 2^25 = 805306368
//   MBytes/sec as printed (10^6 bytes); the suites compare GB/s = MBytes/sec / 1000
//   each call is timed on the host around the launch and a synchronisation: metric.launch synchronous
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "teg/analysis/validation.hpp"
#include "teg/emu/launch.hpp"
#include "suite_test_support.hpp"

using namespace teg::analysis;
using teg::test::csvRows;

namespace {

const std::string kData = std::string(TEG_SOURCE_DIR) + "/data/validation";

struct Expected {
  std::string csvGpu, device, kernelPrefix, source;
  std::vector<std::string> functions;
};

}  // namespace

TEST(BabelStreamSuites, RowsAreTheCsvLinesRunWithTheProgramsLaunchShapeAndBytes) {
  const auto csv = csvRows(kData + "/babelstream_results.csv");
  ASSERT_EQ(csv.size(), 10u);  // RTX 2080 Ti and GH200, 5 functions each
  const std::map<std::string, Expected> suites{
      {"babelstream-rtx2080ti",
       {"RTX 2080 Ti", "rtx2080ti", "", "iree-org/iree-experimental@6f8169a8498c6e9734832d835cdb118dad536ff4:",
        {"Copy", "Mul", "Add", "Triad", "Dot"}}},
      // Dot is left out: its timed call is an allocation, two kernels and a copy (the suite's notes).
      {"babelstream-julia-gh200",
       {"GH200", "gh200", "jl_", "UoB-HPC/BabelStream issue #194", {"Copy", "Mul", "Add", "Triad"}}}};
  const long long n = 33554432;
  std::size_t checked = 0;
  for (const auto& [name, e] : suites) {
    const auto suite = loadValidationSuite(kData + "/suites/" + name + ".json");
    EXPECT_EQ(suite.gpu, e.device) << name;
    EXPECT_EQ(suite.metric, ValidationMetric::BandwidthGBs) << name;
    EXPECT_EQ(suite.launch, "synchronous") << name << ": a host timer around launch + synchronise";
    EXPECT_EQ(suite.meanTolerancePct, 10) << name;
    ASSERT_EQ(suite.rows.size(), e.functions.size()) << name;
    for (std::size_t i = 0; i < suite.rows.size(); ++i) {
      const auto& row = suite.rows[i];
      const std::string& function = e.functions[i];
      std::string lower = function;
      for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      EXPECT_EQ(row.label.rfind(lower + " (BabelStream", 0), 0u) << name << " " << row.label;
      const std::map<std::string, std::string>* line = nullptr;
      for (const auto& c : csv)
        if (c.at("gpu") == e.csvGpu && c.at("function") == function) line = &c;
      ASSERT_NE(line, nullptr) << name << " " << function;
      EXPECT_EQ(std::stoll(line->at("array_size")), n) << name;
      EXPECT_EQ(line->at("precision"), "double") << name;
      EXPECT_NE(line->at("source").find(e.source), std::string::npos) << name;
      EXPECT_NEAR(row.measured, std::stod(line->at("mbytes_per_s")) / 1000.0, 1e-6) << name << " " << function;
      const bool three = function == "Add" || function == "Triad";
      ASSERT_TRUE(row.bytes) << name << " " << function;
      EXPECT_EQ(*row.bytes, static_cast<double>((three ? 3 : 2) * 8 * n)) << name << " " << function;
      const auto launch = teg::emu::readLaunchFile(row.launchFile.empty() ? suite.launchFile : row.launchFile);
      EXPECT_EQ(launch.kernel, e.kernelPrefix + lower + "_kernel") << name << " " << function;
      EXPECT_EQ(launch.block.x, 1024u) << name << " " << function;
      EXPECT_EQ(launch.grid.x, function == "Dot" ? 256u : static_cast<unsigned>(n / 1024)) << name << " " << function;
      // Every array the kernel touches holds array_size doubles (dot's partial sums: one per block).
      for (const auto& arg : launch.args)
        if (arg.isBuffer() && arg.name != "sum") {
          EXPECT_EQ(std::get<teg::emu::BufferArg>(arg.value).count, static_cast<std::uint64_t>(n)) << name;
        }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 9u);
}

// Each suite is in its generation's bandwidth group (decided before teg was run on it).
TEST(BabelStreamSuites, EachIsInItsGenerationsBandwidthGroup) {
  const std::map<std::string, std::string> expected{{"babelstream-rtx2080ti", "bandwidth-turing"},
                                                    {"babelstream-julia-gh200", "bandwidth-hopper"}};
  teg::test::expectEachSuiteInItsGroup(kData + "/groups.json", expected);
}
