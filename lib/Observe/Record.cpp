//===- Record.cpp - the selection an observed run would have had ----------===//
//
// The record is made once, right after the run, while the plans are at
// hand: what each mode would have done with every test the run ran, and
// why the asked mode would have skipped a test that failed. So `tia
// observed` never has to redo a selection at an old commit.
//
//===----------------------------------------------------------------------===//

#include "tia/Observe/Record.h"
#include "tia/Report/Report.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <set>

namespace tia {
namespace observe {

using select::Plan;
using select::PlannedTest;

llvm::StringRef fateName(Fate F) {
  switch (F) {
  case Fate::Selected:
    return "selected";
  case Fate::Cut:
    return "cut";
  case Fate::NotSelected:
    return "not-selected";
  case Fate::Unknown:
    return "unknown";
  }
  return "unknown";
}

std::optional<Fate> parseFate(llvm::StringRef Name) {
  for (Fate F : {Fate::Selected, Fate::Cut, Fate::NotSelected, Fate::Unknown})
    if (fateName(F) == Name)
      return F;
  return std::nullopt;
}

bool wouldRun(Fate F, bool Exclusion) {
  return F == Fate::Selected || (F == Fate::Unknown && Exclusion);
}

const ModeRecord *Record::mode(llvm::StringRef Name) const {
  for (const ModeRecord &M : Modes)
    if (M.Mode == Name)
      return &M;
  return nullptr;
}

namespace {

/// True when \p Planned, a test id from a GoogleTest definition
/// ("gtest:BIN:Suite.Name", "gtest:*:Suite.Name"), stands for result
/// \p Id ("gtest:BIN:Inst/Suite.Name/0").
bool definitionMatches(llvm::StringRef Planned, llvm::StringRef Id) {
  if (!Planned.consume_front("gtest:") || !Id.consume_front("gtest:"))
    return Planned == Id;
  auto [PlannedBinary, Pattern] = Planned.split(':');
  auto [Binary, Name] = Id.split(':');
  if (PlannedBinary != "*" && PlannedBinary != Binary)
    return false;
  return select::gtestNameMatches(Name, Pattern);
}

/// "Name" of "gtest:BIN:Inst/Suite.Name/2" or "gtest:*:Suite.Name".
llvm::StringRef gtestCaseName(llvm::StringRef Id) {
  Id.consume_front("gtest:");
  return Id.split(':').second.split('.').second.split('/').first;
}

/// A plan's tests, looked up by id.
class PlanLookup {
public:
  explicit PlanLookup(const Plan &P) : P(P) {
    add(P.Selected, Selected, SelectedDefinitions);
    add(P.Cut, Cut, CutDefinitions);
    // The ids of definitions are among the others, without a mark: a
    // GoogleTest id may stand for instances, found by the case's name.
    for (const std::string &Id : P.NotSelected)
      if (llvm::StringRef(Id).starts_with("gtest:"))
        NotSelectedByName[gtestCaseName(Id)].push_back(Id);
  }

  Fate fate(llvm::StringRef Id) const {
    if (P.selectsAll() || holds(Selected, SelectedDefinitions, Id))
      return Fate::Selected;
    if (holds(Cut, CutDefinitions, Id))
      return Fate::Cut;
    if (std::binary_search(P.NotSelected.begin(), P.NotSelected.end(),
                           Id.str()))
      return Fate::NotSelected;
    auto Named = NotSelectedByName.find(gtestCaseName(Id));
    if (Named != NotSelectedByName.end() &&
        llvm::any_of(Named->second, [&](llvm::StringRef D) {
          return definitionMatches(D, Id);
        }))
      return Fate::NotSelected;
    return Fate::Unknown;
  }

private:
  static void add(const std::vector<PlannedTest> &Tests, llvm::StringSet<> &Ids,
                  std::vector<llvm::StringRef> &Definitions) {
    for (const PlannedTest &T : Tests) {
      Ids.insert(T.Id);
      if (T.FromDefinition)
        Definitions.push_back(T.Id);
    }
  }
  static bool holds(const llvm::StringSet<> &Ids,
                    const std::vector<llvm::StringRef> &Definitions,
                    llvm::StringRef Id) {
    return Ids.contains(Id) ||
           llvm::any_of(Definitions, [&](llvm::StringRef D) {
             return definitionMatches(D, Id);
           });
  }

