// The parser's main property (GPU Ocelot's parser test): parse -> print -> parse yields the same
// IR, for every committed input (nvcc 13 output for sm_75..sm_120, with -lineinfo and -G, and
// hand-written PTX 1.4/2.0/9.0). Printing is also a fixed point after one round.
#include <gtest/gtest.h>

#include "teg/ptx/compare.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/ptx/printer.hpp"
#include "test_inputs.hpp"

namespace teg::ptx {
namespace {

TEST(PtxRoundTrip, EveryInputParsesPrintsAndReparsesToTheSameIr) {
  const auto files = test::inputFiles();
  ASSERT_GE(files.size(), 10u);
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    const Module first = parseFile(path);
    const std::string printed = printModule(first);
    const Module second = parseModule(printed, path + " (printed)");
    const auto diff = firstDifference(first, second);
    EXPECT_FALSE(diff.has_value()) << *diff;
    EXPECT_EQ(printModule(second), printed);
  }
}

TEST(PtxRoundTrip, ComparisonDetectsAChangedInstruction) {
  // The oracle itself must be able to fail: change one immediate and one qualifier.
  const Module a = parseFile(test::inputsDir() + "/nvcc13_tiles_sm80.ptx");
  std::string text = printModule(a);
  const auto at = text.find("bar.sync \t0;");
  ASSERT_NE(at, std::string::npos);
  std::string changed = text;
  changed.replace(at, 12, "bar.sync \t1;");
  EXPECT_TRUE(firstDifference(a, parseModule(changed, "x.ptx")).has_value());
  changed = text;
  const auto fma = changed.find("fma.rn.f32");
  ASSERT_NE(fma, std::string::npos);
  changed.replace(fma, 10, "fma.rz.f32");
  const auto diff = firstDifference(a, parseModule(changed, "x.ptx"));
  ASSERT_TRUE(diff.has_value());
  EXPECT_NE(diff->find("instruction"), std::string::npos) << *diff;
}

}  // namespace
}  // namespace teg::ptx
