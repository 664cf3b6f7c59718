//===- Planning.cpp - the selection select, explain and run share ---------===//

#include "CommandsInternal.h"
#include "tia/Predict/PlanOrder.h"
#include "tia/Support/Plural.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace tool {

namespace {

select::Request requestOf(const GlobalOptions &G, const SelectCommandOptions &O,
                          llvm::StringRef DefaultBase) {
  select::Request R;
  R.Base = O.Base;
  R.DefaultBase = DefaultBase.str();
  R.Head = O.Head;
  R.Mode = O.Mode;
  R.ContextMatching = O.ContextMatching;
  R.CriticalPruning = O.CriticalPruning;
  R.All = O.All;
  R.MaxTests = O.MaxTests;
  R.TimeBudget = O.TimeBudget;
  R.BuildDir = O.BuildDir;
  R.ResourceDir = G.ResourceDir;
  return R;
}

} // namespace

llvm::Expected<Planned> makePlan(const GlobalOptions &G,
                                 const SelectCommandOptions &O,
                                 llvm::StringRef DefaultBase) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  auto Made =
      select::planRequest(std::move(*Ctx), requestOf(G, O, DefaultBase));
  if (!Made)
    return Made.takeError();
  if (O.OrderPredicted)
    if (llvm::Error E = predict::orderByPrediction(*Made, O.PredictTop))
      return E;
  return Made;
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

} // namespace tool
} // namespace tia
