#include "teg/support/json_file.hpp"

#include <gtest/gtest.h>

#include "teg/support/error.hpp"

namespace {

TEST(JsonFile, SyntaxErrorNamesFileLineAndColumn) {
  // The stray '}' sits on line 3, column 11.
  const std::string text = "{\n  \"a\": 1,\n  \"b\": 2 }}\n";
  try {
    teg::parseJson(text, "dev.json");
    FAIL() << "expected a parse error";
  } catch (const teg::Error& e) {
    ASSERT_TRUE(e.location().has_value());
    EXPECT_EQ(e.location()->file, "dev.json");
    EXPECT_EQ(e.location()->line, 3);
    EXPECT_EQ(e.location()->column, 11);
    EXPECT_EQ(std::string(e.what()).rfind("dev.json:3:11: invalid JSON", 0), 0u) << e.what();
  }
}

TEST(JsonFile, NumberOutOfRangeIsALocatedErrorNotACrash) {
  // Found by fuzz_launch_json: nlohmann throws out_of_range (not parse_error) for 1e400, which
  // escaped as an internal error. It is now a teg::Error at the number: line 2, column 8.
  const std::string text = "{\n  \"a\": 256e20800}\n";
  try {
    teg::parseJson(text, "launch.json");
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("launch.json:2:8: invalid JSON: number overflow", 0), 0u) << e.what();
  }
}

TEST(JsonFile, MissingFileIsAnErrorNotACrash) {
  EXPECT_THROW(teg::readJsonFile("/nonexistent/teg.json"), teg::Error);
}

TEST(SourceLocation, LocatesOffsetsAcrossLines) {
  const auto loc = teg::locateOffset("f", "ab\ncd\nef", 7);
  EXPECT_EQ(loc.line, 3);
  EXPECT_EQ(loc.column, 2);
  EXPECT_EQ(loc.str(), "f:3:2");
}

}  // namespace
