//===- JUnitTest.cpp - JUnit reports of ctest, GoogleTest and pytest ------===//

#include "tia/Results/JUnit.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"
#include <set>

using namespace tia;
using namespace tia::results;
using tia::testing::errorText;

namespace {

// Shortened from what GoogleTest 1.12 writes.
const char *GtestReport = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="5" failures="1" disabled="1" errors="0" time="0" name="AllTests">
  <testsuite name="Suite" tests="3" failures="1" disabled="1" skipped="1">
    <testcase name="Pass" file="t.cpp" line="3" status="run" result="completed" time="0.25" classname="Suite" />
    <testcase name="Fail" file="t.cpp" line="4" status="run" result="completed" time="0" classname="Suite">
      <failure message="t.cpp:4&#x0A;Expected equality" type=""><![CDATA[t.cpp:4
Expected equality]]></failure>
    </testcase>
    <testcase name="DISABLED_Off" file="t.cpp" line="5" status="notrun" result="suppressed" time="0" classname="Suite" />
    <testcase name="Skip" file="t.cpp" line="6" status="run" result="skipped" time="0" classname="Suite">
      <skipped message="t.cpp:6&#x0A;not here"><![CDATA[t.cpp:6
not here]]></skipped>
    </testcase>
  </testsuite>
  <testsuite name="Nums/P" tests="1">
    <testcase name="Even/1" value_param="3" file="t.cpp" line="8" status="run" result="completed" time="0" classname="Nums/P" />
  </testsuite>
</testsuites>
)xml";

// What ctest 3.25 writes with --output-junit.
const char *CtestReport = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)"
	tests="5"
	failures="1"
	>
	<testcase name="pass" classname="pass" time="0.00413255" status="run">
		<system-out></system-out>
	</testcase>
	<testcase name="fail" classname="fail" time="0.00281084" status="fail">
		<failure message=""/>
		<system-out>bad &lt;thing&gt; &amp;
</system-out>
	</testcase>
	<testcase name="disabled" classname="disabled" time="0" status="disabled">
		<system-out>Disabled</system-out>
	</testcase>
	<testcase name="skip" classname="skip" time="0.00248755" status="notrun">
		<skipped message="SKIP_RETURN_CODE=77"/>
	</testcase>
	<testcase name="missing" classname="missing" time="0" status="notrun">
		<skipped message="Unable to find executable"/>
	</testcase>
	<testcase name="Suite.Name" classname="Suite.Name" time="1" status="run"/>
</testsuite>)xml";

// What pytest 7 writes with --junitxml (xunit2).
const char *PytestReport =
    R"xml(<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="5"><testcase classname="tests.test_a" name="test_pass" time="0.001" /><testcase classname="tests.test_a" name="test_fail" time="0.001"><failure message="AssertionError: a &lt;b&gt;&#10;assert 1 == 2">details</failure></testcase><testcase classname="tests.test_a" name="test_skip" time="0.000"><skipped type="pytest.skip" message="nope">x</skipped></testcase><testcase classname="tests.test_a.TestK.TestInner" name="test_n[a b]" time="0.000" /><testcase classname="tests.test_a" name="test_err" time="0.001"><error message="failed on setup with &quot;RuntimeError: fixture&quot;">trace</error></testcase></testsuite></testsuites>)xml";

TEST(JUnitTest, GoogleTest) {
  ASSERT_VALUE(R, parseJUnit(GtestReport, "out/t_test.xml"));
  EXPECT_EQ(R->Kind, Runner::Gtest);
  ASSERT_EQ(R->Cases.size(), 5u);
  EXPECT_EQ(R->Cases[0].Result, Outcome::Passed);
  EXPECT_DOUBLE_EQ(R->Cases[0].Seconds, 0.25);
  EXPECT_EQ(R->Cases[0].File, "t.cpp");
  EXPECT_EQ(R->Cases[0].Line, 3u);
  EXPECT_EQ(R->Cases[1].Result, Outcome::Failed);
  EXPECT_EQ(R->Cases[1].Message, "t.cpp:4");
  EXPECT_EQ(R->Cases[2].Result, Outcome::Skipped);
  EXPECT_EQ(R->Cases[2].Message, "disabled");
  EXPECT_EQ(R->Cases[3].Result, Outcome::Skipped);

  NamingOptions O;
  O.GtestBinary = binaryFromReportName("out/t_test.xml");
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "out/t_test.xml", O, Warnings));
  EXPECT_EQ((*Results)[0].TestId, "gtest:t_test:Suite.Pass");
  EXPECT_EQ((*Results)[4].TestId, "gtest:t_test:Nums/P.Even/1");
}

