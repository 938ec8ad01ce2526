// Issue 25: a streaming kernel is never predicted above the device's sustained DRAM bandwidth.
// gpu-bench's copy stream (data/validation/kernels/gpubench_streaming.*: each thread reads a float
// and writes it plus one, 2^28 floats each way) on an RTX 4090, on its SASS: loop sampling and the
// block extrapolation once floored the steady state at the DRAM peak alone and put it at 962 GB/s,
// above the 929.8 GB/s sustained figure the device file gives (Luo 2024 Table V). Label `nvcc`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::deviceFigure;
using teg::test::runTeg;

namespace {

TEST(DramFloor, GpuBenchCopyStreamIsNotPredictedAboveTheSustainedBandwidth) {
  const double sustained = deviceFigure("rtx4090", "memory.dram_sustained_gbs");
  ASSERT_GT(sustained, 0);
  const auto r = runTeg({"predict", "--launch",
                         std::string(TEG_SOURCE_DIR) + "/data/validation/kernels/gpubench_streaming.launch.json",
                         "--gpu", "rtx4090", "--json", "--no-timeline"});
  if (r.err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const double bytes = 2.0 * 4.0 * (1u << 28);  // one float read and one written per element
  const double gbs = bytes / (j["time_ms"].get<double>() * 1e6);
  EXPECT_LE(gbs, sustained * (1 + 1e-9)) << "isa " << j["isa"].dump();
  EXPECT_GE(gbs, sustained * 0.9);  // DRAM-bound: near the figure, not far below it
}

}  // namespace
