// teg predict end to end on a corpus kernel (needs nvcc; skipped without it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "run_teg.hpp"

using teg::test::runTeg;

namespace {

bool haveNvcc() { return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || std::getenv("CUDA_HOME") != nullptr; }

const std::string kSaxpy = std::string(TEG_SOURCE_DIR) + "/examples/kernels/saxpy.launch.json";

// `teg predict --json` of examples/kernels/<name>.launch.json on `gpu`; null (and a failure) if it
// does not exit 0.
nlohmann::json predictExample(const std::string& name, const std::string& gpu, const std::string& isa = "auto") {
  const auto launch = std::string(TEG_SOURCE_DIR) + "/examples/kernels/" + name + ".launch.json";
  const auto r = runTeg({"predict", "--launch", launch, "--gpu", gpu, "--json", "--isa", isa});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return r.exitCode == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

TEST(CliPredict, JsonCarriesCyclesTimeAndBoundConsistently) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--json", "--what-if", "dram-bw=x2"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const double cycles = j["cycles"];
  EXPECT_GT(cycles, 0);
  // time = cycles / clock: the A100-SXM4-40GB boost clock is 1410 MHz (whitepaper).
  EXPECT_NEAR(j["time_ms"].get<double>(), cycles / 1410e3, 1e-9);
  EXPECT_FALSE(j["bound"].get<std::string>().empty());
  // saxpy on a grid of 1024 blocks: 1024 / 108 SMs -> the busiest SM runs 10 blocks.
  EXPECT_EQ(j["sampling"]["blocks_on_sm"], 10);
  // Doubling the DRAM bandwidth cannot make a memory-streaming kernel slower.
  EXPECT_LE(j["what_if"][0]["cycles"].get<double>(), cycles);
  EXPECT_EQ(j["registers_per_thread"], 12);  // ptxas on sm_80 (examples/kernels/README)
}

// Issue 24: --arg values that the kernel would see changed (wrapped, negative unsigned) and a
// second argument of one name are refused before anything is compiled.
TEST(CliPredict, ArgValuesOutsideTheirTypeAreRefused) {
  const std::string cu = std::string(TEG_SOURCE_DIR) + "/examples/kernels/saxpy.cu";
  const auto error = [&](std::vector<std::string> args) {
    std::vector<std::string> all = {"predict", "--cu", cu, "--kernel", "saxpy", "--grid", "4", "--block", "32", "--gpu", "a100"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = runTeg(all);
    EXPECT_NE(r.exitCode, 0);
    return r.err;
  };
  EXPECT_NE(error({"--arg", "n=i32:1099511627776"}).find("1099511627776 does not fit i32 (it holds -2147483648 to 2147483647)"),
            std::string::npos);
  EXPECT_NE(error({"--arg", "alpha=f32:1e300"}).find("does not fit f32"), std::string::npos);
  EXPECT_NE(error({"--arg", "n=u32:-1"}).find("u32 is unsigned; '-1' is negative"), std::string::npos);
  EXPECT_NE(error({"--arg", "n=i32:5", "--arg", "n=i32:6"}).find("a second argument named 'n'"), std::string::npos);
  EXPECT_NE(error({"--sample-blocks", "-1"}).find("--sample-blocks: '-1' is not a non-negative integer"), std::string::npos);
}

TEST(CliPredict, UnknownWhatIfIsAOneLineError) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--what-if", "faster-please"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("unknown what-if 'faster-please'"), std::string::npos) << r.err;
}

TEST(CliPredict, WarpsWhatIfAboveOccupancyNamesTheLimit) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  // saxpy's 256-thread blocks on an A100: 2048 threads per SM / 256 = 8 blocks of 8 warps (its 12
  // registers and no shared memory allow more), so 64 warps; 72 cannot be had by lowering.
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--what-if", "warps=72"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("at most 64 warps of this kernel (8 blocks of 8 warps"), std::string::npos) << r.err;
}

TEST(CliPredict, GridAndBlockGivenBesideALaunchFileReplaceItsOwn) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  // The file launches 1024 blocks of 256 threads. With 2160 blocks of 128: the busiest of the
  // A100's 108 SMs runs ceil(2160 / 108) = 20 blocks, and 2048 threads per SM / 128 = 16 of them
  // are resident at once (8 with the file's 256-thread blocks).
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--json", "--grid", "2160", "--block", "128"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["sampling"]["blocks_on_sm"], 20);
  EXPECT_EQ(j["sampling"]["resident_blocks"], 16);
  EXPECT_EQ(j["occupancy"]["warps_per_sm"], 64);
}

TEST(CliPredict, ArgumentsBesideALaunchFileAreRefused) {
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--arg", "n=i32:16"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("--arg applies to --cu"), std::string::npos) << r.err;
}

