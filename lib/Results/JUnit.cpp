//===- JUnit.cpp - test outcomes from JUnit XML reports -------------------===//
//
// The three runners write the same elements with different meanings:
//  - ctest: one <testsuite>; each <testcase status="run|fail|notrun|
//    disabled">, a <failure> for a failed test (its message says "Timeout"
//    or names the exception when ctest knows), a <skipped> for tests that
//    did not run ("Unable to find executable" is an error, not a skip);
//  - GoogleTest: <testsuites name="AllTests">, a <testsuite> per suite, each
//    <testcase status="run|notrun" result="completed|skipped|suppressed">
//    with <failure> or <skipped> children;
//  - pytest: a <testsuite name="pytest">, <testcase> with <failure>,
//    <error> (failed in setup or teardown) or <skipped> (also xfail);
//  - lit: <testsuites time="..."> of <testsuite>s without a time, one per
//    suite; a <testcase> with a <failure> holding the test's output (FAIL,
//    UNRESOLVED, TIMEOUT, also XPASS where lit counts it a failure) or a
//    <skipped message="..."> (UNSUPPORTED, or not run: EXCLUDED, SKIPPED);
//    PASS, XFAIL and FLAKYPASS write neither.
//
//===----------------------------------------------------------------------===//

#include "tia/Results/JUnit.h"
#include "tia/Results/Runners.h"
#include "tia/Support/CaseFilters.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"
#include "tia/Support/Xml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace tia {
namespace results {

llvm::StringRef runnerName(Runner R) {
  switch (R) {
  case Runner::Auto:
    return "auto";
  case Runner::Ctest:
    return "ctest";
  case Runner::Gtest:
    return "gtest";
  case Runner::Pytest:
    return "pytest";
  case Runner::Catch2:
    return "catch2";
  case Runner::Doctest:
    return "doctest";
  case Runner::Boost:
    return "boost";
  case Runner::Lit:
    return "lit";
  }
  return "auto";
}

std::optional<Runner> parseRunner(llvm::StringRef Name) {
  for (Runner R : {Runner::Auto, Runner::Ctest, Runner::Gtest, Runner::Pytest,
                   Runner::Catch2, Runner::Doctest, Runner::Boost, Runner::Lit})
    if (runnerName(R) == Name)
      return R;
  return std::nullopt;
}

namespace {

/// The first line of \p Text, trimmed and at most 200 bytes long.
std::string firstLine(llvm::StringRef Text) {
  Text = Text.trim();
  llvm::StringRef Line = Text.take_until([](char C) { return C == '\n'; });
  Line = Line.rtrim();
  if (Line.size() > 200)
    return Line.take_front(197).str() + "...";
  return Line.str();
}

/// Every <testcase> under \p Root, in document order, without recursion.
std::vector<const xml::Element *> testCases(const xml::Element &Root) {
  std::vector<const xml::Element *> Out;
  std::vector<const xml::Element *> Work{&Root};
  while (!Work.empty()) {
    const xml::Element *E = Work.back();
    Work.pop_back();
    if (E->Name == "testcase") {
      Out.push_back(E);
      continue;
    }
    if (E->Name != "testsuites" && E->Name != "testsuite")
      continue;
    for (auto It = E->Children.rbegin(); It != E->Children.rend(); ++It)
      Work.push_back(&*It);
  }
  return Out;
}

bool anySuiteNamed(const xml::Element &Root, llvm::StringRef Name) {
  if (Root.attribute("name") == Name)
    return true;
  return llvm::any_of(Root.Children, [&](const xml::Element &C) {
    return C.Name == "testsuite" && C.attribute("name") == Name;
  });
}

/// True for lit's report: a timed <testsuites> of untimed <testsuite>s,
/// each case's class name its suite's name and a '.'.
bool isLitReport(const xml::Element &Root) {
  if (Root.Name != "testsuites" || !Root.attribute("time"))
    return false;
  bool AnyCase = false;
  for (const xml::Element &Suite : Root.Children) {
    std::optional<llvm::StringRef> Name = Suite.attribute("name");
    if (Suite.Name != "testsuite" || !Name || Suite.attribute("time"))
      return false;
    std::string Prefix = (*Name + ".").str();
    for (const xml::Element &Case : Suite.Children) {
      llvm::StringRef Class = Case.attribute("classname").value_or("");
      if (Case.Name != "testcase" || !Class.starts_with(Prefix))
        return false;
      AnyCase = true;
    }
  }
  return AnyCase;
}

Runner recognise(const xml::Element &Root,
                 const std::vector<const xml::Element *> &Cases) {
  if (llvm::any_of(Cases,
                   [](const xml::Element *C) {
                     return C->attribute("result").has_value();
                   }) ||
      (Root.Name == "testsuites" && Root.attribute("name") == "AllTests"))
    return Runner::Gtest;
  if (llvm::any_of(Cases, [](const xml::Element *C) {
        return C->attribute("status").has_value();
      }))
    return Runner::Ctest;
  if (anySuiteNamed(Root, "pytest"))
    return Runner::Pytest;
  if (isLitReport(Root))
    return Runner::Lit;
  return Runner::Auto;
}

/// The message of a Boost.Test <failure> or <error>, whose attribute says
/// only "failure": the assertion's "- message: " line and where it failed,
/// or the signal of a crash. Sets \p Crash for a signal.
std::string boostMessage(llvm::StringRef Text, bool &Crash) {
  std::string File, Line;
  for (llvm::StringRef L : llvm::split(Text, '\n')) {
    L = L.trim();
    if (L.consume_front("- file   : ") || L.consume_front("- file: "))
      File = L.str();
    else if (L.consume_front("- line   : ") || L.consume_front("- line: "))
      Line = L.str();
    else if (L.consume_front("- message: "))
      return firstLine((File + "(" + Line + "): " + L).str());
    else if (L.starts_with("signal: ") || L.starts_with("memory access")) {
      Crash = true;
      return firstLine(L);
    }
  }
  return firstLine(Text);
}

/// The outcome of a Boost.Test case: a failed assertion fails it, so does
/// an uncaught exception; a signal Boost caught is a crash.
void boostOutcome(const xml::Element *Failure, const xml::Element *Error,
                  JUnitCase &Out) {
  bool Crash = false;
  Out.Message = boostMessage(Error ? Error->Text : Failure->Text, Crash);
  Out.Result = Crash ? Outcome::Crashed : Outcome::Failed;
}

/// The outcome of a lit test that failed: timed out when lit's header
/// above the test's output says so ("Exit Code: -9", "Timeout: Reached
/// timeout of N seconds", a blank line), else failed (lit's FAIL,
/// UNRESOLVED and XPASS look alike).
void litFailure(const xml::Element &Failure, JUnitCase &Out) {
  Out.Message = firstLine(Failure.Text);
  Out.Result = Outcome::Failed;
  for (llvm::StringRef L :
       llvm::split(llvm::StringRef(Failure.Text).ltrim(), '\n')) {
    if (L.trim().empty())
      return;
    if (L.starts_with("Timeout: ")) {
      Out.Message = firstLine(L);
      Out.Result = Outcome::TimedOut;
    }
  }
}

/// The outcome of one test case and its message.
void outcome(const xml::Element &Case, Runner Kind, JUnitCase &Out) {
  const xml::Element *Failure = nullptr, *Error = nullptr, *Skipped = nullptr;
  for (const xml::Element &C : Case.Children) {
    if (C.Name == "failure" && !Failure)
      Failure = &C;
    else if (C.Name == "error" && !Error)
      Error = &C;
    else if (C.Name == "skipped" && !Skipped)
      Skipped = &C;
  }
  auto MessageOf = [](const xml::Element *E) {
    std::optional<llvm::StringRef> M = E->attribute("message");
    return firstLine(M && !M->trim().empty() ? *M : llvm::StringRef(E->Text));
  };
  llvm::StringRef Status = Case.attribute("status").value_or("");
  llvm::StringRef Result = Case.attribute("result").value_or("");

  if ((Failure || Error) && Kind == Runner::Boost)
    return boostOutcome(Failure, Error, Out);
  if (Failure && Kind == Runner::Lit)
    return litFailure(*Failure, Out);
  if (Failure || Error) {
    const xml::Element *E = Failure ? Failure : Error;
    Out.Message = MessageOf(E);
    Out.Result = Failure ? Outcome::Failed : Outcome::Error;
    if (Kind == Runner::Ctest) {
      llvm::StringRef M = Out.Message;
      if (M.contains_insensitive("timeout"))
        Out.Result = Outcome::TimedOut;
      else if (M.starts_with("Exception") || M.contains("SegFault") ||
               M.contains("Child aborted") || M.contains("signal"))
        Out.Result = Outcome::Crashed;
    }
    return;
  }
  if (Skipped) {
    Out.Message = MessageOf(Skipped);
    Out.Result = Outcome::Skipped;
    // ctest reports a test whose program is missing as not run.
    if (Kind == Runner::Ctest &&
        (Out.Message.find("find executable") != std::string::npos))
      Out.Result = Outcome::Error;
    return;
  }
  if (Status == "notrun" || Status == "disabled" || Result == "skipped" ||
      Result == "suppressed") {
    Out.Result = Outcome::Skipped;
    Out.Message = firstLine(Case.Text);
    if (Out.Message.empty() && (Status == "disabled" || Result == "suppressed"))
      Out.Message = "disabled";
    return;
  }
  if (Status == "fail") {
    Out.Result = Outcome::Failed;
    return;
  }
  Out.Result = Outcome::Passed;
}

/// Boost.Test lists every case of the binary, those its filters left out
/// as skipped "because of the following chain of decision": they did not
/// run.
bool ranInBoost(const xml::Element &Case) {
  for (const xml::Element &C : Case.Children)
    if (C.Name == "system-out" &&
        llvm::StringRef(C.Text).contains("Test case disabled because"))
      return false;
  return true;
}

/// lit lists every test of its suites: those its --filter left out as
/// skipped with "Test not selected", and those it never started (Ctrl-C,
/// --max-failures, --max-time) with "User interrupt". They did not run: a
/// skip would hide an earlier failure of theirs.
bool ranInLit(const xml::Element &Case) {
  for (const xml::Element &C : Case.Children) {
    llvm::StringRef Message = C.attribute("message").value_or("");
    if (C.Name == "skipped" && (Message.starts_with("Test not selected") ||
                                Message.starts_with("User interrupt")))
      return false;
  }
  return true;
}

} // namespace

llvm::Expected<JUnitReport> parseJUnit(llvm::StringRef Text,
                                       llvm::StringRef FileName, Runner Hint) {
  auto Root = xml::parse(Text);
  if (!Root)
    return makeErrorf("malformed JUnit file {0}:{1}", FileName,
                      llvm::toString(Root.takeError()));
  if (Root->Name != "testsuites" && Root->Name != "testsuite")
    return makeErrorf("{0} is not a JUnit report: its root element is <{1}>, "
                      "not <testsuites> or <testsuite>",
                      FileName, Root->Name);
  std::vector<const xml::Element *> Cases = testCases(*Root);

  JUnitReport Report;
  Report.Kind = Hint == Runner::Auto ? recognise(*Root, Cases) : Hint;
  if (Report.Kind == Runner::Auto && !Cases.empty())
    return makeErrorf("cannot tell which runner wrote {0}: pass --runner "
                      "ctest, gtest or pytest",
                      FileName);

  for (const xml::Element *C : Cases) {
    JUnitCase Out;
    Out.ReportLine = C->Line;
    std::optional<llvm::StringRef> Name = C->attribute("name");
    if (!Name || Name->empty())
      return makeErrorf("{0}:{1}: <testcase> has no name: check that the "
                        "report is complete",
                        FileName, C->Line);
    Out.Name = Name->str();
    Out.ClassName = C->attribute("classname").value_or("").str();
    Out.File = C->attribute("file").value_or("").str();
    if (std::optional<llvm::StringRef> L = C->attribute("line"))
      if (L->trim().getAsInteger(10, Out.Line))
        Out.Line = 0;
    if (std::optional<llvm::StringRef> T = C->attribute("time")) {
      llvm::StringRef Time = T->trim();
      if (!Time.empty() && (Time.getAsDouble(Out.Seconds) ||
                            !std::isfinite(Out.Seconds) || Out.Seconds < 0))
        return makeErrorf("{0}:{1}: the time of test case '{2}' is '{3}', not "
                          "a number of seconds",
                          FileName, C->Line, Out.Name, *T);
    }
    if ((Report.Kind == Runner::Boost && !ranInBoost(*C)) ||
        (Report.Kind == Runner::Lit && !ranInLit(*C)))
      continue;
    outcome(*C, Report.Kind, Out);
    Report.Cases.push_back(std::move(Out));
  }
  return Report;
}

//===----------------------------------------------------------------------===//
// Naming
//===----------------------------------------------------------------------===//

std::string binaryFromReportName(llvm::StringRef FileName) {
  llvm::StringRef Stem = llvm::sys::path::stem(FileName);
  if (Stem.empty() || Stem == "test_detail")
    return std::string();
  return Stem.str();
}

namespace {

/// "a.b.TestX.test_y" parts as a node id whose module is the first
/// \p ModuleParts components.
std::string nodeId(llvm::ArrayRef<llvm::StringRef> Parts, size_t ModuleParts,
                   llvm::StringRef Name, llvm::StringRef Dir) {
  std::string Id = Dir.empty() ? std::string() : Dir.str() + "/";
  for (size_t I = 0; I < ModuleParts; ++I)
    Id += (I ? "/" : "") + Parts[I].str();
  Id += ".py";
  for (size_t I = ModuleParts; I < Parts.size(); ++I)
    Id += "::" + Parts[I].str();
  return Id + "::" + Name.str();
}

/// The JUnit class name pytest writes for a node id: "a/b.py::K::t" ->
/// "a.b.K"; std::nullopt for a node id without a module.
std::optional<std::string> junitClassName(llvm::StringRef NodeId,
                                          llvm::StringRef Dir) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  NodeId.split(Parts, "::");
  if (Parts.size() < 2 || !Parts[0].ends_with(".py"))
    return std::nullopt;
  llvm::StringRef Path = Parts[0].drop_back(3);
  if (!Dir.empty()) {
    if (!Path.consume_front(Dir) || !Path.consume_front("/"))
      return std::nullopt;
  }
  std::string Out = Path.str();
  std::replace(Out.begin(), Out.end(), '/', '.');
  for (size_t I = 1; I + 1 < Parts.size(); ++I)
    Out += "." + Parts[I].str();
  return Out;
}

} // namespace

