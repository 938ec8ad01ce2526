// Templated kernels by their plain name in every command, an ambiguous name refused with the
// candidates, and demangled names (with the mangled symbol beside) in every report. Compiles
// with the real nvcc (label `nvcc`); skips when teg says nvcc is not installed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

// One instance of scale and one of ns::tile: both plain names are unique.
const char* kUnique =
    "namespace ns {\n"
    "template <typename T, int N> __global__ void tile(const T* a, T* b) { b[threadIdx.x] = a[threadIdx.x] * N; }\n"
    "}\n"
    "template <typename T> __global__ void scale(T* x, int n) { if (threadIdx.x < n) x[threadIdx.x] *= 2; }\n"
    "template __global__ void ns::tile<float, 4>(const float*, float*);\n"
    "template __global__ void scale<float>(float*, int);\n";
// scale<float> and scale<double>: "scale" names two kernels.
const char* kTwoInstances =
    "template <typename T> __global__ void scale(T* x, int n) { if (threadIdx.x < n) x[threadIdx.x] *= 2; }\n"
    "template __global__ void scale<float>(float*, int);\n"
    "template __global__ void scale<double>(double*, int);\n";

#define SKIP_WITHOUT_NVCC(r) \
  if ((r).err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << "nvcc not installed: " << (r).err

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(KernelNames, OccupancyFindsATemplatedKernelByItsPlainName) {
  const std::string cu = writeTempFile("names_unique.cu", kUnique);
  const auto r = runTeg({"occupancy", "--cu", cu, "--kernel", "scale", "--threads", "256", "--gpu", "a100", "--json"});
  SKIP_WITHOUT_NVCC(r);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernel"]["name"], "void scale<float>(float*, int)");
  EXPECT_EQ(j["kernel"]["mangled"], "_Z5scaleIfEvPT_i");
  const auto tile = runTeg({"occupancy", "--cu", cu, "--kernel", "tile", "--threads", "256", "--gpu", "a100", "--json"});
  ASSERT_EQ(tile.exitCode, 0) << tile.err;
  EXPECT_EQ(nlohmann::json::parse(tile.out)["kernel"]["mangled_name"], "_ZN2ns4tileIfLi4EEEvPKT_PS1_");
}

TEST(KernelNames, AnAmbiguousNameIsRefusedWithTheCandidatesInEveryCommand) {
  const std::string cu = writeTempFile("names_two.cu", kTwoInstances);
  const std::vector<std::vector<std::string>> commands{
      {"occupancy", "--cu", cu, "--kernel", "scale", "--threads", "256", "--gpu", "a100"},
      {"compile", cu, "--kernel", "scale"},
      {"ptx", "stats", cu, "--kernel", "scale"},
      {"predict", "--cu", cu, "--kernel", "scale", "--grid", "1", "--block", "32", "--arg", "x=f32[32]", "--arg",
       "n=i32:32", "--gpu", "a100"}};
  for (const auto& args : commands) {
    const auto r = runTeg(args);
    SKIP_WITHOUT_NVCC(r);
    EXPECT_EQ(r.exitCode, 1) << args[0] << ": " << r.out;
    EXPECT_TRUE(contains(r.err, "'scale' is ambiguous")) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "void scale<float>(float*, int) (_Z5scaleIfEvPT_i)")) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "void scale<double>(double*, int) (_Z5scaleIdEvPT_i)")) << args[0] << ": " << r.err;
  }
  // Template arguments pick one.
  const auto r = runTeg({"compile", cu, "--kernel", "scale<double>", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u);
  EXPECT_EQ(j["kernels"][0]["mangled"], "_Z5scaleIdEvPT_i");
}

TEST(KernelNames, PtxStatsAndCompileTakeThePlainNameAndShowTheSignature) {
  const std::string cu = writeTempFile("names_unique.cu", kUnique);
  const auto stats = runTeg({"ptx", "stats", cu, "--kernel", "tile", "--json"});
  SKIP_WITHOUT_NVCC(stats);
  ASSERT_EQ(stats.exitCode, 0) << stats.err;
  const auto j = nlohmann::json::parse(stats.out);
  ASSERT_EQ(j["kernels"].size(), 1u);
  EXPECT_EQ(j["kernels"][0]["name"], "void ns::tile<float, 4>(float const*, float*)");
  EXPECT_EQ(j["kernels"][0]["mangled"], "_ZN2ns4tileIfLi4EEEvPKT_PS1_");
  const auto text = runTeg({"ptx", "stats", cu});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "void scale<float>(float*, int)")) << text.out;
  const auto compile = runTeg({"compile", cu, "--kernel", "ns::tile"});
  ASSERT_EQ(compile.exitCode, 0) << compile.err;
  EXPECT_TRUE(contains(compile.out, "ns::tile<float, 4>")) << compile.out;
  EXPECT_FALSE(contains(compile.out, "scale")) << compile.out;
}

TEST(KernelNames, PredictAndRunReportTheDemangledNameWithTheSymbolBeside) {
  const std::string cu = writeTempFile("names_unique.cu", kUnique);
  const auto p = runTeg({"predict", "--cu", cu, "--kernel", "scale", "--grid", "1", "--block", "32", "--arg",
                         "x=f32[32]", "--arg", "n=i32:32", "--gpu", "a100", "--json"});
  SKIP_WITHOUT_NVCC(p);
  ASSERT_EQ(p.exitCode, 0) << p.err;
  const auto j = nlohmann::json::parse(p.out);
  EXPECT_EQ(j["kernel"], "void scale<float>(float*, int)");
  EXPECT_EQ(j["mangled"], "_Z5scaleIfEvPT_i");
  const auto text = runTeg({"predict", "--cu", cu, "--kernel", "scale", "--grid", "1", "--block", "32", "--arg",
                            "x=f32[32]", "--arg", "n=i32:32", "--gpu", "a100", "--no-timeline"});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "void scale<float>(float*, int) on NVIDIA A100")) << text.out;

  const std::string launch = writeTempFile(
      "names_scale.launch.json",
      nlohmann::json{{"source", cu}, {"kernel", "scale"}, {"grid", 1}, {"block", 32},
                     {"args",
                      {{{"name", "x"}, {"buffer", {{"type", "f32"}, {"count", 32}, {"init", "iota"}}}},
                       {{"name", "n"}, {"scalar", {{"type", "i32"}, {"value", 32}}}}}}}
          .dump());
  const auto run = runTeg({"run", "--launch", launch, "--json"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  const auto rj = nlohmann::json::parse(run.out);
  EXPECT_EQ(rj["kernel"], "void scale<float>(float*, int)");
  EXPECT_EQ(rj["mangled"], "_Z5scaleIfEvPT_i");
  EXPECT_EQ(rj["statistics"]["kernel"], "void scale<float>(float*, int)");
}

}  // namespace
