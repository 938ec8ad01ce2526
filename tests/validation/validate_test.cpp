// teg validate end to end (needs nvcc; skipped without it; ctest label "validation"): the suites
// the issue sets thresholds for are predicted and checked against those thresholds here,
// independently of the tolerance each suite file states.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>

#include "run_teg.hpp"

using teg::test::runTeg;

namespace {

bool haveNvcc() { return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || std::getenv("CUDA_HOME") != nullptr; }

std::map<std::string, nlohmann::json> validate(const std::vector<std::string>& suites,
                                               nlohmann::json* groups = nullptr) {
  std::vector<std::string> args{"validate", "--json"};
  args.insert(args.end(), suites.begin(), suites.end());
  const auto r = runTeg(args);
  EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.err;
  std::map<std::string, nlohmann::json> bySuite;
  const auto report = nlohmann::json::parse(r.out);
  for (const auto& s : report["suites"]) bySuite[s["name"].get<std::string>()] = s;
  if (groups != nullptr) *groups = report["groups"];
  return bySuite;
}

// Seed 000's GT200 suites (Tables 3.2-3.6), predicted once for the tests that read them.
struct Seed000 {
  std::map<std::string, nlohmann::json> suites;
  nlohmann::json groups;
};
const Seed000& seed000() {
  static const Seed000 s = [] {
    Seed000 r;
    r.suites = validate({"lai2013-table", "lai2013-whatif"}, &r.groups);
    return r;
  }();
  return s;
}

double meanAbsError(const nlohmann::json& suite) {
  double sum = 0;
  for (const auto& row : suite["rows"]) {
    // Recomputed from the row's figures, not taken from the report.
    const double measured = row["measured"], predicted = row["predicted"];
    sum += std::abs(predicted - measured) / measured;
  }
  return 100 * sum / static_cast<double>(suite["rows"].size());
}

TEST(CliValidate, ChienMadTablesWithinFivePercentOnAverage) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"chien2010"});
  // Issue #5: seed 002 Tables 2 and 3 predicted within 5 %.
  EXPECT_LE(meanAbsError(s["chien2010-table2"]), 5.0);
  EXPECT_LE(meanAbsError(s["chien2010-table3"]), 5.0);
  // The latency-bound rows (1-128 threads) give back the pipeline latencies 34.6 and 31.5.
  EXPECT_NEAR(s["chien2010-table2"]["rows"][0]["predicted"].get<double>(), 34.6, 0.05 * 34.6);
  EXPECT_NEAR(s["chien2010-table3"]["rows"][0]["predicted"].get<double>(), 31.5, 0.05 * 31.5);
  // 16 warps: 6 and 4 cycles per warp and MAD (96.9 and 66.6 measured).
  EXPECT_NEAR(s["chien2010-table2"]["rows"][9]["predicted"].get<double>(), 96.9, 0.05 * 96.9);
  EXPECT_NEAR(s["chien2010-table3"]["rows"][8]["predicted"].get<double>(), 66.6, 0.05 * 66.6);
}

TEST(CliValidate, PointerChasesAndFmaChainsGiveBackTheMeasuredLatencies) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"latency-v100", "latency-a100-pcie", "latency-t4", "latency-h800", "latency-rtx4090", "latency-p100",
                      "fma-chain"});
  for (const auto& [name, suite] : s) {
    EXPECT_LE(meanAbsError(suite), 10.0) << name;
    for (const auto& row : suite["rows"])
      EXPECT_LE(std::abs(row["error_pct"].get<double>()), 15.0) << name << " " << row["label"];
  }
  EXPECT_EQ(s.size(), 10u);
  // Pascal caches only .ca/.nc loads in L1 (the chase uses __ldca): its L1 ring must stay there,
  // far faster than the L2 ring (82 vs 234 cycles measured by Jia et al.).
  const auto& p100 = s["latency-p100"]["rows"];
  EXPECT_LT(p100[0]["predicted"].get<double>(), p100[1]["predicted"].get<double>() / 2);
}

TEST(CliValidate, L2ThroughputReachesTheMeasuredBandwidth) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"l2-bandwidth"});
  ASSERT_EQ(s.size(), 6u);  // T4, V100, P100 (Jia 2019); A100, RTX 4090, H800 (Luo 2024)
  // Every SM streaming L2 hits reaches the L2 bandwidth the device file gives. Before L2 hits
  // stopped holding C_mem slots, and before address arithmetic moved up with its load, the T4
  // reached 57 % of it and the H800 68 %.
  for (const auto& [name, suite] : s) {
    EXPECT_LE(meanAbsError(suite), 10.0) << name;
    EXPECT_EQ(suite["rows"][0]["bound"], "L2 bandwidth") << name;
  }
}

