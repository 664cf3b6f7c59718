//===- Discovery.cpp - the tests of a CMake build -------------------------===//

#include "CTestEnvironment.h"
#include "tia/Collect/Collect.h"
#include "tia/Collect/Process.h"
#include "tia/Support/CaseFilters.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "tia/Support/Paths.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace tia {
namespace collect {

namespace {

std::vector<std::string> stringList(const llvm::json::Value &V) {
  std::vector<std::string> Out;
  if (std::optional<llvm::StringRef> S = V.getAsString())
    Out.push_back(S->str());
  else if (const llvm::json::Array *A = V.getAsArray())
    for (const llvm::json::Value &E : *A)
      if (std::optional<llvm::StringRef> S = E.getAsString())
        Out.push_back(S->str());
  return Out;
}

/// ctest writes booleans as true/false, and sometimes as "ON", "1".
bool truthy(const llvm::json::Value &V) {
  if (std::optional<bool> B = V.getAsBoolean())
    return *B;
  if (std::optional<llvm::StringRef> S = V.getAsString())
    return S->equals_insensitive("on") || S->equals_insensitive("true") ||
           S->equals_insensitive("yes") || *S == "1";
  if (std::optional<int64_t> I = V.getAsInteger())
    return *I != 0;
  return false;
}

std::optional<double> number(const llvm::json::Value &V) {
  if (std::optional<double> D = V.getAsNumber())
    return D;
  if (std::optional<llvm::StringRef> S = V.getAsString()) {
    double D;
    if (!S->getAsDouble(D))
      return D;
  }
  return std::nullopt;
}

bool isDisabled(llvm::StringRef Case) {
  auto [Suite, Name] = Case.split('.');
  llvm::StringRef Last = Suite.rsplit('/').second;
  if (Last.empty())
    Last = Suite;
  return Suite.starts_with("DISABLED_") || Last.starts_with("DISABLED_") ||
         Name.starts_with("DISABLED_");
}

/// Reads the ctest properties that say how a test runs beside others.
void readScheduleProperty(llvm::StringRef Name, const llvm::json::Value &V,
                          Schedule &S) {
  if (Name == "RUN_SERIAL")
    S.RunSerial = truthy(V);
  else if (Name == "PROCESSORS")
    S.Processors = std::max(1, static_cast<int>(number(V).value_or(1)));
  else if (Name == "RESOURCE_LOCK")
    S.Locks = stringList(V);
  else if (Name == "FIXTURES_SETUP")
    S.Setup = stringList(V);
  else if (Name == "FIXTURES_CLEANUP")
    S.Cleanup = stringList(V);
  else if (Name == "FIXTURES_REQUIRED")
    S.Requires = stringList(V);
}

void addGTestCases(const CTestEntry &E, const TestCommand &Base,
                   const std::vector<std::string> &Cases,
                   const std::string &Binary,
                   std::map<std::string, DiscoveredTest> &Tests) {
  // The cases this ctest test runs: its --gtest_filter, disabled ones
  // only with --gtest_also_run_disabled_tests and a filter naming them.
  std::string Filter = "*";
  std::vector<std::string> Rest;
  for (size_t I = 1; I < E.Command.size(); ++I) {
    llvm::StringRef A = E.Command[I];
    if (A.consume_front("--gtest_filter="))
      Filter = A.str();
    else if (A != "--gtest_also_run_disabled_tests")
      Rest.push_back(A.str());
  }
  for (const std::string &Case : Cases) {
    if (!results::matchesGTestFilter(Filter, Case))
      continue;
    DiscoveredTest T;
    T.Id = "gtest:" + Binary + ":" + Case;
    if (Tests.count(T.Id))
      continue; // The first ctest test that runs a case says how.
    T.Binary = E.Command[0];
    T.Case = Case;
    T.Command = Base;
    T.Command.Arguments.push_back("--gtest_filter=" + Case);
    llvm::append_range(T.Command.Arguments, Rest);
    T.Disabled = E.Disabled || isDisabled(Case);
    T.Sched = E.Sched;
    // gtest_discover_tests' rules are about the one case; those of a
    // ctest test running many cases are about the whole binary.
    if (Filter == Case)
      T.Rules = E.Rules;
    else
      T.Rules.SkipRegex = E.Rules.SkipRegex;
    Tests.emplace(T.Id, std::move(T));
  }
}

/// Catch2, doctest and Boost.Test cases run with the ctest test's options
/// and a spec or filter naming the case alone, its last argument.
void addNamedCases(const results::CaseListing &Listing, const CTestEntry &E,
                   const TestCommand &Base, const std::string &Binary,
                   std::map<std::string, DiscoveredTest> &Tests) {
  CaseFramework F = Listing.Framework;
  const std::vector<std::string> &Cases = Listing.Cases;
  auto [Specs, Rest] = results::splitCaseArguments(F, E.Command);
  bool NamesOneCase = !Specs.empty() && Cases.size() == 1;
  for (const std::string &Case : Cases) {
    // A disabled Boost.Test case runs only when a filter names it, like
    // a doctest case decorated with skip(): no test, unless the ctest test
    // names it.
    if (Listing.Disabled.count(Case) && !NamesOneCase)
      continue;
    DiscoveredTest T;
    T.Id = (caseFrameworkName(F) + ":" + Binary + ":" + Case).str();
    if (Tests.count(T.Id))
      continue;
    T.Binary = E.Command[0];
    T.Case = Case;
    T.Command = Base;
    T.Command.Arguments = Rest;
    T.Command.Arguments.push_back(caseFilterArguments(F, {Case}).front());
    T.Disabled = E.Disabled;
    T.Sched = E.Sched;
    // catch_discover_tests' and doctest_discover_tests' rules are about
    // the one case.
    if (NamesOneCase)
      T.Rules = E.Rules;
    else
      T.Rules.SkipRegex = E.Rules.SkipRegex;
    Tests.emplace(T.Id, std::move(T));
  }
}

} // namespace

llvm::Expected<std::vector<CTestEntry>>
parseCTestJson(llvm::StringRef Text, llvm::StringRef BuildDir) {
  auto Fail = [&](const llvm::Twine &Why) {
    return makeErrorf("malformed ctest JSON from {0}: {1}", BuildDir,
                      Why.str());
  };
  llvm::Expected<llvm::json::Value> Root = parseJson(Text);
  if (!Root)
    return Fail(llvm::toString(Root.takeError()));
  const llvm::json::Object *Top = Root->getAsObject();
  if (!Top)
    return Fail("the top level is not an object");
  const llvm::json::Array *Tests = Top->getArray("tests");
  if (!Tests)
    return Fail("no \"tests\" array");
  std::vector<CTestEntry> Out;
  for (const llvm::json::Value &TV : *Tests) {
    const llvm::json::Object *T = TV.getAsObject();
    if (!T)
      return Fail("a test is not an object");
    CTestEntry E;
    E.Name = T->getString("name").value_or("").str();
    if (E.Name.empty())
      return Fail("a test without a name");
    if (const llvm::json::Value *C = T->get("command"))
      E.Command = stringList(*C);
    if (const llvm::json::Array *Props = T->getArray("properties"))
      for (const llvm::json::Value &PV : *Props) {
        const llvm::json::Object *P = PV.getAsObject();
        if (!P)
          continue;
        llvm::StringRef Name = P->getString("name").value_or("");
        const llvm::json::Value *V = P->get("value");
        if (!V)
          continue;
        if (Name == "WORKING_DIRECTORY")
          E.WorkingDir = V->getAsString().value_or("").str();
        else if (Name == "ENVIRONMENT")
          E.Environment = stringList(*V);
        else if (Name == "ENVIRONMENT_MODIFICATION")
          E.EnvironmentModification = stringList(*V);
        else if (Name == "TIMEOUT")
          E.Timeout = number(*V).value_or(0);
        else if (Name == "DISABLED")
          E.Disabled = truthy(*V);
        else if (Name == "WILL_FAIL")
          E.Rules.WillFail = truthy(*V);
        else if (Name == "SKIP_RETURN_CODE") {
          if (std::optional<double> D = number(*V))
            E.Rules.SkipReturnCode = static_cast<int>(*D);
        } else if (Name == "PASS_REGULAR_EXPRESSION")
          E.Rules.PassRegex = stringList(*V);
        else if (Name == "FAIL_REGULAR_EXPRESSION")
          E.Rules.FailRegex = stringList(*V);
        else if (Name == "SKIP_REGULAR_EXPRESSION")
          E.Rules.SkipRegex = stringList(*V);
        else
          readScheduleProperty(Name, *V, E.Sched);
      }
    E.Sched.CTestName = E.Name;
    Out.push_back(std::move(E));
  }
  return Out;
}

namespace {

/// \p CTest ("ctest" or a path) as a path.
llvm::Expected<std::string> findCTest(llvm::StringRef CTest) {
  if (CTest.contains('/'))
    return CTest.str();
  auto Found = llvm::sys::findProgramByName(CTest);
  if (!Found)
    return makeErrorf("cannot find {0} on PATH: install CMake (it brings "
                      "ctest) or pass --ctest PATH",
                      CTest);
  return *Found;
}

/// What `ctest --show-only=json-v1` says the tests of \p BuildDir are.
llvm::Expected<std::vector<CTestEntry>>
listCTestTests(llvm::StringRef BuildDir, const std::string &CTestPath,
               const std::vector<std::string> &Env, llvm::StringRef WorkDir) {
  std::string Output = WorkDir.str() + "/ctest.json";
  ProcessSpec Spec{
      CTestPath, {"--show-only=json-v1"}, Env, BuildDir.str(), Output};
  ProcessEnd End = runProcess(Spec, 600);
  std::string Text = readFileOrEmpty(Output);
  if (End.How != ProcessEnd::Exited || End.ExitCode != 0) {
    llvm::StringRef First = llvm::StringRef(Text).trim().split('\n').first;
    return makeErrorf("'ctest --show-only=json-v1' failed in {0}{1}{2}",
                      BuildDir, First.empty() ? "" : ": ", First);
  }
  // ctest may print notes before the JSON.
  size_t Brace = Text.find('{');
  return parseCTestJson(
      Brace == std::string::npos ? Text : llvm::StringRef(Text).substr(Brace),
      BuildDir);
}

/// Lists the cases of each test binary once (per set of the ctest test's
/// own case specs).
class CaseLister {
public:
  CaseLister(llvm::StringRef BuildDir, llvm::StringRef WorkDir,
             const std::vector<std::string> &Env, Discovery &D)
      : BuildDir(BuildDir), WorkDir(WorkDir), Env(Env), D(D) {}

