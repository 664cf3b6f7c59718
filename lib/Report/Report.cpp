//===- Report.cpp - ids, JSON, explain and the summary --------------------===//

#include "tia/Report/Report.h"
#include "ReportInternal.h"
#include "tia/Config/Config.h"
#include "tia/Results/Runners.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Quote.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <cmath>
#include <map>
#include <set>

namespace tia {
namespace report {

using select::ChangedElement;
using select::Fallback;
using select::FallbackKind;
using select::NoIndex;
using select::Plan;
using select::PlannedTest;
using select::ReasonKind;
using select::TestReason;

llvm::StringRef toolVersion() { return TIA_VERSION; }

std::optional<Format> parseFormat(llvm::StringRef Name) {
  static const Format Order[] = {
      Format::Ids,         Format::Json,        Format::Ctest,
      Format::CtestList,   Format::Gtest,       Format::Pytest,
      Format::PytestFiles, Format::Markdown,    Format::Github,
      Format::Catch2,      Format::Doctest,     Format::Boost,
      Format::Sarif,       Format::CodeQuality, Format::Lit};
  const std::vector<std::string> &Names = config::outputFormatNames();
  for (size_t I = 0; I < Names.size() && I < std::size(Order); ++I)
    if (Names[I] == Name)
      return Order[I];
  return std::nullopt;
}

/// How many fallbacks, and files without effect, the text outputs list
/// before "and N more": a change of thousands of files would otherwise
/// print thousands of lines. The JSON output lists them all.
constexpr size_t MaxListed = 5;

/// Free text for JSON: bytes that are not UTF-8 become U+FFFD.
std::string jsonText(llvm::StringRef Text) {
  return llvm::json::isUTF8(Text) ? Text.str() : llvm::json::fixUTF8(Text);
}

std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

std::string shortCommit(llvm::StringRef Commit) {
  return Commit.empty() ? std::string("-") : shortId(Commit);
}

std::string where(const ChangedElement &CE) {
  return quotePath(CE.Elem.File) + ":" + std::to_string(CE.Elem.BeginLine) +
         "-" + std::to_string(CE.Elem.EndLine);
}

std::string fallbackText(const Fallback &F) {
  std::string Scope =
      F.Scope == select::FallbackScope::All      ? "all tests"
      : F.Kind == select::FallbackKind::Boundary ? "tests behind a build object"
      : F.Scope == select::FallbackScope::Readers
          ? "tests reading a data file"
          : "tests of " + plural(F.TranslationUnits.size(), "translation unit",
                                 "translation units");
  return Scope + " (" + select::fallbackName(F.Kind).str() +
         "): " + (F.File.empty() ? std::string() : quotePath(F.File) + ": ") +
         F.Detail;
}

std::string uncoveredText(const ChangedElement &CE) {
  return select::changeName(CE.Change).str() + " " +
         (isFunctionKind(CE.Elem.Kind) ? std::string()
                                       : kindName(CE.Elem.Kind).str() + " ") +
         CE.Elem.Display + " at " + where(CE);
}

namespace {

std::string linesText(const std::vector<unsigned> &Lines) {
  std::string Out;
  for (unsigned L : Lines) {
    if (!Out.empty())
      Out += ",";
    Out += std::to_string(L);
  }
  return Out;
}

} // namespace

std::string describe(const Plan &P, const TestReason &R) {
  switch (R.Kind) {
  case ReasonKind::Fallback: {
    std::string Out = fallbackText(P.Changes.Fallbacks[R.Fallback]);
    if (!R.Detail.empty())
      Out += "; test " + R.Detail;
    return Out;
  }
  case ReasonKind::PreviouslyFailing:
    return "previously failing: " + R.Detail;
  case ReasonKind::NewTest:
    return "new test: " + R.Detail;
  case ReasonKind::ChangedTest:
    return "its own code changed: " + R.Detail;
  case ReasonKind::Covers:
  case ReasonKind::Related:
    break;
  }
  const ChangedElement &CE = P.Changes.Elements[R.Element];
  std::string What =
      select::changeName(CE.Change).str() + " " +
      (isFunctionKind(CE.Elem.Kind) ? std::string()
                                    : kindName(CE.Elem.Kind).str() + " ") +
      CE.Elem.Display + " at " + where(CE);
  std::string Out;
  if (R.By == select::Evidence::Static)
    Out = "reaches " + What + " (static: " + R.Detail + ")";
  else if (R.By == select::Evidence::Source)
    Out = "its own code: " + What;
  else if (R.Kind == ReasonKind::Related)
    Out = What + " may now be called instead: test " + R.Detail;
  else if (R.Detail.empty())
    Out = "covers " + What +
          (R.Through.empty() ? std::string() : " through " + R.Through) +
          (R.AtImport.empty() ? std::string()
                              : " (runs at import: " + R.AtImport + ")");
  else
    Out =
        What + " (" + select::ruleName(R.Applied).str() + "): test " + R.Detail;
  if (!CE.Cause.empty())
    Out += " (" + CE.Cause + ")";
  else if (!CE.Lines.empty())
    Out += std::string(" (changed line") + (CE.Lines.size() > 1 ? "s " : " ") +
           linesText(CE.Lines) +
           (CE.Change == select::ElementChange::Deleted ? " of the base" : "") +
           ")";
  return Out;
}

void writeIds(const Plan &P, const WriteOptions &O, llvm::raw_ostream &OS) {
  if (O.Exclusion) {
    for (const std::string &Id : P.skippedIds())
      OS << Id << "\n";
    return;
  }
  for (const PlannedTest &T : P.Selected)
    OS << quotePath(T.Id) << "\n";
}

namespace {

void jsonTest(llvm::json::OStream &J, const PlannedTest &T) {
  J.object([&] {
    J.attribute("id", jsonPath(T.Id));
    if (T.FromDefinition)
      J.attribute("from_definition", true);
    J.attribute("expected_seconds", T.Seconds);
    J.attribute("duration_known", T.SecondsKnown);
    if (!std::isnan(T.Probability))
      J.attribute("probability", T.Probability);
    J.attributeArray("reasons", [&] {
      for (const TestReason &R : T.Reasons)
        J.object([&] {
          J.attribute("kind", select::reasonName(R.Kind));
          if (R.Element != NoIndex || R.Fallback != NoIndex)
            J.attribute("rule", select::ruleName(R.Applied));
          if (R.Element != NoIndex) {
            J.attribute("element", static_cast<int64_t>(R.Element));
            J.attribute("evidence", select::evidenceName(R.By));
          }
          if (R.Fallback != NoIndex)
            J.attribute("fallback", static_cast<int64_t>(R.Fallback));
          if (!R.Detail.empty())
            J.attribute(R.Element != NoIndex || R.Fallback != NoIndex
                            ? "via"
                            : "detail",
                        R.Detail);
          if (!R.File.empty())
            J.attribute("file", jsonPath(R.File));
          if (!R.Through.empty())
            J.attribute("through", R.Through);
          if (!R.AtImport.empty())
            J.attribute("at_import", R.AtImport);
        });
    });
  });
}

} // namespace

namespace {

/// The budget and what it cut.
void jsonBudget(llvm::json::OStream &J, const Plan &P) {
  J.attributeObject("budget", [&] {
    if (P.Limits.MaxTests)
      J.attribute("max_tests", static_cast<int64_t>(P.Limits.MaxTests));
    else
      J.attribute("max_tests", nullptr);
    if (P.Limits.Seconds > 0)
      J.attribute("seconds", P.Limits.Seconds);
    else
      J.attribute("seconds", nullptr);
    J.attribute("applied", P.Limits.active() && !P.BudgetIgnored);
    J.attribute("cut_tests", static_cast<int64_t>(P.Cut.size()));
  });
}

/// How the tests are ordered, and whether a predictive cut left some out.
void jsonOrder(llvm::json::OStream &J, const Plan &P) {
  J.attributeObject("order", [&] {
    J.attribute("method", P.Order.Model.empty() ? "heuristic" : "model");
    if (!P.Order.Model.empty())
      J.attribute("model", P.Order.Model);
    if (P.Order.PredictedAsked && P.Order.Model.empty())
      J.attribute("why", P.Order.Why);
    J.attribute("predictive_cut", P.Order.PredictiveCut);
    J.attribute("unsafe", P.Order.PredictiveCut);
    if (P.Order.PredictiveCut) {
      J.attribute("cut_by", P.Order.CutAsked);
      if (P.Order.Confidence)
        J.attribute("confidence", *P.Order.Confidence);
      else
        J.attribute("confidence", nullptr);
    }
  });
}

/// The coverage snapshot the selection read (null: none).
void jsonSnapshot(llvm::json::OStream &J, const Plan &P) {
  if (P.Snapshot)
    J.attributeObject("coverage_snapshot", [&] {
      J.attribute("commit", P.Snapshot->Snapshot.Commit);
      J.attribute("diff_from", P.Snapshot->DiffFrom);
      J.attribute("commits_behind_base",
                  static_cast<int64_t>(P.Snapshot->CommitsBehindBase));
      J.attribute("commit_time", P.Snapshot->CommitTime);
      J.attribute("tests", static_cast<int64_t>(P.Snapshot->Snapshot.Tests));
      J.attributeArray("coverage_commits", [&] {
        for (const std::string &Commit : P.Snapshot->Snapshot.CoverageCommits)
          J.value(Commit);
      });
    });
  else
    J.attribute("coverage_snapshot", nullptr);
}

/// The changed files and elements.
void jsonChanges(llvm::json::OStream &J, const Plan &P) {
  const select::Selection &C = P.Changes;
  J.attributeArray("changed_files", [&] {
    for (const select::ChangedFile &F : C.Files)
      J.object([&] {
        J.attribute("path", jsonPath(F.Path));
        if (!F.OldPath.empty() && F.OldPath != F.Path)
          J.attribute("old_path", jsonPath(F.OldPath));
        J.attribute("status", git::statusName(F.Status));
        J.attribute("tests", static_cast<int64_t>(testsOfFile(P, F.Path)));
      });
  });
  J.attributeArray("changed_elements", [&] {
    for (const ChangedElement &CE : C.Elements)
      J.object([&] {
        J.attribute("key", jsonText(CE.Elem.Key));
        J.attribute("display", jsonText(CE.Elem.Display));
        J.attribute("kind", kindName(CE.Elem.Kind));
        J.attribute("change", select::changeName(CE.Change));
        J.attribute("file", jsonPath(CE.Elem.File));
        J.attribute("begin_line", static_cast<int64_t>(CE.Elem.BeginLine));
        J.attribute("end_line", static_cast<int64_t>(CE.Elem.EndLine));
        J.attributeArray("lines", [&] {
          for (unsigned L : CE.Lines)
            J.value(static_cast<int64_t>(L));
        });
        if (!CE.Cause.empty())
          J.attribute("cause", CE.Cause);
      });
  });
}

/// Why more tests run (fallbacks), and the changes that affect none.
void jsonFallbacksAndNotes(llvm::json::OStream &J, const Plan &P) {
  const select::Selection &C = P.Changes;
  J.attributeArray("fallbacks", [&] {
    for (const Fallback &F : C.Fallbacks)
      J.object([&] {
        J.attribute("kind", select::fallbackName(F.Kind));
        J.attribute("file", jsonPath(F.File));
        J.attribute("detail", jsonText(F.Detail));
        J.attribute("scope", select::scopeName(F.Scope));
        if (F.Scope == select::FallbackScope::Includers)
          J.attributeArray("translation_units", [&] {
            for (const std::string &TU : F.TranslationUnits)
              J.value(jsonPath(TU));
          });
      });
  });
  J.attributeArray("notes", [&] {
    for (const select::Note &N : C.Notes)
      J.object([&] {
        J.attribute("file", jsonPath(N.File));
        J.attribute("text", jsonText(N.Text));
      });
  });
}

} // namespace

void writeJson(const Plan &P, llvm::raw_ostream &OS) {
  const select::Selection &C = P.Changes;
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", JsonVersion);
    J.attribute("base", C.BaseCommit);
    J.attribute("diff_base", C.DiffBase);
    if (C.HeadCommit.empty())
      J.attribute("head", nullptr);
    else
      J.attribute("head", C.HeadCommit);
    J.attribute("mode", select::modeName(P.Changes.Mode));
    J.attributeArray("mode_notes", [&] {
      for (const std::string &N : P.Changes.ModeNotes)
        J.value(N);
    });
    J.attribute("selects_all", P.selectsAll());
    J.attribute("partial", P.partial());
    J.attribute("total_tests", static_cast<int64_t>(P.TotalTests));
    J.attribute("selected_tests", static_cast<int64_t>(P.Selected.size()));
    J.attribute("expected_seconds", P.selectedSeconds());
    J.attributeObject("reason_counts", [&] {
      for (ReasonKind K : {ReasonKind::Covers, ReasonKind::Related,
                           ReasonKind::Fallback, ReasonKind::PreviouslyFailing,
                           ReasonKind::NewTest, ReasonKind::ChangedTest}) {
        int64_t N = llvm::count_if(
            P.Selected, [&](const PlannedTest &T) { return T.has(K); });
        J.attribute(select::reasonName(K), N);
      }
    });
    jsonBudget(J, P);
    jsonOrder(J, P);
    J.attributeArray("flaky", [&] {
      for (const FlakyTest &F : P.FlakyFailing)
        J.object([&] {
          J.attribute("id", jsonPath(F.TestId));
          J.attribute("flip_rate", F.FlipRate);
        });
    });
    jsonSnapshot(J, P);
    J.attributeArray("tests", [&] {
      for (const PlannedTest &T : P.Selected)
        jsonTest(J, T);
    });
    J.attributeArray("cut_tests", [&] {
      for (const PlannedTest &T : P.Cut)
        jsonTest(J, T);
    });
    J.attributeArray("not_selected", [&] {
      for (const std::string &Id : P.NotSelected)
        J.value(jsonPath(Id));
    });
    J.attributeArray("undefined_tests", [&] {
      for (const std::string &Id : P.Undefined)
        J.value(jsonPath(Id));
    });
    J.attributeArray("widened_tests", [&] {
      for (const auto &[Instance, Function] : P.Widened)
        J.object([&] {
          J.attribute("instance", jsonPath(Instance));
          J.attribute("function", jsonPath(Function));
        });
    });
    jsonChanges(J, P);
    J.attributeArray("uncovered_elements", [&] {
      for (size_t I : C.Uncovered)
        J.value(static_cast<int64_t>(I));
    });
    jsonFallbacksAndNotes(J, P);
    jsonUntested(J, P);
  });
  OS << "\n";
}

