//===- LitTest.cpp - lit suites: recognising, listing, selecting, results -===//

#include "tia/Results/Runners.h"
#include "tia/Select/Policy.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;
using namespace tia::results;
using tia::testing::errorText;

namespace {

using Strings = std::vector<std::string>;

PlannedTest selected(llvm::StringRef Id) {
  PlannedTest T;
  T.Id = Id.str();
  T.Reasons.push_back({ReasonKind::NewTest, NoIndex, NoIndex, "x", ""});
  return T;
}

TEST(LitTest, RecognisesLitHoweverItStarts) {
  EXPECT_TRUE(runsLit(
      {"/usr/bin/python3", "/llvm/utils/lit/lit.py", "-sv", "build/test"}));
  EXPECT_TRUE(runsLit({"python3", "-u", "lit.py", "test"}));
  EXPECT_TRUE(runsLit({"/build/bin/llvm-lit", "test"}));
  EXPECT_TRUE(runsLit({"lit", "test"}));
  EXPECT_FALSE(runsLit({"python3", "-m", "pytest", "lit.py"}));
  EXPECT_FALSE(runsLit({"python3", "run.py", "lit.py"}));
  EXPECT_FALSE(runsLit({"/build/literal_test"}));
  EXPECT_FALSE(runsLit({}));
}

TEST(LitTest, ParsesTheListOfTests) {
  llvm::StringRef Text = "lit.py: note: a note first\n"
                         "-- Available Tests --\n"
                         "  tia :: collect/a.test\n"
                         "  tia :: select/sub dir/b.test\r\n"
                         "\n"
                         "Total Discovered Tests: 2\n";
  EXPECT_EQ(parseLitTestList(Text),
            (Strings{"tia :: collect/a.test", "tia :: select/sub dir/b.test"}));
  EXPECT_EQ(parseLitTestList("  tia :: a.test\n"), Strings());
}

TEST(LitTest, ReadsEachSuitesRoots) {
  llvm::StringRef Text = "-- Test Suites --\n"
                         "  tia - 59 tests\n"
                         "    Source Root: /src/test\n"
                         "    Exec Root  : /src/build/test\n"
                         "    Available Features: x86\n"
                         "    Available Substitutions: %a => /x: y\n"
                         "                             %b => z\n"
                         "  one - 1 test\n"
                         "    Source Root: /o\n"
                         "    Exec Root  : /o/out\n"
                         "-- Available Tests --\n"
                         "  tia :: a.test\n";
  std::map<std::string, LitSuite> Suites = parseLitSuites(Text);
  ASSERT_EQ(Suites.size(), 2u);
  EXPECT_EQ(Suites["tia"].SourceRoot, "/src/test");
  EXPECT_EQ(Suites["tia"].ExecRoot, "/src/build/test");
  EXPECT_EQ(Suites["one"].SourceRoot, "/o");
  EXPECT_EQ(Suites["one"].ExecRoot, "/o/out");
}

TEST(LitTest, IdsAndFullNamesRoundTrip) {
  EXPECT_EQ(litTestId("tia :: collect/a.test"), "lit:tia::collect/a.test");
  EXPECT_EQ(litFullName("lit:tia::collect/a.test"), "tia :: collect/a.test");
  EXPECT_EQ(litFullName("ctest:lit-collect"), std::nullopt);
  EXPECT_EQ(litFullName("lit:nosuite"), std::nullopt);
}

TEST(LitTest, FiltersEscapeRegexCharacters) {
  EXPECT_EQ(litFilter({"s :: a+b(1).test", "s :: [x]^$|y.test"}),
            "^(s\\x20::\\x20a\\+b\\(1\\)\\.test|"
            "s\\x20::\\x20\\[x\\]\\^\\$\\|y\\.test)$");
  // No space, so that `lit $(tia select --format lit) DIR` keeps it whole.
  EXPECT_EQ(litFilter({"s :: sub dir/a-b_c.test"}),
            "^(s\\x20::\\x20sub\\x20dir/a-b_c\\.test)$");
}

TEST(LitTest, LongFiltersGroupTheirNamesByFolder) {
  Strings Names = {"s :: a/x.test", "s :: a/y.test", "s :: b/z.test",
                   "s :: top.test"};
  std::string Flat = litFilter(Names);
  EXPECT_EQ(boundedLitFilter(Names, Flat.size(), true).Regex, Flat);
  // One character less: the same tests, grouped; nothing widened.
  BoundedLitFilter Grouped = boundedLitFilter(Names, Flat.size() - 1, false);
  EXPECT_EQ(Grouped.Regex, "^(s\\x20::\\x20(top\\.test)|"
                           "s\\x20::\\x20a/(x\\.test|y\\.test)|"
                           "s\\x20::\\x20b/(z\\.test))$");
  EXPECT_EQ(Grouped.WholeFolders, 0u);
}

TEST(LitTest, FiltersTooLongForLitRunWholeFolders) {
  Strings Names = {"s :: a/long-name-one.test", "s :: a/long-name-two.test",
                   "s :: b/z.test"};
  // Folder a, whose alternatives are longest, runs whole first.
  BoundedLitFilter F = boundedLitFilter(Names, 60, true);
  EXPECT_EQ(F.Regex, "^(s\\x20::\\x20a/.*|s\\x20::\\x20b/(z\\.test))$");
  EXPECT_EQ(F.WholeFolders, 1u);
  // Skipping may not widen: a whole folder could skip a selected test.
  EXPECT_FALSE(boundedLitFilter(Names, 60, false).Regex);
  // Not even whole folders fit.
  EXPECT_FALSE(boundedLitFilter(Names, 10, true).Regex);
}

TEST(LitTest, ArgumentsInBothForms) {
  Plan P;
  P.Selected = {selected("lit:s::a.test"), selected("ctest:other")};
  P.NotSelected = {"lit:s::b.test", "pytest:t.py::x"};
  RunnerArguments In = litArguments(P, false);
  EXPECT_EQ(In.Arguments, (Strings{"--filter", "^(s\\x20::\\x20a\\.test)$"}));
  EXPECT_EQ(In.Unnamed, 1u);
  RunnerArguments Out = litArguments(P, true);
  EXPECT_EQ(Out.Arguments,
            (Strings{"--filter-out", "^(s\\x20::\\x20b\\.test)$"}));
  EXPECT_EQ(Out.Unnamed, 1u);
}

TEST(LitTest, CtestRunsASelectedLitTestInItsSuitesCtestTest) {
  Plan P;
  P.Selected = {selected("lit:s::a.test"), selected("ctest:unit")};
  P.NotSelected = {"ctest:other", "lit:s::b.test", "lit:t::c.test"};
  P.EnclosingCTests = {{"lit:s::a.test", "lit-s"},
                       {"lit:s::b.test", "lit-s"},
                       {"lit:t::c.test", "lit-t"}};
  RunnerArguments In = ctestArguments(P, false);
  EXPECT_EQ(In.Arguments, (Strings{"-R", "^(lit-s|unit)$"}));
  EXPECT_EQ(In.Widened, "");
  // lit-s runs a selected test too: only lit-t is all skipped tests.
  RunnerArguments Out = ctestArguments(P, true);
  EXPECT_EQ(Out.Arguments, (Strings{"-E", "^(lit-t|other)$"}));
  EXPECT_EQ(Out.Unnamed, 0u);
  EXPECT_EQ(ctestNames(P, false).Arguments, (Strings{"lit-s", "unit"}));
  EXPECT_EQ(ctestNames(P, true).Arguments, (Strings{"lit-t", "other"}));
}

TEST(LitTest, CtestRunsEveryLitSuiteForALitTestOfNoKnownCtestTest) {
  // A new test file: -R naming the others, or -E naming any suite's ctest
  // test, could skip it.
  Plan P;
  P.Selected = {selected("lit:s::new.test"), selected("ctest:unit")};
  P.NotSelected = {"ctest:other", "lit:s::b.test", "lit:t::c.test"};
  P.EnclosingCTests = {{"lit:s::b.test", "lit-s"}, {"lit:t::c.test", "lit-t"}};
  RunnerArguments In = ctestArguments(P, false);
  EXPECT_TRUE(In.Arguments.empty());
  EXPECT_EQ(In.Widened,
            "tia does not know which ctest test runs lit:s::new.test (new, "
            "or collected before tia kept it): every ctest test runs");
  RunnerArguments Out = ctestArguments(P, true);
  EXPECT_EQ(Out.Arguments, (Strings{"-E", "^(other)$"}));
  EXPECT_EQ(Out.Unnamed, 0u);
  EXPECT_EQ(Out.Widened,
            "tia does not know which ctest test runs lit:s::new.test (new, "
            "or collected before tia kept it): no lit suite's ctest test is "
            "skipped");
  EXPECT_EQ(ctestNames(P, true).Arguments, (Strings{"other"}));
  // A list of names to run cannot hold "every test": none, and why.
  RunnerArguments List = ctestNames(P, false);
  EXPECT_TRUE(List.Arguments.empty());
  EXPECT_NE(List.Widened.find("run every ctest test, without "
                              "--tests-from-file"),
            std::string::npos);
  // Two of them are counted.
  P.Selected.push_back(selected("lit:t::new.test"));
  EXPECT_NE(ctestArguments(P, false).Widened.find(
                "runs lit:s::new.test and 1 more lit test ("),
            std::string::npos);
  // tia run takes the form that still skips something.
  bool Exclusion = false, Fits = false;
  RunnerArguments Fitting =
      fittingSelectionArguments(P, Runner::Ctest, "", Exclusion, Fits);
  EXPECT_TRUE(Exclusion);
  EXPECT_EQ(Fitting.Arguments, (Strings{"-E", "^(other)$"}));
}

TEST(LitTest, NothingSelectedRunsNothing) {
  Plan P;
  P.NotSelected = {"lit:s::a.test"};
  EXPECT_EQ(litArguments(P, false).Arguments,
            (Strings{"--filter", "^$", "--allow-empty-runs"}));
  // Nothing skipped: no filter.
  Plan All;
  All.Selected = {selected("lit:s::a.test")};
  EXPECT_TRUE(litArguments(All, true).Arguments.empty());
}

TEST(LitTest, SkippingEveryKnownTestAllowsAnEmptyRun) {
  Plan P;
  P.Selected = {selected("ctest:other")};
  P.NotSelected = {"lit:s::a.test"};
  EXPECT_EQ(litArguments(P, true).Arguments,
            (Strings{"--filter-out", "^(s\\x20::\\x20a\\.test)$",
                     "--allow-empty-runs"}));
  // A selected lit test still runs: an empty run is lit's error again.
  P.Selected.push_back(selected("lit:s::b.test"));
  EXPECT_EQ(litArguments(P, true).Arguments.size(), 2u);
}

TEST(LitTest, RunWithItsXunitReport) {
  std::vector<std::string> Command = {"python3", "lit.py", "-v", "suite"};
  EXPECT_EQ(recogniseRunner(Command, ""), Runner::Lit);
  EXPECT_EQ(recogniseRunner({"python3", "lit_wrapper.py"}, ""), Runner::Gtest);
  std::vector<std::string> Args;
  askForReport(Runner::Lit, "r.xml", Args);
  EXPECT_EQ(Args, (Strings{"--xunit-xml-output=r.xml"}));
}

TEST(LitTest, RunnerName) {
  EXPECT_EQ(runnerName(Runner::Lit), "lit");
  EXPECT_EQ(parseRunner("lit"), Runner::Lit);
  EXPECT_EQ(parseRunner("llvm-lit"), std::nullopt);
}

TEST(LitTest, RunsNothingWhenNoLitTestIsSelected) {
  Plan P;
  P.Selected = {selected("ctest:other")};
  P.NotSelected = {"lit:s::a.test"};
  EXPECT_EQ(nothingToRun(P, Runner::Lit, "lit.py", false),
            std::optional<std::string>("no lit test is selected"));
  // Skipping the known tests runs those tia never saw.
  EXPECT_EQ(nothingToRun(P, Runner::Lit, "lit.py", true), std::nullopt);
  P.Selected.push_back(selected("lit:s::b.test"));
  EXPECT_EQ(nothingToRun(P, Runner::Lit, "lit.py", false), std::nullopt);
}

TEST(LitTest, XunitNamesOfIds) {
  EXPECT_EQ(litXunitName("lit:my.suite::v1.2/x/dotted.test"),
            (LitXunitName{"my-suite.v1_2/x", "dotted.test"}));
  // A test at the root: the suite's name again.
  EXPECT_EQ(litXunitName("lit:my.suite::pass.test"),
            (LitXunitName{"my-suite.my-suite", "pass.test"}));
  EXPECT_EQ(litXunitName("ctest:my.suite"), std::nullopt);
}

TEST(LitTest, PlainIdsOfXunitNames) {
  EXPECT_EQ(plainLitId("s.s", "a.test"), "lit:s::a.test");
  EXPECT_EQ(plainLitId("s.sub/x", "b.test"), "lit:s::sub/x/b.test");
  // lit's '-' and '_' stay: the plain id cannot know they were '.'.
  EXPECT_EQ(plainLitId("my-suite.v1_2", "c.test"), "lit:my-suite::v1_2/c.test");
  EXPECT_EQ(plainLitId("nodot", "a.test"), std::nullopt);
  EXPECT_EQ(plainLitId(".s", "a.test"), std::nullopt);
}

// What lit 19 writes with --xunit-xml-output for a suite "my.suite" run
// with --filter (not.test was left out), a timeout added. Only lit's
// header above a test's output says whether it timed out.
const char *LitReport = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<testsuites time="0.19">
<testsuite name="my-suite" tests="6" failures="2" skipped="2">
<testcase classname="my-suite.my-suite" name="fail.test" time="0.05">
  <failure><![CDATA[Exit Code: 1

Command Output (stdout):
--
Timeout: the test's own words
--
]]></failure>
</testcase>
<testcase classname="my-suite.my-suite" name="not.test" time="0.00">
  <skipped message="Test not selected (--filter, --max-tests)"/>
</testcase>
<testcase classname="my-suite.my-suite" name="pass.test" time="0.03"/>
<testcase classname="my-suite.my-suite" name="slow.test" time="1.01">
  <failure><![CDATA[Exit Code: -9
Timeout: Reached timeout of 1 seconds

]]></failure>
</testcase>
<testcase classname="my-suite.my-suite" name="unsupported.test" time="0.00">
  <skipped message="Missing required feature(s): no-such-feature"/>
</testcase>
<testcase classname="my-suite.v1_2" name="dotted.test" time="0.01"/>
</testsuite>
</testsuites>
)xml";

