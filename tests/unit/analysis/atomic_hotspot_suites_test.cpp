// The atomic-hotspot suites against data/validation/atomic_hotspot.csv: every row is the CSV's
// (the TITAN V and RTX 4070 rows as printed, run with iters 75, the mean of the source's 10 + 10
// trials at 50 and 100 iterations; the RTX 2080 Ti row the mean of its 10 trials at 100), with the
// launch shape the source's runner gives (N / 256 blocks of 256) and the time it took (events
// around back-to-back launches: metric.launch stream).
#include <gtest/gtest.h>

#include <string>

#include "suite_test_support.hpp"
#include "teg/analysis/validation.hpp"

using namespace teg::analysis;

namespace {

const std::string kData = std::string(TEG_SOURCE_DIR) + "/data/validation";

TEST(AtomicHotspotSuites, RowsAreTheCsvRows) {
  const auto csv = teg::test::csvRows(kData + "/atomic_hotspot.csv");
  ASSERT_EQ(csv.size(), 16u);
  const struct {
    const char* suite;
    const char* gpu;
    const char* device;
    std::size_t rows;
  } cases[] = {{"atomic-hotspot-titan-v", "TITAN V", "titan-v", 3},
               {"atomic-hotspot-rtx4070", "RTX 4070", "rtx4070", 3},
               {"atomic-hotspot-rtx2080ti", "RTX 2080 Ti", "rtx2080ti", 1}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.suite);
    const auto suite = loadValidationSuite(kData + "/suites/" + c.suite + ".json");
    EXPECT_EQ(suite.gpu, c.device);
    EXPECT_EQ(suite.metric, ValidationMetric::TimeMs);
    EXPECT_EQ(suite.launch, "stream");
    ASSERT_EQ(suite.rows.size(), c.rows);
    for (const auto& row : suite.rows) {
      SCOPED_TRACE(row.label);
      ASSERT_TRUE(row.grid.has_value() && row.block.has_value());
      EXPECT_EQ(row.block->x, 256u);
      // The CSV rows of this GPU and grid: one aggregated row, or the trials to average.
      double sum = 0;
      int n = 0;
      std::string iters;
      for (const auto& r : csv) {
        if (r.at("gpu") != c.gpu || std::stoul(r.at("grid_blocks")) != row.grid->x) continue;
        EXPECT_EQ(std::stoul(r.at("N")), row.grid->x * 256u);
        sum += std::stod(r.at("time_ms"));
        ++n;
        iters = r.at("iters");
      }
      ASSERT_GT(n, 0);
      EXPECT_NEAR(row.measured, sum / n, 5e-7);  // the CSV's 6 decimals
      ASSERT_EQ(row.scalars.count("iters"), 1u);
      EXPECT_EQ(row.scalars.at("iters"), iters == "50+100" ? 75.0 : std::stod(iters));
    }
  }
}

}  // namespace
