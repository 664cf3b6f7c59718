//===- SelectCommand.cpp - tia select -------------------------------------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Report/Report.h"
#include "tia/Support/Error.h"

namespace tia {
namespace tool {

int exitCodeOf(const select::Plan &P) {
  // A prediction may cut even a selection of every test: what runs is
  // then a partial, unsafe subset.
  if (P.Order.PredictiveCut && P.partial())
    return SelectedPartial;
  if (P.selectsAll())
    return SelectedAll;
  if (P.partial())
    return SelectedPartial;
  return SelectedSome;
}

llvm::Expected<int> runSelect(const GlobalOptions &G,
                              const SelectCommandOptions &O,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto P = makePlan(G, O);
  if (!P)
    return P.takeError();
  if (llvm::Error E = warnAboutDamagedCoverage(*P->DB, P->Ctx, Err))
    return E;
  const select::Plan &Plan = P->Plan;
  const config::OutputConfig &Defaults = P->Ctx.Config.Output;

  report::Format F = O.Format.value_or(*report::parseFormat(Defaults.Format));
  report::WriteOptions W;
  W.Exclusion = O.Exclusion.value_or(Defaults.Exclusion);
  W.Levels = report::findingLevels(P->Ctx.Config.Report);
  W.CoveredFindings = O.CoveredFindings;
  W.Root = P->Ctx.Root;
  if (O.Explain)
    report::writeExplain(Plan, Out);
  else
    report::write(Plan, F, W, Out, Err);
  if (F == report::Format::Github)
    if (llvm::Error E = report::appendStepSummary(Plan))
      return E;
  // The summary comes last, also where stdout and stderr share a terminal.
  Out.flush();
  if (!G.Quiet)
    report::writeSummary(Plan, Err);
  return O.ExitCode ? exitCodeOf(Plan) : 0;
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
         llvm::cl::desc("Base revision; the change is read from the coverage "
                        "snapshot on its history (default: select.base of "
                        ".tia.yaml)"),
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
} // namespace

namespace {
SelectCommandLine Shared(SelectSubcommand);
llvm::cl::opt<bool>
    Explain("explain",
            llvm::cl::desc("Print, per selected test, every reason that "
                           "selected it"),
            llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
            llvm::cl::sub(SelectSubcommand));
} // namespace

int selectMain(const GlobalOptions &G) {
  if (!Head.empty() && Worktree)
    return usageError("--head and --worktree cannot be used together: pass "
                      "one");
  SelectCommandOptions O;
  if (std::optional<int> Bad = Shared.fill(O))
    return *Bad;
  if (Explain && O.Format && *O.Format != report::Format::Ids)
    return usageError("--explain goes with --format ids: the other formats "
                      "carry the reasons their own way");
  O.Base = Base;
  if (!Head.empty())
    O.Head = Head.getValue();
  O.Explain = Explain;
  auto RC = runSelect(G, O, llvm::outs(), llvm::errs());
  if (!RC)
    return exitCode(RC.takeError());
  return *RC;
}

} // namespace tool
} // namespace tia
