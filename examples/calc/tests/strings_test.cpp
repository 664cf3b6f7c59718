#include "calc/strings.h"

#include <gtest/gtest.h>

namespace {

using namespace calc::strings;
using Fields = std::vector<std::string>;

TEST(SplitTest, Basic) {
  EXPECT_EQ(split("a,bc,d", ','), (Fields{"a", "bc", "d"}));
  EXPECT_EQ(split("abc", ','), (Fields{"abc"}));
}

TEST(SplitTest, KeepsEmptyFields) {
  EXPECT_EQ(split("", ','), (Fields{""}));
  EXPECT_EQ(split(",a,,", ','), (Fields{"", "a", "", ""}));
}

TEST(JoinTest, WithSeparator) {
  EXPECT_EQ(join({"x", "y", "z"}, ", "), "x, y, z");
  EXPECT_EQ(join({"x"}, ", "), "x");
  EXPECT_EQ(join({}, ", "), "");
}

TEST(TrimTest, Whitespace) {
  EXPECT_EQ(trim("  hello world\t\n"), "hello world");
  EXPECT_EQ(trim("tidy"), "tidy");
  EXPECT_EQ(trim(" \r\n "), "");
}

TEST(StartsWithTest, Prefix) {
  EXPECT_TRUE(startsWith("calc::mean", "calc::"));
  EXPECT_TRUE(startsWith("calc", ""));
  EXPECT_FALSE(startsWith("ca", "calc"));
}

} // namespace