TEST(CliPredict, ShortcutsNeedTheLaunchShape) {
  const auto r = runTeg({"predict", "--cu", kSaxpy, "--gpu", "a100"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("--cu needs --kernel, --grid and --block"), std::string::npos) << r.err;
}

}  // namespace

TEST(CliPredict, ForeignRegisterCountIsCappedAtTheGpusLimit) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  // nvcc 13 cannot target the GTX 480 (sm_20): the sm_75 compile of the register-blocked SGEMM
  // takes 106 registers, above Fermi's 63 per thread; the prediction uses 63 and says why.
  const auto j = predictExample("sgemm_register_blocked", "gtx480");
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["registers_per_thread"], 63);
  bool explained = false;
  for (const auto& a : j["assumptions"])
    explained = explained || a.dump().find("above the 63 this GPU allows") != std::string::npos;
  EXPECT_TRUE(explained);
}

namespace {

TEST(CliPredict, SoftwareSequencesAreListedWithTheirCounts) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  // Per option, black_scholes.cu divides twice (S / X and d1's quotient), takes two reciprocals
  // (1 / (1 + 0.2316419 |d|) in each cumulative normal), one square root, one __logf and three
  // __expf: ptxas expands all of them, and the report counts them in that ratio. (The PTX path's
  // guess at ptxas: on SASS the expansions are the instructions themselves.)
  const auto j = predictExample("black_scholes", "a100", "ptx");
  ASSERT_FALSE(j.is_null());
  std::string value, origin;
  for (const auto& a : j["assumptions"])
    if (a["figure"] == "software sequences") value = a["value"], origin = a["origin"];
  ASSERT_FALSE(value.empty()) << j["assumptions"].dump();
  auto count = [&](const std::string& name) {
    const auto at = value.find(name + " x");
    EXPECT_NE(at, std::string::npos) << name << " in " << value;
    return at == std::string::npos ? 0.0 : std::stod(value.substr(at + name.size() + 2));
  };
  const double options = count("sqrt.rn.f32");
  EXPECT_GT(options, 0);
  EXPECT_EQ(count("div.rn.f32"), 2 * options);
  EXPECT_EQ(count("rcp.rn.f32"), 2 * options);
  EXPECT_EQ(count("lg2.approx.f32"), options);
  EXPECT_EQ(count("ex2.approx.f32"), 3 * options);
  EXPECT_NE(origin.find("sm_80"), std::string::npos) << origin;
}

TEST(CliPredict, FusedMultiplyAddsMatchPtxasInstructionCount) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  // Hopping_Matrix loop 1 (SoA) builds complex products across statements, so its PTX holds
  // separate mul.f64 and add.f64 that ptxas contracts. ptxas for sm_75 emits 144 DFMA + 144 DMUL +
  // 192 DADD = 480 fp64 instructions per thread (cuobjdump -sass, CUDA 13.0); one warp of it on a
  // T4 SM must issue exactly those, not the PTX's larger mul + add count.
  const auto launch = std::string(TEG_SOURCE_DIR) + "/data/validation/kernels/lai2013_hopping_matrix.soa_1warp.launch.json";
  // The PTX path's contraction (on SASS the count is ptxas's by construction: checked below too).
  const auto r = runTeg({"predict", "--launch", launch, "--gpu", "t4", "--json", "--isa", "ptx"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::uint64_t fp64 = 0;
  for (const auto& u : j["units"])
    if (u["unit"] == "fp64_fma") fp64 = u["issued"].get<std::uint64_t>();
  EXPECT_EQ(fp64, 480u);
  // Without contraction every PTX instruction issues (144 add + 72 fma + 216 mul + 120 sub.f64 =
  // 552): 72 more warp instructions for the one warp.
  const auto plain = runTeg({"predict", "--launch", launch, "--gpu", "t4", "--json", "--isa", "ptx", "--what-if", "fma-contraction=off"});
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  const auto p = nlohmann::json::parse(plain.out);
  bool found = false;
  for (const auto& w : p["what_if"]) {
    found = true;
    EXPECT_EQ(w["warp_instructions"].get<std::uint64_t>(), p["warp_instructions"].get<std::uint64_t>() + 72);
  }
  EXPECT_TRUE(found);
  // The SASS the GPU runs has exactly ptxas's fp64 instructions.
  const auto sass = runTeg({"predict", "--launch", launch, "--gpu", "t4", "--json", "--isa", "sass"});
  ASSERT_EQ(sass.exitCode, 0) << sass.err;
  std::uint64_t sassFp64 = 0;
  const auto sassJson = nlohmann::json::parse(sass.out);
  for (const auto& u : sassJson["units"])
    if (u["unit"] == "fp64_fma") sassFp64 = u["issued"].get<std::uint64_t>();
  EXPECT_EQ(sassFp64, 480u);
}

}  // namespace

