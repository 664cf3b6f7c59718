//===- Arguments.cpp - selections as runner arguments ---------------------===//
//
// How tia's test ids become runner arguments:
//  - ctest runs tests by name: "ctest:NAME" is NAME; "gtest:BINARY:S.N" is
//    S.N, the name gtest_discover_tests gives a GoogleTest test, and
//    "catch2:BINARY:NAME" is NAME, catch_discover_tests' name.
//  - a GoogleTest binary takes --gtest_filter; "gtest:*:S.N" (a definition
//    whose binary is unknown) goes into every binary's filter.
//  - a Catch2 binary takes test specs (tia/Support/CaseFilters.h); so does
//    "catch2:*:NAME". A doctest binary takes --test-case= filters, and
//    "doctest:*:NAME" goes into every doctest binary's; a Boost.Test
//    binary takes --run_test=, and "boost:*:PATH" goes into every one's.
//  - pytest takes node ids ("pytest:NODE").
// A test known only from its definition ("Suite.Name" of a TEST_P or
// TYPED_TEST) stands for all its instantiations, so it becomes a pattern.
//
//===----------------------------------------------------------------------===//

#include "tia/Results/Runners.h"
#include "tia/Support/CaseFilters.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <set>

namespace tia {
namespace results {

using select::Plan;
using select::PlannedTest;

namespace {

/// The ctest name that runs \p Id: its own, or for a lit test its suite's
/// ctest test's (which runs the suite's other tests too); std::nullopt when
/// ctest cannot run it apart from every other test.
std::optional<std::string> ctestName(const Plan &P, llvm::StringRef Id) {
  auto Enclosing = P.EnclosingCTests.find(Id.str());
  if (Enclosing != P.EnclosingCTests.end())
    return Enclosing->second;
  if (Id.consume_front("ctest:"))
    return Id.str();
  // gtest_discover_tests, catch_discover_tests and doctest_discover_tests
  // name a ctest test after its case.
  if (std::optional<CaseId> C = parseCaseId(Id))
    return C->Name;
  return std::nullopt;
}

/// \p Name with the characters CMake's regular expressions treat specially
/// escaped.
std::string regexEscape(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name) {
    if (llvm::StringRef("^$.[]*+?()|\\").contains(C))
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// A regex for the instances of GoogleTest definition "S.N".
std::string definitionRegex(llvm::StringRef Definition) {
  auto [Suite, Name] = Definition.split('.');
  return "([^.]*/)?" + regexEscape(Suite) + "(/[^.]*)?\\." + regexEscape(Name) +
         "(/.*)?";
}

/// The --gtest_filter patterns for the instances of definition "S.N".
std::vector<std::string> definitionPatterns(llvm::StringRef Definition) {
  auto [Suite, Name] = Definition.split('.');
  std::string S = Suite.str(), N = Name.str();
  return {S + "." + N,        S + "." + N + "/*",
          "*/" + S + "." + N, "*/" + S + "." + N + "/*",
          S + "/*." + N,      "*/" + S + "/*." + N};
}

std::string anchored(const std::set<std::string> &Alternatives) {
  return "^(" + llvm::join(Alternatives, "|") + ")$";
}

/// The selected lit tests whose suite's ctest test tia does not know: a
/// new test file, one of a database collected before tia kept it, or one
/// found in two ctest tests.
std::vector<std::string> selectedLitTestsOfUnknownCTest(const Plan &P) {
  std::vector<std::string> Out;
  for (const PlannedTest &T : P.Selected)
    if (litFullName(T.Id) && !P.EnclosingCTests.count(T.Id))
      Out.push_back(T.Id);
  return Out;
}

/// Why ctest must run more than the selection: selected lit tests \p Ids
/// run in ctest tests tia does not know, so \p WhatRuns.
std::string unknownCTestWidening(const std::vector<std::string> &Ids,
                                 llvm::StringRef WhatRuns) {
  std::string Tests = Ids.front();
  if (Ids.size() > 1)
    Tests += " and " + std::to_string(Ids.size() - 1) + " more lit test" +
             (Ids.size() > 2 ? "s" : "");
  return "tia does not know which ctest test runs " + Tests +
         " (new, or collected before tia kept it): " + WhatRuns.str();
}

constexpr llvm::StringLiteral EveryTestRuns = "every ctest test runs";
constexpr llvm::StringLiteral NoLitSuiteSkipped =
    "no lit suite's ctest test is skipped";

/// The ctest names of the tests the exclusion form skips, but for names a
/// selected test has too; \p Unnamed counts the skipped tests of other
/// runners. While a selected lit test's ctest test is unknown, no skipped
/// lit test's is skipped: any of them may run it.
std::set<std::string> ctestNamesToSkip(const Plan &P, unsigned &Unnamed) {
  std::set<std::string> Keep, Skip;
  for (const PlannedTest &T : P.Selected)
    if (std::optional<std::string> Name = ctestName(P, T.Id))
      Keep.insert(*Name);
  bool KeepLitSuites = !selectedLitTestsOfUnknownCTest(P).empty();
  for (const std::string &Id : P.skippedIds()) {
    if (KeepLitSuites && litFullName(Id))
      continue;
    std::optional<std::string> Name = ctestName(P, Id);
    if (!Name)
      ++Unnamed;
    else if (!Keep.count(*Name))
      Skip.insert(*Name);
  }
  return Skip;
}

} // namespace

RunnerArguments ctestArguments(const Plan &P, bool Exclusion) {
  RunnerArguments Out;
  if (!Exclusion) {
    if (P.selectsAll())
      return Out;
    // A lit test runs in the ctest test of its suite: one tia does not
    // know can be run only by running every test.
    std::vector<std::string> Unknown = selectedLitTestsOfUnknownCTest(P);
    if (!Unknown.empty()) {
      Out.Widened = unknownCTestWidening(Unknown, EveryTestRuns);
      return Out;
    }
    std::set<std::string> Alternatives;
    for (const PlannedTest &T : P.Selected) {
      std::optional<std::string> Name = ctestName(P, T.Id);
      if (!Name) {
        ++Out.Unnamed;
        continue;
      }
      bool Pattern =
          T.FromDefinition && llvm::StringRef(T.Id).starts_with("gtest:");
      Alternatives.insert(Pattern ? definitionRegex(*Name)
                                  : regexEscape(*Name));
    }
    Out.Arguments = {"-R",
                     Alternatives.empty() ? "^$" : anchored(Alternatives)};
    return Out;
  }
  std::set<std::string> Skip;
  for (const std::string &Name : ctestNamesToSkip(P, Out.Unnamed))
    Skip.insert(regexEscape(Name));
  if (!Skip.empty())
    Out.Arguments = {"-E", anchored(Skip)};
  std::vector<std::string> Unknown = selectedLitTestsOfUnknownCTest(P);
  if (!Unknown.empty())
    Out.Widened = unknownCTestWidening(Unknown, NoLitSuiteSkipped);
  return Out;
}

RunnerArguments ctestNames(const Plan &P, bool Exclusion) {
  RunnerArguments Out;
  std::set<std::string> Names;
  std::vector<std::string> Unknown = selectedLitTestsOfUnknownCTest(P);
  if (!Exclusion) {
    // A list of names cannot say "every test": none, and the warning.
    if (!Unknown.empty()) {
      Out.Widened = unknownCTestWidening(
          Unknown, "run every ctest test, without --tests-from-file");
      return Out;
    }
    for (const PlannedTest &T : P.Selected) {
      std::optional<std::string> Name = ctestName(P, T.Id);
      if (!Name || T.FromDefinition)
        ++Out.Unnamed;
      else
        Names.insert(*Name);
    }
  } else {
    Names = ctestNamesToSkip(P, Out.Unnamed);
    if (!Unknown.empty())
      Out.Widened = unknownCTestWidening(Unknown, NoLitSuiteSkipped);
  }
  Out.Arguments.assign(Names.begin(), Names.end());
  return Out;
}

bool ctestReadsNameFiles(llvm::StringRef VersionOutput) {
  // "ctest version 3.29.2\n\nCMake suite maintained ..."
  llvm::StringRef Rest = VersionOutput.trim();
  if (!Rest.consume_front("ctest version "))
    return false;
  unsigned Major = 0, Minor = 0;
  auto [MajorText, Tail] = Rest.split('.');
  llvm::StringRef MinorText =
      Tail.take_while([](char C) { return llvm::isDigit(C); });
  if (MajorText.getAsInteger(10, Major) || MinorText.getAsInteger(10, Minor))
    return false;
  return Major > 3 || (Major == 3 && Minor >= 29);
}

namespace {

struct GtestId {
  std::string Binary, Name;
};

std::optional<GtestId> gtestId(llvm::StringRef Id) {
  if (!Id.consume_front("gtest:"))
    return std::nullopt;
  auto [Binary, Name] = Id.split(':');
  if (Name.empty())
    return std::nullopt;
  return GtestId{Binary.str(), Name.str()};
}

/// What the GoogleTest filters are made of, gathered in one pass.
struct GtestView {
  explicit GtestView(const Plan &P) {
    for (const PlannedTest &T : P.Selected) {
      std::optional<GtestId> G = gtestId(T.Id);
      if (!G) {
        ++UnnamedSelected;
        continue;
      }
      if (G->Binary != "*")
        Binaries.insert(G->Binary);
      std::set<std::string> &Patterns = Selected[G->Binary];
      if (T.FromDefinition)
        for (std::string &Pattern : definitionPatterns(G->Name))
          Patterns.insert(std::move(Pattern));
      else
        Patterns.insert(G->Name);
    }
    for (const std::string &Id : P.skippedIds()) {
      std::optional<GtestId> G = gtestId(Id);
      if (!G) {
        ++UnnamedSkipped;
        continue;
      }
      Binaries.insert(G->Binary);
      Skipped[G->Binary].insert(G->Name);
    }
  }