TEST(CliValidate, L1ThroughputOfTuringAndHopper) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"l1-bandwidth"});
  ASSERT_EQ(s.size(), 5u);  // T4, V100 (Jia 2019 Table 3.2); H800 PCIe, A100, RTX 4090 (Luo 2024 Table V)
  // Every SM streaming L1 hits: the T4 (58.8 B/clk/SM measured, 64 its wavefront rule) reaches the
  // L1's rate, bound by it.
  const auto& t4 = s["l1-bandwidth-t4"]["rows"][0];
  EXPECT_LE(std::abs(t4["error_pct"].get<double>()), 10.0);
  EXPECT_EQ(t4["bound"], "L1/LSU bandwidth");
  // Luo et al.'s own program: one block of 1024 threads times its loop of L1 hits with %clock
  // between two barriers, and the figure is its bytes over that interval, which leaves out the
  // warm-up pass: more than the bytes over the whole launch's cycles.
  const std::map<std::string, double> luoBytes{{"l1 fp32 (luo2024)", 256.0 * 1024 * 16},
                                               {"l1 fp32.v4 (luo2024)", 4096.0 * 1024 * 16}};
  for (const char* name : {"l1-bandwidth-a100", "l1-bandwidth-h800", "l1-bandwidth-rtx4090"})
    for (const auto& row : s[name]["rows"]) {
      const double launchRate = luoBytes.at(row["label"].get<std::string>()) / row["predicted_cycles"].get<double>();
      EXPECT_GT(row["predicted"].get<double>(), launchRate) << name << " " << row["label"];
      EXPECT_EQ(row["binding_resource"], "L1/LSU bandwidth") << name << " " << row["label"];
    }
  // The H800's 16-byte loads (124.1 measured, 128) reach the L1's rate.
  EXPECT_LE(std::abs(s["l1-bandwidth-h800"]["rows"][1]["error_pct"].get<double>()), 10.0);
  // The H800's 4-byte loads (125.8 measured) come out 11 % low from PTX (6 % from SASS):
  // docs/validation.md. This guards against regressions only.
  EXPECT_LE(std::abs(s["l1-bandwidth-h800"]["rows"][0]["error_pct"].get<double>()), 15.0);
  // The RTX 4090's LD/ST path (16 lanes x 4 B) paces its 4-byte loads (63.7 measured): L1 hits hold
  // no C_mem slot there (before, its 53 sectors held for the L1 latency capped them at 36, -43 %),
  // and the loop's cvt.u64.u32 is a move, not a 64-bit conversion (which capped them at 31.8).
  for (const auto& row : s["l1-bandwidth-rtx4090"]["rows"])
    EXPECT_LE(std::abs(row["error_pct"].get<double>()), 15.0) << row["label"];
}

TEST(CliValidate, BankConflictWhatIfPredictsTheRewrittenKernel) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = seed000().suites;
  // Issue #5: the what-if removing the bank conflicts of C = A.B^T predicts the measured
  // conflict-free kernel (seed 000 Table 3.3) within 10 %; the model of that kernel itself too.
  EXPECT_LE(meanAbsError(s["lai2013-whatif-no-bank-conflicts"]), 10.0);
  EXPECT_LE(meanAbsError(s["lai2013-table3.3"]), 10.0);
  // Table 3.2 (with the conflicts) misses the issue's 10 % aim at 1-4 warps (docs/validation.md);
  // this guards against regressions only.
  EXPECT_LE(meanAbsError(s["lai2013-table3.2"]), 15.0);
  // Seed 000 §3.5: with conflicts the 16-warp run is bound by the shared-memory pipeline.
  EXPECT_EQ(s["lai2013-table3.2"]["rows"][4]["bound"], "shared memory");
}

TEST(CliValidate, HoppingMatrixLayouts) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = seed000().suites;
  const auto& aos = s["lai2013-table3.4"]["rows"];
  const auto& soa = s["lai2013-table3.5"]["rows"];
  ASSERT_EQ(aos.size(), 3u);
  ASSERT_EQ(soa.size(), 3u);
  // Seed 000 §3.4.2: the uncoalesced layout is slower at every warp count (51053 vs 37926 cycles
  // at 1 warp ... 122430 vs 73100 at 4 measured); the model must show that.
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_GT(aos[i]["predicted"].get<double>(), 1.1 * soa[i]["predicted"].get<double>()) << aos[i]["label"];
  // Issue #5 aims at 10 %; the model reaches 10.3 % (SoA) and 20.4 % (AoS), both low at 1 warp
  // (docs/validation.md): these guard against regressions.
  EXPECT_LE(meanAbsError(s["lai2013-table3.5"]), 12.0);
  EXPECT_LE(meanAbsError(s["lai2013-table3.4"]), 22.0);
}

