//===- Request.cpp - a selection as a command asks it ---------------------===//

#include "tia/Select/Request.h"
#include "tia/Select/PythonSettings.h"
#include "tia/Support/Error.h"
#include "tia/Support/Paths.h"
#include "llvm/Support/Process.h"

namespace tia {
namespace select {

namespace {

/// The base and head of \p R, with .tia.yaml's select.base as default.
llvm::Error chooseRevisions(const config::Workspace &W, const Request &R,
                            SelectOptions &S) {
  S.Base = !R.Base.empty() ? R.Base : W.Config.Select.Base;
  if (S.Base.empty())
    S.Base = R.DefaultBase;
  if (S.Base.empty())
    return makeError("no base revision: pass --base REV (for example --base "
                     "origin/main) or set select.base in .tia.yaml");
  S.Head = R.Head;
  return llvm::Error::success();
}

/// The front ends' and static selection's settings, from .tia.yaml and the
/// pytest settings the index into \p S remembered.
llvm::Error chooseFrontEnds(const config::Workspace &W, const Request &R,
                            Store &S, SelectOptions &O) {
  O.FrontEnd.ProjectRoot = W.Root;
  if (!R.ResourceDir.empty())
    O.FrontEnd.ResourceDir = R.ResourceDir;
  auto Python = pythonOptions(W, rememberedIn(S));
  if (!Python)
    return Python.takeError();
  O.Python = std::move(*Python);
  O.Mode = R.Mode;
  O.Static = staticOptions(W, O.Python);
  O.Static.ContextMatching = R.ContextMatching;
  O.Static.CriticalPruning = R.CriticalPruning;
  // The predicates outlive the workspace, which moves into Planned.
  auto Config = std::make_shared<config::Config>(W.Config);
  O.Included = [Config](llvm::StringRef P) { return Config->isIncluded(P); };
  O.PublicHeader = [Config](llvm::StringRef P) {
    return Config->Cpp.PublicHeaders.matches(P);
  };
  return llvm::Error::success();
}

} // namespace

std::string allRequestedBy(bool AllFlag, std::optional<std::string> Env) {
  if (AllFlag)
    return "--all";
  if (!Env)
    return "";
  llvm::StringRef V = llvm::StringRef(*Env).trim();
  if (V.empty() || V == "0" || V.equals_insensitive("false") ||
      V.equals_insensitive("no"))
    return "";
  return "TIA_ALL=" + V.str();
}

llvm::Expected<Planned> planRequest(config::Workspace W, const Request &R) {
  PolicyOptions PO;
  if (llvm::Error E = chooseRevisions(W, R, PO.Select))
    return E;
  if (!W.Repo) {
    auto Repo = git::Repository::discover(W.WorkingDir);
    if (!Repo)
      return Repo.takeError();
    W.Repo.emplace(std::move(*Repo));
  }
  auto S = Store::open(W.DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  if (llvm::Error E = chooseFrontEnds(W, R, **S, PO.Select))
    return E;
  const config::SelectConfig &C = W.Config.Select;
  PO.Config = C;
  PO.AllRequestedBy =
      allRequestedBy(R.All, llvm::sys::Process::GetEnv("TIA_ALL"));
  PO.FlakyWindowDays = W.Config.Predict.FlakyWindowDays;
  PO.Limits.MaxTests = R.MaxTests.value_or(C.MaxTests);
  PO.Limits.Seconds = R.TimeBudget.value_or(C.TimeBudget);
  if (!R.BuildDir.empty())
    PO.BuildDir = absolutePath(R.BuildDir, W.WorkingDir);
  if (llvm::Error E = config::anchorPaths(**S, W, PO.BuildDir))
    return E;
  auto P = plan(*W.Repo, **S, PO);
  if (!P)
    return P.takeError();
  return Planned{std::move(W), std::move(*S), std::move(*P), std::move(PO)};
}

} // namespace select
} // namespace tia
