// The gpuperf-debdeep-* suites: each row is a CSV line of data/validation/gpuperf_debdeep.csv
// (Debdeep23/test1's gpu-perf dataset) marked in_suite, in the file's order, with the launch shape
// the program's runner/main.cu computes from the line's size: 1-D kernels 256 threads and
// ceil(N / 256) blocks (strided_copy_8 ceil(ceil(N / 8) / 256), reduce_sum and dot_product
// ceil(N / 512)), 16 x 16 or 32 x 32 blocks over the matrix for the 2-D kernels; timed as the
// program times them (launches back to back between events: metric.launch stream).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "suite_test_support.hpp"
#include "teg/analysis/validation.hpp"
#include "teg/emu/launch.hpp"

using namespace teg::analysis;
using teg::test::csvRows;

namespace {

struct Shape {
  std::string kernel;  // in data/validation/kernels/gpuperf_debdeep.cu
  unsigned bx, by;     // block
};

const std::map<std::string, Shape> kShapeOf{
    {"vector_add", {"gpVectorAdd", 256, 1}},
    {"saxpy", {"gpSaxpy", 256, 1}},
    {"strided_copy_8", {"gpStridedCopy8", 256, 1}},
    {"naive_transpose", {"gpNaiveTranspose", 16, 16}},
    {"shared_transpose", {"gpSharedTranspose", 32, 32}},
    {"matmul_tiled", {"gpMatmulTiled", 32, 32}},
    {"matmul_naive", {"gpMatmulNaive", 16, 16}},
    {"reduce_sum", {"gpReduceSum", 256, 1}},
    {"dot_product", {"gpDotProduct", 256, 1}},
    {"histogram", {"gpHistogram", 256, 1}},
    {"conv2d_3x3", {"gpConv3x3", 16, 16}},
    {"conv2d_7x7", {"gpConv7x7", 16, 16}},
    {"random_access", {"gpRandomAccess", 256, 1}},
    {"vector_add_divergent", {"gpVectorAddDivergent", 256, 1}},
    {"atomic_hotspot", {"gpAtomicHotspot", 256, 1}}};

unsigned cdiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

}  // namespace

