//===- DumpCommand.cpp - tia dump -----------------------------------------===//
//
// Stable, sorted text of what the store holds, for people and lit tests.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Predict/Predict.h"
#include "tia/Store/Dump.h"

namespace tia {
namespace tool {

llvm::Error runDump(const GlobalOptions &G, const DumpOptions &O,
                    llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  switch (O.What) {
  case DumpWhat::Elements:
    return dump::writeElements(**S, O.File, O.Hashes, Out);
  case DumpWhat::Tests:
    return dump::writeTests(**S, Out);
  case DumpWhat::Coverage:
    return dump::writeCoverage(**S, Out);
  case DumpWhat::Results:
    return dump::writeResults(**S, Out);
  case DumpWhat::References:
    return dump::writeReferences(**S, O.File, Out);
  case DumpWhat::Definitions:
    return dump::writeDefinitions(**S, Out);
  case DumpWhat::Names:
    return dumpNames(**S, O, Out);
  case DumpWhat::Evidence:
    return dumpEvidence(**S, Out);
  case DumpWhat::Flaky: {
    auto Flaky = predict::flakyTests(**S, Ctx->Config.Predict);
    if (!Flaky)
      return Flaky.takeError();
    dump::writeFlaky(*Flaky, Out);
    return llvm::Error::success();
  }
  case DumpWhat::Observations:
    return dump::writeObservations(**S, Out);
  case DumpWhat::Files:
    return dump::writeFileReads(**S, Out);
  case DumpWhat::Boundaries:
    return dump::writeBoundaries(**S, Out);
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    DumpSubcommand("dump",
                   "'tia dump elements|references|tests|coverage|"
                   "results|definitions|names|evidence|flaky|observations|"
                   "files|boundaries': "
                   "print what the database holds, sorted and stable");

namespace {
llvm::cl::list<std::string>
    Args(llvm::cl::Positional,
         llvm::cl::desc("elements|references|tests|coverage|results|"
                        "definitions|names|evidence|flaky|observations|files|"
                        "boundaries"),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(DumpSubcommand));
llvm::cl::opt<std::string>
    File("file", llvm::cl::desc("Only this file (repository-relative)"),
         llvm::cl::value_desc("path"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(DumpSubcommand));
llvm::cl::opt<bool> Hashes("hashes",
                           llvm::cl::desc("Print element token hashes (names: "
                                          "bytecode checksums)"),
                           llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
                           llvm::cl::sub(DumpSubcommand));
} // namespace

int dumpMain(const GlobalOptions &G) {
  DumpOptions O;
  if (Args.size() != 1)
    return usageError("'tia dump' needs one of: elements, references, "
                      "tests, coverage, results, definitions, names, "
                      "evidence, flaky, observations, files, boundaries");
  if (Args[0] == "elements")
    O.What = DumpWhat::Elements;
  else if (Args[0] == "tests")
    O.What = DumpWhat::Tests;
  else if (Args[0] == "coverage")
    O.What = DumpWhat::Coverage;
  else if (Args[0] == "results")
    O.What = DumpWhat::Results;
  else if (Args[0] == "references")
    O.What = DumpWhat::References;
  else if (Args[0] == "definitions")
    O.What = DumpWhat::Definitions;
  else if (Args[0] == "names")
    O.What = DumpWhat::Names;
  else if (Args[0] == "evidence")
    O.What = DumpWhat::Evidence;
  else if (Args[0] == "flaky")
    O.What = DumpWhat::Flaky;
  else if (Args[0] == "observations")
    O.What = DumpWhat::Observations;
  else if (Args[0] == "files")
    O.What = DumpWhat::Files;
  else if (Args[0] == "boundaries")
    O.What = DumpWhat::Boundaries;
  else
    return usageError("unknown dump '" + Args[0] +
                      "': use elements, references, tests, coverage, "
                      "results, definitions, names, evidence, flaky, "
                      "observations, files or boundaries");
  O.File = File;
  O.Hashes = Hashes;
  return exitCode(runDump(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
