// `teg predict` of a kernel that writes past its array (PMPP's convolution kernels write P[i] with
// no bounds check): on a GPU it runs, the memory beside an allocation being mapped, so the
// prediction times it and reports the accesses; `--strict-bounds` and `teg run` stop at the first.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

#define SKIP_WITHOUT_NVCC(r) \
  if ((r).err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << "nvcc not installed: " << (r).err

const char* kUnguarded = R"(
__global__ void scale(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
}
)";

std::vector<std::string> launchOf(const std::string& command) {
  return {command, "--cu", writeTempFile("overrun_scale.cu", kUnguarded), "--kernel", "scale", "--gpu", "rtx3060-laptop",
          "--grid", "1", "--block", "64", "--arg", "in=f32[2]", "out=f32[2]"};
}

TEST(CliOverrun, PredictTimesAKernelWritingPastItsArrayAndReportsTheAccesses) {
  for (const std::string isa : {"auto", "ptx"}) {
    SCOPED_TRACE(isa);
    auto args = launchOf("predict");
    args.insert(args.end(), {"--json", "--isa", isa});
    const auto r = runTeg(args);
    SKIP_WITHOUT_NVCC(r);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GT(j["time_ms"].get<double>(), 0);
    // 64 threads on two 2-element buffers: threads 2..63 read in[i] and write out[i] past the
    // end, the farthest ending at byte 256 of an 8-byte buffer.
    const auto& oob = j["out_of_bounds"];
    ASSERT_EQ(oob.size(), 2u) << oob.dump();
    for (const auto& o : oob) {
      EXPECT_EQ(o["accesses"], 62) << o.dump();
      EXPECT_EQ(o["bytes_past_end"], 248) << o.dump();
      EXPECT_EQ(o["bytes_before_start"], 0) << o.dump();
    }
    EXPECT_EQ(oob[0]["buffer"], "in");
    EXPECT_EQ(oob[1]["buffer"], "out");
  }
  const auto text = runTeg(launchOf("predict"));
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("warning:     the kernel accessed 'out' outside its bounds (62 lane accesses, up to 248 bytes "
                          "past its end)"),
            std::string::npos)
      << text.out;
}

TEST(CliOverrun, StrictBoundsAndRunStopAtTheFirstAccessOutside) {
  auto strict = launchOf("predict");
  strict.push_back("--strict-bounds");
  const auto r = runTeg(strict);
  SKIP_WITHOUT_NVCC(r);
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("out-of-bounds global"), std::string::npos) << r.err;
  const std::string cu = writeTempFile("overrun_scale.cu", kUnguarded);
  const std::string launch = writeTempFile("overrun_scale.launch.json", R"({"source": ")" + cu + R"(", "kernel": "scale",
    "grid": [1], "block": [64], "args": [{"name": "in", "buffer": {"type": "f32", "count": 2}},
    {"name": "out", "buffer": {"type": "f32", "count": 2}}]})");
  const auto run = runTeg({"run", "--launch", launch, "--gpu", "rtx3060-laptop"});
  EXPECT_NE(run.exitCode, 0);
  EXPECT_NE(run.err.find("invalid global"), std::string::npos) << run.err;
}

TEST(CliOverrun, AnInBoundsKernelReportsNone) {
  const auto r = runTeg({"predict", "--cu", writeTempFile("overrun_scale.cu", kUnguarded), "--kernel", "scale", "--gpu",
                         "rtx3060-laptop", "--grid", "1", "--block", "64", "--arg", "in=f32[64]", "out=f32[64]", "--json"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out)["out_of_bounds"].empty());
}

}  // namespace