unsigned testsOfFile(const Plan &P, llvm::StringRef Path) {
  unsigned N = 0;
  for (const PlannedTest &T : P.Selected)
    if (llvm::any_of(T.Reasons, [&](const TestReason &R) {
          if (R.Element != NoIndex)
            return P.Changes.Elements[R.Element].Elem.File == Path;
          if (R.Fallback != NoIndex)
            return P.Changes.Fallbacks[R.Fallback].File == Path;
          return !R.File.empty() && R.File == Path;
        }))
      ++N;
  return N;
}

void writeExplain(const Plan &P, llvm::raw_ostream &OS) {
  for (const PlannedTest &T : P.Selected) {
    OS << quotePath(T.Id) << "\n";
    size_t Fallbacks = 0;
    for (const TestReason &R : T.Reasons)
      if (R.Kind != ReasonKind::Fallback || ++Fallbacks <= MaxListed)
        OS << "  " << describe(P, R) << "\n";
    if (Fallbacks > MaxListed)
      OS << "  and " << (Fallbacks - MaxListed)
         << " more fallbacks (--format json lists them all)\n";
  }
  for (const PlannedTest &T : P.Cut)
    OS << (P.Order.PredictiveCut ? "cut by the prediction: "
                                 : "cut by the budget: ")
       << quotePath(T.Id) << "\n";
  for (size_t I : P.Changes.Uncovered)
    OS << (P.Changes.Mode != select::SelectionMode::Static ? "no test covers "
                                                           : "no test reaches ")
       << uncoveredText(P.Changes.Elements[I]) << "\n";
  const std::vector<select::Note> &Notes = P.Changes.Notes;
  for (size_t I = 0; I < Notes.size() && I < MaxListed; ++I)
    OS << "selects nothing: " << quotePath(Notes[I].File) << ": "
       << Notes[I].Text << "\n";
  if (Notes.size() > MaxListed)
    OS << "and " << (Notes.size() - MaxListed)
       << " more files that select nothing (--format json lists them all)\n";
}