TEST(CliValidate, Seed000TablesTogetherWithinTheIssuesAim) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto& s = seed000();
  // Issue #5 states one aim over the rows of seed 000 Tables 3.2, 3.3 and 3.4-3.6: a mean absolute
  // error within 10 %. Table 3.6 is the what-if suite (the thesis's prediction with conflicts
  // switched off, against Table 3.3's measurements). Recomputed from every row's figures.
  double sum = 0;
  std::size_t rows = 0;
  for (const char* name : {"lai2013-table3.2", "lai2013-table3.3", "lai2013-table3.4", "lai2013-table3.5",
                           "lai2013-whatif-no-bank-conflicts"}) {
    const auto& suite = s.suites.at(name);
    sum += meanAbsError(suite) * static_cast<double>(suite["rows"].size());
    rows += suite["rows"].size();
  }
  EXPECT_EQ(rows, 21u);
  EXPECT_LE(sum / static_cast<double>(rows), 10.0);
  // teg validate reports the same group figure (data/validation/groups.json).
  ASSERT_EQ(s.groups.size(), 1u);  // gpu-stream's suites did not run
  EXPECT_EQ(s.groups[0]["name"], "lai2013-tables");
  EXPECT_EQ(s.groups[0]["rows"], 21);
  EXPECT_NEAR(s.groups[0]["mean_abs_error_pct"].get<double>(), sum / static_cast<double>(rows), 1e-6);
}

TEST(CliValidate, StreamBandwidthAcrossOccupancy) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"gpustream"});
  ASSERT_EQ(s.size(), 12u);  // 6 kernels x (V100, A100)
  double sum = 0;
  std::size_t rows = 0;
  for (const auto& [name, suite] : s) {
    sum += meanAbsError(suite) * static_cast<double>(suite["rows"].size());
    rows += suite["rows"].size();
  }
  EXPECT_EQ(rows, 384u);
  // Issue #5 aims at 10 % per row on average (the model: 9.9 %, docs/validation.md).
  EXPECT_LE(sum / static_cast<double>(rows), 10.0);
  // Bandwidth grows with occupancy: the read kernel at 1024 threads per block moves far more than
  // at 32 (866 vs 72 GB/s measured on the V100).
  const auto& read = s["gpustream-v100-read"]["rows"];
  EXPECT_GT(read[31]["predicted"].get<double>(), 5 * read[0]["predicted"].get<double>());
}

// Every thread of the grid adds to one address 100000 times on an RTX A2000 (suite
// atomic-contention-rtx-a2000): measured, the time doubles with the threads (the operations are
// serialised at one L2 atomic unit whatever the number of SMs busy). Before same-address atomics
// were serialised teg had no such slope (each SM's atomics went at the L2's pace); now each row's
// time over the previous one's is the measured ratio within 5 %. The constant (one operation per
// 1200 MHz clock, NVIDIA's GK110 whitepaper) is not this GPU's: 22-25 % fast on every row.
TEST(CliValidate, SameAddressAtomicsScaleWithTheGridsOperations) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"atomic-contention-rtx-a2000"});
  const auto& rows = s.at("atomic-contention-rtx-a2000")["rows"];
  ASSERT_EQ(rows.size(), 6u);  // 1024 to 32768 threads, 256 per block
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_NEAR(rows[i]["error_pct"].get<double>(), 0.0, 30.0) << rows[i]["label"];
    if (i == 0) continue;
    const double measured = rows[i]["measured"].get<double>() / rows[i - 1]["measured"].get<double>();
    const double predicted = rows[i]["predicted"].get<double>() / rows[i - 1]["predicted"].get<double>();
    EXPECT_NEAR(predicted, measured, 0.05 * measured) << rows[i]["label"];
  }
}

TEST(CliValidate, SoftwareSequenceChainsAreReplayedStepByStep) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"ptx-sequences"});
  ASSERT_EQ(s.size(), 2u);  // TITAN RTX (sm_75) and TITAN V (sm_70)
  // No tolerance is stated (docs/validation.md discusses each row), but each of these is a
  // dependent chain of several SASS instructions (data/ptx/sequences.json), so each takes longer
  // than one instruction of the class the PTX names, which the device files put at 4 cycles
  // (fp32), 5 (integer multiply), 15 and 14 (special function) and 45 and 8 (fp64) on a TITAN RTX
  // and a TITAN V: by a fifth at least, the shortest chain (sin.approx.f32) adding a 4-cycle FMUL
  // to a MUFU.
  const std::map<std::string, std::pair<double, double>> specialAndFp64 = {{"ptx-sequences-titan-rtx", {15.0, 45.0}},
                                                                           {"ptx-sequences-titan-v", {14.0, 8.0}}};
  for (const auto& [name, suite] : s) {
    ASSERT_TRUE(specialAndFp64.count(name)) << name;
    const auto [special, fp64] = specialAndFp64.at(name);
    const auto& rows = suite["rows"];
    ASSERT_EQ(rows.size(), 15u) << name;
    for (const auto& row : rows) {
      const std::string label = row["label"];
      const double one = label.find("f64") != std::string::npos                        ? fp64
                         : label.rfind("div.rn.f32", 0) == 0                            ? 4.0
                         : label.rfind("div.", 0) == 0 || label.rfind("rem.", 0) == 0 ? 5.0
                                                                                        : special;
      EXPECT_GT(row["predicted"].get<double>(), 1.2 * one) << name << " " << label;
    }
  }
}

