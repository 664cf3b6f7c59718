//===- CollectTest.cpp - discovery, outcomes, processes, gcov JSON --------===//

#include "tia/Collect/Collect.h"
#include "CollectInternal.h"
#include "tia/Coverage/Gcov.h"
#include "tia/Coverage/Profiles.h"
#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"
#include <chrono>

using namespace tia;
using namespace tia::collect;
using tia::testing::errorText;

namespace {

TEST(CTestJsonTest, CommandAndProperties) {
  const char *Json = R"({"kind": "ctestInfo", "tests": [
    {"name": "one", "command": ["/b/t", "--gtest_filter=S.a"],
     "properties": [
       {"name": "WORKING_DIRECTORY", "value": "/b/w"},
       {"name": "ENVIRONMENT", "value": ["A=1", "B=2"]},
       {"name": "TIMEOUT", "value": 12.5},
       {"name": "WILL_FAIL", "value": true},
       {"name": "SKIP_RETURN_CODE", "value": 77},
       {"name": "DISABLED", "value": "ON"},
       {"name": "PASS_REGULAR_EXPRESSION", "value": ["ok"]}]},
    {"name": "missing"}]})";
  ASSERT_VALUE(Entries, parseCTestJson(Json, "/b"));
  ASSERT_EQ(Entries->size(), 2u);
  const CTestEntry &E = (*Entries)[0];
  EXPECT_EQ(E.Command,
            (std::vector<std::string>{"/b/t", "--gtest_filter=S.a"}));
  EXPECT_EQ(E.WorkingDir, "/b/w");
  EXPECT_EQ(E.Environment, (std::vector<std::string>{"A=1", "B=2"}));
  EXPECT_EQ(E.Timeout, 12.5);
  EXPECT_TRUE(E.Rules.WillFail);
  EXPECT_EQ(E.Rules.SkipReturnCode, 77);
  EXPECT_TRUE(E.Disabled);
  EXPECT_EQ(E.Rules.PassRegex, std::vector<std::string>{"ok"});
  EXPECT_TRUE((*Entries)[1].Command.empty());
}

TEST(CTestJsonTest, MalformedSaysWhere) {
  EXPECT_EQ(errorText(parseCTestJson("{\"kind\": 1}", "/b")),
            "malformed ctest JSON from /b: no \"tests\" array");
}

DiscoveredTest ctestTest() {
  DiscoveredTest T;
  T.Id = "ctest:t";
  T.Command.Executable = "/b/t";
  return T;
}

ProcessEnd exited(int Code) {
  ProcessEnd E;
  E.How = ProcessEnd::Exited;
  E.ExitCode = Code;
  return E;
}

TEST(ClassifyTest, CTestRules) {
  DiscoveredTest T = ctestTest();
  EXPECT_EQ(classify(T, exited(0), "", 10).Result, Outcome::Passed);
  TestResult F = classify(T, exited(3), "", 10);
  EXPECT_EQ(F.Result, Outcome::Failed);
  EXPECT_EQ(F.Message, "exit code 3");
  T.Rules.SkipReturnCode = 77;
  EXPECT_EQ(classify(T, exited(77), "", 10).Result, Outcome::Skipped);
  T.Rules.WillFail = true;
  EXPECT_EQ(classify(T, exited(1), "", 10).Result, Outcome::Passed);
  T = ctestTest();
  T.Rules.PassRegex = {"all good"};
  EXPECT_EQ(classify(T, exited(1), "all good\n", 10).Result, Outcome::Passed);
  EXPECT_EQ(classify(T, exited(0), "meh\n", 10).Result, Outcome::Failed);
}

TEST(ClassifyTest, SignalsTimeoutsAndSpawnFailures) {
  DiscoveredTest T = ctestTest();
  ProcessEnd Crash;
  Crash.How = ProcessEnd::Signaled;
  Crash.Signal = 11;
  TestResult C = classify(T, Crash, "", 10);
  EXPECT_EQ(C.Result, Outcome::Crashed);
  EXPECT_EQ(C.Message, "killed by SIGSEGV (Segmentation fault)");
  ProcessEnd Late;
  Late.How = ProcessEnd::TimedOut;
  TestResult L = classify(T, Late, "", 2.5);
  EXPECT_EQ(L.Result, Outcome::TimedOut);
  EXPECT_EQ(L.Message, "killed after 2.5s");
  ProcessEnd None;
  None.Error = "No such file or directory";
  EXPECT_EQ(classify(T, None, "", 1).Message,
            "cannot run /b/t: No such file or directory");
}

TEST(ClassifyTest, GoogleTestCase) {
  DiscoveredTest T = ctestTest();
  T.Case = "S.a";
  EXPECT_EQ(classify(T, exited(0), "[       OK ] S.a (0 ms)\n", 1).Result,
            Outcome::Passed);
  EXPECT_EQ(classify(T, exited(0), "[  SKIPPED ] S.a (0 ms)\n", 1).Result,
            Outcome::Skipped);
  TestResult None = classify(T, exited(0), "[  PASSED  ] 0 tests.\n", 1);
  EXPECT_EQ(None.Result, Outcome::Error);
  TestResult F = classify(T, exited(1),
                          "[ RUN      ] S.a\n"
                          "a.cpp:3: Failure\n"
                          "Value of: x\n"
                          "[  FAILED  ] S.a (0 ms)\n",
                          1);
  EXPECT_EQ(F.Result, Outcome::Failed);
  EXPECT_EQ(F.Message, "a.cpp:3: Value of: x");
}