namespace {

/// Why every test is selected, for the summary line.
std::string allBecause(const Plan &P) {
  // Fallbacks scoped to some translation units do not select everything.
  std::vector<Fallback> Fs;
  for (const Fallback &F : P.Changes.Fallbacks)
    if (F.Scope == select::FallbackScope::All)
      Fs.push_back(F);
  const Fallback &F = Fs.front();
  std::string Why;
  switch (F.Kind) {
  case FallbackKind::Requested:
    Why = "every test was asked for";
    break;
  case FallbackKind::FullSuiteMarker:
    Why = "the head commit asks for the full suite";
    break;
  case FallbackKind::StaleCoverage:
    Why = "the coverage is stale";
    break;
  case FallbackKind::NoCoverage:
    Why = "no coverage was recorded yet";
    break;
  default: {
    std::set<std::string> Files;
    for (const Fallback &Other : Fs)
      if (!Other.File.empty())
        Files.insert(Other.File);
    Why = F.File +
          (Files.size() > 1
               ? " and " + plural(Files.size() - 1, "other file", "other files")
               : std::string()) +
          " changed";
    return Why;
  }
  }
  if (Fs.size() > 1)
    Why +=
        " (and " + plural(Fs.size() - 1, "more reason", "more reasons") + ")";
  return Why;
}

} // namespace

