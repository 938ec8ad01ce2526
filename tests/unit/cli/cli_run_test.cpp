// teg run: the real binary on a hand-written PTX kernel (no nvcc needed) and, when nvcc is
// installed, on corpus kernels. Statistics are checked against counts worked out by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_teg.hpp"

using teg::test::runTeg;
using teg::test::writeTempFile;

namespace {

// out[i] = in[i * stride] for i < n: a gather whose stride sets the coalescing.
const char* kGatherPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry gather(.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 stride)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r5, [stride];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r6, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r6, %r1;
  @%p1 bra DONE;
  mul.lo.s32 %r7, %r6, %r5;
  cvta.to.global.u64 %rd3, %rd1;
  mul.wide.s32 %rd4, %r7, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5];
  cvta.to.global.u64 %rd6, %rd2;
  mul.wide.s32 %rd4, %r6, 4;
  add.s64 %rd7, %rd6, %rd4;
  st.global.f32 [%rd7], %f1;
DONE:
  ret;
}
)";

// A launch of `gather` in its own directory; `expect` is the JSON of out's "expect" (or "").
std::string gatherLaunch(const std::string& tag, int n, int stride, int grid, const std::string& expect = "",
                         const std::string& type = "f32") {
  const std::string ptx = writeTempFile("gather_" + tag + ".ptx", kGatherPtx);
  const std::string json = "{\"source\": \"gather_" + tag + ".ptx\", \"kernel\": \"gather\", \"grid\": [" +
                           std::to_string(grid) + "], \"block\": [32], \"args\": [" +
                           "{\"name\": \"in\", \"buffer\": {\"type\": \"" + type + "\", \"count\": " +
                           std::to_string(n * stride) + ", \"init\": \"iota\"}}, " +
                           "{\"name\": \"out\", \"buffer\": {\"type\": \"" + type + "\", \"count\": " + std::to_string(n) +
                           ", \"init\": \"zeros\"" + (expect.empty() ? "" : ", \"expect\": " + expect) + "}}, " +
                           "{\"name\": \"n\", \"scalar\": {\"type\": \"u32\", \"value\": " + std::to_string(n) +
                           "}}, {\"name\": \"stride\", \"scalar\": {\"type\": \"u32\", \"value\": " +
                           std::to_string(stride) + "}}]}";
  (void)ptx;
  return writeTempFile("gather_" + tag + ".launch.json", json);
}

nlohmann::json runJson(const std::vector<std::string>& args) {
  const auto r = runTeg(args);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliRun, CoalescedGatherIsFourSectorsPerRequest) {
  // n = 64, 2 blocks of 32: 2 warps, each loads 32 consecutive floats = 4 sectors, 1 line.
  const auto j = runJson({"run", "--launch", gatherLaunch("s1", 64, 1, 2), "--json"});
  const auto& loads = j["statistics"]["total"]["global"]["loads"];
  EXPECT_EQ(loads["requests"], 2);
  EXPECT_EQ(loads["sectors"], 8);
  EXPECT_EQ(loads["lines"], 2);
  EXPECT_DOUBLE_EQ(loads["efficiency"].get<double>(), 1.0);
  EXPECT_EQ(j["blocks"]["emulated"], 2);
  EXPECT_EQ(j["blocks"]["partial"], false);
  EXPECT_EQ(j["statistics"]["total"]["divergent_branches"], 0);
}

TEST(CliRun, StrideTwoGatherHalvesTheEfficiency) {
  // Stride 2: each warp's 32 floats span 256 B = 8 sectors, 2 lines; 128 B used of 256 moved.
  const auto j = runJson({"run", "--launch", gatherLaunch("s2", 64, 2, 2), "--json"});
  const auto& loads = j["statistics"]["total"]["global"]["loads"];
  EXPECT_EQ(loads["sectors"], 16);
  EXPECT_EQ(loads["lines"], 4);
  EXPECT_DOUBLE_EQ(loads["efficiency"].get<double>(), 0.5);
  // The stores stay contiguous.
  EXPECT_DOUBLE_EQ(j["statistics"]["total"]["global"]["stores"]["efficiency"].get<double>(), 1.0);
}

