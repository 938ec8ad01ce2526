#include "teg/report/table.hpp"

#include <gtest/gtest.h>

TEST(Table, AlignsNumbersRightAndTextLeft) {
  teg::report::Table t({"resource", "blocks"});
  t.addRow({"registers", "5"});
  t.addRow({"warps", "12"});
  EXPECT_EQ(t.render(),
            "resource   blocks\n"
            "---------  ------\n"
            "registers       5\n"
            "warps          12\n");
}

TEST(Table, CountsUtf8CharactersNotBytes) {
  teg::report::Table t({"r²", "x"});
  t.addRow({"0.99", "a"});
  EXPECT_EQ(t.render(), "  r²  x\n----  -\n0.99  a\n");
}