  std::string filter(const Plan &P, llvm::StringRef Binary,
                     bool Exclusion) const {
    if (P.selectsAll())
      return "*";
    // A binary tia never saw holds tests it knows nothing about.
    if (!Binaries.count(Binary.str()))
      return "*";
    const std::set<std::string> &Mine = patterns(Selected, Binary);
    if (!Exclusion) {
      std::set<std::string> All = Mine;
      const std::set<std::string> &Everywhere = patterns(Selected, "*");
      All.insert(Everywhere.begin(), Everywhere.end());
      return All.empty() ? "-*" : llvm::join(All, ":");
    }
    std::set<std::string> Skip;
    for (const std::string &Name : patterns(Skipped, Binary))
      if (!Mine.count(Name))
        Skip.insert(Name);
    return Skip.empty() ? "*" : "-" + llvm::join(Skip, ":");
  }

  static const std::set<std::string> &
  patterns(const std::map<std::string, std::set<std::string>> &Of,
           llvm::StringRef Binary) {
    static const std::set<std::string> None;
    auto It = Of.find(Binary.str());
    return It == Of.end() ? None : It->second;
  }

  CaseFramework Framework;
  std::set<std::string> Binaries; ///< known ones, "*" left out
  /// Per binary ("*": every binary), the filter patterns of the selected
  /// tests, and the names of the tests the exclusion form skips.
  std::map<std::string, std::set<std::string>> Selected, Skipped;
  unsigned UnnamedSelected = 0, UnnamedSkipped = 0;
};

} // namespace

std::vector<std::pair<std::string, std::string>>
gtestFilters(const Plan &P, bool Exclusion, unsigned &Unnamed) {
  GtestView View(P);
  Unnamed = Exclusion ? View.UnnamedSkipped : View.UnnamedSelected;
  std::vector<std::pair<std::string, std::string>> Out;
  for (const std::string &B : View.Binaries)
    Out.emplace_back(B, View.filter(P, B, Exclusion));
  if (View.Binaries.empty() && !Exclusion) {
    const std::set<std::string> &Star = GtestView::patterns(View.Selected, "*");
    if (!Star.empty())
      Out.emplace_back("*", llvm::join(Star, ":"));
  }
  return Out;
}

std::string gtestFilter(const Plan &P, llvm::StringRef Binary, bool Exclusion) {
  return GtestView(P).filter(P, Binary, Exclusion);
}

namespace {

/// What the Catch2 specs, doctest or Boost.Test filters are made of, gathered
/// in one pass: per binary ("*": every binary) the patterns of the selected
/// cases (a case known from its definition also names its template instances,
/// Catch2's "name - T", doctest's "name<T>", Boost's "name<T>" and a data
/// case's samples "name/_0"), and the names of the cases the
/// exclusion form skips.
struct CaseView {
  CaseView(const Plan &P, CaseFramework F) : Framework(F) {
    for (const PlannedTest &T : P.Selected) {
      std::optional<CaseId> C = parseCaseId(T.Id);
      if (!C || C->Framework != F) {
        ++UnnamedSelected;
        continue;
      }
      if (C->Binary != "*")
        Binaries.insert(C->Binary);
      Selected[C->Binary].insert(escape(C->Name) +
                                 (T.FromDefinition ? "*" : ""));
      SelectedNames[C->Binary].insert(C->Name);
    }
    for (const std::string &Id : P.skippedIds()) {
      std::optional<CaseId> C = parseCaseId(Id);
      if (!C || C->Framework != F) {
        ++UnnamedSkipped;
        continue;
      }
      Binaries.insert(C->Binary);
      Skipped[C->Binary].push_back(C->Name);
    }
  }