// Issue 26: `teg validate --isa sass` over every generation. A suite of a GPU CUDA 13 has no SASS
// for (the GTX 280, cc 1.3) runs on PTX and names why, instead of ending the whole run; the rows
// and the figure are the PTX run's.
TEST(CliValidate, IsaSassRunsOlderGpusSuitesOnPtxWithTheReason) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto sass = runTeg({"validate", "--json", "--isa", "sass", "lai2013-table3.4"});
  ASSERT_EQ(sass.exitCode, 0) << sass.err;
  const auto suite = nlohmann::json::parse(sass.out)["suites"][0];
  EXPECT_EQ(suite["isa"]["rows"], (nlohmann::json{{"ptx", 3}})) << suite["isa"];
  ASSERT_EQ(suite["isa"]["reasons"].size(), 1u) << suite["isa"];
  const std::string reason = suite["isa"]["reasons"][0];
  EXPECT_NE(reason.find("--isa sass: PTX because"), std::string::npos) << reason;
  EXPECT_NE(reason.find("cc 1.3"), std::string::npos) << reason;
  const auto ptx = runTeg({"validate", "--json", "--isa", "ptx", "lai2013-table3.4"});
  ASSERT_EQ(ptx.exitCode, 0) << ptx.err;
  const auto ptxSuite = nlohmann::json::parse(ptx.out)["suites"][0];
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(suite["rows"][i]["predicted"], ptxSuite["rows"][i]["predicted"]) << suite["rows"][i]["label"];
}

// Without --isa, validate times the SASS where the GPU allows it (auto, as predict does): the T4's
// FMA chains are cc 7.5, so every row is on SASS when nvdisasm is there, and the GTX 280's rows
// are on PTX, with auto's reason.
TEST(CliValidate, TheDefaultIsAutoSassWhereTheGpuAllowsIt) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const auto r = runTeg({"validate", "--json", "fma-chain-t4", "lai2013-table3.5"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::map<std::string, nlohmann::json> isa;
  const auto report = nlohmann::json::parse(r.out);
  for (const auto& s : report["suites"]) isa[s["name"].get<std::string>()] = s["isa"];
  const std::string t4 = isa["fma-chain-t4"]["reasons"][0];
  if (t4.find("nvdisasm was not found") != std::string::npos) GTEST_SKIP() << t4;
  EXPECT_EQ(isa["fma-chain-t4"]["rows"], (nlohmann::json{{"sass", 2}})) << isa["fma-chain-t4"];
  EXPECT_NE(t4.find("auto: sm_75 SASS"), std::string::npos) << t4;
  EXPECT_EQ(isa["lai2013-table3.5"]["rows"], (nlohmann::json{{"ptx", 3}})) << isa["lai2013-table3.5"];
  const std::string gt200 = isa["lai2013-table3.5"]["reasons"][0];
  EXPECT_NE(gt200.find("auto: PTX because"), std::string::npos) << gt200;
}

TEST(CliValidate, ListAndUnknownSuite) {
  const auto list = runTeg({"validate", "--list"});
  ASSERT_EQ(list.exitCode, 0) << list.err;
  EXPECT_NE(list.out.find("chien2010-table2"), std::string::npos);
  EXPECT_NE(list.out.find("gpustream-v100-read"), std::string::npos);
  const auto bad = runTeg({"validate", "no-such-suite"});
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.err.find("no validation suite is named 'no-such-suite'"), std::string::npos) << bad.err;
}

// A completed validation exits 0 whatever its verdicts (the README's `teg validate` works as
// printed); --strict turns a miss into exit 1. The exit codes follow all_within_tolerance.
TEST(CliValidate, StrictExitsOneOnlyWhenSomethingMisses) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  const std::vector<std::string> suites{"lai2013-table3.2", "lai2013-table3.4"};
  std::vector<std::string> args{"validate", "--json"};
  args.insert(args.end(), suites.begin(), suites.end());
  const auto relaxed = runTeg(args);
  ASSERT_EQ(relaxed.exitCode, 0) << relaxed.err;
  const bool within = nlohmann::json::parse(relaxed.out)["all_within_tolerance"].get<bool>();
  args.push_back("--strict");
  const auto strict = runTeg(args);
  EXPECT_EQ(strict.exitCode, within ? 0 : 1) << strict.err;
}

}  // namespace
