// Include directories, macros and nvcc arguments reach nvcc from a launch file (paths relative to
// it) and from every command that compiles a .cu (-I, -D, --nvcc-arg); a repeated compile comes
// from the compile cache unless --no-cache. A CUDA-samples style kernel whose helper header
// lives in a shared directory. Skips, saying so, without nvcc.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_teg.hpp"

namespace fs = std::filesystem;
using teg::test::runTeg;

namespace {

bool haveNvcc() {
  for (const char* dir : {"/usr/local/cuda/bin"})
    if (access((std::string(dir) + "/nvcc").c_str(), X_OK) == 0) return true;
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "";
  for (std::size_t start = 0; start <= p.size();) {
    const std::size_t end = std::min(p.find(':', start), p.size());
    if (end > start && access((p.substr(start, end - start) + "/nvcc").c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

class CliCompileFlags : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!haveNvcc()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit to run this test)";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("teg-cli-flags-" + std::to_string(getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "common" / "inc");
    fs::create_directories(dir_ / "app");
    // helper_cuda.h-like: a checking macro and a constant the kernel needs.
    write("common/inc/helper_math_like.h",
          "#pragma once\n#define checkIndex(i, n) ((i) < (n))\n__device__ inline float addOne(float v) { return v + 1.0f; }\n");
    write("app/kernel.cu",
          "#include <helper_math_like.h>\n"
          "#ifndef STEP\n#error \"build with -DSTEP=...\"\n#endif\n"
          "__global__ void bump(const float* x, float* y, unsigned n) {\n"
          "  unsigned i = threadIdx.x;\n"
          "  if (checkIndex(i, n)) y[i] = addOne(x[i]) * STEP;\n}\n");
    setenv("TEG_CACHE_DIR", (dir_ / "cache").c_str(), 1);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return path(name);
  }
  // The launch of `bump` over 32 elements, with `extra` fields.
  std::string launch(const std::string& name, const std::string& extra) const {
    return write(name, R"({"source": "kernel.cu", "kernel": "bump", "grid": [1], "block": [32], )" + extra +
                           R"("args": [{"name": "x", "buffer": {"type": "f32", "count": 32, "init": "iota"}},
                                       {"name": "y", "buffer": {"type": "f32", "count": 32, "init": "zeros"}},
                                       {"name": "n", "scalar": {"type": "u32", "value": 32}}]})");
  }
  // y as dumped by teg run.
  std::vector<float> runAndDump(std::vector<std::string> args) const {
    const std::string out = path("y.bin");
    args.insert(args.end(), {"--dump", "y=" + out});
    const auto r = runTeg(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::vector<float> y(32);
    std::ifstream(out, std::ios::binary).read(reinterpret_cast<char*>(y.data()), 32 * 4);
    return y;
  }

  fs::path dir_;
};

TEST_F(CliCompileFlags, TheLaunchFileNamesIncludeDirectoriesMacrosAndNvccArguments) {
  const std::string l = launch("app/bump.launch.json",
                               R"("include_dirs": ["../common/inc"], "defines": ["STEP=2"], "nvcc_args": ["-maxrregcount=32"], )");
  const auto y = runAndDump({"run", "--launch", l});
  EXPECT_EQ(y[0], 2.0f);   // (0 + 1) * 2
  EXPECT_EQ(y[31], 64.0f);  // (31 + 1) * 2
  const auto r = runTeg({"predict", "--launch", l, "--gpu", "a100", "--json"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST_F(CliCompileFlags, RunAndPredictTakeTheFlagsOnTheCommandLine) {
  const std::string l = launch("app/bump.launch.json", "");
  const auto without = runTeg({"run", "--launch", l});
  EXPECT_EQ(without.exitCode, 1);
  EXPECT_NE(without.err.find("helper_math_like.h"), std::string::npos) << without.err;
  const auto y = runAndDump({"run", "--launch", l, "-I", path("common/inc"), "-D", "STEP=3"});
  EXPECT_EQ(y[1], 6.0f);
  EXPECT_EQ(runTeg({"predict", "--launch", l, "--gpu", "a100", "-I", path("common/inc"), "--define=STEP=3"}).exitCode, 0);
}

TEST_F(CliCompileFlags, CompilePtxAndOccupancyTakeTheFlags) {
  const std::string cu = path("app/kernel.cu");
  const std::vector<std::string> flags{"-I" + path("common/inc"), "-DSTEP=4", "--nvcc-arg=-maxrregcount=16"};
  auto with = [&](std::vector<std::string> args) {
    args.insert(args.end(), flags.begin(), flags.end());
    return runTeg(args);
  };
  auto r = with({"compile", cu, "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto command = j["command"].dump();
  EXPECT_NE(command.find("-maxrregcount=16"), std::string::npos) << command;
  EXPECT_NE(command.find("-DSTEP=4"), std::string::npos) << command;
  r = with({"ptx", "stats", cu});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  r = with({"occupancy", "--cu", cu, "--kernel", "bump", "--threads", "256", "--gpu", "a100"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST_F(CliCompileFlags, ARepeatedCompileComesFromTheCacheUnlessNoCache) {
  const std::vector<std::string> args{"compile", path("app/kernel.cu"), "--json", "-I", path("common/inc"), "-DSTEP=1"};
  auto fromCache = [&](std::vector<std::string> a) {
    const auto r = runTeg(a);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.exitCode == 0 && nlohmann::json::parse(r.out)["from_cache"].get<bool>();
  };
  EXPECT_FALSE(fromCache(args));
  EXPECT_TRUE(fromCache(args));
  auto noCache = args;
  noCache.push_back("--no-cache");
  EXPECT_FALSE(fromCache(noCache));
  // A changed helper header is a miss, and its new content is what compiles.
  write("common/inc/helper_math_like.h", "#pragma once\n#define checkIndex(i, n) ((i) < (n))\n"
                                         "__device__ inline float addOne(float v) { return v + 2.0f; }\n");
  EXPECT_FALSE(fromCache(args));
}

}  // namespace
