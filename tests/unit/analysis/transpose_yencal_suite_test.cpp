// The transpose-yencal-h100-sxm suite: each row is the CSV line of its variant (yencal's post of
// 2025-12-24, data/validation/transpose_yencal.csv), launched with the post's block shape and the
// grid N / tile each way, N = 32768; bytes 2 x N^2 x 4 (the program's read + write count); timed
// as 100 launches back to back between events (metric.launch stream).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "teg/analysis/validation.hpp"
#include "teg/emu/launch.hpp"
#include "suite_test_support.hpp"

using namespace teg::analysis;
using teg::test::csvRows;

namespace {

// The post's labels and the kernels of data/validation/kernels/transpose_yencal.cu they name:
// CoarsenK moves 32 / K rows a thread (BLOCK_ROWS 32 / K), T64 a 64-wide tile.
const std::map<std::string, std::string> kKernelOf{
    {"Naive", "transposeNaive"},
    {"Tiled", "transposeTiled<32>"},
    {"TiledPadded", "transposeTiledPadded<32>"},
    {"Coarsen2", "transposeCoarsened<32, 16>"},
    {"Coarsen4", "transposeCoarsened<32, 8>"},
    {"Coarsen8", "transposeCoarsened<32, 4>"},
    {"Vec4Coarsen2", "transposeVec4Coarsened<32, 16>"},
    {"Vec4Coarsen4", "transposeVec4Coarsened<32, 8>"},
    {"Vec4Coarsen8", "transposeVec4Coarsened<32, 4>"},
    {"Vec4_T64", "transposeVec4Coarsened<64, 32>"},
    {"Vec4_T64_Coarsen2", "transposeVec4Coarsened<64, 16>"},
    {"Vec4_T64_Coarsen4", "transposeVec4Coarsened<64, 8>"}};

}  // namespace

TEST(TransposeYencalSuite, RowsAreTheCsvLinesWithThePostsLaunchShape) {
  const std::string data = std::string(TEG_SOURCE_DIR) + "/data/validation";
  const auto csv = csvRows(data + "/transpose_yencal.csv");
  const auto suite = loadValidationSuite(data + "/suites/transpose-yencal-h100-sxm.json");
  ASSERT_EQ(csv.size(), 12u);
  ASSERT_EQ(suite.rows.size(), csv.size());
  EXPECT_EQ(suite.gpu, "h100-sxm5-80gb");  // the post's 3352.3 GB/s peak: 2619 MHz x 5120 bit x 2 / 8
  EXPECT_EQ(suite.metric, ValidationMetric::BandwidthGBs);
  EXPECT_EQ(suite.launch, "stream");
  const double n = 32768;
  EXPECT_DOUBLE_EQ(suite.bytes, 2 * n * n * 4);
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const auto& row = suite.rows[i];
    const auto& line = csv[i];
    EXPECT_EQ(row.label, line.at("label_in_source") + " " + line.at("block") + " (yencal)");
    EXPECT_DOUBLE_EQ(row.measured, std::stod(line.at("gb_per_s"))) << row.label;
    // The printed bandwidth is the program's bytes over the printed time (4-5 digits each).
    EXPECT_NEAR(2 * n * n * 4 / (std::stod(line.at("time_ms")) * 1e6), row.measured, row.measured * 1e-3) << row.label;
    const auto launch = teg::emu::readLaunchFile(row.launchFile);
    EXPECT_EQ(launch.kernel, kKernelOf.at(line.at("label_in_source"))) << row.label;
    const std::string block = std::to_string(launch.block.x) + "x" + std::to_string(launch.block.y);
    EXPECT_EQ(block, line.at("block")) << row.label;
    // A tile of 32, or 64 for the T64 rows: N / tile blocks each way.
    const unsigned tile = row.label.find("T64") != std::string::npos ? 64 : 32;
    EXPECT_EQ(launch.grid.x, 32768u / tile) << row.label;
    EXPECT_EQ(launch.grid.y, 32768u / tile) << row.label;
  }
}