  /// The cases ctest test \p E runs; none when its binary is no case
  /// framework's or could not list them (a problem then says so).
  const std::optional<results::CaseListing> &casesOf(const CTestEntry &E) {
    std::optional<CaseFramework> F = results::frameworkOfCommand(E.Command);
    std::vector<std::string> Specs;
    if (F && *F != CaseFramework::GTest)
      Specs = results::splitCaseArguments(*F, E.Command).first;
    std::string Key = E.Command[0] + "\n" + llvm::join(Specs, "\n");
    auto It = Listed.find(Key);
    if (It != Listed.end())
      return It->second;
    std::optional<results::CaseListing> &Slot = Listed[Key];
    if (!F)
      return Slot;
    std::string ListOut =
        WorkDir.str() + "/list-" + std::to_string(Listed.size()) + ".txt";
    ProcessSpec L{E.Command[0], results::listArguments(*F, Specs),
                  buildEnvironment({"TIA_COLLECT_DIR"}, {Env, E.Environment}),
                  E.WorkingDir.empty() ? BuildDir.str() : E.WorkingDir,
                  ListOut};
    auto Began = std::chrono::steady_clock::now();
    ProcessEnd R = runProcess(L, 120);
    D.ListSeconds[E.Command[0]] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Began)
            .count();
    // Catch2 exits with the number of cases it listed.
    if (R.How != ProcessEnd::Exited ||
        (F == CaseFramework::GTest && R.ExitCode != 0)) {
      D.Problems.push_back(E.Command[0] + " " + L.Arguments.front() +
                           " failed; its tests are run as ctest tests");
      return Slot;
    }
    Slot = results::parseListing(*F, readFileOrEmpty(ListOut));
    return Slot;
  }

private:
  llvm::StringRef BuildDir, WorkDir;
  const std::vector<std::string> &Env;
  Discovery &D;
  std::map<std::string, std::optional<results::CaseListing>> Listed;
};

/// Test ids name a binary by its file name, or by its path in the build
/// directory when two binaries share a name.
class BinaryNames {
public:
  BinaryNames(const std::vector<CTestEntry> &Entries, llvm::StringRef BuildDir)
      : BuildDir(BuildDir) {
    for (const CTestEntry &E : Entries)
      if (!E.Command.empty())
        ByName[llvm::sys::path::filename(E.Command[0])].insert(E.Command[0]);
  }

