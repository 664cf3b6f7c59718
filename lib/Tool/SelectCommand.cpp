//===- SelectCommand.cpp - tia select -------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Report/Report.h"
#include "tia/Select/Selection.h"
#include "tia/Support/Error.h"

namespace tia {
namespace tool {

llvm::Error runSelect(const GlobalOptions &G, const SelectCommandOptions &O,
                      llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Base.empty())
    return makeError("no base revision: pass --base REV (for example "
                     "--base origin/main)");
  auto Ctx = makeContext(G, /*NeedGit=*/true);
  if (!Ctx)
    return Ctx.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();

  select::SelectOptions SO;
  SO.Base = O.Base;
  SO.Head = O.Head;
  SO.FrontEnd.ProjectRoot = Ctx->Root;
  if (!G.ResourceDir.empty())
    SO.FrontEnd.ResourceDir = G.ResourceDir;
  auto Sel = select::selectTests(*Ctx->Repo, **S, SO);
  if (!Sel)
    return Sel.takeError();

  if (O.Format == OutputFormat::Json)
    report::writeJson(*Sel, Out);
  else if (O.Explain)
    report::writeExplain(*Sel, Out);
  else
    report::writeIds(*Sel, Out);
  // The summary comes last, also where stdout and stderr share a terminal.
  Out.flush();
  if (!G.Quiet)
    report::writeSummary(*Sel, Err);
  return llvm::Error::success();
}

} // namespace tool
} // namespace tia
