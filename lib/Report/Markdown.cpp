//===- Markdown.cpp - the pull request comment and GitHub outputs ---------===//

#include "ReportInternal.h"
#include "tia/Report/Report.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include <ctime>
#include <map>

namespace tia {
namespace report {

using select::Plan;
using select::PlannedTest;
using select::ReasonKind;

namespace {

/// \p Text as inline code, safe inside a table cell.
std::string code(llvm::StringRef Text) {
  std::string Escaped;
  for (char C : Text) {
    if (C == '|')
      Escaped += '\\';
    Escaped += C;
  }
  if (Text.contains('`'))
    return "`` " + Escaped + " ``";
  return "`" + Escaped + "`";
}

/// \p Text safe inside a table cell.
std::string cell(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '|')
      Out += '\\';
    Out += C == '\n' ? ' ' : C;
  }
  return Out;
}

/// "2026-01-31" for seconds since the epoch, in UTC.
std::string date(int64_t Seconds) {
  std::time_t T = static_cast<std::time_t>(Seconds);
  std::tm Parts{};
  gmtime_r(&T, &Parts);
  return llvm::formatv("{0:D4}-{1:D2}-{2:D2}", Parts.tm_year + 1900,
                       Parts.tm_mon + 1, Parts.tm_mday)
      .str();
}

llvm::StringRef reasonTitle(ReasonKind K) {
  switch (K) {
  case ReasonKind::Covers:
    return "Covers a changed function";
  case ReasonKind::Related:
    return "May call a new function (same name)";
  case ReasonKind::Fallback:
    return "Every test: tia cannot reason about a change";
  case ReasonKind::PreviouslyFailing:
    return "Previously failing";
  case ReasonKind::NewTest:
    return "Newly added or never covered";
  case ReasonKind::ChangedTest:
    return "Its own code changed";
  }
  return "";
}

/// The first reason of \p T, short.
std::string why(const Plan &P, const PlannedTest &T) {
  const select::TestReason &R = T.Reasons.front();
  std::string Out;
  switch (R.Kind) {
  case ReasonKind::Covers:
  case ReasonKind::Related: {
    const select::ChangedElement &CE = P.Changes.Elements[R.Element];
    std::string Kind = isFunctionKind(CE.Elem.Kind)
                           ? std::string()
                           : kindName(CE.Elem.Kind).str() + " ";
    if (R.Kind == ReasonKind::Related)
      Out = "may call new ";
    else if (R.Applied == select::Rule::Covers)
      Out = "covers ";
    else
      Out = "reaches (" + select::ruleName(R.Applied).str() + ") ";
    Out += select::changeName(CE.Change).str() + " " + Kind +
           code(CE.Elem.Display);
    if (!R.Through.empty()) {
      auto [What, Path] = llvm::StringRef(R.Through).split(' ');
      Out += " through " + What.str() + " " + code(Path);
    }
    break;
  }
  case ReasonKind::Fallback: {
    const select::Fallback &F = P.Changes.Fallbacks[R.Fallback];
    if (F.Scope == select::FallbackScope::Readers)
      Out = (llvm::StringRef(R.Detail).starts_with("reads ")
                 ? "reads " + code(F.File)
                 : cell(R.Detail)) +
            " (" + select::fallbackName(F.Kind).str() + ")";
    else
      Out = (F.Scope == select::FallbackScope::All
                 ? "every test ("
                 : "compiled with " + code(F.File) + " (") +
            select::fallbackName(F.Kind).str() + ")";
    break;
  }
  default:
    Out = cell(describe(P, R));
    break;
  }
  if (T.Reasons.size() > 1)
    Out +=
        " and " + plural(T.Reasons.size() - 1, "more reason", "more reasons");
  return Out;
}

constexpr size_t MaxRows = 50;

/// The headline: how many tests, how long, and the strategy.
void writeHeadline(const Plan &P, llvm::raw_ostream &OS) {
  OS << "## Test impact analysis\n\n";
  if (P.selectsAll())
    OS << "**Selected all " << plural(P.Selected.size(), "test", "tests")
       << "** (100%)";
  else
    OS << "**Selected " << P.Selected.size() << " of "
       << plural(P.TotalTests, "test", "tests") << "** ("
       << llvm::formatv("{0:F1}%",
                        P.TotalTests ? 100.0 * P.Selected.size() / P.TotalTests
                                     : 0.0)
       << ")";
  bool AllKnown = llvm::all_of(
      P.Selected, [](const PlannedTest &T) { return T.SecondsKnown; });
  bool AnyKnown = llvm::any_of(
      P.Selected, [](const PlannedTest &T) { return T.SecondsKnown; });
  if (AnyKnown && P.selectedSeconds() < 0.1)
    OS << ", expected to take under 0.1 s";
  else if (AnyKnown)
    OS << llvm::formatv(", expected to take {0}{1:F1} s",
                        AllKnown ? "" : "about ", P.selectedSeconds());
  OS << ".\n\n";
  OS << "Strategy: tests impacted by the change ∪ previously failing ∪ newly "
        "added; every test when tia cannot reason about a change.\n\n";
}

/// Why more runs than the change needs (fallbacks), or less (a budget,
/// a predictive cut).
void writeScope(const Plan &P, llvm::raw_ostream &OS) {
  const select::Selection &C = P.Changes;
  for (const select::Fallback &F : C.Fallbacks)
    OS << (F.Scope == select::FallbackScope::All
               ? std::string("**Every test runs: ")
           : F.Scope == select::FallbackScope::Readers
               ? std::string("**The tests that read it run: ")
               : "**The tests of " +
                     plural(F.TranslationUnits.size(), "translation unit",
                            "translation units") +
                     " run: ")
       << (F.File.empty() ? std::string() : code(F.File) + " changed: ")
       << F.Detail << " (" << select::fallbackName(F.Kind) << ").**\n\n";
  if (P.BudgetIgnored)
    OS << "The budget does not apply when every test must run.\n\n";
  if (P.Order.PredictiveCut)
    OS << "**Partial and unsafe: a predictive subset (" << P.Order.CutAsked
       << ") runs the " << P.Selected.size()
       << " most likely to fail and leaves out "
       << plural(P.Cut.size(), "test", "tests") << " that can still fail; "
       << confidenceText(P) << ".**\n\n";
  else if (P.partial())
    OS << "**Partial selection: the budget ("
       << (P.Limits.MaxTests
               ? "at most " + plural(P.Limits.MaxTests, "test", "tests")
               : std::string())
       << (P.Limits.MaxTests && P.Limits.Seconds > 0 ? ", " : "")
       << (P.Limits.Seconds > 0
               ? llvm::formatv("at most {0} s", P.Limits.Seconds).str()
               : std::string())
       << ") left out "
       << plural(P.Cut.size(), "selected test", "selected tests")
       << "; they will not run.**\n\n";
  if (P.Selected.empty() && !P.selectsAll())
    OS << summaryLine(P) << ".\n\n";
}

/// How many tests each reason selected.
void writeReasonTable(const Plan &P, llvm::raw_ostream &OS) {
  std::vector<std::pair<llvm::StringRef, size_t>> Rows;
  for (ReasonKind K :
       {ReasonKind::Covers, ReasonKind::Related, ReasonKind::PreviouslyFailing,
        ReasonKind::NewTest, ReasonKind::ChangedTest, ReasonKind::Fallback}) {
    size_t N = llvm::count_if(P.Selected,
                              [&](const PlannedTest &T) { return T.has(K); });
    if (!N)
      continue;
    if (K != ReasonKind::Fallback || P.selectsAll()) {
      Rows.push_back({reasonTitle(K), N});
      continue;
    }
    // Scoped fallbacks: to translation units, or to a data file's readers.
    for (select::FallbackScope S :
         {select::FallbackScope::Includers, select::FallbackScope::Readers}) {
      size_t M = llvm::count_if(P.Selected, [&](const PlannedTest &T) {
        return llvm::any_of(T.Reasons, [&](const auto &R) {
          return R.Kind == ReasonKind::Fallback &&
                 P.Changes.Fallbacks[R.Fallback].Scope == S;
        });
      });
      if (M)
        Rows.push_back({S == select::FallbackScope::Readers
                            ? "Read a changed data file"
                            : "Compiled with a file tia cannot reason about",
                        M});
    }
  }
  if (!Rows.empty()) {
    OS << "| Reason | Tests |\n|---|---:|\n";
    for (auto &[Title, N] : Rows)
      OS << "| " << Title << " | " << N << " |\n";
    OS << "\n";
  }
}

/// Each changed file, with the tests it selected.
void writeChangedFiles(const Plan &P, llvm::raw_ostream &OS) {
  const select::Selection &C = P.Changes;
  if (!C.Files.empty()) {
    OS << "### Changed files\n\n| File | Change | Tests selected by it |\n"
          "|---|---|---:|\n";
    for (size_t I = 0; I < C.Files.size() && I < MaxRows; ++I) {
      const select::ChangedFile &F = C.Files[I];
      OS << "| " << code(F.Path) << " | " << git::statusName(F.Status) << " | "
         << testsOfFile(P, F.Path) << " |\n";
    }
    if (C.Files.size() > MaxRows)
      OS << "| and " << C.Files.size() - MaxRows << " more | | |\n";
    OS << "\n";
  }
}

/// The changed functions no test covers.
void writeUncovered(const Plan &P, llvm::raw_ostream &OS) {
  const select::Selection &C = P.Changes;
  if (!C.Uncovered.empty()) {
    OS << "### Changed functions no test covers\n\n";
    for (size_t I : C.Uncovered) {
      const select::ChangedElement &CE = C.Elements[I];
      OS << "- " << code(CE.Elem.Display) << " at " << code(where(CE)) << " ("
         << select::changeName(CE.Change)
         << (isFunctionKind(CE.Elem.Kind) ? std::string()
                                          : " " + kindName(CE.Elem.Kind).str())
         << ")\n";
    }
    OS << "\n";
  }
}

/// Failing tests left out because they are flaky.
void writeFlaky(const Plan &P, llvm::raw_ostream &OS) {
  if (!P.FlakyFailing.empty()) {
    OS << "### Flaky tests\n\nTheir latest result failed, but their "
          "outcome also changed without a change, so that failure is not a "
          "reason to run them:\n\n";
    for (size_t I = 0; I < P.FlakyFailing.size() && I < MaxRows; ++I)
      OS << "- " << code(P.FlakyFailing[I].TestId)
         << llvm::formatv(" (flip rate {0:f2})", P.FlakyFailing[I].FlipRate)
         << "\n";
    if (P.FlakyFailing.size() > MaxRows)
      OS << "- and " << P.FlakyFailing.size() - MaxRows << " more\n";
    OS << "\n";
  }
}

/// The changes that affect no test, and why.
void writeNotes(const Plan &P, llvm::raw_ostream &OS) {
  const select::Selection &C = P.Changes;
  if (!C.Notes.empty()) {
    OS << "### Changes that affect no test\n\n";
    for (const select::Note &N : C.Notes)
      OS << "- " << code(N.File) << ": " << N.Text << "\n";
    OS << "\n";
  }
}

/// The coverage snapshot the selection read.
void writeCoverage(const Plan &P, llvm::raw_ostream &OS) {
  const select::Selection &C = P.Changes;
  OS << "### Coverage\n\n";
  if (P.Snapshot) {
    const select::SnapshotUse &U = *P.Snapshot;
    OS << "Coverage snapshot " << code(shortCommit(U.Snapshot.Commit)) << " of "
       << date(U.CommitTime) << " ("
       << plural(U.Snapshot.Tests, "test", "tests") << ")";
    if (U.DiffFrom != U.Snapshot.Commit)
      OS << ", with coverage from as early as "
         << code(shortCommit(U.DiffFrom));
    if (U.CommitsBehindBase)
      OS << "; the change is read from " << code(shortCommit(U.DiffFrom))
         << ", " << plural(U.CommitsBehindBase, "commit", "commits")
         << " before the base " << code(shortCommit(C.BaseCommit));
    else
      OS << ", at the base";
    OS << ".\n\n";
  } else {
    OS << "No coverage snapshot could be used.\n\n";
  }
}

/// The selected tests in run order, with why each runs.
void writeSelectedTests(const Plan &P, llvm::raw_ostream &OS) {
  if (!P.Selected.empty()) {
    OS << "<details><summary>Selected tests, in run order"
       << (P.Order.PredictedAsked ? " (" + orderText(P) + ")" : std::string())
       << "</summary>\n\n"
          "| # | Test | Why |\n|---:|---|---|\n";
    for (size_t I = 0; I < P.Selected.size() && I < MaxRows; ++I)
      OS << "| " << I + 1 << " | " << code(P.Selected[I].Id) << " | "
         << why(P, P.Selected[I]) << " |\n";
    if (P.Selected.size() > MaxRows)
      OS << "| | and " << P.Selected.size() - MaxRows << " more | |\n";
    OS << "\n</details>\n";
  }
}

} // namespace