  std::string nameOf(llvm::StringRef Binary) {
    llvm::StringRef Name = llvm::sys::path::filename(Binary);
    if (ByName[Name].size() <= 1)
      return Name.str();
    llvm::StringRef Rel = Binary;
    if (Rel.consume_front(BuildDir) && Rel.consume_front("/"))
      return Rel.str();
    return Binary.str();
  }

private:
  llvm::StringRef BuildDir;
  llvm::StringMap<llvm::StringSet<>> ByName;
};

/// Whether the lit that ctest test \p E runs takes
/// --skip-test-time-recording (lit 17 and later), asked once per lit
/// program (its --help) and remembered in \p Known.
bool litSkipsTimeRecording(const CTestEntry &E, const TestCommand &Base,
                           llvm::StringRef WorkDir,
                           const std::vector<std::string> &Env,
                           std::map<std::string, bool> &Known) {
  // The program, and the script python runs: what decides the options.
  std::string Key = E.Command[0];
  if (E.Command.size() > 1)
    Key += "\n" + E.Command[1];
  auto [It, New] = Known.try_emplace(Key, false);
  if (!New)
    return It->second;
  std::vector<std::string> Args(E.Command.begin() + 1, E.Command.end());
  Args.push_back("--help");
  std::string Out = WorkDir.str() + "/lit-help.txt";
  ProcessSpec Help{E.Command[0], Args,
                   buildEnvironment({"TIA_COLLECT_DIR"}, {Env, E.Environment}),
                   Base.WorkingDir, Out};
  ProcessEnd R = runProcess(Help, 60);
  It->second = R.How == ProcessEnd::Exited && R.ExitCode == 0 &&
               llvm::StringRef(readFileOrEmpty(Out))
                   .contains("--skip-test-time-recording");
  return It->second;
}

/// Puts what \p E's ENVIRONMENT_MODIFICATION leaves in the variables it
/// names after its ENVIRONMENT, over tia's environment as ctest's.
llvm::Error applyEnvironmentModification(CTestEntry &E) {
  // ctest does not start a disabled test: its modifications are not read.
  if (E.EnvironmentModification.empty() || E.Disabled)
    return llvm::Error::success();
  auto Before = [&](llvm::StringRef Name) {
    return valueIn(E.Environment, Name, llvm::sys::Process::GetEnv(Name));
  };
  auto Modified = modifiedEnvironment(E.EnvironmentModification, Before);
  if (!Modified)
    return Modified.takeError();
  llvm::append_range(E.Environment, *Modified);
  return llvm::Error::success();
}

/// True when lit's environment may leave tests out: a variable that
/// filters, shards or adds options is set in the environment \p E runs in
/// (tia's, with its ENVIRONMENT and modifications applied over it).
bool litEnvironmentMayLeaveOutTests(const CTestEntry &E) {
  constexpr llvm::StringLiteral Variables[] = {"LIT_FILTER", "LIT_FILTER_OUT",
                                               "LIT_NUM_SHARDS",
                                               "LIT_RUN_SHARD", "LIT_OPTS"};
  return llvm::any_of(Variables, [&](llvm::StringRef V) {
    return valueIn(E.Environment, V, llvm::sys::Process::GetEnv(V)).has_value();
  });
}

/// The paths lit command \p Args names (its positional arguments);
/// std::nullopt unless every option is one known to leave no test of them
/// out: a filter, a limit, a shard, a response file (@FILE) or an option
/// lit would take for an abbreviation may.
std::optional<std::vector<std::string>>
litPaths(const std::vector<std::string> &Args) {
  static const llvm::StringSet<> Flags = {"-s",
                                          "-v",
                                          "-a",
                                          "-q",
                                          "-sv",
                                          "-vs",
                                          "-vv",
                                          "--succinct",
                                          "--verbose",
                                          "--show-all",
                                          "--quiet",
                                          "--echo-all-commands",
                                          "--no-progress-bar",
                                          "--show-unsupported",
                                          "--show-xfail",
                                          "--show-pass",
                                          "--time-tests",
                                          "--skip-test-time-recording",
                                          "--allow-empty-runs",
                                          "--ignore-fail"};
  static const llvm::StringSet<> WithValue = {"-D",
                                              "--param",
                                              "-j",
                                              "--workers",
                                              "--timeout",
                                              "--xunit-xml-output",
                                              "--time-trace-output",
                                              "--resultdb-output",
                                              "--config-prefix",
                                              "--path",
                                              "--vg-arg"};
  std::vector<std::string> Paths;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A.starts_with("@"))
      return std::nullopt;
    if (!A.starts_with("-")) {
      Paths.push_back(A.str());
      continue;
    }
    if (Flags.contains(A))
      continue;
    if (WithValue.contains(A)) {
      ++I;
      continue;
    }
    llvm::StringRef Name = A.split('=').first;
    bool Attached =
        (A.starts_with("-D") || A.starts_with("-j")) && A.size() > 2;
    if (!Attached && !(WithValue.contains(Name) && A.contains('=')))
      return std::nullopt;
  }
  return Paths;
}