std::string partialText(const Plan &P) {
  if (P.Order.PredictiveCut)
    return "partial, unsafe: " + P.Order.CutAsked + " left out " +
           plural(P.Cut.size(), "more test", "more tests");
  return "partial: the budget left out " +
         plural(P.Cut.size(), "more test", "more tests");
}

std::string orderText(const Plan &P) {
  if (!P.Order.PredictedAsked)
    return "heuristic";
  if (!P.Order.Model.empty())
    return "predicted by " + P.Order.Model;
  return "heuristic, not predicted: " + P.Order.Why;
}

std::string confidenceText(const Plan &P) {
  if (!P.Order.PredictiveCut)
    return "";
  if (!P.Order.Confidence)
    return "no confidence curve (no model, or no failures in its validation "
           "window)";
  return llvm::formatv("in validation such a cut caught {0:f0}% of the "
                       "failures",
                       *P.Order.Confidence * 100)
      .str();
}

std::string summaryLine(const Plan &P) {
  std::string Line;
  if (P.selectsAll()) {
    // A predictive cut runs only part of them.
    Line = P.partial()
               ? "selected " + std::to_string(P.Selected.size()) + " of all " +
                     plural(P.Selected.size() + P.Cut.size(), "test", "tests")
               : "selected all " + plural(P.Selected.size(), "test", "tests");
    Line += " because " + allBecause(P);
    if (P.BudgetIgnored)
      Line += " (no budget applies when every test must run)";
    if (P.partial())
      Line += " (" + partialText(P) + ")";
    return Line;
  }
  Line = "selected " + std::to_string(P.Selected.size()) + " of " +
         plural(P.TotalTests, "test", "tests");
  bool OnlyQuiet = llvm::all_of(P.Selected, [](const PlannedTest &T) {
    return T.has(ReasonKind::PreviouslyFailing) || T.has(ReasonKind::NewTest);
  });
  if (P.Quiet != select::QuietChange::None && P.Selected.empty() && OnlyQuiet) {
    switch (P.Quiet) {
    case select::QuietChange::Nothing:
      Line += " because nothing changed";
      break;
    case select::QuietChange::Docs:
      Line += " because only docs changed";
      break;
    case select::QuietChange::Ignored:
      Line += " because only files select.ignore names changed";
      break;
    case select::QuietChange::Comments:
      Line += " because only comments or whitespace changed";
      break;
    case select::QuietChange::NoEffect:
      Line += " because no change can affect a test";
      break;
    case select::QuietChange::None:
      break;
    }
  } else {
    Line += " for " +
            plural(P.Changes.Elements.size(), "changed element",
                   "changed elements") +
            " in " +
            plural(P.Changes.ChangedFiles, "changed file", "changed files");
  }
  if (P.partial())
    Line += " (" + partialText(P) + ")";
  return Line;
}

