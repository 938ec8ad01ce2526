// The mt4g-bandwidth-* suites (caps-tum/mt4g's L2 and main-memory bandwidth programs): each row
// must be the CSV line of its GPU and level, with the launch shape, sizes and bytes the program
// computes from the device properties its sample result prints (data/validation/mt4g_bandwidth.csv
// holds them). Worked by hand from caps-tum/mt4g@4cc5566's launchers, not from the suites:
//   block = min(maxThreadsPerBlock, warpSize x SIMDsPerCU) = min(1024, 32 x 4) = 128
//   grid  = multiProcessorCount x maxBlocksPerMultiProcessor
//   L2:   array = l2CacheSize, 128 sweeps timed, time / 128  -> bytes per launch = 128 x l2CacheSize
//   DRAM: array = totalGlobalMem / 4, one sweep             -> bytes per launch = totalGlobalMem / 4
//   GiB/s as printed; the suites compare GB/s = GiB/s x 2^30 / 10^9.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "teg/analysis/validation.hpp"
#include "teg/device/database.hpp"
#include "teg/emu/launch.hpp"
#include "suite_test_support.hpp"

using namespace teg::analysis;
using teg::test::csvRows;

namespace {

const std::string kData = std::string(TEG_SOURCE_DIR) + "/data/validation";

}  // namespace

