//===- IndexCommand.cpp - tia index ---------------------------------------===//
//
// Wires the options of `tia index` to lib/Index, which works out what to
// index (index::indexIn) and indexes it.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"

namespace tia {
namespace tool {

llvm::Error runIndex(const GlobalOptions &G, const IndexOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  return index::indexIn(*Ctx, O, G.Quiet, G.ResourceDir, Err);
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand IndexSubcommand(
    "index", "Index the C++ translation units of a compilation database (all, "
             "or those at or below PATHs)");

namespace {
llvm::cl::opt<std::string> BuildDir(
    "p",
    llvm::cl::desc("Build directory with compile_commands.json (default: "
                   "./build, then .)"),
    llvm::cl::value_desc("build-dir"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(IndexSubcommand));
llvm::cl::opt<unsigned> Jobs("jobs",
                             llvm::cl::desc("Translation units parsed at once "
                                            "(default: one per core)"),
                             llvm::cl::init(0), llvm::cl::cat(tiaCategory()),
                             llvm::cl::sub(IndexSubcommand));
llvm::cl::alias JobsShort("j", llvm::cl::desc("Alias for --jobs"),
                          llvm::cl::aliasopt(Jobs));
llvm::cl::opt<std::string> Shard(
    "shard",
    llvm::cl::desc("Index only share K of N of the translation units (and, "
                   "in share 1, the Python files), the same shares on every "
                   "machine"),
    llvm::cl::value_desc("K/N"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(IndexSubcommand));
llvm::cl::opt<std::string> BalanceFrom(
    "balance-from",
    llvm::cl::desc("With --shard: balance the shares by the parse times "
                   "this database recorded (default: by source size)"),
    llvm::cl::value_desc("db"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(IndexSubcommand));
llvm::cl::list<std::string> Paths(llvm::cl::Positional,
                                  llvm::cl::desc("[PATH...]"),
                                  llvm::cl::cat(tiaCategory()),
                                  llvm::cl::sub(IndexSubcommand));
} // namespace

int indexMain(const GlobalOptions &G) {
  IndexOptions O;
  O.BuildDir = BuildDir;
  O.Jobs = Jobs;
  O.Paths = Paths;
  if (std::optional<int> Bad =
          parseShardOptions(Shard, BalanceFrom, O.Shard, O.BalanceFrom))
    return *Bad;
  return exitCode(runIndex(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
