//===- RunnersTest.cpp - what tia knows of each test runner ---------------===//

#include "tia/Results/Runners.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;
using namespace tia::results;

namespace {

using Strings = std::vector<std::string>;

PlannedTest selected(llvm::StringRef Id, bool FromDefinition = false) {
  PlannedTest T;
  T.Id = Id.str();
  T.FromDefinition = FromDefinition;
  T.Reasons.push_back({ReasonKind::NewTest, NoIndex, NoIndex, "x", ""});
  return T;
}

TEST(ArgumentsTest, CtestRegexEscapesNames) {
  Plan P;
  P.Selected = {selected("ctest:a.b(1)"), selected("gtest:bin:S.N")};
  P.NotSelected = {"ctest:c+d", "pytest:t.py::x"};
  RunnerArguments In = ctestArguments(P, false);
  EXPECT_EQ(In.Arguments, (Strings{"-R", "^(S\\.N|a\\.b\\(1\\))$"}));
  EXPECT_EQ(In.Unnamed, 0u);
  RunnerArguments Out = ctestArguments(P, true);
  EXPECT_EQ(Out.Arguments, (Strings{"-E", "^(c\\+d)$"}));
  EXPECT_EQ(Out.Unnamed, 1u);
}

TEST(ArgumentsTest, DefinitionsArePatterns) {
  Plan P;
  P.Selected = {selected("gtest:*:S.N", true)};
  P.NotSelected = {"gtest:bin:S.Other"};
  EXPECT_EQ(gtestFilter(P, "bin", false),
            "*/S.N:*/S.N/*:*/S/*.N:S.N:S.N/*:S/*.N");
  EXPECT_EQ(gtestFilter(P, "bin", true), "-S.Other");
  // A binary tia never saw runs everything.
  EXPECT_EQ(gtestFilter(P, "new_test", false), "*");
  EXPECT_EQ(ctestArguments(P, false).Arguments,
            (Strings{"-R", "^(([^.]*/)?S(/[^.]*)?\\.N(/.*)?)$"}));
  // Names files hold names, not patterns.
  EXPECT_EQ(ctestNames(P, false).Arguments, Strings{});
  EXPECT_EQ(ctestNames(P, false).Unnamed, 1u);
}

TEST(ArgumentsTest, NothingAndEverything) {
  Plan None;
  None.NotSelected = {"ctest:a", "gtest:bin:S.N", "pytest:t.py::x"};
  EXPECT_EQ(ctestArguments(None, false).Arguments, (Strings{"-R", "^$"}));
  EXPECT_EQ(gtestFilter(None, "bin", false), "-*");
  EXPECT_TRUE(pytestArguments(None, false, false).Arguments.empty());
  EXPECT_EQ(pytestArguments(None, true, false).Arguments,
            Strings{"--deselect=t.py::x"});
  EXPECT_EQ(pytestArguments(None, true, true).Arguments,
            Strings{"--ignore=t.py"});

  Plan All;
  All.Changes.Fallbacks.push_back({FallbackKind::Requested, "", "--all"});
  All.Selected = {selected("ctest:a"), selected("gtest:bin:S.N")};
  EXPECT_TRUE(ctestArguments(All, false).Arguments.empty());
  EXPECT_TRUE(ctestArguments(All, true).Arguments.empty());
  EXPECT_EQ(gtestFilter(All, "bin", false), "*");
}

TEST(ArgumentsTest, CtestVersions) {
  EXPECT_TRUE(ctestReadsNameFiles("ctest version 3.29.2\n\nCMake suite"));
  EXPECT_TRUE(ctestReadsNameFiles("ctest version 4.0.0\n"));
  EXPECT_FALSE(ctestReadsNameFiles("ctest version 3.25.1\n"));
  EXPECT_FALSE(ctestReadsNameFiles("ctest version 3.28.0-rc1\n"));
  EXPECT_FALSE(ctestReadsNameFiles("something else"));
  EXPECT_FALSE(ctestReadsNameFiles(""));
}

TEST(GTestListTest, SuitesCasesTypedAndParameterized) {
  auto Cases = parseGTestList("Running main() from gtest_main.cc\n"
                              "Shapes.\n"
                              "  Area\n"
                              "  DISABLED_Later\n"
                              "Typed/0.  # TypeParam = int\n"
                              "  Doubles\n"
                              "Small/Sides.\n"
                              "  Area/0  # GetParam() = 1\n");
  EXPECT_EQ(Cases, (std::vector<std::string>{
                       "Shapes.Area", "Shapes.DISABLED_Later",
                       "Typed/0.Doubles", "Small/Sides.Area/0"}));
}

TEST(CaseFrameworksTest, ParsesCatch2Lists) {
  EXPECT_EQ(
      parseCatch2List("adds\nScenario: negating twice\n"
                      "odd: name, with [brackets] and \\ backslash\n"
                      "typed adds - int\n\n"),
      (std::vector<std::string>{"adds", "Scenario: negating twice",
                                "odd: name, with [brackets] and \\ backslash",
                                "typed adds - int"}));
}

TEST(CaseFrameworksTest, SplitsCatch2SpecsFromOptions) {
  auto [Specs, Rest] = splitCatch2Arguments(
      {"bin", "adds\\, more", "-r", "junit", "--out=x.xml", "[tag]", "-s"});
  EXPECT_EQ(Specs, (std::vector<std::string>{"adds\\, more", "[tag]"}));
  EXPECT_EQ(Rest,
            (std::vector<std::string>{"-r", "junit", "--out=x.xml", "-s"}));
}

TEST(CaseFrameworksTest, ParsesDoctestLists) {
  EXPECT_EQ(parseDoctestList(
                "[doctest] doctest version is \"2.4.9\"\n"
                "[doctest] listing all test case names\n"
                "==========================================\n"
                "adds\n  Scenario: twice\nodd, \\ name\ntyped adds<int>\n"
                "==========================================\n"
                "[doctest] unskipped test cases passing the current "
                "filters: 4\n"),
            (std::vector<std::string>{"adds", "  Scenario: twice",
                                      "odd, \\ name", "typed adds<int>"}));
}

TEST(CaseFrameworksTest, SplitsDoctestFiltersFromOptions) {
  auto [Filters, Rest] = splitDoctestArguments(
      {"bin", "--test-case=adds", "-ts=suite", "--dt-source-file=*.cpp",
       "--duration=true", "-s", "--reporters=junit"});
  EXPECT_EQ(Filters, (std::vector<std::string>{"--test-case=adds", "-ts=suite",
                                               "--dt-source-file=*.cpp"}));
  EXPECT_EQ(Rest, (std::vector<std::string>{"--duration=true", "-s",
                                            "--reporters=junit"}));
}

TEST(CaseFrameworksTest, ParsesBoostTestLists) {
  // Suites hold their units four spaces deeper; '*' marks enabled units.
  std::vector<BoostTestUnit> Units =
      parseBoostTestList("top*\n"
                         "math*\n"
                         "    adds*\n"
                         "    off \n"
                         "    data*\n"
                         "        _0*\n"
                         "        _1*\n"
                         "    sum<std__pair<int_ long>>*\n"
                         "    inner*\n"
                         "        odd name [x]*\n"
                         "last*\n");
  std::vector<std::string> Paths;
  for (const BoostTestUnit &U : Units)
    Paths.push_back(U.Path + (U.Enabled ? "" : " (disabled)"));
  EXPECT_EQ(Paths,
            (std::vector<std::string>{"top", "math/adds", "math/off (disabled)",
                                      "math/data/_0", "math/data/_1",
                                      "math/sum<std__pair<int_ long>>",
                                      "math/inner/odd name [x]", "last"}));
  EXPECT_TRUE(parseBoostTestList("").empty());
}

TEST(CaseFrameworksTest, SplitsBoostTestFiltersFromOptions) {
  auto [Filters, Rest] =
      splitBoostTestArguments({"bin", "--run_test=math", "-t", "top",
                               "--log_level=all", "--", "custom"});
  EXPECT_EQ(Filters,
            (std::vector<std::string>{"--run_test=math", "-t", "top"}));
  EXPECT_EQ(Rest,
            (std::vector<std::string>{"--log_level=all", "--", "custom"}));
}

TEST(GTestFilterTest, PositiveAndNegativePatterns) {
  EXPECT_TRUE(matchesGTestFilter("*", "A.b"));
  EXPECT_TRUE(matchesGTestFilter("A.*:B.c", "B.c"));
  EXPECT_FALSE(matchesGTestFilter("A.*:B.c", "B.d"));
  EXPECT_FALSE(matchesGTestFilter("*-*.Slow", "A.Slow"));
  EXPECT_TRUE(matchesGTestFilter("-*.Slow", "A.Fast"));
  EXPECT_TRUE(matchesGTestFilter("A.?", "A.x"));
}

TEST(RunnerTest, RecognisedByNameOrByTheBinary) {
  EXPECT_EQ(recogniseRunner({"ctest", "--test-dir", "build"}, ""),
            Runner::Ctest);
  EXPECT_EQ(recogniseRunner({"/usr/bin/pytest", "tests"}, ""), Runner::Pytest);
  EXPECT_EQ(recogniseRunner({"python3", "-m", "pytest"}, ""), Runner::Pytest);
  // A binary that cannot be read is taken for GoogleTest's.
  EXPECT_EQ(recogniseRunner({"build/t"}, "/nonexistent/t"), Runner::Gtest);
  EXPECT_EQ(recogniseRunner({"build/t"}, ""), Runner::Gtest);
}

TEST(RunnerTest, AskedForAJUnitReportEachItsWay) {
  auto Asked = [](Runner K) {
    std::vector<std::string> Args;
    askForReport(K, "r.xml", Args);
    return Args;
  };
  EXPECT_EQ(Asked(Runner::Ctest), (Strings{"--output-junit", "r.xml"}));
  EXPECT_EQ(Asked(Runner::Pytest), (Strings{"--junitxml=r.xml"}));
  EXPECT_EQ(Asked(Runner::Gtest), (Strings{"--gtest_output=xml:r.xml"}));
  EXPECT_EQ(Asked(Runner::Catch2),
            (Strings{"--reporter", "junit", "--out", "r.xml"}));
  EXPECT_EQ(Asked(Runner::Doctest),
            (Strings{"--reporters=junit", "--out=r.xml"}));
  EXPECT_EQ(Asked(Runner::Boost),
            (Strings{"--logger=HRF,error,stdout:JUNIT,error,r.xml"}));
}

TEST(RunnerTest, FindsTheReportTheCommandAlreadyAsksFor) {
  using Path = std::optional<std::string>;
  EXPECT_EQ(
      reportAskedFor(Runner::Pytest, {"pytest", "--junitxml=out/r.xml"}, "/w"),
      Path("/w/out/r.xml"));
  EXPECT_EQ(reportAskedFor(Runner::Pytest,
                           {"pytest", "--junit-xml", "/abs/r.xml", "tests"},
                           "/w"),
            Path("/abs/r.xml"));
  // The last one counts, as for the runner.
  EXPECT_EQ(reportAskedFor(Runner::Lit,
                           {"lit", "--xunit-xml-output=a.xml",
                            "--xunit-xml-output", "b.xml", "test"},
                           "/w"),
            Path("/w/b.xml"));
  // ctest writes a relative report into its test directory.
  EXPECT_EQ(reportAskedFor(
                Runner::Ctest,
                {"ctest", "--test-dir", "build", "--output-junit", "r.xml"},
                "/w"),
            Path("/w/build/r.xml"));
  EXPECT_EQ(reportAskedFor(Runner::Gtest,
                           {"build/calc_test", "--gtest_output=xml:reports/"},
                           "/w"),
            Path("/w/reports/calc_test.xml"));
  EXPECT_EQ(reportAskedFor(Runner::Gtest, {"t", "--gtest_output=xml"}, "/w"),
            Path("/w/test_detail.xml"));
  // Not a JUnit report, or nothing asked: tia asks for its own.
  EXPECT_EQ(
      reportAskedFor(Runner::Gtest, {"t", "--gtest_output=json:r.json"}, "/w"),
      std::nullopt);
  EXPECT_EQ(reportAskedFor(Runner::Pytest, {"pytest", "tests"}, "/w"),
            std::nullopt);
  EXPECT_EQ(reportAskedFor(Runner::Pytest, {"pytest", "--junitxml"}, "/w"),
            std::nullopt);
}

TEST(RunnerTest, PytestRunsNothingWhenNoPytestTestIsSelected) {
  Plan P;
  P.Selected = {selected("gtest:t:A.B")};
  P.NotSelected = {"pytest:tests/test_a.py::test_x"};
  EXPECT_EQ(nothingToRun(P, Runner::Pytest, "pytest", false),
            std::optional<std::string>("no pytest test is selected"));
  // The exclusion form names the tests to skip: pytest runs the rest.
  EXPECT_EQ(nothingToRun(P, Runner::Pytest, "pytest", true), std::nullopt);
  EXPECT_EQ(nothingToRun(P, Runner::Ctest, "ctest", false), std::nullopt);
  // pytest's "no tests ran" then means what was asked.
  EXPECT_EQ(runExitCode(P, Runner::Pytest, 5), 0);
  EXPECT_EQ(runExitCode(P, Runner::Pytest, 1), 1);
  P.Selected.push_back(selected("pytest:tests/test_a.py::test_y"));
  EXPECT_EQ(runExitCode(P, Runner::Pytest, 5), 5);
}

TEST(RunnerTest, ASelectionTooLongForOneArgumentTakesTheOtherForm) {
  Plan P;
  // One selected test whose name alone passes the limit, one skipped.
  P.Selected = {selected("ctest:" + std::string(MaxArgumentSize, 'a'))};
  P.NotSelected = {"ctest:short"};
  bool Exclusion = false, Fits = false;
  RunnerArguments A =
      fittingSelectionArguments(P, Runner::Ctest, "ctest", Exclusion, Fits);
  EXPECT_TRUE(Fits);
  EXPECT_TRUE(Exclusion);
  EXPECT_EQ(A.Arguments, (Strings{"-E", "^(short)$"}));
  // When neither form fits, every test runs.
  P.NotSelected = {"ctest:" + std::string(MaxArgumentSize, 'b')};
  Exclusion = false;
  A = fittingSelectionArguments(P, Runner::Ctest, "ctest", Exclusion, Fits);
  EXPECT_FALSE(Fits);
  EXPECT_TRUE(A.Arguments.empty());
  EXPECT_FALSE(Exclusion);
}

TEST(RunnerTest, AnExactLitFormIsPreferredToAWidenedOne) {
  // Selected names too long for lit's filter even grouped: the inclusion
  // form would run whole folders; the exclusion form names the one test
  // to skip exactly.
  Plan P;
  for (int I = 0; I < 3000; ++I)
    P.Selected.push_back(selected("lit:s::d" + std::to_string(I % 3) + "/" +
                                  std::string(40, 'a') + std::to_string(I) +
                                  ".test"));
  P.NotSelected = {"lit:s::d0/skip.test"};
  bool Exclusion = false, Fits = false;
  RunnerArguments A =
      fittingSelectionArguments(P, Runner::Lit, "lit", Exclusion, Fits);
  EXPECT_TRUE(Fits);
  EXPECT_TRUE(Exclusion);
  EXPECT_EQ(A.Arguments,
            (Strings{"--filter-out", "^(s\\x20::\\x20d0/skip\\.test)$"}));
  EXPECT_TRUE(A.Widened.empty());
  // Without a skipped test to name, the widened inclusion form it is.
  P.NotSelected.clear();
  for (int I = 0; I < 3000; ++I)
    P.NotSelected.push_back("lit:s::e/" + std::string(40, 'b') +
                            std::to_string(I) + ".test");
  Exclusion = false;
  A = fittingSelectionArguments(P, Runner::Lit, "lit", Exclusion, Fits);
  EXPECT_TRUE(Fits);
  EXPECT_FALSE(Exclusion);
  EXPECT_EQ(A.Arguments.size(), 2u);
  EXPECT_FALSE(A.Widened.empty());
}

TEST(RunnerTest, LongArgumentsAreShortenedForPeople) {
  EXPECT_EQ(shownCommand({"ctest", "-R", "a b"}), "ctest -R 'a b'");
  std::string Long(300, 'x');
  EXPECT_EQ(shownCommand({"ctest", Long}),
            "ctest " + std::string(120, 'x') + "...(300 bytes)");
}

TEST(RunnerTest, AProgramWithASlashIsTakenFromTheWorkingDirectory) {
  auto P = findRunnerProgram("./bin/tests", "/work/repo");
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(*P, "/work/repo/bin/tests");
  auto Missing = findRunnerProgram("no-such-runner-tia", "/");
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(llvm::toString(Missing.takeError()),
            "cannot find no-such-runner-tia on PATH: install it or give its "
            "path");
}

} // namespace