TEST(JUnitTest, GoogleTestNeedsItsBinary) {
  ASSERT_VALUE(R, parseJUnit(GtestReport, "test_detail.xml"));
  std::vector<std::string> Warnings;
  EXPECT_EQ(binaryFromReportName("build/test_detail.xml"), "");
  EXPECT_EQ(errorText(testResults(*R, "test_detail.xml", {}, Warnings)),
            "cannot tell which binary wrote test_detail.xml (5 of its 5 "
            "cases are not the test of exactly one known binary): pass "
            "--binary NAME, or let GoogleTest name the file with "
            "--gtest_output=xml:DIR/");
}

TEST(JUnitTest, GoogleTestCasesOfOneKnownBinary) {
  ASSERT_VALUE(R, parseJUnit(GtestReport, "math.xml"));
  // Suite.Pass is one binary's, Suite.Fail two binaries', Nums/P.Even/1 only
  // a definition's: only the first is matched.
  std::vector<std::string> Known = {"gtest:*:Nums/P.Even/1",
                                    "gtest:a:Suite.Fail", "gtest:b:Suite.Fail",
                                    "gtest:b:Suite.Pass"};
  NamingOptions O;
  O.GtestBinary = binaryFromReportName("math.xml");
  O.KnownIds = Known;
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "math.xml", O, Warnings));
  EXPECT_EQ((*Results)[0].TestId, "gtest:b:Suite.Pass");
  EXPECT_EQ((*Results)[1].TestId, "gtest:math:Suite.Fail");
  EXPECT_EQ((*Results)[4].TestId, "gtest:math:Nums/P.Even/1");
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("math.xml: 4 of its 5 cases"), std::string::npos);
  EXPECT_NE(Warnings[0].find("--binary"), std::string::npos);

  // A known binary's file, or --binary, names every case.
  O.GtestBinary = "a";
  Warnings.clear();
  ASSERT_VALUE(Named, testResults(*R, "a.xml", O, Warnings));
  EXPECT_EQ((*Named)[0].TestId, "gtest:a:Suite.Pass");
  EXPECT_TRUE(Warnings.empty());
  O.GtestBinary = "c";
  O.GtestBinaryGiven = true;
  ASSERT_VALUE(Given, testResults(*R, "test_detail.xml", O, Warnings));
  EXPECT_EQ((*Given)[0].TestId, "gtest:c:Suite.Pass");
  EXPECT_TRUE(Warnings.empty());
}

TEST(JUnitTest, Ctest) {
  ASSERT_VALUE(R, parseJUnit(CtestReport, "ctest.xml"));
  EXPECT_EQ(R->Kind, Runner::Ctest);
  ASSERT_EQ(R->Cases.size(), 6u);
  std::vector<Outcome> Outcomes;
  for (const JUnitCase &C : R->Cases)
    Outcomes.push_back(C.Result);
  EXPECT_EQ(Outcomes, (std::vector<Outcome>{Outcome::Passed, Outcome::Failed,
                                            Outcome::Skipped, Outcome::Skipped,
                                            Outcome::Error, Outcome::Passed}));
  EXPECT_EQ(R->Cases[4].Message, "Unable to find executable");

  // A ctest name that is the Suite.Name of one known GoogleTest id is it.
  std::vector<std::string> Known = {"ctest:pass", "gtest:bin:Suite.Name"};
  NamingOptions O;
  O.KnownIds = Known;
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "ctest.xml", O, Warnings));
  EXPECT_EQ((*Results)[0].TestId, "ctest:pass");
  EXPECT_EQ((*Results)[5].TestId, "gtest:bin:Suite.Name");
}

