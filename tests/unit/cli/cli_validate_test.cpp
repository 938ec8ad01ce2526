// teg validate end to end (needs nvcc; skipped without it): the suites the issue sets thresholds
// for are predicted and checked against those thresholds here, independently of the tolerance
// each suite file states.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>

#include "run_teg.hpp"

using teg::test::runTeg;

namespace {

bool haveNvcc() { return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 || std::getenv("CUDA_HOME") != nullptr; }

std::map<std::string, nlohmann::json> validate(const std::vector<std::string>& suites) {
  std::vector<std::string> args{"validate", "--json"};
  args.insert(args.end(), suites.begin(), suites.end());
  const auto r = runTeg(args);
  EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.err;
  std::map<std::string, nlohmann::json> bySuite;
  const auto report = nlohmann::json::parse(r.out);
  for (const auto& s : report["suites"]) bySuite[s["name"].get<std::string>()] = s;
  return bySuite;
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
  auto s = validate({"latency-v100", "latency-a100-pcie", "latency-t4", "latency-h800", "latency-rtx4090", "fma-chain"});
  for (const auto& [name, suite] : s) {
    EXPECT_LE(meanAbsError(suite), 10.0) << name;
    for (const auto& row : suite["rows"])
      EXPECT_LE(std::abs(row["error_pct"].get<double>()), 15.0) << name << " " << row["label"];
  }
  EXPECT_EQ(s.size(), 9u);
}

TEST(CliValidate, BankConflictTableOfLaiWithinTenPercent) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found";
  auto s = validate({"lai2013-table3.2"});
  // Issue #5 aims at a mean error of 10 % (TEG: 5.09 %) on seed 000's tables.
  EXPECT_LE(meanAbsError(s["lai2013-table3.2"]), 10.0);
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

}  // namespace