std::pair<std::string, bool> pytestNodeId(llvm::StringRef ClassName,
                                          llvm::StringRef Name,
                                          const NamingOptions &O) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  ClassName.split(Parts, '.', -1, /*KeepEmpty=*/false);
  if (Parts.empty())
    return {(O.PytestDir.empty() ? "" : O.PytestDir + "/") + Name.str(), true};

  if (O.IsFile)
    for (size_t K = Parts.size(); K > 0; --K) {
      std::string Id = nodeId(Parts, K, Name, O.PytestDir);
      if (O.IsFile(
              llvm::StringRef(Id).take_until([](char C) { return C == ':'; })))
        return {Id, false};
    }

  // A node id the store knows, in the JUnit spelling.
  for (const std::string &Known : O.KnownIds) {
    llvm::StringRef Id = Known;
    if (!Id.consume_front("pytest:"))
      continue;
    size_t Last = Id.rfind("::");
    if (Last == llvm::StringRef::npos || Id.substr(Last + 2) != Name)
      continue;
    std::optional<std::string> Class = junitClassName(Id, O.PytestDir);
    if (Class && *Class == ClassName)
      return {Id.str(), false};
  }

  size_t ModuleParts = Parts.size();
  for (size_t I = 1; I < Parts.size(); ++I)
    if (Parts[I].starts_with("Test")) {
      ModuleParts = I;
      break;
    }
  return {nodeId(Parts, ModuleParts, Name, O.PytestDir), true};
}

