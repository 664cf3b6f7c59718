//===- Report.cpp - classing the failures of observed runs ----------------===//
//
// A failure is unstable before anything else: a flaky test, or one that
// passed again at the same commit, says nothing about the selection, and
// counting it as an escape would make selection look worse than it is (or,
// selected, better). The others are caught when the asked mode would have
// run them and escaped when it would not.
//
//===----------------------------------------------------------------------===//

#include "tia/Observe/Report.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

namespace tia {
namespace observe {

llvm::StringRef className(Class C) {
  switch (C) {
  case Class::Caught:
    return "caught";
  case Class::Escaped:
    return "escaped";
  case Class::Unstable:
    return "unstable";
  }
  return "caught";
}

double escapeRate(unsigned Caught, unsigned Escaped) {
  return Caught + Escaped ? double(Escaped) / (Caught + Escaped) : 0;
}

std::string summaryLine(const Report &R) {
  unsigned Failures = R.Caught + R.Escaped + R.Unstable;
  std::string Out = llvm::formatv(
      "observed {0} run{1}: {2} failure{3}, {4} caught, {5} escaped, {6} "
      "unstable (escape rate {7:f1}%)",
      R.Runs.size(), pluralS(R.Runs.size()), Failures, pluralS(Failures),
      R.Caught, R.Escaped, R.Unstable, 100 * escapeRate(R.Caught, R.Escaped));
  if (R.Tests)
    Out += llvm::formatv("; the selection would have run {0:f1}% of the tests",
                         100.0 * R.WouldRun / R.Tests)
               .str();
  return Out;
}

namespace {

/// The results of each test, for finding a pass at the same commit.
class Outcomes {
public:
  Outcomes(const std::vector<RunRecord> &Runs,
           const std::vector<RunResult> &Results) {
    for (const RunRecord &R : Runs)
      CommitOf[R.Id] = R.Commit;
    for (const RunResult &R : Results)
      ByTest[R.Result.TestId].push_back(&R);
  }

  std::string commitOf(int64_t Run) const {
    auto It = CommitOf.find(Run);
    return It == CommitOf.end() ? std::string() : It->second;
  }