/// The ids left out, and those run through their function, in a line
/// each.
void writeHeadTests(const Plan &P, llvm::raw_ostream &OS) {
  if (!P.Undefined.empty()) {
    OS << "  left out " << plural(P.Undefined.size(), "test", "tests")
       << " the head does not define (deleted or renamed): ";
    for (size_t I = 0; I < P.Undefined.size() && I < MaxListed; ++I)
      OS << (I ? ", " : "") << P.Undefined[I];
    if (P.Undefined.size() > MaxListed)
      OS << ", ...";
    OS << "\n";
  }
  if (!P.Widened.empty()) {
    std::set<std::string> Functions;
    for (const auto &[Instance, Function] : P.Widened)
      Functions.insert(Function);
    OS << "  ran "
       << plural(Functions.size(), "parametrized function",
                 "parametrized functions")
       << " whole, in place of "
       << plural(P.Widened.size(), "instance", "instances")
       << " their files may no longer have (changed since recorded): "
       << *Functions.begin() << (Functions.size() > 1 ? ", ..." : "") << "\n";
  }
}

void writeSummary(const Plan &P, llvm::raw_ostream &OS) {
  const select::Selection &C = P.Changes;
  writeHeadTests(P, OS);
  std::map<std::string, size_t> ByChange;
  for (const ChangedElement &CE : C.Elements)
    ++ByChange[select::changeName(CE.Change).str()];
  for (auto &[Change, N] : ByChange)
    OS << "  " << Change << ": " << plural(N, "element", "elements") << "\n";
  if (!C.Uncovered.empty())
    OS << "  uncovered: "
       << plural(C.Uncovered.size(), "changed element", "changed elements")
       << " no test covers\n";
  for (size_t I = 0; I < C.Notes.size() && I < MaxListed; ++I)
    OS << "  no effect: " << quotePath(C.Notes[I].File) << ": "
       << C.Notes[I].Text << "\n";
  if (C.Notes.size() > MaxListed)
    OS << "  and " << (C.Notes.size() - MaxListed)
       << " more files without effect (--format json lists them all)\n";
  for (size_t I = 0; I < C.Fallbacks.size() && I < MaxListed; ++I)
    OS << "  " << fallbackText(C.Fallbacks[I]) << "\n";
  if (C.Fallbacks.size() > MaxListed)
    OS << "  and " << (C.Fallbacks.size() - MaxListed)
       << " more fallbacks (--format json lists them all)\n";
  if (!P.selectsAll())
    for (const std::string &N : P.Changes.ModeNotes)
      OS << "  " << N << "\n";
  if (!P.selectsAll())
    for (auto [K, Name] :
         {std::pair<ReasonKind, llvm::StringRef>{ReasonKind::PreviouslyFailing,
                                                 "previously failing"},
          {ReasonKind::NewTest, "new"},
          {ReasonKind::ChangedTest, "own code changed"}}) {
      size_t N = llvm::count_if(P.Selected,
                                [&](const PlannedTest &T) { return T.has(K); });
      if (N)
        OS << "  " << Name << ": " << plural(N, "test", "tests") << "\n";
    }
  if (P.Snapshot && P.Snapshot->CommitsBehindBase)
    OS << "  coverage: collected at " << shortCommit(P.Snapshot->DiffFrom)
       << ", " << plural(P.Snapshot->CommitsBehindBase, "commit", "commits")
       << " before the base\n";
  if (P.Order.PredictedAsked)
    OS << "  order: " << orderText(P) << "\n";
  if (!P.FlakyFailing.empty()) {
    OS << "  flaky, not rerun as previously failing:";
    for (size_t I = 0; I < P.FlakyFailing.size() && I < MaxListed; ++I)
      OS << " " << quotePath(P.FlakyFailing[I].TestId)
         << llvm::formatv(" (flip rate {0:f2})", P.FlakyFailing[I].FlipRate);
    if (P.FlakyFailing.size() > MaxListed)
      OS << " and " << (P.FlakyFailing.size() - MaxListed) << " more";
    OS << "\n";
  }
  if (P.Order.PredictiveCut) {
    OS << "  partial, unsafe: " << P.Order.CutAsked << " kept the "
       << P.Selected.size() << " most likely of "
       << plural(P.Selected.size() + P.Cut.size(), "test", "tests")
       << "; a test left out can still fail; " << confidenceText(P) << "\n";
  } else if (P.partial()) {
    std::string Limits;
    if (P.Limits.MaxTests)
      Limits = "--max-tests " + std::to_string(P.Limits.MaxTests);
    if (P.Limits.Seconds > 0)
      Limits += (Limits.empty() ? "" : ", ") +
                llvm::formatv("--time-budget {0}", P.Limits.Seconds).str();
    OS << "  partial: " << Limits << " left out "
       << plural(P.Cut.size(), "selected test", "selected tests") << "\n";
  }
  OS << summaryLine(P) << "\n";
}

