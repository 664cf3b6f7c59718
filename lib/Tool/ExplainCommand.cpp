//===- ExplainCommand.cpp - tia explain -----------------------------------===//
//
// Why one test is or is not selected, for the change select would read:
// the selection is made as select makes it, lib/Report explains it.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Report/Explain.h"
#include "tia/Support/Error.h"

namespace tia {
namespace tool {

llvm::Error runExplain(const GlobalOptions &G, const ExplainOptions &O,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Test.empty())
    return makeError("no test given: tia explain TEST (an id from 'tia dump "
                     "tests' or 'tia select')");
  auto Made = makePlan(G, O.Select, "HEAD");
  if (!Made)
    return Made.takeError();
  if (llvm::Error E = warnAboutDamagedCoverage(*Made->DB, Made->Ctx, Err))
    return E;
  const select::Plan &P = Made->Plan;
  auto Id = report::findTest(P, O.Test);
  if (!Id)
    return Id.takeError();
  return report::explainTest(P, *Made->DB, *Id, Out);
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand ExplainSubcommand("explain",
                                       "'tia explain TEST': why a test is or "
                                       "is not selected for a change");

namespace {
llvm::cl::list<std::string> Args(llvm::cl::Positional, llvm::cl::desc("TEST"),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(ExplainSubcommand));
llvm::cl::opt<std::string>
    Base("base",
         llvm::cl::desc("Base revision (default: select.base of .tia.yaml, "
                        "else HEAD)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(ExplainSubcommand));
llvm::cl::opt<std::string>
    Head("head", llvm::cl::desc("Head revision (default: the work tree)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(ExplainSubcommand));
llvm::cl::opt<select::SelectionMode> Mode(
    "mode",
    llvm::cl::desc("The mode whose decision to explain (as 'tia select "
                   "--mode')"),
    llvm::cl::values(clEnumValN(select::SelectionMode::Combined, "combined",
                                "coverage where the map has evidence, "
                                "static analysis elsewhere (default)"),
                     clEnumValN(select::SelectionMode::Coverage, "coverage",
                                "the coverage map only"),
                     clEnumValN(select::SelectionMode::Static, "static",
                                "static analysis only")),
    llvm::cl::init(select::SelectionMode::Combined),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(ExplainSubcommand));
} // namespace

int explainMain(const GlobalOptions &G) {
  if (Args.size() != 1)
    return usageError("'tia explain' needs one test: tia explain TEST "
                      "[--base REV]");
  ExplainOptions O;
  O.Test = Args[0];
  O.Select.Base = Base;
  O.Select.Mode = Mode;
  if (!Head.empty())
    O.Select.Head = Head.getValue();
  return exitCode(runExplain(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
