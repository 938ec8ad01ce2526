// Issue 25: data that fits in the L2 but is read again by later waves is an L2 hit, not a DRAM
// read. gpu-benches' gpu-l2-cache (data/validation/kernels/gpu_l2_cache.*, as main.cu runs it:
// 200000 blocks of 1024 threads, block b summing slot b mod blockRun of 512 KiB) on an L40, whose
// 96 MiB L2 is not split: every SM reads many slots over the launch, each read by many SMs at
// different times, and the estimate of what the GPU reads over the simulated span once counted
// each SM's slots as its own (113.6 MiB at 20 slots), so every later wave went to DRAM at 861 GB/s.
// The expectations are the device's figures: the L2's bandwidth (timing.l2_bytes_per_clk x clock)
// while the slots fit the L2, no more than the DRAM's once they outgrow it. Label `nvcc`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::deviceFigure;
using teg::test::runTeg;

namespace {

// The launch file with blockRun slots (and a buffer that holds them); returns its path.
std::string launchWithSlots(int slots) {
  const std::filesystem::path kernels = std::filesystem::path(TEG_SOURCE_DIR) / "data/validation/kernels";
  nlohmann::json launch = nlohmann::json::parse(std::ifstream(kernels / "gpu_l2_cache.launch.json"));
  launch["source"] = (kernels / "gpu_l2_cache.cu").string();
  launch["args"][1]["buffer"]["count"] = slots * 64 * 1024;
  launch["args"][2]["scalar"]["value"] = slots;
  const auto dir = std::filesystem::temp_directory_path() / "teg-l2-reuse-test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / ("slots" + std::to_string(slots) + ".json")).string();
  std::ofstream(path) << launch.dump(1);
  return path;
}

// GB/s as the program computes it: 64 x 1024 doubles per block, 200000 blocks.
double predictedGbs(const std::string& gpu, int slots, bool& skipped) {
  const auto r = runTeg({"predict", "--launch", launchWithSlots(slots), "--gpu", gpu, "--json", "--no-timeline"});
  skipped = r.err.find("nvcc not found") != std::string::npos;
  if (skipped) return 0;
  EXPECT_EQ(r.exitCode, 0) << r.err;
  if (r.exitCode != 0) return 0;
  const double bytes = 64.0 * 1024 * 8 * 200000;
  return bytes / (nlohmann::json::parse(r.out)["time_ms"].get<double>() * 1e6);
}

TEST(L2Reuse, GpuL2CacheRunsAtTheL2BandwidthWhileItsSlotsFitTheL2) {
  const double l2 = deviceFigure("l40", "timing.l2_bytes_per_clk") * deviceFigure("l40", "clocks.core_mhz") / 1000;
  const double dram = deviceFigure("l40", "memory.dram_bandwidth_gbs");
  const double l2Bytes = deviceFigure("l40", "memory.l2_bytes");
  ASSERT_GT(l2, 2 * dram);
  bool skipped = false;
  for (const int slots : {20, 100}) {  // 10 and 50 MiB, both under the 96 MiB
    ASSERT_LT(slots * 512.0 * 1024, l2Bytes);
    const double gbs = predictedGbs("l40", slots, skipped);
    if (skipped) GTEST_SKIP() << "nvcc not found";
    EXPECT_LE(gbs, l2 * (1 + 1e-9)) << slots << " slots";
    EXPECT_GE(gbs, 0.9 * l2) << slots << " slots";
  }
  // 200 MiB: twice the L2, so the slots stream from DRAM.
  ASSERT_GT(400 * 512.0 * 1024, 2 * l2Bytes);
  const double gbs = predictedGbs("l40", 400, skipped);
  EXPECT_LE(gbs, dram * (1 + 1e-9));
  EXPECT_GE(gbs, 0.8 * dram);
}

}  // namespace
