//===- ExplainTest.cpp - why one test is or is not selected ---------------===//

#include "tia/Report/Explain.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::report;
using tia::testing::errorText;

namespace {

select::PlannedTest planned(llvm::StringRef Id) {
  select::PlannedTest T;
  T.Id = Id.str();
  return T;
}

/// A plan that selects a test of two binaries and never saw a third.
select::Plan twoBinaries() {
  select::Plan P;
  P.Selected.push_back(planned("gtest:a_tests:Suite.Case"));
  P.NotSelected.push_back("gtest:b_tests:Suite.Case");
  P.NotSelected.push_back("gtest:b_tests:Suite.Other");
  return P;
}

TEST(ExplainTest, FindTestTakesAWholeIdAsItIs) {
  ASSERT_VALUE(Id, findTest(twoBinaries(), "gtest:a_tests:Suite.Case"));
  EXPECT_EQ(*Id, "gtest:a_tests:Suite.Case");
}

TEST(ExplainTest, FindTestCompletesTheOneIdEndingInTheName) {
  ASSERT_VALUE(Id, findTest(twoBinaries(), "Suite.Other"));
  EXPECT_EQ(*Id, "gtest:b_tests:Suite.Other");
  // The name must follow a ':': "Other" alone is no test.
  ASSERT_VALUE(Part, findTest(twoBinaries(), "Other"));
  EXPECT_EQ(*Part, "Other");
}

TEST(ExplainTest, FindTestNamesEveryIdAnAmbiguousNameCouldBe) {
  auto Id = findTest(twoBinaries(), "Suite.Case");
  ASSERT_FALSE(Id);
  EXPECT_EQ(errorText(Id.takeError()),
            "'Suite.Case' could be gtest:a_tests:Suite.Case, "
            "gtest:b_tests:Suite.Case: give the whole test id");
}

TEST(ExplainTest, ATestTheHeadNoLongerDefinesIsNotSelected) {
  std::unique_ptr<Store> S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  select::Plan P;
  P.Undefined.push_back("pytest:tests/test_old.py::test_gone");
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  ASSERT_FALSE(
      bool(explainTest(P, *S, "pytest:tests/test_old.py::test_gone", OS)));
  EXPECT_EQ(OS.str(), "pytest:tests/test_old.py::test_gone is not selected: "
                      "the head does not define it (deleted or renamed "
                      "since its coverage was recorded); pytest would stop "
                      "on its id\n");
}

TEST(ExplainTest, ATestCutByTheBudgetSaysWhereItWouldRun) {
  std::unique_ptr<Store> S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  select::Plan P;
  P.Selected.push_back(planned("ctest:first"));
  P.Cut.push_back(planned("ctest:second"));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  ASSERT_FALSE(bool(explainTest(P, *S, "ctest:second", OS)));
  EXPECT_EQ(OS.str(), "ctest:second is selected but the budget left it out "
                      "(it would run 2 of 2):\n");
}

} // namespace