TEST(CliRun, RaggedLastWarpDivergesOnce) {
  // n = 40: block 1 (threads 32..63) has lanes 0..7 in range; lanes 8..31 take the exit branch
  // while 0..7 fall through: one divergent branch. Its load and store run on 8 lanes (24 idle).
  const auto j = runJson({"run", "--launch", gatherLaunch("ragged", 40, 1, 2), "--json"});
  const auto& t = j["statistics"]["total"];
  EXPECT_EQ(t["divergent_branches"], 1);
  EXPECT_EQ(t["global"]["loads"]["thread_accesses"], 40);
  EXPECT_EQ(t["global"]["loads"]["sectors"], 4 + 1);  // 32 floats + 8 floats (32 B)
}

TEST(CliRun, TextOutputNamesTheKernelAndSourceLines) {
  const auto r = runTeg({"run", "--launch", gatherLaunch("text", 64, 1, 2)});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("kernel gather"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("all 2 blocks emulated"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("coalescing efficiency"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("per source line"), std::string::npos) << r.out;
}

TEST(CliRun, CheckPassesOnMatchingExpectedValues) {
  // out[i] = in[i] = i: expected "iota".
  const auto r = runTeg({"run", "--launch", gatherLaunch("ok", 64, 1, 2, R"({"init": "iota"})"), "--check"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("ok"), std::string::npos);
}

TEST(CliRun, CheckFailsNamingBufferIndexValuesAndCount) {
  // Stride 2: out[i] = 2 i, expected i: index 0 agrees, 63 of 64 differ, the first at index 1.
  const auto r = runTeg({"run", "--launch", gatherLaunch("bad", 64, 2, 2, R"({"init": "iota", "tolerance": 0.5})"),
                         "--check"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("buffer 'out'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("63 of 64"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("index 1: got 2, expected 1"), std::string::npos) << r.err;
}

TEST(CliRun, CheckOfAnIntegerBufferReportsItsLargestDifference) {
  // u32 buffers, compared exactly: stride 2 copies in[2i] = 2i to out[i], expected i, so 63 of
  // 64 differ and the largest difference is |126 - 63| = 63 (it was reported as 0, beside
  // MISMATCH, because only floats or a nonzero tolerance measured it).
  const auto r = runTeg({"run", "--launch", gatherLaunch("u32bad", 64, 2, 2, R"({"init": "iota"})", "u32"), "--check",
                         "--json"});
  EXPECT_NE(r.exitCode, 0);
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["check"].size(), 1u) << r.out;
  EXPECT_EQ(j["check"][0]["mismatches"], 63);
  EXPECT_DOUBLE_EQ(j["check"][0]["max_abs_difference"].get<double>(), 63.0);
  EXPECT_NE(r.err.find("index 1: got 2, expected 1"), std::string::npos) << r.err;
}

TEST(CliRun, CheckWithoutExpectedValuesIsAnError) {
  const auto r = runTeg({"run", "--launch", gatherLaunch("noexp", 64, 1, 2), "--check"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("no buffer"), std::string::npos) << r.err;
}

TEST(CliRun, DumpWritesRawAndNpy) {
  const std::string bin = writeTempFile("out.bin", ""), npy = writeTempFile("out.npy", "");
  const auto r = runTeg({"run", "--launch", gatherLaunch("dump", 64, 3, 2), "--dump", "out=" + bin, "--dump",
                         "out=" + npy});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream f(bin, std::ios::binary);
  std::vector<float> out(64);
  f.read(reinterpret_cast<char*>(out.data()), 64 * 4);
  ASSERT_TRUE(f);
  EXPECT_EQ(f.peek(), EOF);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[static_cast<std::size_t>(i)], static_cast<float>(3 * i));
  std::ifstream g(npy, std::ios::binary);
  std::string magic(6, '\0');
  g.read(magic.data(), 6);
  EXPECT_EQ(magic, "\x93NUMPY");
  EXPECT_EQ(std::filesystem::file_size(npy) % 64, 0u);  // .npy headers pad to 64 bytes; 256 B of data
}

TEST(CliRun, DumpOfAnUnknownBufferIsAnError) {
  const auto r = runTeg({"run", "--launch", gatherLaunch("dumpbad", 64, 1, 2), "--dump", "nosuch=x.bin"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("'nosuch' is not a buffer"), std::string::npos) << r.err;
}

TEST(CliRun, BlocksSubsetIsSaidAndCounted) {
  const auto launch = gatherLaunch("blocks", 256, 1, 8);
  const auto j = runJson({"run", "--launch", launch, "--json", "--blocks", "0,5-6"});
  EXPECT_EQ(j["blocks"]["emulated"], 3);
  EXPECT_EQ(j["blocks"]["partial"], true);
  EXPECT_EQ(j["blocks"]["ranges"], "0,5-6");
  EXPECT_EQ(j["statistics"]["blocks_observed"], 3);
  EXPECT_EQ(j["statistics"]["total"]["global"]["loads"]["requests"], 3);
  const auto r = runTeg({"run", "--launch", launch, "--blocks", "2-3"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("2 of 8 blocks emulated (2-3)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cover them only"), std::string::npos) << r.out;
}

TEST(CliRun, BadBlockSpecsAreRejected) {
  const auto launch = gatherLaunch("blocksbad", 256, 1, 8);
  auto r = runTeg({"run", "--launch", launch, "--blocks", "8"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("outside the grid"), std::string::npos) << r.err;
  r = runTeg({"run", "--launch", launch, "--blocks", "3-1"});
  EXPECT_NE(r.exitCode, 0);
  r = runTeg({"run", "--launch", launch, "--blocks", "x"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("not a block index"), std::string::npos) << r.err;
  // first-wave needs a product GPU (an SM count); the default generic sm_80 has none.
  r = runTeg({"run", "--launch", launch, "--blocks", "first-wave"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("first wave"), std::string::npos) << r.err;
}

TEST(CliRun, FirstWaveOfATinyKernelOnA100IsTheWholeSmallGrid) {
  // 8 blocks of 32 threads all fit in A100's first wave (108 SMs): everything runs.
  const auto j = runJson({"run", "--launch", gatherLaunch("wave", 256, 1, 8), "--json", "--gpu", "A100",
                          "--blocks", "first-wave"});
  EXPECT_EQ(j["blocks"]["emulated"], 8);
  EXPECT_EQ(j["blocks"]["partial"], false);
}

TEST(CliRun, CheckRefusesAPartialGrid) {
  const auto r = runTeg({"run", "--launch", gatherLaunch("checkpart", 256, 1, 8, R"({"init": "iota"})"), "--check",
                         "--blocks", "0"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("whole grid"), std::string::npos) << r.err;
}

TEST(CliRun, MaxInstructionsStopsTheRun) {
  const auto r = runTeg({"run", "--launch", gatherLaunch("maxi", 256, 1, 8), "--max-instructions", "5"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_FALSE(r.err.empty());
}

// More dynamic shared memory than a block may have on the GPU (A100: 163 KiB with opt-in) is
// refused naming the rule, as cudaLaunchKernel refuses it, instead of being run.
TEST(CliRun, DynamicSharedMemoryAboveTheDeviceLimitIsRefused) {
  std::string json;
  {
    std::ifstream in(gatherLaunch("dsmem", 64, 1, 2));
    std::stringstream s;
    s << in.rdbuf();
    json = s.str();
  }
  json.insert(1, "\"dynamic_smem\": 300000, ");
  const std::string launch = writeTempFile("gather_dsmem_big.launch.json", json);
  const auto r = runTeg({"run", "--launch", launch, "--gpu", "a100"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("shared memory per block 300000 B >"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("per-block limit of NVIDIA A100"), std::string::npos) << r.err;
}

// Issue 24: --max-instructions -5 was taken as 2^64 - 5 (no budget at all).
TEST(CliRun, NegativeMaxInstructionsIsRefused) {
  const auto r = runTeg({"run", "--launch", gatherLaunch("maxneg", 256, 1, 8), "--max-instructions", "-5"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("--max-instructions: '-5' is not a non-negative integer"), std::string::npos) << r.err;
}

TEST(CliRun, TraceOutWritesATraceFile) {
  const std::string trace = writeTempFile("gather.tegtrace", "");
  const auto j = runJson({"run", "--launch", gatherLaunch("trace", 64, 1, 2), "--json", "--trace-out", trace});
  std::ifstream f(trace, std::ios::binary);
  std::string magic(8, '\0');
  f.read(magic.data(), 8);
  EXPECT_EQ(magic, "TEGTRACE");
  EXPECT_EQ(j["trace_out"]["bytes"].get<std::uint64_t>(), std::filesystem::file_size(trace));
}

// --- corpus kernels through nvcc ---

bool haveNvcc() {
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return true;
  if (const char* home = std::getenv("CUDA_HOME"); home && std::filesystem::exists(std::string(home) + "/bin/nvcc"))
    return true;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && std::filesystem::exists(d + "/nvcc")) return true;
  return false;
}

std::string corpusLaunch(const std::string& stem, int rows, int cols, int gx, int gy) {
  const std::string json = "{\"source\": \"" + std::string(TEG_SOURCE_DIR) + "/examples/kernels/" + stem +
                           ".cu\", \"kernel\": \"" + (stem == "transpose_shared" ? "transposeShared" : "transposePadded") +
                           "\", \"grid\": [" + std::to_string(gx) + ", " + std::to_string(gy) +
                           "], \"block\": [32, 8], \"args\": [" +
                           "{\"name\": \"in\", \"buffer\": {\"type\": \"f32\", \"count\": " +
                           std::to_string(rows * cols) + ", \"init\": \"iota\"}}, " +
                           "{\"name\": \"out\", \"buffer\": {\"type\": \"f32\", \"count\": " +
                           std::to_string(rows * cols) + "}}, " + "{\"name\": \"rows\", \"scalar\": {\"type\": \"i32\", \"value\": " +
                           std::to_string(rows) + "}}, {\"name\": \"cols\", \"scalar\": {\"type\": \"i32\", \"value\": " +
                           std::to_string(cols) + "}}]}";
  return writeTempFile(stem + ".launch.json", json);
}

TEST(CliRun, TransposeTileColumnReadIs32WayConflictedAndPaddingRemovesIt) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  // One full 32 x 32 tile, block (32, 8): 8 warps; each warp stores 4 rows of the tile
  // (tile[ty + j][tx]: 32 consecutive words, 1 wavefront each) and reads 4 columns
  // (tile[tx][ty + j]: words 32 tx + c, all in bank c: 32 wavefronts; padded: 33 tx + c, all
  // banks different: 1). So 32 store requests / 32 wavefronts, 32 load requests / 1024
  // wavefronts (992 from conflicts) without padding, 32 with.
  auto j = runJson({"run", "--launch", corpusLaunch("transpose_shared", 32, 32, 1, 1), "--json"});
  auto shared = j["statistics"]["total"]["shared"];
  EXPECT_EQ(shared["stores"]["requests"], 32);
  EXPECT_EQ(shared["stores"]["wavefronts"], 32);
  EXPECT_EQ(shared["loads"]["requests"], 32);
  EXPECT_EQ(shared["loads"]["wavefronts"], 1024);
  EXPECT_EQ(shared["loads"]["conflict_wavefronts"], 992);
  j = runJson({"run", "--launch", corpusLaunch("transpose_padded", 32, 32, 1, 1), "--json"});
  shared = j["statistics"]["total"]["shared"];
  EXPECT_EQ(shared["loads"]["wavefronts"], 32);
  EXPECT_EQ(shared["loads"]["conflict_wavefronts"], 0);
  EXPECT_EQ(shared["stores"]["wavefronts"], 32);
  // Global: 32 load and 32 store requests of 32 consecutive floats: 4 sectors each.
  EXPECT_EQ(j["statistics"]["total"]["global"]["loads"]["sectors"], 128);
  EXPECT_EQ(j["statistics"]["total"]["global"]["stores"]["sectors"], 128);
}

TEST(CliRun, CorpusExampleRunsOnAFewBlocksWithPerLineSource) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto r = runTeg({"run", "--launch", std::string(TEG_SOURCE_DIR) + "/examples/kernels/vector_add.launch.json",
                         "--blocks", "0-1", "--gpu", "A100"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("compiled for sm_80"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("vector_add.cu:8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("c[i] = a[i] + b[i]"), std::string::npos) << r.out;  // the source text of line 8
}

}  // namespace
