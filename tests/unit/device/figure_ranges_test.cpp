// Issue 24: device figures of 0, 1e-300 or 1e18 were accepted and overflowed the timing engine's
// unit-load buckets and the report. The loader refuses a figure outside its physically possible
// range (data/devices/ranges/figure_ranges.json), naming the file, the figure and the range.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"

namespace {

namespace fs = std::filesystem;
using teg::device::DeviceDatabase;

std::string overrideError(const std::string& figures) {
  // One file per test: ctest runs the tests of this file in parallel processes.
  const fs::path path = fs::temp_directory_path() /
                        ("teg_figure_ranges_" +
                         std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".json");
  std::ofstream(path) << R"({"id": "a100-sxm4-40gb", "figures": {)" << figures << "}}";
  try {
    DeviceDatabase db = DeviceDatabase::loadDefault();
    db.applyOverrideFile(path.string());
  } catch (const teg::Error& e) {
    fs::remove(path);
    return std::string(e.what()).substr(path.string().size());  // drop the temporary path
  }
  fs::remove(path);
  return "";
}

std::string figure(const std::string& key, const std::string& value) {
  return "\"" + key + R"(": {"value": )" + value + R"(, "source": "test value"})";
}

TEST(FigureRanges, ImpossibleClocksAreRefusedNamingTheRange) {
  const std::string clock = ":1:38: figures.clocks.core_mhz: ";
  const std::string range = " is outside the possible range 1 to 100000 MHz (575-15000 MHz in the database";
  EXPECT_EQ(overrideError(figure("clocks.core_mhz", "0")).substr(0, clock.size() + 1 + range.size()),
            clock + "0" + range);
  EXPECT_EQ(overrideError(figure("clocks.core_mhz", "1e-300")).substr(0, clock.size() + 6 + range.size()),
            clock + "1e-300" + range);
  EXPECT_EQ(overrideError(figure("clocks.core_mhz", "1e18")).substr(0, clock.size() + 5 + range.size()),
            clock + "1e+18" + range);
}

TEST(FigureRanges, EveryKindOfFigureIsBounded) {
  const auto refused = [](const std::string& key, const std::string& value) {
    return overrideError(figure(key, value)).find("is outside the possible range") != std::string::npos;
  };
  EXPECT_TRUE(refused("timing.dram_latency", "1e18"));
  EXPECT_TRUE(refused("timing.issue_interval", "1e-300"));
  EXPECT_TRUE(refused("memory.dram_bandwidth_gbs", "1e-300"));
  EXPECT_TRUE(refused("memory.l2_bytes", "1000000000000000000"));
  EXPECT_TRUE(refused("sm_count", "1000000"));
  EXPECT_TRUE(refused("throughput.fp32_fma", "1e-300"));
  EXPECT_TRUE(refused("max_block_dim", "[1024, 1024, 100000000]"));  // each element
  EXPECT_TRUE(refused("timing.l1_caches_global", "2"));
  EXPECT_NE(overrideError(R"("latency.dram": {"value": 1e18, "unit": "cycles", "method": "m", "source": "a b"})")
                .find("figures.latency.dram: 1e+18 is outside the possible range"),
            std::string::npos);
}

TEST(FigureRanges, ZeroMeansAbsentWhereTheFormatSaysSo) {
  EXPECT_EQ(overrideError(figure("throughput.fp64_fma", "0")), "");         // N/A on this GPU
  EXPECT_EQ(overrideError(figure("timing.barrier_latency", "0")), "");      // not modelled
  EXPECT_EQ(overrideError(figure("clocks.core_mhz", "2000")), "");          // an ordinary override
}

// The whole database loads: the ranges admit every figure NVIDIA's GPUs have (the load itself
// checks that every numeric figure of the table has a range).
TEST(FigureRanges, TheDatabaseIsInsideItsRanges) { EXPECT_NO_THROW((void)DeviceDatabase::loadDefault()); }

}  // namespace