  /// Why test \p Id passed again where it failed in run \p Run: "passed on
  /// a retry" (a later attempt of the run), "passed in run N at the same
  /// commit"; empty when it did not.
  std::string passedAgain(llvm::StringRef Id, int64_t Run) const {
    auto It = ByTest.find(Id);
    if (It == ByTest.end())
      return "";
    std::string Commit = commitOf(Run);
    for (const RunResult *R : It->second) {
      if (R->Result.Result != Outcome::Passed)
        continue;
      if (R->RunId == Run)
        return "passed on a retry in the same run";
      if (!Commit.empty() && commitOf(R->RunId) == Commit)
        return llvm::formatv("passed in run {0} at the same commit", R->RunId);
    }
    return "";
  }

private:
  std::map<int64_t, std::string> CommitOf;
  llvm::StringMap<std::vector<const RunResult *>> ByTest;
};

/// The changes select.ignore hid, from the lines of an explanation
/// ("no effect: data/flag.txt: never affects a test (select.ignore
/// 'data/**')"): "data/flag.txt ('data/**')", at most three.
std::vector<std::string> ignoredChanges(const std::vector<std::string> &Why) {
  std::vector<std::string> Out;
  for (const std::string &Line : Why) {
    llvm::StringRef L = llvm::StringRef(Line).trim();
    if (!L.consume_front("no effect: "))
      continue;
    auto [File, Rest] = L.split(": never affects a test (select.ignore ");
    if (Rest.empty())
      continue;
    if (Out.size() == 3) {
      Out.push_back("...");
      break;
    }
    Out.push_back((File + " (" + Rest.drop_back() + ")").str());
  }
  return Out;
}

/// What missed an escape, pointing at the rule: the budget, --inclusion, a
/// select.ignore pattern, or the mode's links.
std::string missedBy(const Record &Rec, const ModeRecord *M,
                     const FailureRecord &F, Fate Asked) {
  if (Asked == Fate::Cut) {
    std::vector<std::string> Asks;
    if (M && M->MaxTests)
      Asks.push_back("--max-tests " + std::to_string(M->MaxTests));
    if (M && M->BudgetSeconds > 0)
      Asks.push_back(llvm::formatv("--time-budget {0}", M->BudgetSeconds));
    return "selected, then cut by the budget (" + llvm::join(Asks, ", ") + ")";
  }
  if (Asked == Fate::Unknown)
    return "unknown to tia, and --inclusion runs only the tests it knows";
  bool Never = !F.Why.empty() &&
               llvm::StringRef(F.Why.front()).contains("never recorded");
  std::string Out = Never ? "not selected: tia has no record of it in the " +
                                Rec.Mode + " selection"
                          : "not selected: in the " + Rec.Mode +
                                " selection no changed element reaches it";
  std::vector<std::string> Hidden = ignoredChanges(F.Why);
  if (!Hidden.empty())
    Out += "; select.ignore hid " + llvm::join(Hidden, ", ");
  return Out;
}

/// Why \p Id is unstable in run \p Run; empty when it is not.
std::string unstableWhy(const llvm::StringMap<const FlakyTest *> &Flaky,
                        const Outcomes &O, llvm::StringRef Id, int64_t Run) {
  auto It = Flaky.find(Id);
  if (It != Flaky.end())
    return llvm::formatv("flaky: its outcome flipped {0} of {1} times at one "
                         "commit",
                         It->second->Flips, It->second->Pairs);
  return O.passedAgain(Id, Run);
}

RunReport classify(const RunRecord &Run, Record Rec,
                   const llvm::StringMap<const FlakyTest *> &Flaky,
                   const Outcomes &O) {
  RunReport R;
  R.RunId = Run.Id;
  R.Commit = Run.Commit;
  R.StartedAt = Run.StartedAt;
  const ModeRecord *Asked = Rec.mode(Rec.Mode);
  for (const FailureRecord &F : Rec.Failures) {
    ClassifiedFailure C;
    C.Id = F.Id;
    C.Fates = F.Fates;
    // No fate: the asked selection failed, and tia run would have stopped
    // with its error rather than skip anything.
    auto It = F.Fates.find(Rec.Mode);
    C.AskedFate = It == F.Fates.end() ? Fate::Selected : It->second;
    C.Why = unstableWhy(Flaky, O, F.Id, Run.Id);
    if (!C.Why.empty()) {
      C.Kind = Class::Unstable;
      ++R.Unstable;
    } else if (wouldRun(C.AskedFate, Rec.Exclusion)) {
      C.Kind = Class::Caught;
      ++R.Caught;
    } else {
      C.Kind = Class::Escaped;
      C.Why = missedBy(Rec, Asked, F, C.AskedFate);
      C.Explanation = F.Why;
      ++R.Escaped;
    }
    R.Failures.push_back(std::move(C));
  }
  R.Rec = std::move(Rec);
  return R;
}

/// Adds \p R to the totals of its modes and of the budget.
void addTotals(const RunReport &R, Report &Out) {
  Out.Caught += R.Caught;
  Out.Escaped += R.Escaped;
  Out.Unstable += R.Unstable;
  for (ModeTotals &T : Out.Modes) {
    const ModeRecord *M = R.Rec.mode(T.Mode);
    if (!M || !M->Error.empty())
      continue;
    ++T.Runs;
    T.Tests += R.Rec.Tests;
    T.Seconds += R.Rec.Seconds;
    T.WouldRun += M->WouldRun;
    T.WouldRunSeconds += M->WouldRunSeconds;
    for (const ClassifiedFailure &F : R.Failures) {
      auto It = F.Fates.find(T.Mode);
      if (F.Kind == Class::Unstable || It == F.Fates.end())
        continue;
      ++(wouldRun(It->second, R.Rec.Exclusion) ? T.Caught : T.Escaped);
    }
  }
  const ModeRecord *Asked = R.Rec.mode(R.Rec.Mode);
  Out.Tests += R.Rec.Tests;
  Out.Seconds += R.Rec.Seconds;
  if (!Asked || !Asked->Error.empty()) {
    Out.WouldRun += R.Rec.Tests;
    Out.WouldRunSeconds += R.Rec.Seconds;
    return;
  }
  Out.WouldRun += Asked->WouldRun;
  Out.WouldRunSeconds += Asked->WouldRunSeconds;
  if (Asked->CutRun) {
    ++Out.BudgetRuns;
    Out.BudgetCut += Asked->CutRun;
    Out.BudgetCutSeconds += Asked->CutSeconds;
    Out.BudgetCutFailures +=
        llvm::count_if(R.Failures, [](const ClassifiedFailure &F) {
          return F.Kind == Class::Escaped && F.AskedFate == Fate::Cut;
        });
  }
}

} // namespace

Report makeReport(const ReportInput &In) {
  Report Out;
  for (llvm::StringRef M : {"combined", "coverage", "static"})
    Out.Modes.push_back({M.str()});
  llvm::StringMap<const FlakyTest *> Flaky;
  for (const FlakyTest &F : In.Flaky)
    Flaky[F.TestId] = &F;
  Outcomes O(In.Runs, In.Results);
  std::map<int64_t, const RunRecord *> Runs;
  for (const RunRecord &R : In.Runs)
    Runs[R.Id] = &R;
  for (const StoredObservation &S : In.Observations) {
    auto Rec = parseRecord(S.Record, S.FormatVersion);
    auto Run = Runs.find(S.RunId);
    if (!Rec || Run == Runs.end()) {
      Out.Skipped.push_back(
          llvm::formatv("run {0}: {1}", S.RunId,
                        Rec ? std::string("the run is missing")
                            : llvm::toString(Rec.takeError())));
      continue;
    }
    Out.Runs.push_back(classify(*Run->second, std::move(*Rec), Flaky, O));
    addTotals(Out.Runs.back(), Out);
  }
  return Out;
}

} // namespace observe
} // namespace tia
