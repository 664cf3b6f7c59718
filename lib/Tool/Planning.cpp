//===- Planning.cpp - the selection select, explain and run share ---------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Predict/Predict.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"

namespace tia {
namespace tool {

namespace {

/// Orders \p P's tests (selected and cut) by the newest model's failure
/// probabilities, applies the budget again, then --predict-top. Without a
/// usable model the heuristic order stays and Plan::Order says why.
llvm::Error orderByPrediction(Context &Ctx, Store &S,
                              const SelectCommandOptions &O,
                              const select::PolicyOptions &PO,
                              select::Plan &P) {
  using select::PlannedTest;
  P.Order.PredictedAsked = true;
  std::vector<PlannedTest> Tests = std::move(P.Selected);
  Tests.insert(Tests.end(), std::make_move_iterator(P.Cut.begin()),
               std::make_move_iterator(P.Cut.end()));
  P.Selected.clear();
  P.Cut.clear();

  predict::RankOptions RO;
  for (const PlannedTest &T : Tests) {
    RO.Tests.push_back(T.Id);
    predict::Evidence &E = RO.Evidences[T.Id];
    E.CoveredModified = T.ChangedElementsCovered;
    E.Selected =
        T.has(select::ReasonKind::Covers) || T.has(select::ReasonKind::Related);
  }
  std::optional<llvm::StringRef> Head;
  if (O.Head)
    Head = *O.Head;
  auto R = predict::rankChange(*Ctx.Repo, S, Ctx.Config.Predict, PO.Select.Base,
                               Head, RO);
  if (!R)
    return R.takeError();
  if (R->How == predict::Method::Model) {
    P.Order.Model = "model #" + std::to_string(R->Model->Id);
    llvm::StringMap<size_t> Rank;
    for (size_t I = 0; I != R->Tests.size(); ++I)
      Rank.try_emplace(R->Tests[I].Id, I);
    // A test the ranking does not know keeps its place after those it
    // ranks.
    auto RankOf = [&](const PlannedTest &T) {
      auto It = Rank.find(T.Id);
      return It == Rank.end() ? R->Tests.size() : It->second;
    };
    for (PlannedTest &T : Tests)
      if (size_t I = RankOf(T); I != R->Tests.size())
        T.Probability = R->Tests[I].Probability;
    std::stable_sort(Tests.begin(), Tests.end(),
                     [&](const PlannedTest &A, const PlannedTest &B) {
                       return RankOf(A) < RankOf(B);
                     });
  } else {
    P.Order.Why = R->Why;
  }
  P.Selected = std::move(Tests);
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
  if (O.PredictTop.active()) {
    size_t Kept = predict::topCount(O.PredictTop, Total);
    if (Kept < P.Selected.size()) {
      P.Cut.insert(P.Cut.begin(),
                   std::make_move_iterator(P.Selected.begin() + Kept),
                   std::make_move_iterator(P.Selected.end()));
      P.Selected.erase(P.Selected.begin() + Kept, P.Selected.end());
      Asked.insert(Asked.begin(), "--predict-top " + O.PredictTop.Spelled);
    }
  }
  if (!Asked.empty()) {
    P.Order.PredictiveCut = true;
    P.Order.CutAsked = llvm::join(Asked, ", ");
    P.Order.Confidence = predict::cutConfidence(*R, P.Selected.size(), Total);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Planned> makePlan(const GlobalOptions &G,
                                 const SelectCommandOptions &O,
                                 llvm::StringRef DefaultBase) {
  auto Made = makeContext(G, /*NeedGit=*/false);
  if (!Made)
    return Made.takeError();
  Context &Ctx = *Made;
  const config::SelectConfig &C = Ctx.Config.Select;
  select::PolicyOptions PO;
  PO.Select.Base = !O.Base.empty() ? O.Base : C.Base;
  if (PO.Select.Base.empty())
    PO.Select.Base = DefaultBase.str();
  if (PO.Select.Base.empty())
    return makeError("no base revision: pass --base REV (for example --base "
                     "origin/main) or set select.base in .tia.yaml");
  if (!Ctx.Repo) {
    auto Repo = git::Repository::discover(Ctx.WorkingDir);
    if (!Repo)
      return Repo.takeError();
    Ctx.Repo.emplace(std::move(*Repo));
  }
  PO.Select.Head = O.Head;
  PO.Select.FrontEnd.ProjectRoot = Ctx.Root;
  if (!G.ResourceDir.empty())
    PO.Select.FrontEnd.ResourceDir = G.ResourceDir;
  auto S = Store::open(Ctx.DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  auto Python = pythonOptions(Ctx, rememberedIn(**S));
  if (!Python)
    return Python.takeError();
  PO.Select.Python = std::move(*Python);
  PO.Select.Mode = O.Mode;
  PO.Select.Static = staticOptions(Ctx, PO.Select.Python);
  PO.Select.Static.ContextMatching = O.ContextMatching;
  PO.Select.Static.CriticalPruning = O.CriticalPruning;
  PO.Select.Included = [Config = std::make_shared<config::Config>(Ctx.Config)](
                           llvm::StringRef P) { return Config->isIncluded(P); };
  PO.Select.PublicHeader =
      [Config = std::make_shared<config::Config>(Ctx.Config)](
          llvm::StringRef P) { return Config->Cpp.PublicHeaders.matches(P); };
  PO.Config = C;
  if (O.All) {
    PO.AllRequestedBy = "--all";
  } else if (std::optional<std::string> Env =
                 llvm::sys::Process::GetEnv("TIA_ALL")) {
    llvm::StringRef V = llvm::StringRef(*Env).trim();
    if (!V.empty() && V != "0" && !V.equals_insensitive("false") &&
        !V.equals_insensitive("no"))
      PO.AllRequestedBy = "TIA_ALL=" + V.str();
  }
  PO.FlakyWindowDays = Ctx.Config.Predict.FlakyWindowDays;
  PO.Limits.MaxTests = O.MaxTests.value_or(C.MaxTests);
  PO.Limits.Seconds = O.TimeBudget.value_or(C.TimeBudget);
  if (!O.BuildDir.empty())
    PO.BuildDir = absolutePath(O.BuildDir, Ctx.WorkingDir);
  if (llvm::Error E = anchorPaths(**S, Ctx, PO.BuildDir))
    return E;
  auto P = select::plan(*Ctx.Repo, **S, PO);
  if (!P)
    return P.takeError();
  if (O.OrderPredicted)
    if (llvm::Error E = orderByPrediction(Ctx, **S, O, PO, *P))
      return E;
  return Planned{std::move(Ctx), std::move(*S), std::move(*P)};
}

llvm::Error warnAboutDamagedCoverage(Store &S, const Context &Ctx,
                                     llvm::raw_ostream &Err) {
  auto D = S.coverageDamage();
  if (!D)
    return D.takeError();
  if (D->empty())
    return llvm::Error::success();
  // Up to three names, then how many more.
  auto Names = [](const std::vector<std::string> &All) {
    std::string Out;
    for (size_t I = 0; I < All.size() && I < 3; ++I)
      Out += (I ? ", " : "") + All[I];
    if (All.size() > 3)
      Out += llvm::formatv(" and {0} more", All.size() - 3).str();
    return Out;
  };
  Err << llvm::formatv("tia: warning: {0} is damaged: the tests covering {1} "
                       "element key{2} ({3}) were read from each test's "
                       "coverage instead",
                       Ctx.DbPath, D->Keys.size(), pluralS(D->Keys.size()),
                       Names(D->Keys));
  if (!D->UnreadableTests.empty())
    Err << llvm::formatv(", and {0} test{1} whose coverage is unreadable "
                         "({2}) selected as covering them",
                         D->UnreadableTests.size(),
                         pluralS(D->UnreadableTests.size()),
                         Names(D->UnreadableTests));
  Err << "; run 'tia coverage repair'\n";
  return llvm::Error::success();
}

llvm::Expected<std::string> recordedCommit(const Context &Ctx,
                                           llvm::StringRef Rev) {
  if (!Rev.empty()) {
    if (!Ctx.Repo)
      return makeError("--commit needs a git repository: run tia inside the "
                       "work tree");
    return Ctx.Repo->resolveCommit(Rev);
  }
  if (!Ctx.Repo)
    return std::string();
  auto H = Ctx.Repo->headCommit();
  if (!H)
    return H.takeError();
  return H->value_or("");
}

} // namespace tool
} // namespace tia
