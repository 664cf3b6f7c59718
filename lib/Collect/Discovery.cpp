//===- Discovery.cpp - the tests of a CMake build -------------------------===//

#include "tia/Collect/Collect.h"
#include "tia/Collect/Process.h"
#include "tia/Support/CaseFilters.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
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

/// Glob of --gtest_filter: '*' any string, '?' one character.
bool globMatch(llvm::StringRef Pattern, llvm::StringRef Text) {
  if (Pattern.empty())
    return Text.empty();
  if (Pattern[0] == '*')
    return globMatch(Pattern.drop_front(), Text) ||
           (!Text.empty() && globMatch(Pattern, Text.drop_front()));
  if (Text.empty())
    return false;
  return (Pattern[0] == '?' || Pattern[0] == Text[0]) &&
         globMatch(Pattern.drop_front(), Text.drop_front());
}

bool matchesAny(llvm::StringRef Patterns, llvm::StringRef Case) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Patterns.split(Parts, ':');
  return llvm::any_of(Parts,
                      [&](llvm::StringRef P) { return globMatch(P, Case); });
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

/// The cases of one ctest test's binary, as the binary lists them.
struct CaseListing {
  CaseFramework Framework;
  std::vector<std::string> Cases;
  std::set<std::string> Disabled; ///< Boost.Test's, run only when named
};

/// The framework whose cases the ctest command \p Command runs, if any.
std::optional<CaseFramework>
frameworkOf(const std::vector<std::string> &Command) {
  if (llvm::any_of(Command, [](llvm::StringRef A) {
        return A.starts_with("--gtest_filter=");
      }))
    return CaseFramework::GTest;
  return caseFrameworkOfBinary(Command[0]);
}

