//===- Runners.cpp - selections as ctest, GoogleTest and pytest arguments -===//
//
// How tia's test ids become runner arguments:
//  - ctest runs tests by name: "ctest:NAME" is NAME; "gtest:BINARY:S.N" is
//    S.N, the name gtest_discover_tests gives a GoogleTest test.
//  - a GoogleTest binary takes --gtest_filter; "gtest:*:S.N" (a definition
//    whose binary is unknown) goes into every binary's filter.
//  - pytest takes node ids ("pytest:NODE").
// A test known only from its definition ("Suite.Name" of a TEST_P or
// TYPED_TEST) stands for all its instantiations, so it becomes a pattern.
//
//===----------------------------------------------------------------------===//

#include "ReportInternal.h"
#include "tia/Report/Report.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <set>

namespace tia {
namespace report {

using select::Plan;
using select::PlannedTest;

namespace {

/// The ctest name of \p Id; std::nullopt when it is no ctest test.
std::optional<std::string> ctestName(llvm::StringRef Id) {
  if (Id.consume_front("ctest:"))
    return Id.str();
  if (Id.consume_front("gtest:")) {
    llvm::StringRef Name = Id.split(':').second;
    if (!Name.empty())
      return Name.str();
  }
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

/// The ctest names of the tests the exclusion form skips, but for names a
/// selected test has too; \p Unnamed counts the skipped tests of other
/// runners.
std::set<std::string> ctestNamesToSkip(const Plan &P, unsigned &Unnamed) {
  std::set<std::string> Keep, Skip;
  for (const PlannedTest &T : P.Selected)
    if (std::optional<std::string> Name = ctestName(T.Id))
      Keep.insert(*Name);
  for (const std::string &Id : skippedIds(P)) {
    std::optional<std::string> Name = ctestName(Id);
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
    std::set<std::string> Alternatives;
    for (const PlannedTest &T : P.Selected) {
      std::optional<std::string> Name = ctestName(T.Id);
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
  return Out;
}

RunnerArguments ctestNames(const Plan &P, bool Exclusion) {
  RunnerArguments Out;
  std::set<std::string> Names;
  if (!Exclusion) {
    for (const PlannedTest &T : P.Selected) {
      std::optional<std::string> Name = ctestName(T.Id);
      if (!Name || T.FromDefinition)
        ++Out.Unnamed;
      else
        Names.insert(*Name);
    }
  } else {
    Names = ctestNamesToSkip(P, Out.Unnamed);
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

/// Per binary ("*": every binary), the filter patterns of the selected
/// tests.
std::map<std::string, std::set<std::string>> selectedPatterns(const Plan &P) {
  std::map<std::string, std::set<std::string>> Out;
  for (const PlannedTest &T : P.Selected) {
    std::optional<GtestId> G = gtestId(T.Id);
    if (!G)
      continue;
    std::set<std::string> &Patterns = Out[G->Binary];
    if (T.FromDefinition)
      for (std::string &Pattern : definitionPatterns(G->Name))
        Patterns.insert(std::move(Pattern));
    else
      Patterns.insert(G->Name);
  }
  return Out;
}

} // namespace

std::vector<std::pair<std::string, std::string>>
gtestFilters(const Plan &P, bool Exclusion, unsigned &Unnamed) {
  std::set<std::string> Binaries;
  auto Note = [&](llvm::StringRef Id) {
    if (std::optional<GtestId> G = gtestId(Id))
      if (G->Binary != "*")
        Binaries.insert(G->Binary);
  };
  for (const PlannedTest &T : P.Selected)
    Note(T.Id);
  for (const std::string &Id : skippedIds(P))
    Note(Id);

  Unnamed = 0;
  if (!Exclusion) {
    for (const PlannedTest &T : P.Selected)
      if (!gtestId(T.Id))
        ++Unnamed;
  } else {
    for (const std::string &Id : skippedIds(P))
      if (!gtestId(Id))
        ++Unnamed;
  }
  std::vector<std::pair<std::string, std::string>> Out;
  for (const std::string &B : Binaries)
    Out.emplace_back(B, gtestFilter(P, B, Exclusion));
  if (Binaries.empty() && !Exclusion) {
    auto Patterns = selectedPatterns(P);
    auto Star = Patterns.find("*");
    if (Star != Patterns.end())
      Out.emplace_back("*", llvm::join(Star->second, ":"));
  }
  return Out;
}

std::string gtestFilter(const Plan &P, llvm::StringRef Binary, bool Exclusion) {
  if (P.selectsAll())
    return "*";
  auto Patterns = selectedPatterns(P);
  if (!Exclusion) {
    std::set<std::string> Mine;
    for (llvm::StringRef Which : {Binary, llvm::StringRef("*")}) {
      auto It = Patterns.find(Which.str());
      if (It != Patterns.end())
        Mine.insert(It->second.begin(), It->second.end());
    }
    bool Known = false;
    for (const std::string &Id : skippedIds(P))
      if (std::optional<GtestId> G = gtestId(Id))
        Known |= G->Binary == Binary;
    for (const PlannedTest &T : P.Selected)
      if (std::optional<GtestId> G = gtestId(T.Id))
        Known |= G->Binary == Binary;
    // A binary tia never saw holds tests it knows nothing about.
    if (!Known)
      return "*";
    return Mine.empty() ? "-*" : llvm::join(Mine, ":");
  }
  std::set<std::string> Keep, Skip;
  auto It = Patterns.find(Binary.str());
  if (It != Patterns.end())
    Keep = It->second;
  for (const std::string &Id : skippedIds(P))
    if (std::optional<GtestId> G = gtestId(Id))
      if (G->Binary == Binary && !Keep.count(G->Name))
        Skip.insert(G->Name);
  return Skip.empty() ? "*" : "-" + llvm::join(Skip, ":");
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
      Out.Arguments = Selected;
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
  for (const std::string &Id : skippedIds(P)) {
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

} // namespace report
} // namespace tia