/// The source folder (absolute) of suite \p S that \p Path names: \p Path
/// in its source tree or its exec tree (a lit.site.cfg.py's build folder,
/// which need not exist before lit's first run), the deeper tree first
/// (a build inside the sources); none for a file or a path outside both.
std::optional<std::string> suiteFolder(llvm::StringRef Path,
                                       const results::LitSuite &S) {
  if (S.SourceRoot.empty())
    return std::nullopt;
  llvm::StringRef Trees[] = {S.SourceRoot, S.ExecRoot};
  if (Trees[1].size() > Trees[0].size())
    std::swap(Trees[0], Trees[1]);
  for (llvm::StringRef Tree : Trees) {
    if (Tree.empty() || !isAtOrBelow(Path, Tree))
      continue;
    std::string Source = S.SourceRoot + Path.substr(Tree.size()).str();
    if (!llvm::sys::fs::is_directory(Source))
      return std::nullopt;
    return Source;
  }
  return std::nullopt;
}

/// By suite, the source folders (absolute) below which lit, running \p E's
/// command \p Args in \p WorkDir, runs every test of the suite: the paths
/// it names that are folders of the suite (suiteFolder). None when lit may
/// leave tests out, or ctest runs nothing of a disabled test.
std::map<std::string, std::vector<std::string>>
foldersRunWhole(const CTestEntry &E, const std::vector<std::string> &Args,
                llvm::StringRef WorkDir,
                const std::map<std::string, results::LitSuite> &Suites) {
  std::map<std::string, std::vector<std::string>> Out;
  std::optional<std::vector<std::string>> Paths = litPaths(Args);
  if (!Paths || E.Disabled || litEnvironmentMayLeaveOutTests(E))
    return Out;
  for (const std::string &P : *Paths) {
    std::string Path = absolutePath(P, WorkDir);
    for (const auto &[Name, S] : Suites)
      if (std::optional<std::string> Folder = suiteFolder(Path, S))
        if (!llvm::is_contained(Out[Name], *Folder))
          Out[Name].push_back(std::move(*Folder));
  }
  return Out;
}