namespace {

// The Nsight-style sections on saxpy (examples/kernels/saxpy.cu: y = a*x + y over 1024 blocks of
// 256 threads on an A100: 108 SMs, 8 blocks per SM at once). Independent expectations: the tail
// from the grid alone; bandwidth = bytes / time; FLOPs from the source.
TEST(CliPredict, ReportsSpeedOfLightRooflineAndTail) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto j = predictExample("saxpy", "a100");
  ASSERT_FALSE(j.is_null());
  const auto& tail = j["tail"];
  EXPECT_EQ(tail["blocks_per_wave_gpu"], 864);
  EXPECT_EQ(tail["last_wave_blocks_gpu"], 1024 - 864);
  EXPECT_DOUBLE_EQ(tail["idle_fraction_gpu"].get<double>(), 1 - 1024.0 / 1728);
  const double seconds = j["simulated_cycles"].get<double>() / 1410e6;
  for (const auto& level : j["speed_of_light"]["memory"]) {
    if (level["level"] != "DRAM") continue;
    EXPECT_DOUBLE_EQ(level["bytes_sm"].get<double>(), j["memory"]["dram_bytes"].get<double>());
    EXPECT_NEAR(level["achieved_gbs_sm"].get<double>(), level["bytes_sm"].get<double>() / seconds / 1e9, 1e-9);
    EXPECT_DOUBLE_EQ(level["peak_gbs_gpu"].get<double>(), 1555);  // memory.dram_bandwidth_gbs of the A100-40GB
  }
  // saxpy's only floating-point instruction is its fma: 2 FLOP per element, 4 elements per thread
  // (grid-stride loop over 1048576 elements with 1024 x 256 threads), 10 blocks simulated.
  const auto& roof = j["roofline"];
  EXPECT_EQ(roof["precision"], "fp32");
  EXPECT_DOUBLE_EQ(roof["flops_sm"].get<double>(), 2.0 * 4 * 10 * 256);
  EXPECT_EQ(roof["binding"], "memory");
  EXPECT_LE(roof["achieved_gflops_gpu"].get<double>(), roof["attainable_gflops_gpu"].get<double>() * 1.05);
}

// Every field of the JSON says what it counts: a scope for each top-level key, and in the
// sections scoped "per_field" every number's name ends in _sm or _gpu.
void expectSuffixes(const nlohmann::json& value, const std::string& path) {
  if (value.is_object()) {
    for (const auto& [key, v] : value.items()) {
      if (v.is_number()) {
        const bool scoped = key.ends_with("_sm") || key.ends_with("_gpu");
        EXPECT_TRUE(scoped) << path << "." << key << " has no _sm/_gpu suffix";
      } else {
        expectSuffixes(v, path + "." + key);
      }
    }
  } else if (value.is_array()) {
    for (const auto& v : value) expectSuffixes(v, path + "[]");
  }
}

TEST(CliPredict, EveryJsonFieldSaysWhetherItCountsOneSmOrTheGpu) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto j = predictExample("saxpy", "a100");
  ASSERT_FALSE(j.is_null());
  for (const auto& [key, value] : j.items()) {
    ASSERT_TRUE(j["scope"].contains(key)) << key;
    if (j["scope"][key] == "per_field") expectSuffixes(value, key);
  }
}

}  // namespace

namespace {

// The progress line is for terminals only: with stderr captured (not a tty) predict, run and
// validate print nothing there.
TEST(CliPredict, NoProgressLineWhenStderrIsNotATerminal) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto p = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--what-if", "l1=off"});
  ASSERT_EQ(p.exitCode, 0) << p.err;
  EXPECT_EQ(p.err, "");
  const auto r = runTeg({"run", "--launch", kSaxpy});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto v = runTeg({"validate", "lai2013-table3.2"});
  EXPECT_EQ(v.err.find('\r'), std::string::npos) << v.err;
}

}  // namespace

namespace {

// --isa (issue 26 point 5): the report says which instruction stream was timed and why.
TEST(CliPredict, TheReportNamesTheInstructionSetAndWhy) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  // A GPU CUDA 13 has no SASS for: auto falls back to PTX, naming the compute capability.
  const auto pascal = runTeg({"predict", "--launch", kSaxpy, "--gpu", "tesla-p100-sxm2-16gb", "--json", "--sample-blocks", "2"});
  ASSERT_EQ(pascal.exitCode, 0) << pascal.err;
  const auto j = nlohmann::json::parse(pascal.out);
  EXPECT_EQ(j["isa"]["used"], "ptx");
  EXPECT_NE(j["isa"]["reason"].get<std::string>().find("cc 6.0"), std::string::npos) << j["isa"];
  // --isa ptx is the request itself; --isa sass on that GPU stops with the same obstacle.
  const auto ptx = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--isa", "ptx", "--sample-blocks", "2"});
  ASSERT_EQ(ptx.exitCode, 0) << ptx.err;
  EXPECT_NE(ptx.out.find("instruction set"), std::string::npos);
  EXPECT_NE(ptx.out.find("PTX (--isa ptx)"), std::string::npos) << ptx.out;
  const auto sass = runTeg({"predict", "--launch", kSaxpy, "--gpu", "tesla-p100-sxm2-16gb", "--isa", "sass"});
  EXPECT_NE(sass.exitCode, 0);
  EXPECT_NE(sass.err.find("--isa sass: "), std::string::npos) << sass.err;
  EXPECT_NE(sass.err.find("cc 6.0"), std::string::npos) << sass.err;
}