TEST(LitTest, XunitCasesLitNeverStartedDidNotRun) {
  // lit stopped early (Ctrl-C, --max-failures): the tests it never started
  // are "skipped" with "User interrupt", which would hide an earlier
  // failure; a test its config skipped did run to that verdict.
  ASSERT_VALUE(R, parseJUnit(R"xml(<testsuites time="0.1">
<testsuite name="s" tests="2" failures="0" skipped="2">
<testcase classname="s.s" name="late.test" time="0.00">
  <skipped message="User interrupt"/>
</testcase>
<testcase classname="s.s" name="unsupported.test" time="0.00">
  <skipped message="Missing required feature(s): x"/>
</testcase>
</testsuite>
</testsuites>
)xml",
                             "r.xml", Runner::Lit));
  ASSERT_EQ(R->Cases.size(), 1u);
  EXPECT_EQ(R->Cases[0].Name, "unsupported.test");
  EXPECT_EQ(R->Cases[0].Result, Outcome::Skipped);
}

TEST(LitTest, XunitReportOutcomes) {
  ASSERT_VALUE(R, parseJUnit(LitReport, "r.xml"));
  EXPECT_EQ(R->Kind, Runner::Lit);
  ASSERT_EQ(R->Cases.size(), 5u); // not.test did not run
  EXPECT_EQ(R->Cases[0].Result, Outcome::Failed);
  EXPECT_EQ(R->Cases[0].Message, "Exit Code: 1");
  EXPECT_EQ(R->Cases[1].Name, "pass.test");
  EXPECT_EQ(R->Cases[1].Result, Outcome::Passed);
  EXPECT_EQ(R->Cases[2].Result, Outcome::TimedOut);
  EXPECT_EQ(R->Cases[2].Message, "Timeout: Reached timeout of 1 seconds");
  EXPECT_EQ(R->Cases[3].Result, Outcome::Skipped);
  EXPECT_EQ(R->Cases[3].Message,
            "Missing required feature(s): no-such-feature");
  EXPECT_DOUBLE_EQ(R->Cases[2].Seconds, 1.01);
}