TEST(JUnitTest, CtestTestOfALitSuiteIsItsLitTests) {
  ASSERT_VALUE(R, parseJUnit(CtestReport, "ctest.xml"));
  // "pass" and "fail" are lit suites' ctest tests; "Suite.Name" is also a
  // known ctest test of its own, which it stays.
  std::vector<std::string> Known = {"ctest:Suite.Name", "lit:s::a.test",
                                    "lit:s::b.test", "lit:t::c.test"};
  NamingOptions O;
  O.KnownIds = Known;
  std::map<std::string, std::vector<std::string>> Suites = {
      {"pass", {"lit:s::a.test", "lit:s::b.test"}},
      {"fail", {"lit:t::c.test"}},
      {"Suite.Name", {"lit:u::d.test"}}};
  O.LitTestsByCTest = &Suites;
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "ctest.xml", O, Warnings));
  ASSERT_EQ(Results->size(), 7u);
  EXPECT_EQ((*Results)[0].TestId, "lit:s::a.test");
  EXPECT_EQ((*Results)[1].TestId, "lit:s::b.test");
  EXPECT_EQ((*Results)[0].Result, Outcome::Passed);
  EXPECT_DOUBLE_EQ((*Results)[0].Seconds, 0.00413255 / 2);
  EXPECT_EQ((*Results)[2].TestId, "lit:t::c.test");
  EXPECT_EQ((*Results)[2].Result, Outcome::Failed);
  EXPECT_EQ((*Results)[6].TestId, "ctest:Suite.Name");
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0],
            "ctest.xml: ctest test fail failed, and runs 1 lit test: each is "
            "recorded as failed (run lit through 'tia run -- lit' to record "
            "each test's own outcome)");
}

TEST(JUnitTest, CtestNamesOfCatch2AndDoctestCases) {
  // catch_discover_tests and doctest_discover_tests name a ctest test after
  // its case, as gtest_discover_tests does.
  ASSERT_VALUE(R, parseJUnit(CtestReport, "ctest.xml"));
  std::vector<std::string> Known = {"ctest:pass", "doctest:bin:Suite.Name"};
  NamingOptions O;
  O.KnownIds = Known;
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "ctest.xml", O, Warnings));
  EXPECT_EQ((*Results)[5].TestId, "doctest:bin:Suite.Name");
}

TEST(JUnitTest, SectionsAreOneResultOfTheirCase) {
  const char *Report = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="ops_test">
  <testcase classname="ops_test.global" name="adds" time="0.5"/>
  <testcase classname="ops_test.global" name="Scenario: twice/Given: a/Then: b" time="0.25"/>
  <testcase classname="ops_test.global" name="Scenario: twice/Given: a/Then: c" time="0.25">
    <failure message="2 == 3"/>
  </testcase>
  <testcase classname="ops_test.global" name="a/b/c" time="0.1"/>
</testsuite></testsuites>)";
  ASSERT_VALUE(R, parseJUnit(Report, "ops.xml", Runner::Catch2));
  // "a/b" is a case whose name holds a '/': the longest known prefix wins.
  std::vector<std::string> Known = {"catch2:ops_test:Scenario: twice",
                                    "catch2:ops_test:a/b",
                                    "catch2:ops_test:adds"};
  NamingOptions O;
  O.GtestBinary = "ops_test";
  O.KnownIds = Known;
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "ops.xml", O, Warnings));
  ASSERT_EQ(Results->size(), 3u);
  EXPECT_EQ((*Results)[1].TestId, "catch2:ops_test:Scenario: twice");
  EXPECT_EQ((*Results)[1].Result, Outcome::Failed);
  EXPECT_EQ((*Results)[1].Attempt, 0u);
  EXPECT_DOUBLE_EQ((*Results)[1].Seconds, 0.5);
  EXPECT_EQ((*Results)[2].TestId, "catch2:ops_test:a/b");

  ASSERT_VALUE(D, parseJUnit(Report, "ops.xml", Runner::Doctest));
  O.KnownIds = {};
  ASSERT_VALUE(Doctest, testResults(*D, "ops.xml", O, Warnings));
  ASSERT_EQ(Doctest->size(), 3u);
  EXPECT_EQ((*Doctest)[1].TestId, "doctest:ops_test:Scenario: twice");
  EXPECT_EQ((*Doctest)[2].TestId, "doctest:ops_test:a");
}

TEST(JUnitTest, CtestTimeoutsAndCrashesByMessage) {
  ASSERT_VALUE(
      R, parseJUnit("<testsuite><testcase name='a' status='fail'><failure "
                    "message='Timeout'/></testcase><testcase name='b' "
                    "status='fail'><failure message='Exception: SegFault'/>"
                    "</testcase></testsuite>",
                    "c.xml"));
  EXPECT_EQ(R->Cases[0].Result, Outcome::TimedOut);
  EXPECT_EQ(R->Cases[1].Result, Outcome::Crashed);
}