/// The arguments that list the cases: GoogleTest filters afterwards;
/// Catch2, doctest and Boost.Test apply the ctest test's own specs or
/// filters.
std::vector<std::string> listArguments(CaseFramework F,
                                       const std::vector<std::string> &Specs) {
  if (F == CaseFramework::GTest)
    return {"--gtest_list_tests"};
  std::vector<std::string> Args = {
      F == CaseFramework::Doctest ? "--list-test-cases"
      : F == CaseFramework::Boost ? "--list_content"
                                  : "--list-test-names-only"};
  llvm::append_range(Args, Specs);
  return Args;
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
    if (!matchesGTestFilter(Filter, Case))
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

/// The ctest test's own choice of cases (Catch2 test specs, doctest
/// filters) and its other arguments.
std::pair<std::vector<std::string>, std::vector<std::string>>
splitCaseArguments(CaseFramework F, llvm::ArrayRef<std::string> Command) {
  if (F == CaseFramework::Boost)
    return splitBoostTestArguments(Command);
  return F == CaseFramework::Doctest ? splitDoctestArguments(Command)
                                     : splitCatch2Arguments(Command);
}

/// Catch2, doctest and Boost.Test cases run with the ctest test's options
/// and a spec or filter naming the case alone, its last argument.
void addNamedCases(const CaseListing &Listing, const CTestEntry &E,
                   const TestCommand &Base, const std::string &Binary,
                   std::map<std::string, DiscoveredTest> &Tests) {
  CaseFramework F = Listing.Framework;
  const std::vector<std::string> &Cases = Listing.Cases;
  auto [Specs, Rest] = splitCaseArguments(F, E.Command);
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

/// The cases a binary of \p F listed in \p Text.
CaseListing parseListing(CaseFramework F, llvm::StringRef Text) {
  CaseListing L{F, {}, {}};
  switch (F) {
  case CaseFramework::GTest:
    L.Cases = parseGTestList(Text);
    break;
  case CaseFramework::Catch2:
    L.Cases = parseCatch2List(Text);
    break;
  case CaseFramework::Doctest:
    L.Cases = parseDoctestList(Text);
    break;
  case CaseFramework::Boost:
    for (BoostTestUnit &U : parseBoostTestList(Text)) {
      if (!U.Enabled)
        L.Disabled.insert(U.Path);
      L.Cases.push_back(std::move(U.Path));
    }
    break;
  }
  return L;
}

} // namespace

std::optional<CaseFramework> caseFrameworkOfBinary(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  llvm::StringRef B = (*Buf)->getBuffer();
  // GoogleTest's help text or, when it is a shared library, the names the
  // binary imports from it; Catch2's and doctest's help texts; the names of
  // Boost.Test's functions (which a binary linked with its shared library
  // imports).
  if (B.contains("gtest_list_tests") || B.contains("_ZN7testing8internal"))
    return CaseFramework::GTest;
  if (B.contains("list-test-names-only"))
    return CaseFramework::Catch2;
  if (B.contains("list-test-cases"))
    return CaseFramework::Doctest;
  if (B.contains("N5boost9unit_test"))
    return CaseFramework::Boost;
  return std::nullopt;
}

std::vector<BoostTestUnit> parseBoostTestList(llvm::StringRef Text) {
  // Four spaces of indent a level; a suite is followed by its units, one
  // level deeper. A unit ends with '*' when it is enabled, ' ' when not.
  struct Line {
    unsigned Depth;
    std::string Name;
    bool Enabled;
  };
  std::vector<Line> Lines;
  for (llvm::StringRef L : llvm::split(Text, '\n')) {
    L = L.rtrim("\r");
    if (L.trim().empty())
      continue;
    size_t Indent = L.find_first_not_of(' ');
    bool Enabled = L.ends_with("*");
    llvm::StringRef Name = L.substr(Indent);
    if (Name.ends_with("*") || Name.ends_with(" "))
      Name = Name.drop_back();
    Lines.push_back({static_cast<unsigned>(Indent / 4), Name.str(), Enabled});
  }
  std::vector<BoostTestUnit> Cases;
  std::vector<std::string> Path;
  for (size_t I = 0; I < Lines.size(); ++I) {
    Path.resize(std::min<size_t>(Path.size(), Lines[I].Depth));
    Path.push_back(Lines[I].Name);
    bool Suite = I + 1 < Lines.size() && Lines[I + 1].Depth > Lines[I].Depth;
    if (!Suite)
      Cases.push_back({llvm::join(Path, "/"), Lines[I].Enabled});
  }
  return Cases;
}

std::pair<std::vector<std::string>, std::vector<std::string>>
splitBoostTestArguments(llvm::ArrayRef<std::string> Command) {
  std::vector<std::string> Specs, Rest;
  for (size_t I = 1; I < Command.size(); ++I) {
    llvm::StringRef A = Command[I];
    if (A.starts_with("--run_test=") || A.starts_with("-t=")) {
      Specs.push_back(A.str());
    } else if ((A == "--run_test" || A == "-t") && I + 1 < Command.size()) {
      Specs.push_back(A.str());
      Specs.push_back(Command[++I]);
    } else {
      Rest.push_back(A.str());
    }
  }
  return {Specs, Rest};
}

std::vector<std::string> parseDoctestList(llvm::StringRef Text) {
  std::vector<std::string> Cases;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.rtrim("\r");
    bool Rule = !Line.empty() && Line.find_first_not_of('=') == Line.npos;
    if (Line.trim().empty() || Rule || Line.starts_with("[doctest]"))
      continue;
    Cases.push_back(Line.str());
  }
  return Cases;
}

std::pair<std::vector<std::string>, std::vector<std::string>>
splitDoctestArguments(llvm::ArrayRef<std::string> Command) {
  static const char *const Filters[] = {
      "test-case=",   "tc=", "test-case-exclude=",   "tce=",
      "test-suite=",  "ts=", "test-suite-exclude=",  "tse=",
      "source-file=", "sf=", "source-file-exclude=", "sfe=",
      "subcase=",     "sc=", "subcase-exclude=",     "sce="};
  std::vector<std::string> Specs, Rest;
  for (size_t I = 1; I < Command.size(); ++I) {
    llvm::StringRef A = Command[I];
    llvm::StringRef Option = A.ltrim('-');
    Option.consume_front("dt-");
    bool IsFilter =
        A.starts_with("-") && llvm::any_of(Filters, [&](const char *F) {
          return Option.starts_with(F);
        });
    (IsFilter ? Specs : Rest).push_back(A.str());
  }
  return {Specs, Rest};
}

