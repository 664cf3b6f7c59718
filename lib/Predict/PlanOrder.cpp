//===- PlanOrder.cpp - a selection in a model's order ---------------------===//

#include "tia/Predict/PlanOrder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace predict {

namespace {

using select::PlannedTest;

/// What the ranking knows of each test: the selection's evidence.
RankOptions rankOptionsOf(const std::vector<PlannedTest> &Tests) {
  RankOptions RO;
  for (const PlannedTest &T : Tests) {
    RO.Tests.push_back(T.Id);
    Evidence &E = RO.Evidences[T.Id];
    E.CoveredModified = T.ChangedElementsCovered;
    E.Selected =
        T.has(select::ReasonKind::Covers) || T.has(select::ReasonKind::Related);
  }
  return RO;
}

/// Sorts \p Tests into \p R's order and gives them its probabilities.
void sortByRanking(const Ranking &R, std::vector<PlannedTest> &Tests) {
  llvm::StringMap<size_t> Rank;
  for (size_t I = 0; I != R.Tests.size(); ++I)
    Rank.try_emplace(R.Tests[I].Id, I);
  // A test the ranking does not know keeps its place after those it ranks.
  auto RankOf = [&](const PlannedTest &T) {
    auto It = Rank.find(T.Id);
    return It == Rank.end() ? R.Tests.size() : It->second;
  };
  for (PlannedTest &T : Tests)
    if (size_t I = RankOf(T); I != R.Tests.size())
      T.Probability = R.Tests[I].Probability;
  std::stable_sort(Tests.begin(), Tests.end(),
                   [&](const PlannedTest &A, const PlannedTest &B) {
                     return RankOf(A) < RankOf(B);
                   });
}

/// Moves the tests after the first \p Kept of \p P.Selected to the front
/// of P.Cut; true when it moved any.
bool keepFirst(size_t Kept, select::Plan &P) {
  if (Kept >= P.Selected.size())
    return false;
  P.Cut.insert(P.Cut.begin(),
               std::make_move_iterator(P.Selected.begin() + Kept),
               std::make_move_iterator(P.Selected.end()));
  P.Selected.erase(P.Selected.begin() + Kept, P.Selected.end());
  return true;
}

/// Cuts the ordered \p P by its budget and \p Top, and says which options
/// asked for a predictive cut and how confident the model is of it.
void cutPredictively(const Ranking &R, const TopCut &Top, select::Plan &P) {
  size_t Total = P.Selected.size();
  // In a model's order the budget keeps the most likely tests: a predictive
  // subset like --predict-top, which applies even where every test must run.
  bool Predictive = !P.Order.Model.empty();
  P.BudgetIgnored = false;
  select::applyBudget(P, /*EvenWhenAll=*/Predictive);
  std::vector<std::string> Asked;
  if (Predictive && P.partial()) {
    if (P.Limits.MaxTests)
      Asked.push_back("--max-tests " + std::to_string(P.Limits.MaxTests));
    if (P.Limits.Seconds > 0)
      Asked.push_back(llvm::formatv("--time-budget {0}", P.Limits.Seconds));
  }
  if (Top.active() && keepFirst(topCount(Top, Total), P))
    Asked.insert(Asked.begin(), "--predict-top " + Top.Spelled);
  if (Asked.empty())
    return;
  P.Order.PredictiveCut = true;
  P.Order.CutAsked = llvm::join(Asked, ", ");
  P.Order.Confidence = cutConfidence(R, P.Selected.size(), Total);
}

} // namespace

llvm::Error orderByPrediction(select::Planned &M, const TopCut &Top) {
  select::Plan &P = M.Plan;
  P.Order.PredictedAsked = true;
  std::vector<PlannedTest> Tests = std::move(P.Selected);
  Tests.insert(Tests.end(), std::make_move_iterator(P.Cut.begin()),
               std::make_move_iterator(P.Cut.end()));
  P.Selected.clear();
  P.Cut.clear();

  std::optional<llvm::StringRef> Head;
  if (M.Policy.Select.Head)
    Head = *M.Policy.Select.Head;
  auto R = rankChange(*M.Ctx.Repo, *M.DB, M.Ctx.Config.Predict,
                      M.Policy.Select.Base, Head, rankOptionsOf(Tests));
  if (!R)
    return R.takeError();
  if (R->How == Method::Model) {
    P.Order.Model = "model #" + std::to_string(R->Model->Id);
    sortByRanking(*R, Tests);
  } else {
    P.Order.Why = R->Why;
  }
  P.Selected = std::move(Tests);
  cutPredictively(*R, Top, P);
  return llvm::Error::success();
}

} // namespace predict
} // namespace tia