TEST(JUnitTest, Pytest) {
  ASSERT_VALUE(R, parseJUnit(PytestReport, "py.xml"));
  EXPECT_EQ(R->Kind, Runner::Pytest);
  ASSERT_EQ(R->Cases.size(), 5u);
  EXPECT_EQ(R->Cases[1].Result, Outcome::Failed);
  EXPECT_EQ(R->Cases[1].Message, "AssertionError: a <b>");
  EXPECT_EQ(R->Cases[2].Result, Outcome::Skipped);
  EXPECT_EQ(R->Cases[4].Result, Outcome::Error);

  std::set<std::string> Files = {"tests/test_a.py"};
  auto IsFile = [&](llvm::StringRef P) { return Files.count(P.str()) != 0; };
  NamingOptions O;
  O.IsFile = IsFile;
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "py.xml", O, Warnings));
  EXPECT_EQ((*Results)[0].TestId, "pytest:tests/test_a.py::test_pass");
  EXPECT_EQ((*Results)[3].TestId,
            "pytest:tests/test_a.py::TestK::TestInner::test_n[a b]");
  EXPECT_TRUE(Warnings.empty());
}

TEST(JUnitTest, PytestNodeIdsWithoutTheFiles) {
  NamingOptions O;
  O.PytestDir = "py";
  // The store knows the node id: its module has a dot in a folder name.
  std::vector<std::string> Known = {"pytest:py/v1.2/test_x.py::TestA::test_b"};
  O.KnownIds = Known;
  EXPECT_EQ(
      pytestNodeId("v1.2.test_x.TestA", "test_b", O),
      std::make_pair(std::string("py/v1.2/test_x.py::TestA::test_b"), false));
  // Else classes are the components from the first "Test..." on.
  EXPECT_EQ(
      pytestNodeId("pkg.test_m.TestC", "test_d", O),
      std::make_pair(std::string("py/pkg/test_m.py::TestC::test_d"), true));
  EXPECT_EQ(pytestNodeId("pkg.test_m", "test_d", O),
            std::make_pair(std::string("py/pkg/test_m.py::test_d"), true));
}

TEST(JUnitTest, BoostTestPathsAndOutcomes) {
  // Boost.Test lists the cases its filter left out as skipped, "disabled
  // because of the following chain of decision": they did not run.
  const char *Report = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuite tests="5" skipped="1" errors="1" failures="1" id="0" name="ops">
<testcase assertions="1" name="top" time="0.5"></testcase>
<testcase assertions="2" classname="math.inner" name="fails" time="0.25">
<failure message="failure" type="assertion error"><![CDATA[
ASSERTION FAILURE:
- file   : t.cpp
- line   : 10
- message: check add(2,2)==5 has failed [4 != 5]
]]></failure></testcase>
<testcase assertions="1" classname="math" name="crash" time="0.1">
<error message="unexpected exception" type="system error"><![CDATA[
UNCAUGHT EXCEPTION:
- file: unknown location
- line: 0

EXCEPTION STACK TRACE: --------------
signal: SIGABRT (application abort requested)
]]></error></testcase>
<testcase assertions="1" classname="math" name="sum&lt;std__pair&lt;int__long&gt;&gt;" time="0"></testcase>
<testcase assertions="0" classname="math" name="left_out" time="0">
<skipped/>
<system-out><![CDATA[Test case disabled because of the following chain of decision:
- disabled test unit: 'math/left_out'
- reason: 'disabled']]></system-out>
</testcase>
</testsuite>)";
  ASSERT_VALUE(R, parseJUnit(Report, "ops_test.xml", Runner::Boost));
  // Boost's report writes a name's space as '_'.
  std::vector<std::string> Known = {
      "boost:ops_test:math/sum<std__pair<int_ long>>"};
  NamingOptions O;
  O.GtestBinary = "ops_test";
  O.KnownIds = Known;
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "ops_test.xml", O, Warnings));
  ASSERT_EQ(Results->size(), 4u);
  EXPECT_EQ((*Results)[3].TestId, Known.front());
  EXPECT_EQ((*Results)[0].TestId, "boost:ops_test:top");
  EXPECT_EQ((*Results)[0].Result, Outcome::Passed);
  EXPECT_EQ((*Results)[1].TestId, "boost:ops_test:math/inner/fails");
  EXPECT_EQ((*Results)[1].Result, Outcome::Failed);
  EXPECT_EQ((*Results)[1].Message,
            "t.cpp(10): check add(2,2)==5 has failed [4 != 5]");
  EXPECT_EQ((*Results)[2].TestId, "boost:ops_test:math/crash");
  EXPECT_EQ((*Results)[2].Result, Outcome::Crashed);
  EXPECT_EQ((*Results)[2].Message,
            "signal: SIGABRT (application abort requested)");
}

