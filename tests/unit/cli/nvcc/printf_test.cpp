// A kernel's printf (the CUDA runtime's vprintf): `teg run` prints what each calling thread's
// printf prints — the text is worked out here from the format — and `teg predict` times such a
// kernel on its PTX, saying why (the SASS calls vprintf through an address the driver relocates).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

const char* kPrintf = R"(#include <cstdio>
__global__ void hello(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 100 == 7) printf("thread %d of %u: %5.2f %s %c %lld %x%%\n", i, n, 0.5f * i, "ok", 'A' + i % 26, -1LL, i);
  if (i < n) out[i] = 2.0f * i;
}
)";

#define SKIP_WITHOUT_NVCC(r) \
  if ((r).err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << "nvcc not installed: " << (r).err

std::string launchFile() {
  const std::string cu = writeTempFile("printf_hello.cu", kPrintf);
  return writeTempFile("printf_hello.launch.json",
                       R"({"source": ")" + cu + R"(", "kernel": "hello", "grid": [2], "block": [128], "args": [
    {"name": "out", "buffer": {"type": "f32", "count": 256}}, {"name": "n", "scalar": {"type": "i32", "value": 256}}]})");
}

TEST(DevicePrintf, RunPrintsEachCallingThreadsLine) {
  const auto r = runTeg({"run", "--launch", launchFile(), "--gpu", "a100", "--isa", "ptx"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // Threads 7, 107 and 207 call it: 0.5 i with two decimals in five columns, 'A' + i % 26.
  EXPECT_NE(r.out.find("thread 7 of 256:  3.50 ok H -1 7%\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("thread 107 of 256: 53.50 ok D -1 6b%\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("thread 207 of 256: 103.50 ok Z -1 cf%\n"), std::string::npos) << r.out;
  const auto j = runTeg({"run", "--launch", launchFile(), "--gpu", "a100", "--isa", "ptx", "--json"});
  ASSERT_EQ(j.exitCode, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["run"]["printf_calls"], 3);
  EXPECT_NE(j.err.find("thread 107 of 256"), std::string::npos) << "beside --json the text goes to stderr";
}

TEST(DevicePrintf, PredictTimesAPrintingKernelOnItsPtxAndSaysWhy) {
  const auto r = runTeg({"predict", "--launch", launchFile(), "--gpu", "a100", "--json"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["isa"]["used"], "ptx");
  const std::string reason = j["isa"]["reason"];
  if (reason.find("nvdisasm was not found") != std::string::npos) GTEST_SKIP() << reason;
  EXPECT_NE(reason.find("printf"), std::string::npos) << reason;
}

}  // namespace