TEST(JournalTest, SegmentsAndOutcomes) {
  Journal J;
  J.parse("program program-1\n"
          "suite S suite-2\n"
          "start S.a\n"
          "case S.a case-3.profraw\n"
          "end S.a failed 1500 a.cpp:3: Value of: x\n"
          "start S.b\n");
  EXPECT_EQ(J.ProgramSegments, std::vector<std::string>{"program-1"});
  EXPECT_EQ(J.SuiteSegments["S"], std::vector<std::string>{"suite-2"});
  EXPECT_EQ(J.Started, (std::vector<std::string>{"S.a", "S.b"}));
  const Journal::Case &A = J.Cases["S.a"];
  EXPECT_TRUE(A.Ended);
  EXPECT_EQ(A.Result, Outcome::Failed);
  EXPECT_DOUBLE_EQ(A.Seconds, 0.0015);
  EXPECT_EQ(A.Message, "a.cpp:3: Value of: x");
  EXPECT_EQ(A.Segment, "case-3.profraw");
  EXPECT_FALSE(J.Cases["S.b"].Ended);
}

TEST(JournalTest, EscapedNames) {
  Journal J;
  J.parse("suite A%20suite suite-1\n"
          "start A%20suite.100%25%0Adone\n");
  EXPECT_EQ(J.SuiteSegments["A suite"], std::vector<std::string>{"suite-1"});
  EXPECT_EQ(J.Started, std::vector<std::string>{"A suite.100%\ndone"});
}

TEST(ProcessTest, TimeoutKillsTheWholeGroup) {
  llvm::SmallString<128> Out;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("collect", "txt", Out));
  // The background sleep is in the same process group and goes too: the
  // shell's output file would stay open otherwise.
  ProcessSpec Spec{"/bin/sh",
                   {"-c", "sleep 30 & sleep 30"},
                   buildEnvironment({}, {}),
                   "",
                   std::string(Out)};
  auto Start = std::chrono::steady_clock::now();
  ProcessEnd End = runProcess(Spec, 0.2);
  double Took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  EXPECT_EQ(End.How, ProcessEnd::TimedOut);
  EXPECT_LT(Took, 10);
  llvm::sys::fs::remove(Out);
}

TEST(ProcessTest, ExitCodeOutputAndEnvironment) {
  llvm::SmallString<128> Out;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("collect", "txt", Out));
  ProcessSpec Spec{"/bin/sh",
                   {"-c", "echo $TIA_X; echo err >&2; exit 3"},
                   buildEnvironment({"TIA_X"}, {{"TIA_X=1"}, {"TIA_X=2"}}),
                   "",
                   std::string(Out)};
  ProcessEnd End = runProcess(Spec, 0);
  EXPECT_EQ(End.How, ProcessEnd::Exited);
  EXPECT_EQ(End.ExitCode, 3);
  EXPECT_EQ(readFileOrEmpty(Out), "2\nerr\n");
  llvm::sys::fs::remove(Out);
}

TEST(ProcessTest, AnEntryWithoutValueUnsetsTheVariable) {
  std::vector<std::string> Env =
      buildEnvironment({}, {{"TIA_X=1", "TIA_Y=2"}, {"TIA_X"}});
  EXPECT_FALSE(llvm::is_contained(Env, "TIA_X=1"));
  EXPECT_FALSE(llvm::is_contained(Env, "TIA_X"));
  EXPECT_TRUE(llvm::is_contained(Env, "TIA_Y=2"));
  Env = buildEnvironment({}, {{"TIA_X"}, {"TIA_X=3"}});
  EXPECT_TRUE(llvm::is_contained(Env, "TIA_X=3"));
}

TEST(ProcessTest, MissingExecutable) {
  ProcessSpec Spec{"/nonexistent/test", {}, {}, "", "/dev/null"};
  ProcessEnd End = runProcess(Spec, 1);
  EXPECT_EQ(End.How, ProcessEnd::NotStarted);
  EXPECT_FALSE(End.Error.empty());
}