TEST(LitTest, XunitReportRecognisedByItsShape) {
  // Catch2's report has class names "BINARY.global", but timed suites.
  const char *Catch2 = "<testsuites><testsuite name='t' time='0.1'><testcase "
                       "classname='t.global' name='a'/></testsuite>"
                       "</testsuites>";
  EXPECT_EQ(errorText(parseJUnit(Catch2, "r.xml")),
            "cannot tell which runner wrote r.xml: pass --runner ctest, "
            "gtest or pytest");
  // A case of another suite's class.
  const char *Mixed = "<testsuites time='1'><testsuite name='s'><testcase "
                      "classname='t.t' name='a'/></testsuite></testsuites>";
  EXPECT_FALSE(static_cast<bool>(parseJUnit(Mixed, "r.xml")));
  ASSERT_VALUE(Hinted, parseJUnit(Mixed, "r.xml", Runner::Lit));
  EXPECT_EQ(Hinted->Kind, Runner::Lit);
}

TEST(LitTest, XunitCasesAreTheKnownTests) {
  ASSERT_VALUE(R, parseJUnit(LitReport, "r.xml"));
  std::vector<std::string> Known = {
      "lit:my.suite::fail.test", "lit:my.suite::pass.test",
      "lit:my.suite::slow.test", "lit:my.suite::unsupported.test",
      "lit:my.suite::v1.2/dotted.test"};
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Ids, litResultIds(*R, "r.xml", Known, Warnings));
  EXPECT_EQ(*Ids, Known);
  EXPECT_TRUE(Warnings.empty());
}

