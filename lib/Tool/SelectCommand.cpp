//===- SelectCommand.cpp - tia select -------------------------------------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
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
  auto Python = pythonOptions(*Ctx);
  if (!Python)
    return Python.takeError();
  SO.Python = std::move(*Python);
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

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    SelectSubcommand("select", "Print the tests a change can affect "
                               "(base...head, or base against the work tree)");

namespace {
llvm::cl::opt<std::string>
    Base("base",
         llvm::cl::desc("Base revision; the change is base...head (from "
                        "their merge base)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(SelectSubcommand));
llvm::cl::opt<std::string>
    Head("head", llvm::cl::desc("Head revision (default: the work tree)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(SelectSubcommand));
llvm::cl::opt<bool>
    Worktree("worktree",
             llvm::cl::desc("Compare the work tree, staged, unstaged and "
                            "untracked files included (the default)"),
             llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
             llvm::cl::sub(SelectSubcommand));
llvm::cl::opt<OutputFormat>
    Format("format", llvm::cl::desc("Output on stdout"),
           llvm::cl::values(clEnumValN(OutputFormat::Ids, "ids",
                                       "one test id per line"),
                            clEnumValN(OutputFormat::Json, "json",
                                       "the selection with its reasons "
                                       "(docs/Formats.md)")),
           llvm::cl::init(OutputFormat::Ids), llvm::cl::cat(tiaCategory()),
           llvm::cl::sub(SelectSubcommand));
llvm::cl::opt<bool>
    Explain("explain",
            llvm::cl::desc("Print, per selected test, the changed elements "
                           "and lines that selected it"),
            llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
            llvm::cl::sub(SelectSubcommand));
} // namespace

int selectMain(const GlobalOptions &G) {
  if (Base.empty())
    return usageError("no base revision: pass --base REV (for example --base "
                      "origin/main)");
  if (!Head.empty() && Worktree)
    return usageError("--head and --worktree cannot be used together: pass "
                      "one");
  if (Explain && Format == OutputFormat::Json)
    return usageError("--explain goes with --format ids: the JSON output "
                      "already carries the reasons");
  SelectCommandOptions O;
  O.Base = Base;
  if (!Head.empty())
    O.Head = Head.getValue();
  O.Format = Format;
  O.Explain = Explain;
  return exitCode(runSelect(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
