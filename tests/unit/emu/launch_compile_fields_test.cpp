// A launch description's compile fields: include_dirs resolved against the launch file's
// directory, defines and nvcc_args kept in order, and errors that name the field.
#include <gtest/gtest.h>

#include "teg/emu/launch.hpp"
#include "teg/support/error.hpp"

namespace {

const std::string kHead = R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32, )";

std::string errorOf(const std::string& fields) {
  try {
    teg::emu::parseLaunch(kHead + fields + "}", "/work/app/l.json");
  } catch (const teg::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LaunchCompileFields, ResolvedAndKeptInOrder) {
  const auto l = teg::emu::parseLaunch(
      kHead + R"("include_dirs": ["../common/inc", "/opt/cub", "."], "defines": ["N=4", "FAST", "S=a b"],
                 "nvcc_args": ["-maxrregcount=32", "--use_fast_math"]})",
      "/work/app/l.json");
  EXPECT_EQ(l.includeDirs, (std::vector<std::string>{"/work/common/inc", "/opt/cub", "/work/app/"}));
  EXPECT_EQ(l.defines, (std::vector<std::string>{"N=4", "FAST", "S=a b"}));
  EXPECT_EQ(l.nvccArgs, (std::vector<std::string>{"-maxrregcount=32", "--use_fast_math"}));
  const auto none = teg::emu::parseLaunch(kHead + R"("args": []})", "l.json");
  EXPECT_TRUE(none.includeDirs.empty() && none.defines.empty() && none.nvccArgs.empty());
}

TEST(LaunchCompileFields, ErrorsNameTheField) {
  EXPECT_EQ(errorOf(R"("include_dirs": "inc")"), "/work/app/l.json: include_dirs: expected an array of strings");
  EXPECT_EQ(errorOf(R"("defines": ["A", 3])"), "/work/app/l.json: defines[1]: expected a non-empty string");
  EXPECT_EQ(errorOf(R"("nvcc_args": [""])"), "/work/app/l.json: nvcc_args[0]: expected a non-empty string");
  EXPECT_EQ(errorOf(R"("defines": ["=1"])"), "/work/app/l.json: defines[0]: '=1' is not NAME or NAME=VALUE");
  EXPECT_EQ(errorOf(R"("defines": ["A B=1"])"), "/work/app/l.json: defines[0]: 'A B=1' is not NAME or NAME=VALUE");
}

}  // namespace