TEST(Mt4gBandwidthSuites, RowsAreTheCsvLinesRunWithTheProgramsLaunchShapeAndBytes) {
  const auto csv = csvRows(kData + "/mt4g_bandwidth.csv");
  ASSERT_EQ(csv.size(), 20u);  // 5 GPUs x {l2, dram} x {read, write}
  const std::map<std::string, std::pair<std::string, std::string>> suites{
      {"mt4g-bandwidth-rtx2080ti", {"RTX 2080 Ti", "rtx2080ti"}},
      {"mt4g-bandwidth-v100-pcie", {"V100-PCIe-16GB", "tesla-v100-pcie-16gb"}},
      {"mt4g-bandwidth-a100-pcie", {"A100-PCIe-40GB", "a100-pcie-40gb"}},
      {"mt4g-bandwidth-h100-sxm", {"H100-SXM5-80GB", "h100-sxm5-80gb"}},
      {"mt4g-bandwidth-h100-nvl", {"H100-NVL", "h100-nvl"}}};
  const std::map<std::string, std::string> kernels{{"l2 read", "l2ReadBandwidthKernel"},
                                                   {"l2 write", "l2WriteBandwidthKernel"},
                                                   {"dram read", "mainMemoryReadBandwidthKernel"},
                                                   {"dram write", "mainMemoryWriteBandwidthKernel"}};
  const auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  std::size_t checked = 0;
  for (const auto& [name, gpus] : suites) {
    const auto suite = loadValidationSuite(kData + "/suites/" + name + ".json");
    EXPECT_EQ(suite.gpu, gpus.second) << name;
    EXPECT_EQ(suite.metric, ValidationMetric::BandwidthGBs) << name;
    EXPECT_EQ(suite.launch, "kernel") << name << ": CUDA events around one launch";
    EXPECT_EQ(suite.meanTolerancePct, 10) << name;
    ASSERT_EQ(suite.rows.size(), 4u) << name;
    const auto& device = db.find(gpus.second);
    for (const auto& row : suite.rows) {
      const std::string what = row.label.substr(0, row.label.find(" (mt4g)"));
      const std::map<std::string, std::string>* line = nullptr;
      for (const auto& c : csv)
        if (c.at("gpu") == gpus.first && c.at("level") + " " + c.at("direction") == what) line = &c;
      ASSERT_NE(line, nullptr) << name << " " << row.label;
      const auto& c = *line;
      const double gib = std::stod(c.at("gib_per_s"));
      EXPECT_NEAR(std::stod(c.at("gb_per_s")), gib * 1073741824.0 / 1e9, 5e-5) << name << " " << what;
      EXPECT_DOUBLE_EQ(row.measured, std::stod(c.at("gb_per_s"))) << name << " " << what;
      // The program's launch shape from the printed device properties.
      const long long sms = std::stoll(c.at("sm_count")), perSm = std::stoll(c.at("max_blocks_per_sm"));
      ASSERT_TRUE(row.grid && row.block) << name << " " << what;
      EXPECT_EQ(row.block->x, 128u) << name << " " << what;
      EXPECT_EQ(static_cast<long long>(row.grid->x), sms * perSm) << name << " " << what;
      // The printed clock and SM count are the device's: cycles are counted at the run's clockRate.
      EXPECT_EQ(device.smCount, sms) << name;
      EXPECT_EQ(device.clocks.coreMhz, std::stod(c.at("clock_mhz"))) << name;
      // The rest of the printed cudaDeviceProp is the product's configuration too: the L2 size (the
      // array of the L2 rows), the memory bus width and the memory clock the notes quote.
      EXPECT_EQ(device.memory.l2Bytes, std::stoll(c.at("l2_bytes"))) << name;
      const std::string& notes = c.at("notes");
      const auto bus = notes.find("memoryBusWidth "), clock = notes.find("memoryClockRate ");
      ASSERT_NE(bus, std::string::npos) << name;
      ASSERT_NE(clock, std::string::npos) << name;
      EXPECT_EQ(device.memory.busWidthBits, std::stoi(notes.substr(bus + 15))) << name;
      EXPECT_EQ(device.clocks.memoryMhz, std::stod(notes.substr(clock + 16)) / 1000.0) << name;
      // Array and bytes per timed launch.
      const bool l2 = c.at("level") == "l2";
      const long long array = l2 ? std::stoll(c.at("l2_bytes")) : std::stoll(c.at("total_global_mem")) / 4;
      EXPECT_EQ(std::stoll(c.at("array_bytes")), array) << name << " " << what;
      ASSERT_TRUE(row.bytes) << name << " " << what;
      EXPECT_EQ(*row.bytes, static_cast<double>(l2 ? 128 * array : array)) << name << " " << what;
      EXPECT_EQ(row.scalars.at("n"), static_cast<double>(array / 16)) << name << " " << what;
      const bool read = c.at("direction") == "read";
      EXPECT_EQ(row.scalars.at(read ? "src" : "dst"), static_cast<double>(array / 4)) << name << " " << what;
      const auto launch = teg::emu::readLaunchFile(row.launchFile);
      EXPECT_EQ(launch.kernel, kernels.at(what)) << name << " " << what;
      EXPECT_NE(c.at("source").find("caps-tum/mt4g@4cc55662a9541a40e91909c61d543c524ae04fcb:sample_results/"),
                std::string::npos);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 20u);
}

// Each suite is in its generation's bandwidth group (decided before the results were seen).
TEST(Mt4gBandwidthSuites, EachIsInItsGenerationsBandwidthGroup) {
  const std::map<std::string, std::string> expected{{"mt4g-bandwidth-rtx2080ti", "bandwidth-turing"},
                                                    {"mt4g-bandwidth-v100-pcie", "bandwidth-volta"},
                                                    {"mt4g-bandwidth-a100-pcie", "bandwidth-ampere"},
                                                    {"mt4g-bandwidth-h100-sxm", "bandwidth-hopper"},
                                                    {"mt4g-bandwidth-h100-nvl", "bandwidth-hopper"}};
  teg::test::expectEachSuiteInItsGroup(kData + "/groups.json", expected);
}

// timing.l2_write_bytes_per_clk (docs/timing.md, "L2 writes"): the L2 write row's GB/s x 1000 /
// the clock the run reports, on the four cards whose row is an L2 rate (not the V100's: its
// L2-sized array does not stay in the L2, data/devices/README.md); every other product of their
// chips takes the chip's write / load ratio (the mean over its measured cards) times its own load
// figure, rounded to 0.1 B/clk as filed (a tie may round either way: 0.05 apart at most).
TEST(Mt4gBandwidthSuites, L2WriteFiguresAreTheWriteRowsAndTheirChipsRatios) {
  const auto csv = csvRows(kData + "/mt4g_bandwidth.csv");
  const std::map<std::string, std::string> measured{{"RTX 2080 Ti", "rtx2080ti"},
                                                     {"A100-PCIe-40GB", "a100-pcie-40gb"},
                                                     {"H100-SXM5-80GB", "h100-sxm5-80gb"},
                                                     {"H100-NVL", "h100-nvl"}};
  const auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  const auto tenth = [](double x) { return std::round(x * 10) / 10; };
  std::map<std::string, std::vector<double>> ratios;  // chip -> write / load of its measured cards
  for (const auto& c : csv) {
    if (c.at("level") != "l2" || c.at("direction") != "write" || measured.count(c.at("gpu")) == 0) continue;
    const auto& d = db.find(measured.at(c.at("gpu")));
    const double perClock = std::stod(c.at("gb_per_s")) * 1000 / std::stod(c.at("clock_mhz"));
    EXPECT_DOUBLE_EQ(d.timing.l2WriteBytesPerClock, tenth(perClock)) << d.name;
    ratios[d.chip].push_back(d.timing.l2WriteBytesPerClock / d.timing.l2BytesPerClock);
  }
  ASSERT_EQ(ratios.size(), 3u);  // TU102, GA100, GH100
  EXPECT_EQ(db.find("tesla-v100-pcie-16gb").timing.l2WriteBytesPerClock, 0) << "its row is not an L2 rate";
  std::size_t derived = 0;
  for (const auto& d : db.all()) {
    const auto chip = ratios.find(d.chip);
    bool isMeasured = false;
    for (const auto& m : measured) isMeasured = isMeasured || d.id == m.second;
    if (chip == ratios.end() || isMeasured || d.timing.l2BytesPerClock <= 0) continue;
    double mean = 0;
    for (const double r : chip->second) mean += r / static_cast<double>(chip->second.size());
    EXPECT_NEAR(d.timing.l2WriteBytesPerClock, tenth(d.timing.l2BytesPerClock * mean), 0.051)
        << d.name;
    ++derived;
  }
  EXPECT_EQ(derived, 12u);  // GA100 4, GH100 5, TU102 3
}
