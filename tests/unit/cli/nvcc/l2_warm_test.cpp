// Back-to-back launches find in the L2 what the L2's sets kept of the previous launch's buffers
// (docs/timing.md, "The L2 between launches"): the stream and graph views are then a run at that
// L2 hit rate, the kernel's own time and the synchronised view stay cold.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

#define SKIP_WITHOUT_NVCC(r) \
  if ((r).err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << "nvcc not installed: " << (r).err

const char* kAdd = R"(
__global__ void add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)";

nlohmann::json predictAdd(int n) {
  const std::string count = std::to_string(n);
  const auto r = runTeg({"predict", "--cu", writeTempFile("l2_warm_add.cu", kAdd), "--kernel", "add", "--gpu", "rtx4070",
                         "--grid", std::to_string((n + 255) / 256), "--block", "256", "--arg", "a=f32[" + count + "]",
                         "b=f32[" + count + "]", "c=f32[" + count + "]", "n=i32:" + count, "--json"});
  if (r.err.find("nvcc not found") != std::string::npos) return nullptr;
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(L2BetweenLaunches, BuffersThatFitTheL2AreFoundThereBackToBack) {
  // 3 x 2^20 floats = 12 MiB against the RTX 4070's 36 MiB L2 (18,432 sets of 16 ways, as teg
  // takes them): 98,304 lines, lambda = 5.33 a set, P(K <= 15) = 0.99986 of them kept.
  const auto j = predictAdd(1 << 20);
  if (j.is_null()) GTEST_SKIP() << "nvcc not installed";
  const auto& l = j["launch"];
  EXPECT_EQ(l["buffer_bytes"], 3ull * 4 * (1 << 20));
  EXPECT_TRUE(l["l2_warm"].get<bool>());
  EXPECT_NEAR(l["l2_retained"].get<double>(), 0.99986, 1e-5);
  // Cold, each of the 12 MiB comes from DRAM at most once; warm, none does, so the kernel is faster.
  EXPECT_LT(l["warm_kernel_ms"].get<double>(), l["kernel_ms"].get<double>());
  EXPECT_NEAR(l["stream_ms"].get<double>(), l["warm_kernel_ms"].get<double>() + l["stream_overhead_us"].get<double>() * 1e-3,
              1e-12);
  EXPECT_NEAR(l["graph_ms"].get<double>(), l["warm_kernel_ms"].get<double>() + l["graph_overhead_us"].get<double>() * 1e-3,
              1e-12);
  // One launch on its own (the kernel time and a host timer around it) finds the L2 cold.
  EXPECT_DOUBLE_EQ(l["kernel_ms"].get<double>(), j["time_ms"].get<double>());
  EXPECT_NEAR(l["synchronous_ms"].get<double>(),
              l["kernel_ms"].get<double>() + l["synchronous_overhead_us"].get<double>() * 1e-3, 1e-12);
}

TEST(L2BetweenLaunches, BuffersFarLargerThanTheL2StayCold) {
  // 3 x 2^24 floats = 192 MiB in a 36 MiB L2: lambda = 85 lines a set, none kept; every view cold.
  const auto j = predictAdd(1 << 24);
  if (j.is_null()) GTEST_SKIP() << "nvcc not installed";
  const auto& l = j["launch"];
  EXPECT_FALSE(l["l2_warm"].get<bool>());
  EXPECT_EQ(l["warm_kernel_ms"], 0.0);
  EXPECT_NEAR(l["stream_ms"].get<double>(), l["kernel_ms"].get<double>() + l["stream_overhead_us"].get<double>() * 1e-3,
              1e-12);
}

// A forced L2 hit rate changes where data comes from, not how many SMs update one word: the
// atomic suite's kernel (every thread of 4 blocks adding to one address on an RTX A2000) stays
// bound by the L2 atomic unit under what-if l2-hit=1. Before, the SMs contending for the sector
// were estimated only where the L2 tracked lines, and the what-if came out 4x faster: one SM's
// share of the operations instead of the GPU's.
TEST(L2BetweenLaunches, AForcedHitRateLeavesSameAddressAtomicsContended) {
  const auto r = runTeg({"predict", "--launch", std::string(TEG_SOURCE_DIR) + "/data/validation/kernels/atomic_stress.k1.launch.json",
                         "--gpu", "rtx-a2000", "--what-if", "l2-hit=1", "--json"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["bound"], "same-address atomics");
  const auto& w = j["what_if"][0];
  EXPECT_EQ(w["bound"], "same-address atomics");
  EXPECT_NEAR(w["time_ms"].get<double>(), j["time_ms"].get<double>(), 1e-6 * j["time_ms"].get<double>());
}

}  // namespace
