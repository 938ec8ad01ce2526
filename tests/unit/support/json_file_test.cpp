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

// Issue 24: {"grid": [4], "grid": [8]} silently ran with [8].
TEST(JsonFile, DuplicateKeyIsAnErrorWithItsPosition) {
  const auto error = [](const std::string& text) -> std::string {
    try {
      teg::parseJson(text, "launch.json");
    } catch (const teg::Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error("{\"grid\": [4],\n \"grid\": [8]}"),
            "launch.json:2:2: duplicate key \"grid\" (an object gives each key once; the later value would "
            "silently replace the earlier)");
  // Nested objects: the same key in two different objects is fine, twice in one is not; a
  // string value that looks like the key is not mistaken for it.
  EXPECT_EQ(error(R"({"a": {"x": 1}, "b": {"x": 2}, "c": ["x"]})"), "(no error)");
  EXPECT_EQ(error("{\"note\": \"x\", \"args\": [{\"x\": 1},\n  {\"x\": 2, \"y\": 3, \"x\": 4}]}").substr(0, 37),
            "launch.json:2:20: duplicate key \"x\" (");
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