/// The tests of ctest test \p E, a lit suite, as lit lists them (`lit
/// --show-suites --show-tests` with the test's own arguments, so its filters
/// and parameters count): one test per file, each run by lit alone with
/// --filter naming it, and known by its file (the suite's source root and
/// its path in the suite), and by \p E, which ctest runs it in. False,
/// with a problem, when lit could not list them: the ctest test then runs
/// whole.
///
/// Each lit run ends by rewriting the suite's .lit_test_times.txt: runs of
/// one suite at once would write over each other and leave it corrupt, and
/// every later lit run of the suite fail. They are told not to
/// (--skip-test-time-recording), or, by a lit too old for that, run one at
/// a time (a lock per suite).
bool addLitTests(const CTestEntry &E, const TestCommand &Base,
                 llvm::StringRef WorkDir, const std::vector<std::string> &Env,
                 std::map<std::string, bool> &SkipTimesByLit, Discovery &D,
                 std::map<std::string, DiscoveredTest> &Tests) {
  std::vector<std::string> Args(E.Command.begin() + 1, E.Command.end());
  // Not named after the ctest test, whose name may hold '/': each list is
  // read before the next is written.
  std::string ListOut = WorkDir.str() + "/lit-list.txt";
  std::vector<std::string> ListArgs = Args;
  llvm::append_range(ListArgs,
                     std::vector<std::string>{"--show-suites", "--show-tests"});
  ProcessSpec L{E.Command[0], ListArgs,
                buildEnvironment({"TIA_COLLECT_DIR"}, {Env, E.Environment}),
                Base.WorkingDir, ListOut};
  ProcessEnd R = runProcess(L, 600);
  std::string Listing = readFileOrEmpty(ListOut);
  std::vector<std::string> Names = results::parseLitTestList(Listing);
  if (R.How != ProcessEnd::Exited || R.ExitCode != 0 || Names.empty()) {
    D.Problems.push_back("lit --show-tests failed for ctest test " + E.Name +
                         "; it runs as one ctest test");
    return false;
  }
  std::map<std::string, results::LitSuite> Suites =
      results::parseLitSuites(Listing);
  bool SkipTimes = litSkipsTimeRecording(E, Base, WorkDir, Env, SkipTimesByLit);
  std::map<std::string, std::vector<std::string>> FoldersBySuite =
      foldersRunWhole(E, Args, Base.WorkingDir, Suites);
  for (const std::string &Name : Names) {
    DiscoveredTest T;
    T.Id = results::litTestId(Name);
    // The same test in two ctest tests (a suite run twice, with other
    // parameters) runs once here; ctest runs it in either, so it has no
    // one ctest test to run it by.
    if (auto Seen = Tests.find(T.Id); Seen != Tests.end()) {
      Seen->second.Command.EnclosingCTest.clear();
      Seen->second.Command.EnclosingCTestFolders.clear();
      continue;
    }
    auto [Suite, Path] = llvm::StringRef(Name).split(" :: ");
    auto S = Suites.find(Suite.str());
    if (S != Suites.end() && !S->second.SourceRoot.empty())
      T.File = S->second.SourceRoot + "/" + Path.str();
    T.Command = Base;
    T.Command.Arguments = Args;
    T.Command.EnclosingCTest = E.Name;
    T.Command.EnclosingCTestFolders = FoldersBySuite[Suite.str()];
    if (SkipTimes)
      T.Command.Arguments.push_back("--skip-test-time-recording");
    llvm::append_range(
        T.Command.Arguments,
        std::vector<std::string>{"--filter", results::litFilter({Name})});
    T.Disabled = E.Disabled;
    T.Sched = E.Sched;
    if (!SkipTimes)
      T.Sched.Locks.push_back("tia lit times " + (S != Suites.end()
                                                      ? S->second.ExecRoot
                                                      : Suite.str()));
    // lit exits 0 for a test it did not run (UNSUPPORTED): its summary
    // says so. XFAIL passes; FAIL, XPASS, UNRESOLVED and TIMEOUT exit 1.
    T.Rules.SkipRegex = {"Unsupported *: +1 "};
    Tests.emplace(T.Id, std::move(T));
  }
  return true;
}

