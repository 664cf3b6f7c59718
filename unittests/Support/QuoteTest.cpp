//===- QuoteTest.cpp - paths in text and JSON output ----------------------===//

#include "tia/Support/Quote.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

TEST(QuoteTest, PlainPathsStayAsTheyAre) {
  EXPECT_EQ(quotePath("src/a.cpp"), "src/a.cpp");
  EXPECT_EQ(quotePath("src/with space.cpp"), "src/with space.cpp");
  EXPECT_EQ(quotePath("src/caf\xc3\xa9.py"), "src/caf\xc3\xa9.py");
  EXPECT_EQ(quotePath("it's.py"), "it's.py");
  EXPECT_FALSE(needsQuoting(""));
}

TEST(QuoteTest, QuotesLikeGit) {
  EXPECT_EQ(quotePath("a\nb.py"), "\"a\\nb.py\"");
  EXPECT_EQ(quotePath("tab\there"), "\"tab\\there\"");
  EXPECT_EQ(quotePath("say \"hi\".py"), "\"say \\\"hi\\\".py\"");
  EXPECT_EQ(quotePath("back\\slash"), "\"back\\\\slash\"");
  EXPECT_EQ(quotePath("bell\x01"), "\"bell\\001\"");
  EXPECT_EQ(quotePath("del\x7f"), "\"del\\177\"");
}

TEST(QuoteTest, InvalidUtf8BecomesOctal) {
  // Latin-1 "café": 0xe9 starts a three-byte sequence that is not there.
  EXPECT_EQ(quotePath("caf\xe9.py"), "\"caf\\351.py\"");
  // Valid sequences next to a bad byte stay readable.
  EXPECT_EQ(quotePath("\xc3\xa9\xff"), "\"\xc3\xa9\\377\"");
  // A truncated sequence at the end.
  EXPECT_EQ(quotePath("a\xc3"), "\"a\\303\"");
  EXPECT_TRUE(needsQuoting("\x80"));
}

TEST(QuoteTest, JsonKeepsValidUtf8AndQuotesTheRest) {
  EXPECT_EQ(jsonPath("a\nb.py"), "a\nb.py"); // the JSON writer escapes it
  EXPECT_EQ(jsonPath("caf\xc3\xa9.py"), "caf\xc3\xa9.py");
  EXPECT_EQ(jsonPath("caf\xe9.py"), "\"caf\\351.py\"");
  EXPECT_EQ(jsonPath("\"quoted\".py"), "\"\\\"quoted\\\".py\"");
}

} // namespace