bool matchesGTestFilter(llvm::StringRef Filter, llvm::StringRef Case) {
  auto [Positive, Negative] = Filter.split('-');
  if (Positive.empty())
    Positive = "*";
  return matchesAny(Positive, Case) &&
         (Negative.empty() || !matchesAny(Negative, Case));
}

std::vector<std::string> parseGTestList(llvm::StringRef Text) {
  std::vector<std::string> Cases;
  std::string Suite;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.split('#').first.rtrim();
    if (Line.trim().empty())
      continue;
    if (Line[0] != ' ') {
      // Anything else unindented (a main's banner) is not a suite.
      Suite = Line.ends_with(".") ? Line.drop_back().str() : std::string();
      continue;
    }
    if (!Suite.empty())
      Cases.push_back(Suite + "." + Line.trim().str());
  }
  return Cases;
}

std::vector<std::string> parseCatch2List(llvm::StringRef Text) {
  std::vector<std::string> Cases;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.rtrim("\r");
    // Catch2 prints its notes ("Filters: ...") only when it runs cases.
    if (!Line.trim().empty())
      Cases.push_back(Line.str());
  }
  return Cases;
}

std::pair<std::vector<std::string>, std::vector<std::string>>
splitCatch2Arguments(llvm::ArrayRef<std::string> Command) {
  // Catch2 2.x options that take a value in the next argument.
  static const llvm::StringSet<> WithValue = {"-o",
                                              "--out",
                                              "-r",
                                              "--reporter",
                                              "-n",
                                              "--name",
                                              "-x",
                                              "--abortx",
                                              "-w",
                                              "--warn",
                                              "-d",
                                              "--durations",
                                              "-D",
                                              "--min-duration",
                                              "-f",
                                              "--input-file",
                                              "-v",
                                              "--verbosity",
                                              "--order",
                                              "--rng-seed",
                                              "--use-colour",
                                              "-c",
                                              "--section",
                                              "--wait-for-keypress",
                                              "--benchmark-samples",
                                              "--benchmark-resamples",
                                              "--benchmark-confidence-interval",
                                              "--benchmark-warmup-time"};
  std::vector<std::string> Specs, Rest;
  for (size_t I = 1; I < Command.size(); ++I) {
    llvm::StringRef A = Command[I];
    if (!A.starts_with("-") || A == "-") {
      Specs.push_back(A.str());
      continue;
    }
    Rest.push_back(A.str());
    if (WithValue.count(A) && I + 1 < Command.size())
      Rest.push_back(Command[++I]);
  }
  return {Specs, Rest};
}

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
  const std::optional<CaseListing> &casesOf(const CTestEntry &E) {
    std::optional<CaseFramework> F = frameworkOf(E.Command);
    std::vector<std::string> Specs;
    if (F && *F != CaseFramework::GTest)
      Specs = splitCaseArguments(*F, E.Command).first;
    std::string Key = E.Command[0] + "\n" + llvm::join(Specs, "\n");
    auto It = Listed.find(Key);
    if (It != Listed.end())
      return It->second;
    std::optional<CaseListing> &Slot = Listed[Key];
    if (!F)
      return Slot;
    std::string ListOut =
        WorkDir.str() + "/list-" + std::to_string(Listed.size()) + ".txt";
    ProcessSpec L{E.Command[0], listArguments(*F, Specs),
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
    Slot = parseListing(*F, readFileOrEmpty(ListOut));
    return Slot;
  }

private:
  llvm::StringRef BuildDir, WorkDir;
  const std::vector<std::string> &Env;
  Discovery &D;
  std::map<std::string, std::optional<CaseListing>> Listed;
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
  for (const CTestEntry &E : *Entries) {
    if (E.Command.empty()) {
      D.Problems.push_back("ctest test " + E.Name +
                           " has no command (its executable was not built?)");
      continue;
    }
    TestCommand Base;
    Base.Executable = E.Command[0];
    Base.WorkingDir = E.WorkingDir.empty() ? BuildDir.str() : E.WorkingDir;
    Base.Environment = E.Environment;
    Base.TimeoutSeconds = E.Timeout;
    const std::optional<CaseListing> &Listing = Lister.casesOf(E);
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
