// `teg occupancy` end to end: the real binary, its exit codes, its table and its JSON. Expected
// figures are the seed examples worked by hand in tests/unit/occupancy/seed_examples_test.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(CliOccupancy, CalculatorExampleAsTable) {
  const auto r = runTeg({"occupancy", "--gpu", "sm_35", "--threads", "256", "--regs", "32", "--smem", "4096"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "blocks/SM:  8")) << r.out;
  EXPECT_TRUE(contains(r.out, "occupancy:  100.0 %")) << r.out;
  EXPECT_TRUE(contains(r.out, "one more register per thread here costs 2 blocks")) << r.out;
}

TEST(CliOccupancy, ProfilerExampleAsJson) {
  const auto r = runTeg({"occupancy", "--gpu", "sm_20", "--threads", "1024", "--regs", "25", "--smem",
                         "8192", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["blocks_per_sm"], 1);
  EXPECT_EQ(j["registers_per_block"], 26624);
  EXPECT_NEAR(j["occupancy"].get<double>(), 2.0 / 3.0, 1e-12);
  EXPECT_TRUE(j["limiters"].is_array());
  EXPECT_EQ(j["limiters"][0], "warps");
  EXPECT_EQ(j["gpu"]["compute_capability"], "2.0");
  EXPECT_TRUE(j["explanation"].is_array());
}

TEST(CliOccupancy, ImpossibleLaunchExitsNonZeroWithTheRule) {
  const auto r = runTeg({"occupancy", "--gpu", "a100", "--threads", "2048", "--regs", "32"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(contains(r.err, "threads per block 2048 > 1024")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
}

TEST(CliOccupancy, MissingOptionsAndUnknownGpu) {
  EXPECT_NE(runTeg({"occupancy", "--threads", "256", "--regs", "32"}).exitCode, 0);
  EXPECT_TRUE(contains(runTeg({"occupancy", "--gpu", "a100", "--regs", "32"}).err, "--threads"));
  const auto r = runTeg({"occupancy", "--gpu", "no-such-gpu", "--threads", "32", "--regs", "8"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(contains(r.err, "no-such-gpu")) << r.err;
  EXPECT_NE(runTeg({"occupancy", "--gpu", "a100", "--threads", "32", "--regs", "8", "--sweep", "x"}).exitCode, 0);
  EXPECT_NE(runTeg({"occupancy", "--gpu", "a100", "--threads", "32", "--regs", "8", "--suggest"}).exitCode, 0);
}

TEST(CliOccupancy, SweepMarksTheC2050Cliffs) {
  const auto r = runTeg({"occupancy", "--gpu", "sm_20", "--threads", "256", "--regs", "21", "--sweep", "regs", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cliffs"], (nlohmann::json{21, 25, 33, 43}));  // see sweep_test.cpp
  EXPECT_EQ(j["points"].size(), 64u);
  const auto table = runTeg({"occupancy", "--gpu", "sm_20", "--threads", "256", "--regs", "21", "--sweep", "regs"});
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_TRUE(contains(table.out, "<- cliff")) << table.out;
}

TEST(CliOccupancy, SuggestGivesBlockSizeAndMinGrid) {
  const auto r = runTeg({"occupancy", "--gpu", "a100", "--regs", "32", "--suggest", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["block_size"], 1024);   // see sweep_test.cpp
  EXPECT_EQ(j["min_grid_size"], 216);
}

TEST(CliOccupancy, BatchFromFileAndStdin) {
  const std::string input =
      "{\"gpu\":\"sm_35\",\"threads\":256,\"regs\":32,\"smem\":4096,\"dyn_smem\":0}\n"
      "not json\n"
      "{\"gpu\":\"a100\",\"threads\":128,\"regs\":32,\"smem\":0,\"dyn_smem\":0,\"carveout\":50}\n";
  const std::string path = writeTempFile("batch.jsonl", input);
  for (const auto& r : {runTeg({"occupancy", "--batch", path}), runTeg({"occupancy", "--batch", "-"}, input)}) {
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::istringstream lines(r.out);
    std::vector<nlohmann::json> out;
    for (std::string line; std::getline(lines, line);) out.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(out.size(), 3u) << r.out;
    EXPECT_EQ(out[0]["blocks_per_sm"], 8);
    EXPECT_EQ(out[1]["line"], 2);
    EXPECT_TRUE(out[1].contains("error"));
    EXPECT_EQ(out[2]["blocks_per_sm"], 16);
  }
  EXPECT_NE(runTeg({"occupancy", "--batch", "/nonexistent/batch.jsonl"}).exitCode, 0);
  EXPECT_NE(runTeg({"occupancy", "--batch", path, "--gpu", "a100"}).exitCode, 0);
}

}  // namespace

namespace {

// --cu: registers and static shared memory come from ptxas for the GPU's architecture. The
// kernel's tile is 32 x 33 floats = 4224 B of static shared memory (exact, from the source); with
// 1024 threads a block is 32 warps, so at most 64 / 32 = 2 blocks fit an A100 SM.
TEST(CliOccupancy, KernelResourcesFromPtxas) {
  const std::string cu = writeTempFile("tile.cu",
      "__global__ void tile(const float* in, float* out) {\n"
      "  __shared__ float t[32][33];\n"
      "  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x * 32 + threadIdx.y] = t[threadIdx.x][threadIdx.y];\n"
      "}\n");
  const auto r = runTeg({"occupancy", "--cu", cu, "--kernel", "tile", "--threads", "1024", "--gpu", "A100", "--json"});
  if (r.exitCode != 0 && contains(r.err, "nvcc") && !contains(r.err, "no kernel"))
    GTEST_SKIP() << "no usable nvcc: " << r.err;
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernel"]["arch"], "sm_80");
  EXPECT_EQ(j["launch"]["smem"], 4224);
  EXPECT_EQ(j["launch"]["regs"], j["kernel"]["registers"]);
  EXPECT_EQ(j["blocks_per_sm"], 2);
  const auto missing = runTeg({"occupancy", "--cu", cu, "--kernel", "nope", "--threads", "32", "--gpu", "a100"});
  EXPECT_NE(missing.exitCode, 0);
  EXPECT_TRUE(contains(missing.err, "no kernel 'nope'")) << missing.err;
}

}  // namespace
