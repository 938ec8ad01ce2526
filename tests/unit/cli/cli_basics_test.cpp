#include <gtest/gtest.h>

#include "run_teg.hpp"

using teg::test::runTeg;

TEST(Cli, NoSubcommandIsAnErrorWithUsage) {
  const auto r = runTeg({});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("A subcommand is required"), std::string::npos) << r.err;
}

TEST(Cli, UnknownOptionIsRejected) {
  const auto r = runTeg({"devices", "--no-such-option"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("--no-such-option"), std::string::npos) << r.err;
}

TEST(Cli, MissingDeviceFileIsRejectedBeforeAnythingRuns) {
  const auto r = runTeg({"--device-file", "/nonexistent/gpu.json", "devices"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("/nonexistent/gpu.json"), std::string::npos) << r.err;
}