namespace {

/// True when outcome \p A says more is wrong than \p B.
bool worse(Outcome A, Outcome B) {
  auto Rank = [](Outcome O) {
    return isFailure(O) ? 2 : O == Outcome::Skipped ? 0 : 1;
  };
  return Rank(A) > Rank(B);
}

/// "Suite.Name" of a GoogleTest case.
std::string gtestName(const JUnitCase &C) {
  return C.ClassName.empty() ? C.Name : C.ClassName + "." + C.Name;
}

/// Known case ids by their case name ("Suite.Name" of GoogleTest, the
/// name of Catch2 and doctest), of framework \p Only or of every one;
/// those of a definition ("gtest:*:...") only with \p Definitions; the
/// binaries in \p Binaries.
std::map<std::string, std::vector<std::string>, std::less<>>
knownCasesByName(llvm::ArrayRef<std::string> KnownIds, bool Definitions,
                 std::optional<CaseFramework> Only,
                 std::set<std::string, std::less<>> *Binaries = nullptr) {
  std::map<std::string, std::vector<std::string>, std::less<>> ByName;
  for (const std::string &Id : KnownIds) {
    std::optional<CaseId> C = parseCaseId(Id);
    if (!C || (Only && C->Framework != *Only) ||
        (C->Binary == "*" && !Definitions))
      continue;
    ByName[C->Name].push_back(Id);
    if (Binaries)
      Binaries->insert(C->Binary);
  }
  return ByName;
}

/// The case a Catch2 or doctest JUnit test case is of: both name a leaf
/// section or subcase "case/section/section", so the longest prefix at a
/// '/' that is a known case of \p Binary (ids \p Prefix + name), else
/// the name up to the first '/'.
std::string sectionCaseName(llvm::StringRef Name, llvm::StringRef Prefix,
                            llvm::ArrayRef<std::string> KnownIds) {
  auto Known = [&](llvm::StringRef Case) {
    return std::binary_search(KnownIds.begin(), KnownIds.end(),
                              (Prefix + Case).str());
  };
  if (Known(Name))
    return Name.str();
  for (size_t At = Name.rfind('/'); At != llvm::StringRef::npos && At > 0;
       At = Name.rfind('/', At))
    if (Known(Name.take_front(At)))
      return Name.take_front(At).str();
  return Name.split('/').first.str();
}

/// The path of a Boost.Test JUnit case: its suites, dotted in the
/// classname ("math.inner"), then its name; spaces are written as '_'.
std::string boostPath(const JUnitCase &C) {
  if (C.ClassName.empty())
    return C.Name;
  std::string Suites = C.ClassName;
  std::replace(Suites.begin(), Suites.end(), '.', '/');
  return Suites + "/" + C.Name;
}

/// The ids of a GoogleTest report's cases. The binary passed (--binary) or
/// one the store knows names them all. Otherwise (a custom file name, or
/// GoogleTest's default test_detail.xml) a case whose "Suite.Name" is that of
/// exactly one known test is that test, as a ctest name is; the rest keep
/// the file's name and one warning says so, or, without a file name to
/// use, the import stops.
llvm::Expected<std::vector<std::string>>
gtestIds(const JUnitReport &Report, llvm::StringRef FileName,
         const NamingOptions &O, std::vector<std::string> &Warnings) {
  std::vector<std::string> Ids;
  std::set<std::string, std::less<>> Binaries;
  auto ByName = knownCasesByName(O.KnownIds, /*Definitions=*/false,
                                 CaseFramework::GTest, &Binaries);
  bool Named = O.GtestBinaryGiven || Binaries.count(O.GtestBinary);
  unsigned Unmatched = 0;
  for (const JUnitCase &C : Report.Cases) {
    std::string Name = gtestName(C);
    auto It = ByName.find(Name);
    if (!Named && It != ByName.end() && It->second.size() == 1) {
      Ids.push_back(It->second.front());
      continue;
    }
    Unmatched += !Named;
    Ids.push_back("gtest:" + O.GtestBinary + ":" + Name);
  }
  if (Unmatched == 0)
    return Ids;
  if (O.GtestBinary.empty())
    return makeErrorf("cannot tell which binary wrote {0} ({1} of its {2} "
                      "cases are not the test of exactly one known binary): "
                      "pass --binary NAME, or let GoogleTest name the file "
                      "with --gtest_output=xml:DIR/",
                      FileName, Unmatched, Report.Cases.size());
  Warnings.push_back(
      llvm::formatv("{0}: {1} of its {2} cases are not the test of exactly "
                    "one known binary and no known binary is named '{3}'; "
                    "stored as new tests gtest:{3}:*: pass --binary NAME if "
                    "another binary wrote the file",
                    FileName, Unmatched, Report.Cases.size(), O.GtestBinary)
          .str());
  return Ids;
}

/// The known lit tests ctest test \p CTest runs; null when it is no lit
/// suite's.
const std::vector<std::string> *litTestsRunBy(const NamingOptions &O,
                                              const std::string &CTest) {
  if (!O.LitTestsByCTest)
    return nullptr;
  auto It = O.LitTestsByCTest->find(CTest);
  return It == O.LitTestsByCTest->end() ? nullptr : &It->second;
}

/// The results of the lit tests \p LitTests that ctest test \p C ran: its
/// outcome for each (a failure, for each, when lit does not say which
/// failed) and an even share of its time.
std::vector<TestResult>
litSuiteResults(const JUnitCase &C, const std::vector<std::string> &LitTests,
                llvm::StringRef FileName, std::vector<std::string> &Warnings) {
  std::vector<TestResult> Out;
  for (const std::string &Id : LitTests) {
    TestResult R;
    R.TestId = Id;
    R.Result = C.Result;
    R.Seconds = C.Seconds / LitTests.size();
    R.Message = C.Message;
    Out.push_back(std::move(R));
  }
  if (isFailure(C.Result))
    Warnings.push_back(
        llvm::formatv("{0}: ctest test {1} failed, and runs {2} lit test{3}: "
                      "each is recorded as failed (run lit through 'tia run "
                      "-- lit' to record each test's own outcome)",
                      FileName, C.Name, LitTests.size(),
                      pluralS(LitTests.size()))
            .str());
  return Out;
}

} // namespace