  std::vector<std::string> specs(const Plan &P, llvm::StringRef Binary,
                                 bool Exclusion) const {
    // A binary tia never saw holds cases it knows nothing about.
    if (P.selectsAll() || !Binaries.count(Binary.str()))
      return {};
    if (!Exclusion) {
      std::set<std::string> All = of(Selected, Binary);
      const std::set<std::string> &Everywhere = of(Selected, "*");
      All.insert(Everywhere.begin(), Everywhere.end());
      if (All.empty())
        return caseFilterArguments(Framework, {});
      return {patternArgument(Framework, All)};
    }
    std::vector<std::string> Skip;
    auto It = Skipped.find(Binary.str());
    if (It != Skipped.end())
      for (const std::string &Name : It->second)
        if (!of(SelectedNames, Binary).count(Name))
          Skip.push_back(Name);
    llvm::sort(Skip);
    return caseExclusionArguments(Framework, Skip);
  }

  /// The pattern of case \p Name.
  std::string escape(llvm::StringRef Name) const {
    if (Framework == CaseFramework::Boost)
      return Name.str(); // Boost's names hold no character its filters read
    return Framework == CaseFramework::Doctest ? doctestEscape(Name)
                                               : catch2Escape(Name);
  }

  /// The one argument that runs every case \p Patterns matches.
  static std::string patternArgument(CaseFramework F,
                                     const std::set<std::string> &Patterns) {
    if (F == CaseFramework::Boost)
      return "--run_test=" + llvm::join(Patterns, ":");
    return (F == CaseFramework::Doctest ? "--test-case=" : "") +
           llvm::join(Patterns, ",");
  }