TEST(JUnitTest, RetriesAreAttempts) {
  ASSERT_VALUE(R, parseJUnit("<testsuite><testcase name='a' status='fail'/>"
                             "<testcase name='a' status='run'/></testsuite>",
                             "c.xml"));
  std::vector<std::string> Warnings;
  ASSERT_VALUE(Results, testResults(*R, "c.xml", {}, Warnings));
  ASSERT_EQ(Results->size(), 2u);
  EXPECT_EQ((*Results)[0].Attempt, 0u);
  EXPECT_EQ((*Results)[0].Result, Outcome::Failed);
  EXPECT_EQ((*Results)[1].Attempt, 1u);
  EXPECT_EQ((*Results)[1].Result, Outcome::Passed);
}

TEST(JUnitTest, BadReports) {
  EXPECT_EQ(errorText(parseJUnit("<testsuite><testcase name='a'>", "r.xml")),
            "malformed JUnit file r.xml:1:31: unexpected end of file: "
            "<testcase> (line 1) is not closed");
  EXPECT_EQ(errorText(parseJUnit("<html/>", "r.xml")),
            "r.xml is not a JUnit report: its root element is <html>, not "
            "<testsuites> or <testsuite>");
  EXPECT_EQ(errorText(parseJUnit("<testsuite>\n<testcase/></testsuite>",
                                 "r.xml", Runner::Ctest)),
            "r.xml:2: <testcase> has no name: check that the report is "
            "complete");
  EXPECT_EQ(errorText(parseJUnit("<testsuite><testcase name='a' time='x'/>"
                                 "</testsuite>",
                                 "r.xml", Runner::Ctest)),
            "r.xml:1: the time of test case 'a' is 'x', not a number of "
            "seconds");
  EXPECT_EQ(errorText(parseJUnit("<testsuite name='other'><testcase "
                                 "name='a'/></testsuite>",
                                 "r.xml")),
            "cannot tell which runner wrote r.xml: pass --runner ctest, gtest "
            "or pytest");
  // An empty report is fine: nothing ran.
  ASSERT_VALUE(Empty, parseJUnit("<testsuites/>", "r.xml"));
  EXPECT_TRUE(Empty->Cases.empty());
}

TEST(JUnitTest, TheSummaryCountsTheOutcomesThereAre) {
  ImportSummary Sum;
  Sum.Results = 3;
  Sum.ByOutcome[static_cast<int>(Outcome::Passed)] = 2;
  Sum.ByOutcome[static_cast<int>(Outcome::Skipped)] = 1;
  EXPECT_EQ(summaryText(Sum), "3 results (2 passed, 1 skipped)");
  ImportSummary None;
  EXPECT_EQ(summaryText(None), "0 results");
  ImportSummary One;
  One.Results = 1;
  One.ByOutcome[static_cast<int>(Outcome::Failed)] = 1;
  EXPECT_EQ(summaryText(One), "1 result (1 failed)");
}

TEST(JUnitTest, ARunnersReportIsRecordedByRunAsItsRunnerReadsIt) {
  ImportOptions O = runImportOptions(Runner::Pytest, "pytest", "/repo", "c0");
  EXPECT_EQ(O.Hint, Runner::Pytest);
  EXPECT_EQ(O.Source, "run");
  EXPECT_EQ(O.ProjectRoot, "/repo");
  EXPECT_EQ(O.Commit, "c0");
  // A runner that could not be told is read as a GoogleTest binary.
  ImportOptions Auto = runImportOptions(Runner::Auto, "unit_tests", "/r", "");
  EXPECT_EQ(Auto.Hint, Runner::Gtest);
  EXPECT_EQ(Auto.GtestBinary, "unit_tests");
  EXPECT_EQ(Auto.Commit, "");
}

} // namespace