TEST(LitTest, XunitCasesOfUnknownTestsAreGuessed) {
  ASSERT_VALUE(R, parseJUnit(LitReport, "r.xml"));
  // Two known tests whose xunit names are the same are no answer either.
  std::vector<std::string> Known = {"lit:my.suite::pass.test",
                                    "lit:my-suite::pass.test"};
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Ids, litResultIds(*R, "r.xml", Known, Warnings));
  EXPECT_EQ((*Ids)[1], "lit:my-suite::pass.test");
  EXPECT_EQ((*Ids)[4], "lit:my-suite::v1_2/dotted.test");
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0].substr(0, 58),
            "r.xml: 5 of its 5 lit tests are not a test the database kn");
}

TEST(LitTest, XunitCaseWithoutASuiteIsAnError) {
  ASSERT_VALUE(R, parseJUnit("<testsuites>\n<testsuite name='s'>\n<testcase "
                             "classname='s' name='a.test'/></testsuite>"
                             "</testsuites>",
                             "r.xml", Runner::Lit));
  std::vector<std::string> Warnings;
  EXPECT_EQ(errorText(litResultIds(*R, "r.xml", {}, Warnings)),
            "r.xml:3: lit test case 'a.test' has class name 's', not "
            "SUITE.FOLDER: pass the report lit's --xunit-xml-output wrote");
}

} // namespace