llvm::Expected<std::vector<TestResult>>
testResults(const JUnitReport &Report, llvm::StringRef FileName,
            const NamingOptions &O, std::vector<std::string> &Warnings) {
  // Ids named for the whole report at once.
  std::vector<std::string> ReportIds;
  if (Report.Kind == Runner::Gtest || Report.Kind == Runner::Lit) {
    auto Ids = Report.Kind == Runner::Gtest
                   ? gtestIds(Report, FileName, O, Warnings)
                   : litResultIds(Report, FileName, O.KnownIds, Warnings);
    if (!Ids)
      return Ids.takeError();
    ReportIds = std::move(*Ids);
  }

  // Known case ids by their name, for ctest names: gtest_discover_tests,
  // catch_discover_tests and doctest_discover_tests name a ctest test after
  // its case.
  std::map<std::string, std::vector<std::string>, std::less<>> CasesByName;
  if (Report.Kind == Runner::Ctest)
    CasesByName =
        knownCasesByName(O.KnownIds, /*Definitions=*/true, std::nullopt);

  // Boost's JUnit report writes a name's spaces as '_': the known id it
  // stands for, when exactly one.
  std::map<std::string, std::vector<std::string>> BoostByReportName;
  if (Report.Kind == Runner::Boost)
    for (const std::string &Known : O.KnownIds)
      if (llvm::StringRef(Known).starts_with("boost:")) {
        std::string Written = Known;
        std::replace(Written.begin(), Written.end(), ' ', '_');
        BoostByReportName[Written].push_back(Known);
      }

  std::vector<TestResult> Out;
  std::map<std::string, unsigned> Attempts;
  for (size_t I = 0; I < Report.Cases.size(); ++I) {
    const JUnitCase &C = Report.Cases[I];
    std::string Id;
    switch (Report.Kind) {
    case Runner::Gtest:
    case Runner::Lit:
      Id = ReportIds[I];
      break;
    case Runner::Pytest: {
      auto [NodeId, Guessed] = pytestNodeId(C.ClassName, C.Name, O);
      if (Guessed)
        Warnings.push_back("no file holds pytest class '" + C.ClassName +
                           "' of " + FileName.str() + ":" +
                           std::to_string(C.ReportLine) + "; named its test " +
                           NodeId);
      Id = "pytest:" + NodeId;
      break;
    }
    case Runner::Catch2:
    case Runner::Doctest: {
      std::string Prefix =
          (Report.Kind == Runner::Catch2 ? "catch2:" : "doctest:") +
          O.GtestBinary + ":";
      Id = Prefix + sectionCaseName(C.Name, Prefix, O.KnownIds);
      break;
    }
    case Runner::Boost: {
      Id = "boost:" + O.GtestBinary + ":" + boostPath(C);
      auto It = BoostByReportName.find(Id);
      if (It != BoostByReportName.end() && It->second.size() == 1)
        Id = It->second.front();
      break;
    }
    case Runner::Ctest:
    case Runner::Auto: {
      Id = "ctest:" + C.Name;
      bool KnownCTest =
          std::binary_search(O.KnownIds.begin(), O.KnownIds.end(), Id);
      const std::vector<std::string> *Suite = litTestsRunBy(O, C.Name);
      if (!KnownCTest && Suite) {
        for (TestResult &R : litSuiteResults(C, *Suite, FileName, Warnings)) {
          R.Attempt = Attempts[R.TestId]++;
          Out.push_back(std::move(R));
        }
        continue;
      }
      auto It = CasesByName.find(C.Name);
      if (It != CasesByName.end() && It->second.size() == 1 && !KnownCTest)
        Id = It->second.front();
      break;
    }
    }
    // Catch2 and doctest report each leaf section or subcase of a case as a
    // test case of its own, one after another: they are one result, the
    // worst of them.
    if ((Report.Kind == Runner::Catch2 || Report.Kind == Runner::Doctest) &&
        !Out.empty() && Out.back().TestId == Id) {
      TestResult &Last = Out.back();
      Last.Seconds += C.Seconds;
      if (worse(C.Result, Last.Result)) {
        Last.Result = C.Result;
        Last.Message = C.Message;
      }
      continue;
    }
    TestResult R;
    R.TestId = Id;
    R.Result = C.Result;
    R.Seconds = C.Seconds;
    R.Message = C.Message;
    R.Attempt = Attempts[Id]++;
    Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace results
} // namespace tia
