//===- LitIdTest.cpp - the ids of lit tests -------------------------------===//

#include "tia/Support/LitId.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

TEST(LitIdTest, JoinsSuiteAndPath) {
  EXPECT_EQ(litId("tia-select", "select/x.test"),
            "lit:tia-select::select/x.test");
  EXPECT_TRUE(isLitId("lit:s::a.test"));
  EXPECT_FALSE(isLitId("gtest:Suite.Case"));
}

TEST(LitIdTest, SplitsIntoSuiteAndPath) {
  std::optional<LitIdParts> P = splitLitId("lit:my.suite::a/b::c.test");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->Suite, "my.suite");
  EXPECT_EQ(P->Path, "a/b::c.test"); // the first "::" ends the suite
}

TEST(LitIdTest, RefusesOtherIdsAndEmptyParts) {
  EXPECT_FALSE(splitLitId("gtest:Suite.Case"));
  EXPECT_FALSE(splitLitId("lit:suite"));
  EXPECT_FALSE(splitLitId("lit:::a.test"));
  EXPECT_FALSE(splitLitId("lit:suite::"));
}

} // namespace