  static const std::set<std::string> &
  of(const std::map<std::string, std::set<std::string>> &Map,
     llvm::StringRef Binary) {
    static const std::set<std::string> None;
    auto It = Map.find(Binary.str());
    return It == Map.end() ? None : It->second;
  }

  CaseFramework Framework;
  std::set<std::string> Binaries; ///< known ones, "*" left out
  std::map<std::string, std::set<std::string>> Selected, SelectedNames;
  std::map<std::string, std::vector<std::string>> Skipped;
  unsigned UnnamedSelected = 0, UnnamedSkipped = 0;
};

} // namespace

std::vector<std::pair<std::string, std::vector<std::string>>>
caseArguments(const Plan &P, CaseFramework F, bool Exclusion,
              unsigned &Unnamed) {
  CaseView View(P, F);
  Unnamed = Exclusion ? View.UnnamedSkipped : View.UnnamedSelected;
  std::vector<std::pair<std::string, std::vector<std::string>>> Out;
  for (const std::string &B : View.Binaries) {
    std::vector<std::string> Specs = View.specs(P, B, Exclusion);
    if (F == CaseFramework::Boost && !Exclusion &&
        Specs == caseFilterArguments(F, {}))
      continue;
    Out.emplace_back(B, std::move(Specs));
  }
  if (View.Binaries.empty() && !Exclusion) {
    const std::set<std::string> &Star = CaseView::of(View.Selected, "*");
    if (!Star.empty())
      Out.push_back({"*", {CaseView::patternArgument(F, Star)}});
  }
  return Out;
}

RunnerArguments pytestArguments(const Plan &P, bool Exclusion, bool Files) {
  RunnerArguments Out;
  auto NodeId = [](llvm::StringRef Id) -> std::optional<std::string> {
    if (!Id.consume_front("pytest:"))
      return std::nullopt;
    return Id.str();
  };
  auto FileOf = [](llvm::StringRef Node) {
    return Node.take_until([](char C) { return C == ':'; }).str();
  };
  std::vector<std::string> Selected;
  for (const PlannedTest &T : P.Selected) {
    if (std::optional<std::string> N = NodeId(T.Id))
      Selected.push_back(*N);
    else if (!Exclusion)
      ++Out.Unnamed;
  }
  if (!Exclusion) {
    if (P.selectsAll())
      return Out;
    if (!Files) {
      // A parametrized function's node id runs all its instances.
      std::set<std::string> Named(Selected.begin(), Selected.end());
      for (const std::string &N : Selected) {
        size_t Open = N.find('[', N.rfind("::"));
        if (Open == std::string::npos || !Named.count(N.substr(0, Open)))
          Out.Arguments.push_back(N);
      }
      return Out;
    }
    std::set<std::string> Paths;
    for (const std::string &N : Selected)
      Paths.insert(FileOf(N));
    Out.Arguments.assign(Paths.begin(), Paths.end());
    return Out;
  }
  std::set<std::string> KeepFiles;
  for (const std::string &N : Selected)
    KeepFiles.insert(FileOf(N));
  std::set<std::string> SkipFiles;
  for (const std::string &Id : P.skippedIds()) {
    std::optional<std::string> N = NodeId(Id);
    if (!N) {
      ++Out.Unnamed;
      continue;
    }
    if (!Files)
      Out.Arguments.push_back("--deselect=" + *N);
    else if (!KeepFiles.count(FileOf(*N)))
      SkipFiles.insert(FileOf(*N));
  }
  for (const std::string &F : SkipFiles)
    Out.Arguments.push_back("--ignore=" + F);
  return Out;
}

namespace {

/// The case framework of runner \p Kind, if it is one's binary.
std::optional<CaseFramework> frameworkOfRunner(Runner Kind) {
  switch (Kind) {
  case Runner::Catch2:
    return CaseFramework::Catch2;
  case Runner::Doctest:
    return CaseFramework::Doctest;
  case Runner::Boost:
    return CaseFramework::Boost;
  default:
    return std::nullopt;
  }
}

/// True when no pytest test is selected: pytest cannot be told to run none.
bool noPytestSelected(const Plan &P) {
  return !P.selectsAll() && llvm::none_of(P.Selected, [](const PlannedTest &T) {
    return llvm::StringRef(T.Id).starts_with("pytest:");
  });
}

} // namespace

RunnerArguments selectionArguments(const Plan &P, Runner Kind,
                                   llvm::StringRef Binary, bool Exclusion) {
  switch (Kind) {
  case Runner::Ctest:
    return ctestArguments(P, Exclusion);
  case Runner::Pytest:
    return pytestArguments(P, Exclusion, /*Files=*/false);
  case Runner::Lit:
    return litArguments(P, Exclusion);
  case Runner::Catch2:
  case Runner::Doctest:
  case Runner::Boost: {
    RunnerArguments Out;
    for (auto &[Known, Args] :
         caseArguments(P, *frameworkOfRunner(Kind), Exclusion, Out.Unnamed))
      if (Known == Binary)
        Out.Arguments = Args;
    // A binary tia knows no case of runs whole.
    return Out;
  }
  case Runner::Gtest:
  case Runner::Auto:
    return {{"--gtest_filter=" + gtestFilter(P, Binary, Exclusion)}, 0};
  }
  return {};
}

std::optional<std::string> nothingToRun(const Plan &P, Runner Kind,
                                        llvm::StringRef Binary,
                                        bool Exclusion) {
  if (Kind == Runner::Pytest && !Exclusion && noPytestSelected(P))
    return std::string("no pytest test is selected");
  // lit could run none (--allow-empty-runs), but would write no report.
  if (Kind == Runner::Lit && !Exclusion && !P.selectsAll() &&
      !selectsLitTest(P))
    return std::string("no lit test is selected");
  if (Kind != Runner::Boost || P.selectsAll())
    return std::nullopt;
  // Boost.Test cannot be told to run no case: a binary tia knows whose
  // cases are all skipped does not run.
  unsigned Other = 0;
  auto Lists = [&](bool Skipping) {
    return llvm::any_of(
        caseArguments(P, CaseFramework::Boost, Skipping, Other),
        [&](const auto &Entry) { return Entry.first == Binary; });
  };
  if (Lists(/*Skipping=*/true) && !Lists(/*Skipping=*/false))
    return ("no case of " + Binary + " is selected").str();
  return std::nullopt;
}

int runExitCode(const Plan &P, Runner Kind, int Code) {
  // pytest says "no tests ran" (5) when every test it found was
  // deselected: what a selection of no pytest test asks for.
  if (Kind == Runner::Pytest && Code == 5 && noPytestSelected(P))
    return 0;
  return Code;
}

RunnerArguments fittingSelectionArguments(const Plan &P, Runner Kind,
                                          llvm::StringRef Binary,
                                          bool &Exclusion, bool &Fits) {
  auto TooLong = [](const RunnerArguments &A) {
    return llvm::any_of(A.Arguments, [](const std::string &Arg) {
      return Arg.size() > MaxArgumentSize;
    });
  };
  // lit's arguments keep within bounds by running more (Widened).
  auto Exact = [&](const RunnerArguments &A) {
    return !TooLong(A) && A.Widened.empty();
  };
  Fits = true;
  RunnerArguments First = selectionArguments(P, Kind, Binary, Exclusion);
  if (Exact(First))
    return First;
  // The other form lists the other tests, which may be far fewer.
  RunnerArguments Other = selectionArguments(P, Kind, Binary, !Exclusion);
  if (Exact(Other)) {
    Exclusion = !Exclusion;
    return Other;
  }
  // Neither is exact: a widened form still runs fewer than every test.
  if (!TooLong(First) && !First.Arguments.empty())
    return First;
  if (!TooLong(Other) && !Other.Arguments.empty()) {
    Exclusion = !Exclusion;
    return Other;
  }
  Fits = false;
  First.Arguments.clear();
  First.Widened.clear(); // Fits says it: every test runs.
  return First;
}

} // namespace results
} // namespace tia