TEST(GpuperfDebdeepSuites, RowsAreTheCsvLinesWithTheRunnersLaunchShape) {
  const std::string data = std::string(TEG_SOURCE_DIR) + "/data/validation";
  const auto csv = csvRows(data + "/gpuperf_debdeep.csv");
  ASSERT_EQ(csv.size(), 136u);  // 60 TITAN V + 60 RTX 4070 + 16 RTX 2080 Ti lines
  const std::map<std::string, std::pair<std::string, std::string>> kSuiteOf{
      // device name in the file -> suite, teg device
      {"NVIDIA TITAN V", {"gpuperf-debdeep-titan-v", "titan-v"}},
      {"NVIDIA GeForce RTX 4070", {"gpuperf-debdeep-rtx4070", "rtx4070"}},
      {"NVIDIA GeForce RTX 2080 Ti", {"gpuperf-debdeep-rtx2080ti", "rtx2080ti"}}};
  std::size_t checked = 0;
  for (const auto& [gpu, suiteAndDevice] : kSuiteOf) {
    const auto suite = loadValidationSuite(data + "/suites/" + suiteAndDevice.first + ".json");
    EXPECT_EQ(suite.gpu, suiteAndDevice.second);
    EXPECT_EQ(suite.metric, ValidationMetric::TimeMs);
    EXPECT_EQ(suite.launch, "stream");
    EXPECT_EQ(suite.meanTolerancePct, 0.0);  // informational
    EXPECT_EQ(suite.maxTolerancePct, 0.0);
    std::size_t i = 0;
    for (const auto& line : csv) {
      if (line.at("gpu") != gpu) continue;
      const double mean = std::stod(line.at("mean_ms")), sd = std::stod(line.at("std_ms"));
      const std::string& kernel = line.at("kernel");
      if (line.at("status") != "in_suite") {
        EXPECT_EQ(line.at("status"), "skipped") << gpu << " " << kernel;
        // skipped: noisy (std over 10 % of the mean) or the refused launch
        EXPECT_TRUE(sd > 0.10 * mean || kernel == "shared_bank_conflict") << gpu << " " << kernel;
        continue;
      }
      EXPECT_LE(sd, 0.10 * mean) << gpu << " " << kernel;
      ASSERT_LT(i, suite.rows.size()) << gpu;
      const auto& row = suite.rows[i++];
      ++checked;
      EXPECT_NE(line.at("source").find("Debdeep23/test1@f808e854be31a5c7963855a04b207420be4b9684:gpu-perf/data/runs_"),
                std::string::npos);
      EXPECT_EQ(row.label.rfind(kernel + " ", 0), 0u) << row.label;
      EXPECT_DOUBLE_EQ(row.measured, mean) << row.label;
      const auto launch = teg::emu::readLaunchFile(row.launchFile);
      const Shape& shape = kShapeOf.at(kernel);
      EXPECT_EQ(launch.kernel, shape.kernel) << row.label;
      EXPECT_EQ(launch.block.x, shape.bx) << row.label;
      EXPECT_EQ(launch.block.y, shape.by) << row.label;
      EXPECT_EQ(std::stoul(line.at("block")), shape.bx * shape.by) << row.label;
      ASSERT_TRUE(row.grid.has_value()) << row.label;
      const unsigned n = std::stoul(line.at("n")), rows = std::stoul(line.at("rows")), cols = std::stoul(line.at("cols"));
      unsigned gx = 0, gy = 1;
      if (kernel == "strided_copy_8") gx = cdiv(cdiv(n, 8), 256);
      else if (kernel == "reduce_sum" || kernel == "dot_product") gx = cdiv(n, 512);
      else if (shape.by == 1) gx = cdiv(n, 256);
      else if (kernel == "matmul_tiled" || kernel == "matmul_naive") gx = gy = cdiv(n, shape.bx);
      else gx = cdiv(cols, shape.bx), gy = cdiv(rows, shape.by);
      EXPECT_EQ(row.grid->x, gx) << row.label;
      EXPECT_EQ(row.grid->y, gy) << row.label;
      EXPECT_EQ(row.grid->z, 1u) << row.label;
      // The size reaches the kernel: its size scalar and its first buffer's element count.
      if (shape.by == 1) {
        EXPECT_EQ(row.scalars.at(kernel == "atomic_hotspot" ? "iters" : "n"),
                  kernel == "atomic_hotspot" ? std::stod(line.at("iters")) : n)
            << row.label;
        // the grid printed for the kernels whose grid is ceil(N / 256)
        if (gx == cdiv(n, 256)) EXPECT_EQ(std::stoul(line.at("grid_blocks")), gx) << row.label;
      } else if (kernel == "matmul_tiled" || kernel == "matmul_naive") {
        EXPECT_EQ(row.scalars.at("n"), n) << row.label;
        EXPECT_EQ(row.scalars.at("a"), double(n) * n) << row.label;
        EXPECT_EQ(std::stoul(line.at("grid_blocks")), gx * gy) << row.label;
      } else {
        EXPECT_EQ(row.scalars.at(kernel == "naive_transpose" ? "rows" : "h"), rows) << row.label;
        EXPECT_EQ(row.scalars.at(kernel == "naive_transpose" ? "cols" : (kernel == "shared_transpose" ? "w" : "wd")), cols)
            << row.label;
        EXPECT_EQ(std::stoul(line.at("grid_blocks")), gx * gy) << row.label;
      }
    }
    EXPECT_EQ(i, suite.rows.size()) << gpu;
  }
  EXPECT_EQ(checked, 120u);  // 56 + 50 + 14
}