  const Plan &P;
  llvm::StringSet<> Selected, Cut;
  std::vector<llvm::StringRef> SelectedDefinitions, CutDefinitions;
  llvm::StringMap<std::vector<llvm::StringRef>> NotSelectedByName;
};

/// "covers", "covers (type-use)", "fallback (trigger)".
std::string reasonText(const Plan &P, const select::TestReason &R) {
  std::string Out = select::reasonName(R.Kind).str();
  if (R.Element != select::NoIndex && R.Applied != select::Rule::Covers)
    Out += " (" + select::ruleName(R.Applied).str() + ")";
  if (R.Fallback != select::NoIndex && R.Fallback < P.Changes.Fallbacks.size())
    Out += " (" +
           select::fallbackName(P.Changes.Fallbacks[R.Fallback].Kind).str() +
           ")";
  return Out;
}

/// The distinct tests of \p Results and their seconds, every attempt
/// counted.
llvm::StringMap<double> secondsByTest(const std::vector<TestResult> &Results) {
  llvm::StringMap<double> Out;
  for (const TestResult &R : Results)
    Out[R.TestId] += R.Seconds;
  return Out;
}

ModeRecord modeRecord(const ModePlan &MP, const llvm::StringMap<double> &Ran,
                      bool Exclusion) {
  ModeRecord M;
  M.Mode = select::modeName(MP.Mode).str();
  if (!MP.Plan) {
    M.Error = MP.Error;
    return M;
  }
  const Plan &P = *MP.Plan;
  M.Summary = report::summaryLine(P);
  M.SelectsAll = P.selectsAll();
  for (const select::Fallback &F : P.Changes.Fallbacks)
    M.Fallbacks.push_back({select::fallbackName(F.Kind).str(), F.File, F.Detail,
                           select::scopeName(F.Scope).str()});
  if (!M.SelectsAll)
    for (const PlannedTest &T : P.Selected) {
      SelectedRecord S{T.Id, {}};
      for (const select::TestReason &R : T.Reasons)
        S.Reasons.push_back(reasonText(P, R));
      M.Selected.push_back(std::move(S));
    }
  for (const PlannedTest &T : P.Cut)
    M.Cut.push_back(T.Id);
  M.MaxTests = P.Limits.MaxTests;
  M.BudgetSeconds = P.Limits.Seconds;
  PlanLookup Lookup(P);
  for (const auto &Entry : Ran) {
    Fate F = Lookup.fate(Entry.first());
    double Seconds = Entry.second;
    if (wouldRun(F, Exclusion)) {
      ++M.WouldRun;
      M.WouldRunSeconds += Seconds;
    } else if (F == Fate::Cut) {
      ++M.CutRun;
      M.CutSeconds += Seconds;
    }
  }
  return M;
}

/// The tests that failed in some attempt, sorted.
std::vector<std::string> failedTests(const std::vector<TestResult> &Results) {
  std::set<std::string> Failed;
  for (const TestResult &R : Results)
    if (isFailure(R.Result))
      Failed.insert(R.TestId);
  return {Failed.begin(), Failed.end()};
}

/// The lines \p Explain writes for \p Id, without the empty ones.
llvm::Expected<std::vector<std::string>>
explanation(const ExplainFn &Explain, const Plan &P, llvm::StringRef Id) {
  std::vector<std::string> Lines;
  if (!Explain)
    return Lines;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (llvm::Error E = Explain(P, Id, OS))
    return E;
  OS.flush();
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Text).split(Parts, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef L : Parts)
    Lines.push_back(L.rtrim().str());
  return Lines;
}

} // namespace

Fate fateOf(const Plan &P, llvm::StringRef Id) {
  return PlanLookup(P).fate(Id);
}

llvm::Expected<Record> makeRecord(const std::vector<ModePlan> &Modes,
                                  const RecordInput &In) {
  Record R;
  R.Runner = In.Runner;
  R.Exclusion = In.Exclusion;
  llvm::StringMap<double> Ran = secondsByTest(In.Results);
  R.Tests = Ran.size();
  for (const auto &Entry : Ran)
    R.Seconds += Entry.second;
  const Plan *Asked = nullptr;
  for (const ModePlan &MP : Modes) {
    R.Modes.push_back(modeRecord(MP, Ran, In.Exclusion));
    if (!Asked && MP.Plan)
      Asked = MP.Plan;
  }
  if (!Modes.empty())
    R.Mode = R.Modes.front().Mode;
  if (Asked) {
    R.Base = Asked->Changes.BaseCommit;
    R.Head = Asked->Changes.HeadCommit;
    for (const select::ChangedFile &F : Asked->Changes.Files)
      R.ChangedFiles.push_back(F.Path);
  }
  const Plan *First = Modes.empty() ? nullptr : Modes.front().Plan;
  for (const std::string &Id : failedTests(In.Results)) {
    FailureRecord F{Id, {}, {}};
    for (const ModePlan &MP : Modes)
      if (MP.Plan)
        F.Fates[select::modeName(MP.Mode).str()] = fateOf(*MP.Plan, Id);
    if (First && !wouldRun(fateOf(*First, Id), In.Exclusion)) {
      auto Why = explanation(In.Explain, *First, Id);
      if (!Why)
        return Why.takeError();
      F.Why = std::move(*Why);
    }
    R.Failures.push_back(std::move(F));
  }
  return R;
}

} // namespace observe
} // namespace tia