void writeMarkdown(const Plan &P, llvm::raw_ostream &OS) {
  writeHeadline(P, OS);
  writeScope(P, OS);
  writeReasonTable(P, OS);
  writeChangedFiles(P, OS);
  writeUncovered(P, OS);
  writeFlaky(P, OS);
  writeNotes(P, OS);
  writeCoverage(P, OS);
  writeSelectedTests(P, OS);
  markdownUntested(OS, P);
}

void writeGithubOutputs(const Plan &P, const WriteOptions &O,
                        llvm::raw_ostream &OS) {
  std::vector<std::string> Ids;
  if (O.Exclusion)
    Ids = P.skippedIds();
  else
    for (const PlannedTest &T : P.Selected)
      Ids.push_back(T.Id);
  std::string Delimiter = "TIA_END_OF_TESTS";
  while (llvm::is_contained(Ids, Delimiter))
    Delimiter += "_";
  OS << "selected=" << P.Selected.size() << "\n"
     << "total=" << P.TotalTests << "\n"
     << "selects_all=" << (P.selectsAll() ? "true" : "false") << "\n"
     << "partial=" << (P.partial() ? "true" : "false") << "\n"
     << "unsafe=" << (P.Order.PredictiveCut ? "true" : "false") << "\n"
     << "summary=" << summaryLine(P) << "\n"
     << (O.Exclusion ? "skip" : "tests") << "<<" << Delimiter << "\n";
  for (const std::string &Id : Ids)
    OS << Id << "\n";
  OS << Delimiter << "\n";
}

llvm::Error appendStepSummary(const Plan &P) {
  std::optional<std::string> File =
      llvm::sys::Process::GetEnv("GITHUB_STEP_SUMMARY");
  if (!File || File->empty())
    return llvm::Error::success();
  std::error_code EC;
  llvm::raw_fd_ostream OS(*File, EC, llvm::sys::fs::OF_Append);
  if (EC)
    return makeErrorf("cannot write the step summary {0}: {1}", *File,
                      EC.message());
  writeMarkdown(P, OS);
  return llvm::Error::success();
}

} // namespace report
} // namespace tia