TEST(GcovJsonTest, FunctionsThatRanWithAbsolutePaths) {
  // One document per line; the "lines" arrays are skipped, brackets in
  // strings included.
  const char *Text =
      R"({"format_version": "1", "current_working_directory": "/b", "data_file": "/t/a.gcda", "files": [{"file": "../src/a.cpp", "functions": [{"name": "_Z1fv", "start_line": 3, "execution_count": 2}, {"name": "_Z1gv", "start_line": 5, "execution_count": 0}], "lines": [{"line_number": 3, "count": 2, "function_name": "operator[]"}]}]})"
      "\n"
      R"({"format_version": "1", "data_file": "/t/b.gcda", "files": []})"
      "\n";
  ASSERT_VALUE(Docs, coverage::parseGcovJson(Text, "gcov"));
  ASSERT_EQ(Docs->size(), 2u);
  EXPECT_EQ((*Docs)[0].DataFile, "/t/a.gcda");
  ASSERT_EQ((*Docs)[0].Functions.size(), 1u);
  EXPECT_EQ((*Docs)[0].Functions[0].Name, "_Z1fv");
  EXPECT_EQ((*Docs)[0].Functions[0].File, "/b/../src/a.cpp");
  EXPECT_EQ((*Docs)[0].Functions[0].Line, 3u);
  EXPECT_TRUE((*Docs)[1].Functions.empty());
}

TEST(GcovJsonTest, NotGcov) {
  EXPECT_EQ(errorText(coverage::parseGcovJson("{\"files\": []}", "gcov")),
            "malformed gcov JSON from gcov: not the output of 'gcov "
            "--json-format' (no \"format_version\")");
}

TEST(ProfilesTest, LocalNamesAndProbes) {
  coverage::FunctionHit H;
  coverage::splitProfileName("src/a.cpp;_ZL1fv", H);
  EXPECT_EQ(H.Name, "_ZL1fv");
  EXPECT_EQ(H.LocalPrefix, "src/a.cpp");
  coverage::FunctionHit G;
  coverage::splitProfileName("_Z1gv", G);
  EXPECT_EQ(G.Name, "_Z1gv");
  EXPECT_EQ(G.LocalPrefix, "");
  EXPECT_NE(errorText(coverage::probeBinary("/nonexistent/binary")), "");
}

TEST(SummaryTest, CountsOnlyWhatHappened) {
  CollectSummary S;
  S.Tests = 5;
  S.Passed = 3;
  S.Failed = 1;
  S.TimedOut = 1;
  S.Seconds = 2.25;
  S.Links = 40;
  EXPECT_EQ(summaryLine(S), "collected 5 tests (3 passed, 1 failed, 1 timed "
                            "out) in 2.2s: 40 test-element links");
}

TEST(CollectStoreTest, RefusesADatabaseWithoutIndex) {
  ASSERT_VALUE(S, Store::open(":memory:", Store::Mode::ReadWrite));
  CollectOptions O;
  O.BuildDir = "/nonexistent";
  std::string Err;
  llvm::raw_string_ostream ErrOS(Err);
  EXPECT_EQ(errorText(collect::collect(**S, O, ErrOS)),
            "no index in the database: run 'tia index' before 'tia collect'");
}

#ifdef TIA_COLLECT_FIXTURE
TEST(CollectStoreTest, StoresHowToRunEachTestAgain) {
  std::string Fixture = TIA_COLLECT_FIXTURE;
  if (!llvm::sys::fs::exists(Fixture + "/stamp"))
    GTEST_SKIP() << "the lit fixture is not built (ninja tia-collect-fixture)";
  llvm::SmallString<128> Db;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("collect", "db", Db));
  ASSERT_FALSE(llvm::sys::fs::copy_file(Fixture + "/index.db", Db));
  {
    ASSERT_VALUE(S, Store::open(Db, Store::Mode::ReadWrite));
    CollectOptions O;
    O.BuildDir = Fixture + "/repo/build-clang";
    O.ProjectRoot = Fixture + "/repo";
    O.Only = {"gtest:shapes_test:Shapes.Halved", "ctest:smoke"};
    O.Quiet = true;
    std::string Err;
    llvm::raw_string_ostream ErrOS(Err);
    ASSERT_VALUE(Sum, collect::collect(**S, O, ErrOS));
    EXPECT_EQ(Sum->Tests, 2u);
    EXPECT_EQ(Sum->Passed, 2u);
    EXPECT_EQ(Sum->WithCoverage, 2u);

    ASSERT_VALUE(Case, (*S)->testInfo("gtest:shapes_test:Shapes.Halved"));
    ASSERT_TRUE(*Case && (*Case)->Command);
    const TestCommand &C = *(*Case)->Command;
    EXPECT_EQ(C.Executable, O.BuildDir + "/shapes_test");
    EXPECT_EQ(C.WorkingDir, O.BuildDir);
    EXPECT_EQ(C.Arguments,
              std::vector<std::string>{"--gtest_filter=Shapes.Halved"});

    ASSERT_VALUE(Smoke, (*S)->testInfo("ctest:smoke"));
    ASSERT_TRUE(*Smoke && (*Smoke)->Command);
    EXPECT_EQ((*Smoke)->Command->Executable, O.BuildDir + "/smoke");
    EXPECT_TRUE((*Smoke)->Command->Arguments.empty());

    ASSERT_VALUE(Runs, (*S)->runs());
    ASSERT_EQ(Runs->size(), 1u);
    EXPECT_EQ((*Runs)[0].Source, "collect");
  }
  llvm::sys::fs::remove(Db);
}
#endif

} // namespace
