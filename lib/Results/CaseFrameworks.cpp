//===- CaseFrameworks.cpp - the binaries of GoogleTest, Catch2, doctest, Boost
//===//
//
// What tia knows of a test binary of a case framework: how to recognise
// one, how it lists its cases, and which arguments of a ctest command that
// runs it choose cases. Collect lists and runs cases with it; `tia run`
// recognises the binary it is given.
//
//===----------------------------------------------------------------------===//

#include "tia/Results/Runners.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tia {
namespace results {

namespace {

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

} // namespace

/// The framework whose cases the ctest command \p Command runs, if any.
std::optional<CaseFramework>
frameworkOfCommand(const std::vector<std::string> &Command) {
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

/// The ctest test's own choice of cases (Catch2 test specs, doctest
/// filters) and its other arguments.
std::pair<std::vector<std::string>, std::vector<std::string>>
splitCaseArguments(CaseFramework F, llvm::ArrayRef<std::string> Command) {
  if (F == CaseFramework::Boost)
    return splitBoostTestArguments(Command);
  return F == CaseFramework::Doctest ? splitDoctestArguments(Command)
                                     : splitCatch2Arguments(Command);
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

} // namespace results
} // namespace tia
