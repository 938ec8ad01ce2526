#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "teg/occupancy/batch.hpp"
#include "teg/support/error.hpp"
#include "test_devices.hpp"

namespace teg::occupancy {
namespace {

std::vector<nlohmann::json> runLines(const std::string& input, int* resolverCalls = nullptr) {
  std::istringstream in(input);
  std::ostringstream out;
  int calls = 0;
  DeviceResolver resolve = [&calls](const std::string& name) -> const device::Device& {
    ++calls;
    return test::database().find(name);
  };
  runBatch(in, out, resolve);
  if (resolverCalls) *resolverCalls = calls;
  std::vector<nlohmann::json> lines;
  std::istringstream outLines(out.str());
  for (std::string line; std::getline(outLines, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

TEST(Batch, OneResultPerLineInOrder) {
  const auto out = runLines(
      "{\"gpu\":\"sm_35\",\"threads\":256,\"regs\":32,\"smem\":4096,\"dyn_smem\":0}\n"
      "{\"gpu\": \"sm_20\", \"threads\": 1024, \"regs\": 25, \"smem\": 8192}\n");
  ASSERT_EQ(out.size(), 2u);
  // Seed 003's calculator example and profiler output (see seed_examples_test.cpp).
  EXPECT_EQ(out[0]["blocks_per_sm"], 8);
  EXPECT_EQ(out[0]["warps_per_sm"], 64);
  EXPECT_EQ(out[0]["threads_per_sm"], 2048);
  EXPECT_EQ(out[0]["occupancy"], 1.0);
  EXPECT_EQ(out[0]["limiters"], (nlohmann::json{"warps", "registers"}));
  EXPECT_EQ(out[0]["block_limits"]["shared_memory"], 12);
  EXPECT_EQ(out[0]["block_limits"]["blocks"], 16);
  EXPECT_EQ(out[0]["registers_per_block"], 8192);
  EXPECT_EQ(out[0]["shared_memory_per_block"], 4096);
  EXPECT_EQ(out[1]["blocks_per_sm"], 1);
  EXPECT_EQ(out[1]["registers_per_block"], 26624);
  EXPECT_NEAR(out[1]["occupancy"].get<double>(), 2.0 / 3.0, 1e-12);
}

TEST(Batch, UnlimitedResourcesAreNull) {
  const auto out = runLines("{\"gpu\":\"sm_75\",\"threads\":64,\"regs\":0}\n");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0]["block_limits"]["registers"].is_null());
  EXPECT_TRUE(out[0]["block_limits"]["shared_memory"].is_null());
}

TEST(Batch, BadLinesGetAnErrorAndTheBatchGoesOn) {
  const auto out = runLines(
      "{\"gpu\":\"sm_80\",\"threads\":2048,\"regs\":32}\n"       // breaks a rule
      "{\"gpu\":\"sm_80\",\"threads\":128,\"regs\":32\n"        // malformed JSON
      "{\"gpu\":\"no-such-gpu\",\"threads\":128,\"regs\":32}\n"  // unknown GPU
      "\n"                                                      // blank: skipped
      "{\"gpu\":\"sm_80\",\"threads\":128}\n"                   // missing field
      "{\"gpu\":\"sm_80\",\"threads\":128.5,\"regs\":3}\n"      // not an integer
      "{\"gpu\":\"sm_80\",\"threads\":128,\"regs\":32,\"colour\":1}\n"  // unknown field
      "{\"gpu\":\"sm_80\",\"threads\":128,\"regs\":32}");       // fine, no final newline
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0]["line"], 1);
  EXPECT_NE(out[0]["error"].get<std::string>().find("threads per block 2048 > 1024"), std::string::npos)
      << out[0];
  EXPECT_EQ(out[1]["line"], 2);
  EXPECT_NE(out[1]["error"].get<std::string>().find("line 2: column"), std::string::npos) << out[1];
  EXPECT_EQ(out[2]["line"], 3);
  EXPECT_NE(out[2]["error"].get<std::string>().find("no-such-gpu"), std::string::npos) << out[2];
  EXPECT_EQ(out[3]["line"], 5);
  EXPECT_NE(out[3]["error"].get<std::string>().find("missing 'regs'"), std::string::npos) << out[3];
  EXPECT_NE(out[4]["error"].get<std::string>().find("'threads' must be an integer"), std::string::npos) << out[4];
  EXPECT_NE(out[5]["error"].get<std::string>().find("unknown field 'colour'"), std::string::npos) << out[5];
  EXPECT_EQ(out[6]["blocks_per_sm"], 16);  // 128 threads, 32 regs on sm_80: 64 warps / 4 = 16
}

TEST(Batch, DeviceLookupsAreCached) {
  std::string input;
  for (int i = 0; i < 50; ++i)
    input += std::string("{\"gpu\":\"") + (i % 2 ? "sm_80" : "sm_75") + "\",\"threads\":" +
             std::to_string(32 * (1 + i % 8)) + ",\"regs\":32}\n";
  int calls = 0;
  const auto out = runLines(input, &calls);
  EXPECT_EQ(out.size(), 50u);
  EXPECT_EQ(calls, 2);  // two distinct names
}

TEST(Batch, FastAndGeneralParsersAgree) {
  // The same request written plainly (fast path) and with an escape and odd spacing (JSON path).
  BatchRequest a, b;
  std::string err;
  ASSERT_TRUE(parseBatchLine(R"({"gpu":"a100","threads":256,"regs":40,"smem":100,"dyn_smem":7,"carveout":50})", a, err));
  ASSERT_TRUE(parseBatchLine(R"(  { "carveout" : 50, "dyn_smem":7, "smem":100, "regs" : 40 , "threads":256, "gpu":"a\u003100" })", b, err)) << err;
  EXPECT_EQ(a.gpu, "a100");
  EXPECT_EQ(b.gpu, "a100");
  EXPECT_EQ(a.launch.threadsPerBlock, b.launch.threadsPerBlock);
  EXPECT_EQ(a.launch.registersPerThread, b.launch.registersPerThread);
  EXPECT_EQ(a.launch.staticSharedBytes, 100);
  EXPECT_EQ(b.launch.dynamicSharedBytes, 7);
  EXPECT_EQ(a.launch.carveoutPercent, 50);
  EXPECT_EQ(b.launch.carveoutPercent, 50);
}

}  // namespace
}  // namespace teg::occupancy

namespace teg::occupancy {
namespace {

// Error messages quote user input; the output must stay valid JSON whatever the input holds.
TEST(Batch, ErrorsAreValidJsonWhateverTheInput) {
  const auto out = runLines("{\"gpu\":\"a\\\"b\\\\c\\u0001d\\ne\",\"threads\":32,\"regs\":8}\n");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0]["error"].get<std::string>().find("a\"b\\c\x01" "d\ne"), std::string::npos) << out[0];
}

}  // namespace
}  // namespace teg::occupancy