void write(const Plan &P, Format F, const WriteOptions &O,
           llvm::raw_ostream &OS, llvm::raw_ostream &Warn) {
  results::RunnerArguments Args;
  auto Print = [&](const results::RunnerArguments &A, llvm::StringRef Runner) {
    for (const std::string &Arg : A.Arguments)
      OS << Arg << "\n";
    if (A.Unnamed)
      Warn << "tia: warning: " << plural(A.Unnamed, "test", "tests")
           << (O.Exclusion ? " to skip " : " to run ")
           << (A.Unnamed == 1 ? "is not a " : "are not ") << Runner
           << (A.Unnamed == 1 ? " test and is" : " tests and are")
           << " left out of --format " << Runner << "\n";
    if (!A.Widened.empty())
      Warn << "tia: warning: " << A.Widened << "\n";
  };
  switch (F) {
  case Format::Ids:
    return writeIds(P, O, OS);
  case Format::Json:
    return writeJson(P, OS);
  case Format::Markdown:
    return writeMarkdown(P, OS);
  case Format::Github:
    // The outputs go to $GITHUB_OUTPUT; the runner reads workflow
    // commands from the step's log, stderr included.
    writeGithubOutputs(P, O, OS);
    return writeGithubAnnotations(P, O, Warn);
  case Format::Sarif:
    return writeSarif(P, O, OS);
  case Format::CodeQuality:
    return writeCodeQuality(P, O, OS);
  case Format::Ctest:
    return Print(results::ctestArguments(P, O.Exclusion), "ctest");
  case Format::CtestList:
    return Print(results::ctestNames(P, O.Exclusion), "ctest");
  case Format::Lit:
    return Print(results::litArguments(P, O.Exclusion), "lit");
  case Format::Pytest:
  case Format::PytestFiles:
    Args = results::pytestArguments(P, O.Exclusion, F == Format::PytestFiles);
    Print(Args, "pytest");
    if (!O.Exclusion && !P.selectsAll() && Args.Arguments.empty())
      Warn << "tia: warning: no pytest test is selected: do not run pytest "
              "(without arguments it runs every test)\n";
    return;
  case Format::Gtest: {
    unsigned Unnamed = 0;
    for (auto &[Binary, Filter] :
         results::gtestFilters(P, O.Exclusion, Unnamed))
      OS << Binary << " --gtest_filter=" << Filter << "\n";
    results::RunnerArguments None;
    None.Unnamed = Unnamed;
    return Print(None, "gtest");
  }
  case Format::Catch2:
  case Format::Doctest:
  case Format::Boost: {
    CaseFramework Framework = F == Format::Catch2    ? CaseFramework::Catch2
                              : F == Format::Doctest ? CaseFramework::Doctest
                                                     : CaseFramework::Boost;
    unsigned Unnamed = 0;
    for (auto &[Binary, Specs] :
         results::caseArguments(P, Framework, O.Exclusion, Unnamed)) {
      OS << Binary;
      for (const std::string &Spec : Specs)
        OS << " " << shellQuoted(Spec);
      OS << "\n";
    }
    results::RunnerArguments None;
    None.Unnamed = Unnamed;
    return Print(None, caseFrameworkName(Framework));
  }
  }
}

} // namespace report
} // namespace tia
