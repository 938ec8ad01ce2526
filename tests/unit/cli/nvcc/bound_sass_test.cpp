// `teg bound` with the kernel's SASS (src/cli/bound_sass.cpp): on a T4 (sm_75, a bank layout in
// data/sass/register_banks.json) the "issue + register banks" bound and the vector-load
// suggestion; on an A100 (sm_80, no published layout) the banks named as not evaluated. Compiles
// with nvcc and disassembles with nvdisasm (label `nvcc`); skips without them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../run_teg.hpp"

using teg::test::runTeg;

namespace {

std::string launch(const std::string& kernel) {
  return std::string(TEG_SOURCE_DIR) + "/examples/kernels/" + kernel + ".launch.json";
}

double boundCycles(const nlohmann::json& j, const std::string& resource) {
  for (const auto& b : j.at("bounds"))
    if (b.at("resource") == resource) return b.at("cycles");
  return -1;
}

bool sassMissing(const nlohmann::json& j) {
  for (const auto& n : j.at("not_evaluated"))
    if (n.get<std::string>().rfind("the SASS:", 0) == 0) return true;
  return false;
}

}  // namespace

TEST(BoundSass, TheVectorLoadSuggestionRecomputesTheIssueBoundWithFewerLoads) {
  const auto r = runTeg({"bound", "--launch", launch("matmul_abt_padded"), "--gpu", "t4", "--json"});
  if (r.err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  if (sassMissing(j)) GTEST_SKIP() << "nvdisasm not installed";
  // matmul_abt_padded reads Bs[tx][k], rows padded to TILE + 1 floats: ptxas cannot prove 16-byte
  // alignment, so its sm_75 SASS keeps four scalar LDS per float4's worth of adjacent words.
  const auto& v = j.at("vector_loads");
  ASSERT_FALSE(v.is_null());
  const double scalar = v.at("scalar_lds"), vector = v.at("vector_lds");
  EXPECT_GT(scalar, 0);
  EXPECT_DOUBLE_EQ(scalar, 4 * vector);  // every group is a 16-byte window: one LDS.128 for four LDS
  // The same issue formula with (scalar - vector) fewer warp instructions: the T4 issues one per
  // cycle on each of its 4 schedulers.
  EXPECT_DOUBLE_EQ(v.at("issue_cycles_before").get<double>(), boundCycles(j, "issue"));
  EXPECT_NEAR(v.at("issue_cycles_after").get<double>(), boundCycles(j, "issue") - (scalar - vector) / 4, 1e-6);
  // Shared-memory wavefronts stay (the same bytes): the shared-memory bound still binds.
  EXPECT_EQ(j.at("binding"), "shared memory");
  EXPECT_EQ(v.at("binding_after"), "shared memory");
  EXPECT_DOUBLE_EQ(v.at("bound_cycles_after").get<double>(), boundCycles(j, "shared memory"));
  // No three source registers of one instruction share a bank in this kernel's SASS (ptxas
  // allocates by the rule; counted separately over `teg sass print --json`): the bank bound is
  // the issue bound.
  EXPECT_EQ(j.at("bank_conflict_cycles"), 0);
  EXPECT_DOUBLE_EQ(boundCycles(j, "issue + register banks"), boundCycles(j, "issue"));
}

TEST(BoundSass, WithoutAPublishedBankLayoutTheBanksAreNotEvaluated) {
  const auto r = runTeg({"bound", "--launch", launch("matmul_abt_padded"), "--gpu", "a100", "--json"});
  if (r.err.find("nvcc not found") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  if (sassMissing(j)) GTEST_SKIP() << "nvdisasm not installed";
  EXPECT_EQ(boundCycles(j, "issue + register banks"), -1);
  bool named = false;
  for (const auto& n : j.at("not_evaluated"))
    named = named || n.get<std::string>().find("no published register-bank layout for sm_80") != std::string::npos;
  EXPECT_TRUE(named) << j.at("not_evaluated").dump();
}
