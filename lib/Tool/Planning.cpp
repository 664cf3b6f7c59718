//===- Planning.cpp - the selection select, explain and run share ---------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Support/Error.h"
#include "llvm/Support/Process.h"

namespace tia {
namespace tool {

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
  auto Python = pythonOptions(Ctx);
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
  PO.Limits.MaxTests = O.MaxTests.value_or(C.MaxTests);
  PO.Limits.Seconds = O.TimeBudget.value_or(C.TimeBudget);
  if (!O.BuildDir.empty())
    PO.BuildDir = absolutePath(O.BuildDir, Ctx.WorkingDir);
  auto S = Store::open(Ctx.DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  auto P = select::plan(*Ctx.Repo, **S, PO);
  if (!P)
    return P.takeError();
  return Planned{std::move(Ctx), std::move(*S), std::move(*P)};
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