/// Ctest test \p E run whole: "ctest:NAME".
DiscoveredTest wholeCTestTest(const CTestEntry &E, const TestCommand &Base) {
  DiscoveredTest T;
  T.Id = "ctest:" + E.Name;
  T.Command = Base;
  T.Command.Arguments.assign(E.Command.begin() + 1, E.Command.end());
  T.Disabled = E.Disabled;
  T.Rules = E.Rules;
  T.Sched = E.Sched;
  return T;
}

} // namespace

llvm::Expected<Discovery> discoverTests(llvm::StringRef BuildDir,
                                        llvm::StringRef CTest,
                                        llvm::StringRef WorkDir) {
  if (!llvm::sys::fs::exists(llvm::Twine(BuildDir) + "/CTestTestfile.cmake"))
    return makeErrorf("{0} is not a build directory with tests (no "
                      "CTestTestfile.cmake): pass the build directory with "
                      "-p, configured with enable_testing()",
                      BuildDir);
  auto CTestPath = findCTest(CTest);
  if (!CTestPath)
    return CTestPath.takeError();
  // The listing runs instrumented binaries: their profiles go to WorkDir.
  std::vector<std::string> Env = buildEnvironment(
      {"TIA_COLLECT_DIR"},
      {{"LLVM_PROFILE_FILE=" + WorkDir.str() + "/discovery-%p.profraw",
        "GCOV_PREFIX=" + WorkDir.str() + "/discovery", "GCOV_PREFIX_STRIP=0"}});
  auto Entries = listCTestTests(BuildDir, *CTestPath, Env, WorkDir);
  if (!Entries)
    return Entries.takeError();

  Discovery D;
  CaseLister Lister(BuildDir, WorkDir, Env, D);
  BinaryNames Names(*Entries, BuildDir);
  std::map<std::string, DiscoveredTest> Tests;
  std::map<std::string, bool> SkipTimesByLit;
  for (CTestEntry &E : *Entries) {
    if (E.Command.empty()) {
      D.Problems.push_back("ctest test " + E.Name +
                           " has no command (its executable was not built?)");
      continue;
    }
    if (llvm::Error Err = applyEnvironmentModification(E)) {
      D.Problems.push_back("ctest test " + E.Name +
                           " has an ENVIRONMENT_MODIFICATION ctest refuses (" +
                           llvm::toString(std::move(Err)) +
                           "): ctest fails it without starting it; mend "
                           "the entry");
      continue;
    }
    TestCommand Base;
    Base.Executable = E.Command[0];
    Base.WorkingDir = E.WorkingDir.empty() ? BuildDir.str() : E.WorkingDir;
    Base.Environment = E.Environment;
    Base.TimeoutSeconds = E.Timeout;
    if (results::runsLit(E.Command) &&
        addLitTests(E, Base, WorkDir, Env, SkipTimesByLit, D, Tests))
      continue;
    const std::optional<results::CaseListing> &Listing = Lister.casesOf(E);
    // A listing of no case (a spec the binary does not match, such as
    // catch_discover_tests' for a name with a backslash) leaves the ctest
    // test whole: it still runs.
    if (!Listing || Listing->Cases.empty()) {
      DiscoveredTest T = wholeCTestTest(E, Base);
      Tests.emplace(T.Id, std::move(T));
    } else if (Listing->Framework == CaseFramework::GTest) {
      addGTestCases(E, Base, Listing->Cases, Names.nameOf(E.Command[0]), Tests);
    } else {
      addNamedCases(*Listing, E, Base, Names.nameOf(E.Command[0]), Tests);
    }
  }
  for (auto &[Id, T] : Tests)
    D.Tests.push_back(std::move(T));
  return D;
}

} // namespace collect
} // namespace tia
