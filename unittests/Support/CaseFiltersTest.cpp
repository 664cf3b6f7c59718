//===- CaseFiltersTest.cpp - running chosen cases of a test binary --------===//

#include "tia/Support/CaseFilters.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

TEST(CaseFiltersTest, IdsSplitAtTheBinary) {
  std::optional<CaseId> C = parseCaseId("catch2:calc_test:a: b, c");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Framework, CaseFramework::Catch2);
  EXPECT_EQ(C->Binary, "calc_test");
  EXPECT_EQ(C->Name, "a: b, c");
  EXPECT_EQ(parseCaseId("gtest:t:S.N")->Framework, CaseFramework::GTest);
  EXPECT_FALSE(parseCaseId("ctest:x"));
  EXPECT_FALSE(parseCaseId("catch2:only"));
}

TEST(CaseFiltersTest, Catch2SpecsEscapeWhatSpecsTreatSpecially) {
  EXPECT_EQ(catch2Escape("plain name"), "plain name");
  EXPECT_EQ(catch2Escape("a,b [c] \\d \"e\" ~f *"),
            "a\\,b \\[c\\] \\\\d \\\"e\\\" \\~f \\*");
}

TEST(CaseFiltersTest, FilterArguments) {
  EXPECT_EQ(caseFilterArguments(CaseFramework::GTest, {"A.b", "C.d"}),
            (std::vector<std::string>{"--gtest_filter=A.b:C.d"}));
  EXPECT_EQ(caseFilterArguments(CaseFramework::GTest, {}),
            (std::vector<std::string>{"--gtest_filter=-*"}));
  EXPECT_EQ(caseFilterArguments(CaseFramework::Catch2, {"a, b", "c"}),
            (std::vector<std::string>{"a\\, b,c"}));
  EXPECT_EQ(caseFilterArguments(CaseFramework::Catch2, {}),
            (std::vector<std::string>{"~*"}));
  EXPECT_EQ(caseFilterArguments(CaseFramework::Doctest, {"a, b", "c\\d"}),
            (std::vector<std::string>{"--test-case=a\\, b,c\\\\d"}));
  EXPECT_EQ(caseFilterArguments(CaseFramework::Doctest, {}),
            (std::vector<std::string>{"--test-case-exclude=*"}));
}

TEST(CaseFiltersTest, DoctestIds) {
  ASSERT_TRUE(parseCaseId("doctest:ops_test:typed adds<int>"));
  EXPECT_EQ(parseCaseId("doctest:ops_test:typed adds<int>")->Framework,
            CaseFramework::Doctest);
  EXPECT_EQ(caseFrameworkName(CaseFramework::Doctest), "doctest");
  EXPECT_EQ(doctestTemplateName("typed adds<int>"), "typed adds");
  EXPECT_EQ(doctestTemplateName("typed adds<std::pair<int, long>>"),
            "typed adds");
  EXPECT_EQ(doctestTemplateName("a < b"), "a < b");
  EXPECT_EQ(doctestTemplateName("<odd>"), "<odd>");
}

TEST(CaseFiltersTest, ExclusionArguments) {
  EXPECT_TRUE(caseExclusionArguments(CaseFramework::Catch2, {}).empty());
  EXPECT_EQ(caseExclusionArguments(CaseFramework::GTest, {"A.b", "C.d"}),
            (std::vector<std::string>{"--gtest_filter=-A.b:C.d"}));
  EXPECT_EQ(caseExclusionArguments(CaseFramework::Catch2, {"a [x]", "b"}),
            (std::vector<std::string>{"~a \\[x\\]", "~b", "~[.]"}));
  EXPECT_EQ(caseExclusionArguments(CaseFramework::Doctest, {"a,b", "c"}),
            (std::vector<std::string>{"--test-case-exclude=a\\,b,c"}));
}

} // namespace

TEST(CaseFiltersTest, BoostTest) {
  ASSERT_TRUE(parseCaseId("boost:ops_test:math/data/_1"));
  EXPECT_EQ(parseCaseId("boost:ops_test:math/data/_1")->Framework,
            CaseFramework::Boost);
  EXPECT_EQ(caseFilterArguments(CaseFramework::Boost,
                                {"math/adds", "sum<std__pair<int_ long>>"}),
            (std::vector<std::string>{
                "--run_test=math/adds:sum<std__pair<int_ long>>"}));
  EXPECT_EQ(caseExclusionArguments(CaseFramework::Boost, {"a", "s/b"}),
            (std::vector<std::string>{"--run_test=!a:!s/b"}));
  EXPECT_TRUE(caseExclusionArguments(CaseFramework::Boost, {}).empty());
  // A data case's samples and a template's instances are of their case.
  EXPECT_EQ(boostDefinitionName("math/data/_12"), "math/data");
  EXPECT_EQ(boostDefinitionName("math/sum<std__pair<int_ long>>"), "math/sum");
  EXPECT_EQ(boostDefinitionName("math/adds"), "math/adds");
  EXPECT_EQ(boostDefinitionName("_1"), "_1");
  EXPECT_EQ(boostDefinitionName("math/_x"), "math/_x");
}
