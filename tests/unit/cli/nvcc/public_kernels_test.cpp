// Public CUDA code as a new user runs it (issue 24, acceptance 3): only a launch file, `teg run`
// and `teg predict`. CI has no GitHub, so these use small excerpts vendored under
// tests/data/public/ (licence and commit in each file); the whole sweep over the code bases is
// scripts/public-kernels-sweep.py (docs/public-kernels.md). Label `nvcc`.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

#define SKIP_WITHOUT_NVCC(r) \
  if ((r).err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << "nvcc not installed: " << (r).err

const std::string kReduction = std::string(TEG_SOURCE_DIR) + "/tests/data/public/cuda-samples/reduction_multi_warp.cu";

// A launch of the excerpt's `kernel` over n = 4096 ints 0..4095 (iota), 4 blocks of 256 threads,
// the dynamic shared memory cuda-samples' reduce() gives (256 ints), one sum per block in g_odata.
std::string reductionLaunch(const std::string& kernel) {
  return writeTempFile(
      "public_" + kernel.substr(0, kernel.find('<')) + ".launch.json",
      R"({"source": ")" + kReduction + R"(", "kernel": ")" + kernel + R"(", "grid": [4], "block": [256],
          "dynamic_smem": 1024,
          "args": [{"name": "g_idata", "buffer": {"type": "i32", "count": 4096, "init": "iota"}},
                   {"name": "g_odata", "buffer": {"type": "i32", "count": 4, "init": "zeros"}},
                   {"name": "n", "scalar": {"type": "u32", "value": 4096}}]})");
}

// The last `n` int32 of a 1-D .npy file (the data follows the header).
std::vector<std::int32_t> npyTail(const std::string& path, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::int32_t> v(n);
  if (bytes.size() >= n * 4) std::memcpy(v.data(), bytes.data() + bytes.size() - n * 4, n * 4);
  return v;
}

// Block b's sum as multi_warp_cg_reduce<int, 256, 64> computes it for a power-of-two n: thread t
// adds i and i + 256 for i = 512 b + t, 512 b + t + 2048, ... below n.
std::vector<std::int32_t> expectedMultiWarpSums() {
  std::vector<std::int32_t> sums(4, 0);
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 256; ++t)
      for (int i = 512 * b + t; i < 4096; i += 2048) sums[b] += i + (i + 256 < 4096 ? i + 256 : 0);
  return sums;
}

// Before: "unknown register '%reserved_smem_offset_1'" for every kernel of the file, reduce0 too.
TEST(PublicKernels, AKernelBesideAMultiWarpTileRuns) {
  const auto r = runTeg({"run", "--launch", reductionLaunch("reduce0<int>"), "--json"});
  SKIP_WITHOUT_NVCC(r);
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST(PublicKernels, MultiWarpTileReductionRunsAndSumsRight) {
  const std::string launch = reductionLaunch("multi_warp_cg_reduce");
  const std::string out = writeTempFile("public_multi_warp_out.npy", "");
  const auto r = runTeg({"run", "--launch", launch, "--dump", "g_odata=" + out});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(npyTail(out, 4), expectedMultiWarpSums());
}

// Its SASS finds the reserved region through a driver constant the SASS emulator does not fill:
// auto times the PTX and says why; --isa sass refuses naming the same reason.
TEST(PublicKernels, MultiWarpTilePredictsOnThePtxAndSaysWhy) {
  const std::string launch = reductionLaunch("multi_warp_cg_reduce");
  const auto r = runTeg({"predict", "--launch", launch, "--gpu", "a100", "--json", "--no-timeline"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["isa"]["used"], "ptx");
  if (j["isa"]["reason"].get<std::string>().find("nvdisasm") == std::string::npos) {
    EXPECT_NE(j["isa"]["reason"].get<std::string>().find("reserved shared memory"), std::string::npos)
        << j["isa"]["reason"];
  }
  EXPECT_GT(j["time_ms"].get<double>(), 0.0);
}

const std::string kThreadFence =
    std::string(TEG_SOURCE_DIR) + "/tests/data/public/cuda-samples/thread_fence_reduction.cu";

// threadFenceReduction's single pass over 2^16 ones: 64 blocks of 128 threads, the last block to
// take a ticket from the __device__ counter sums the 64 partial sums into g_odata[0] = 65536
// (exact in float: integers below 2^24).
std::string threadFenceLaunch() {
  return writeTempFile("public_thread_fence.launch.json",
                       R"({"source": ")" + kThreadFence + R"(", "kernel": "reduceSinglePass", "grid": [64],
          "block": [128], "dynamic_smem": 512,
          "symbols": {"retirementCount": {"type": "u32", "init": "zeros"}},
          "args": [{"name": "g_idata", "buffer": {"type": "f32", "count": 65536, "init": {"constant": 1}}},
                   {"name": "g_odata", "buffer": {"type": "f32", "count": 64, "init": "zeros"}},
                   {"name": "n", "scalar": {"type": "u32", "value": 65536}}]})");
}

// Before: "invalid global write of 4 bytes at 0x0 ... ATOMG.E.INC" (the SASS, address from bank 4).
TEST(PublicKernels, ADeviceVariableCounterRunsAndTheLastBlockSumsAll) {
  const std::string out = writeTempFile("public_thread_fence_out.npy", "");
  const auto r = runTeg({"run", "--launch", threadFenceLaunch(), "--dump", "g_odata=" + out});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(out, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 64u * 4u);
  float first = 0;
  std::memcpy(&first, bytes.data() + bytes.size() - 64 * 4, 4);
  EXPECT_EQ(first, 65536.0f);
}

// The SASS reads retirementCount's address from constant bank 4, which teg now fills from the
// cubin's relocations as the driver does: the SASS runs it (same sum) and auto times it there.
// Before: auto took the PTX ("__device__ variables, whose addresses its SASS reads from constant
// bank 4, which the SASS emulator does not fill").
TEST(PublicKernels, ADeviceVariableCounterRunsOnTheSassToo) {
  const std::string out = writeTempFile("public_thread_fence_sass_out.npy", "");
  const auto r = runTeg({"run", "--launch", threadFenceLaunch(), "--isa", "sass", "--dump", "g_odata=" + out});
  SKIP_WITHOUT_NVCC(r);
  if (r.err.find("nvdisasm was not found") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(out, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 64u * 4u);
  float first = 0;
  std::memcpy(&first, bytes.data() + bytes.size() - 64 * 4, 4);
  EXPECT_EQ(first, 65536.0f);
}

TEST(PublicKernels, ADeviceVariablePredictsOnTheSass) {
  const auto r = runTeg({"predict", "--launch", threadFenceLaunch(), "--gpu", "a100", "--json", "--no-timeline"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string reason = j["isa"]["reason"];
  if (reason.find("nvdisasm") == std::string::npos) {
    EXPECT_EQ(j["isa"]["used"], "sass") << reason;
  }
}

}  // namespace