TEST(CliPredict, AutoTimesTheSassOnAGpuThatAllowsIt) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "rtx4060", "--json", "--sample-blocks", "2"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string reason = j["isa"]["reason"];
  if (reason.find("nvdisasm was not found") != std::string::npos) GTEST_SKIP() << reason;
  EXPECT_EQ(j["isa"]["used"], "sass") << reason;
  EXPECT_NE(reason.find("sm_89"), std::string::npos) << reason;
  // The assumptions start with the same choice.
  EXPECT_EQ(j["assumptions"][0]["figure"], "instruction set");
  EXPECT_EQ(j["assumptions"][0]["value"], "SASS");
}

// Volta: CUDA 13 has no sm_70 target, but CUDA 11.8's ptxas assembles nvcc 13's PTX for it
// (scripts/install-deps.sh): the V100 is timed on sm_70 SASS, and the report says where it came
// from; with --isa ptx, sm_70's registers still come from that ptxas.
TEST(CliPredict, AVoltaGpuIsTimedOnSm70SassFromCuda118sPtxas) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "tesla-v100-pcie-16gb", "--json", "--sample-blocks", "2"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string reason = j["isa"]["reason"];
  if (reason.find("were not found") != std::string::npos || reason.find("nvdisasm was not found") != std::string::npos)
    GTEST_SKIP() << reason;
  EXPECT_EQ(j["isa"]["used"], "sass") << reason;
  EXPECT_NE(reason.find("sm_70 SASS"), std::string::npos) << reason;
  ASSERT_GE(j["assumptions"].size(), 2u);
  EXPECT_EQ(j["assumptions"][1]["figure"], "instruction stream");
  EXPECT_EQ(j["assumptions"][1]["value"], "sm_70 SASS");
  EXPECT_NE(j["assumptions"][1]["origin"].get<std::string>().find("CUDA 11.8's ptxas"), std::string::npos)
      << j["assumptions"][1];
}

TEST(CliPredict, AnUnknownIsaIsRefused) {
  const auto r = runTeg({"predict", "--launch", kSaxpy, "--gpu", "a100", "--isa", "sm_80"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("--isa"), std::string::npos) << r.err;
}

}  // namespace

// A default sample that would trace more records than --max-trace-records allows is traced again
// with fewer blocks (analysis/trace_budget.hpp) instead of stopping; a sample the user chose is not
// changed. matmul_shared on an A100 (PTX): the busiest SM runs 10 blocks of ~19,000 warp
// instructions each, 8 peers besides: about 340,000 records, more than a limit of 200,000.
TEST(CliPredict, ADefaultSampleShrinksToFitTheTraceLimit) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto launch = std::string(TEG_SOURCE_DIR) + "/examples/kernels/matmul_shared.launch.json";
  const std::vector<std::string> common{"predict", "--launch", launch, "--gpu", "a100", "--isa", "ptx", "--json", "--loop-sample", "0"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return runTeg(args);
  };
  const auto whole = with({});
  ASSERT_EQ(whole.exitCode, 0) << whole.err;
  EXPECT_EQ(nlohmann::json::parse(whole.out)["sampling"]["blocks_simulated"], 10);

  const auto fitted = with({"--max-trace-records", "200000"});
  ASSERT_EQ(fitted.exitCode, 0) << fitted.err;
  const auto j = nlohmann::json::parse(fitted.out);
  const int simulated = j["sampling"]["blocks_simulated"];
  EXPECT_GE(simulated, 1);
  EXPECT_LT(simulated, 10);
  bool said = false;
  for (const auto& row : j["assumptions"]) said = said || row.dump().find("sampled blocks") != std::string::npos;
  EXPECT_TRUE(said) << j["assumptions"].dump();

  const auto chosen = with({"--max-trace-records", "200000", "--sample-blocks", "10"});
  EXPECT_EQ(chosen.exitCode, 1);
  EXPECT_NE(chosen.err.find("the trace would exceed 200000 warp instructions"), std::string::npos) << chosen.err;
}
