//===- MergeCommand.cpp - tia merge ---------------------------------------===//
//
// `tia merge OUT IN...`: the shard databases of a CI fan-out into one.
// Every input is read and checked before OUT is touched, and OUT is
// written in one transaction, so a refused merge leaves OUT as it was.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Store/Merge.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"
#include "tia/Support/Progress.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace tool {

namespace {

const char *const RunAgain =
    "pass the shard's database as its job stored it, or run that shard again";

/// Store::open's error for a shard: its advice is about --db, a shard's is
/// about the job that made it.
llvm::Error shardOpenError(llvm::Error E) {
  std::string Text = llvm::toString(std::move(E));
  llvm::StringRef Advice = RunAgain;
  for (llvm::StringRef DbAdvice : {" (remove it or pass another --db)",
                                   ": upgrade tia or pass another --db"})
    if (llvm::StringRef(Text).ends_with(DbAdvice)) {
      Text.resize(Text.size() - DbAdvice.size());
      if (DbAdvice.starts_with(":"))
        Advice = "run the shards and the merge with the same tia";
    }
  return makeErrorf("{0}: {1}", Text, Advice);
}

/// Opens and checks every input: a tia database of this schema, intact,
/// holding shard records.
llvm::Expected<std::vector<merge::Input>>
openInputs(const std::vector<std::string> &Paths) {
  std::vector<merge::Input> Inputs;
  for (const std::string &Path : Paths) {
    merge::Input In;
    In.Path = Path;
    if (!llvm::sys::fs::exists(Path))
      return makeErrorf("no shard database at {0}: check the path, or wait "
                        "for that shard's job to store it",
                        Path);
    auto S = Store::open(Path, Store::Mode::ReadOnly);
    if (!S)
      return shardOpenError(S.takeError());
    In.S = std::move(*S);
    // Each input is read about once: with the default cache every open
    // input would keep up to 64 MiB, and a merge of many shards add up.
    if (llvm::Error E = In.S->limitPageCache(4096))
      return E;
    if (llvm::Error E = In.S->checkIntact())
      return makeErrorf("{0}: {1}", llvm::toString(std::move(E)), RunAgain);
    auto Records = In.S->shardRecords();
    if (!Records)
      return makeErrorf("{0}: {1}: run that shard again", Path,
                        llvm::toString(Records.takeError()));
    In.Records = std::move(*Records);
    Inputs.push_back(std::move(In));
  }
  return Inputs;
}

/// "a, b, c and 4 more".
std::string someOf(const std::vector<std::string> &Units) {
  constexpr size_t Shown = 3;
  std::string Out;
  for (size_t I = 0; I < Units.size() && I < Shown; ++I)
    Out += (I ? ", " : "") + Units[I];
  if (Units.size() > Shown)
    Out += llvm::formatv(" and {0} more", Units.size() - Shown).str();
  return Out;
}

void warnMissing(const merge::ShareMatch &M, llvm::raw_ostream &Err) {
  for (const merge::KindShares &KS : M.Kinds)
    for (const merge::MissingShare &S : KS.Missing) {
      Err << llvm::formatv(
          "tia: warning: shard {0}/{1} of {2} is missing: ", S.K, S.N, S.Kind);
      if (S.Kind == "index")
        Err << "its " << S.Units.size() << " translation units ("
            << someOf(S.Units)
            << ") are not indexed, so a change to their files selects "
               "every test";
      else
        Err << "its " << S.Units.size()
            << (S.Kind == "pytest" ? " test files (" : " tests (")
            << someOf(S.Units)
            << ") have no coverage and are selected as never covered";
      Err << "; merge that shard's database too when its job is done\n";
    }
}

std::string sharesText(const merge::ShareMatch &M) {
  std::string Out;
  for (const merge::KindShares &KS : M.Kinds)
    Out += llvm::formatv("{0}{1} {2}/{3}", Out.empty() ? "" : ", ", KS.Kind,
                         KS.Holders.size(), KS.N)
               .str();
  return Out;
}

/// Opens OUT for writing; \p Created tells whether it is new.
llvm::Expected<std::unique_ptr<Store>> openOutput(llvm::StringRef Path,
                                                  bool &Created) {
  Created = !llvm::sys::fs::exists(Path);
  return Store::open(Path, Store::Mode::ReadWrite);
}

/// Removes a database merge created and could not fill.
void removeCreated(llvm::StringRef Path) {
  for (const char *Suffix : {"", "-wal", "-shm", "-journal"})
    llvm::sys::fs::remove(Path.str() + Suffix);
}

} // namespace

llvm::Error runMerge(const GlobalOptions &G, const MergeOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Inputs.empty())
    return makeError("'tia merge' needs the merged database and the shards: "
                     "tia merge OUT IN...");
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  std::string OutPath = absolutePath(O.Output, Ctx->WorkingDir);
  std::vector<std::string> Paths;
  for (const std::string &In : O.Inputs) {
    Paths.push_back(absolutePath(In, Ctx->WorkingDir));
    if (Paths.back() == OutPath)
      return makeErrorf("{0} is both OUT and a shard: merge into another "
                        "file, or give OUT first and the shards after it",
                        O.Output);
  }

  auto Inputs = openInputs(Paths);
  if (!Inputs)
    return Inputs.takeError();
  std::vector<merge::InputRecords> Records;
  for (const merge::Input &In : *Inputs)
    Records.push_back({In.Path, In.Records});
  auto Match = merge::matchShares(Records, Store::SchemaVersion);
  if (!Match)
    return Match.takeError();

  bool Created = false;
  auto S = openOutput(OutPath, Created);
  if (!S)
    return S.takeError();
  Progress Prog("merging", Inputs->size() - Match->Repeated.size(), Err,
                G.Quiet);
  auto Sum = merge::mergeInto(**S, *Inputs, *Match, Prog);
  Prog.finish();
  if (!Sum) {
    S->reset();
    if (Created)
      removeCreated(OutPath);
    return Sum.takeError();
  }
  warnMissing(*Match, Err);
  if (!G.Quiet)
    Err << llvm::formatv(
        "merged {0} shard database{1} ({2}) into {3}: {4} file versions, {5} "
        "translation units; {6} run{7} with {8} results, the coverage of {9} "
        "test{10}{11}{12}\n",
        Sum->Shares, pluralS(Sum->Shares), sharesText(*Match), O.Output,
        Sum->FileVersions, Sum->TranslationUnits, Sum->Runs, pluralS(Sum->Runs),
        Sum->Results, Sum->CoveredTests, pluralS(Sum->CoveredTests),
        Sum->UncoveredTests
            ? llvm::formatv("; {0} tests of missing shards without coverage",
                            Sum->UncoveredTests)
                  .str()
            : std::string(),
        Sum->RetiredTests
            ? llvm::formatv("; {0} test{1} gone, retired", Sum->RetiredTests,
                            pluralS(Sum->RetiredTests))
                  .str()
            : std::string());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    MergeSubcommand("merge",
                    "'tia merge OUT IN...': merge the databases of --shard "
                    "K/N runs (index, collect) into OUT, new or the previous "
                    "main database, as one unsharded run would have made it");

namespace {
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("OUT IN..."),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(MergeSubcommand));
} // namespace

int mergeMain(const GlobalOptions &G) {
  if (Args.size() < 2)
    return usageError("'tia merge' needs the merged database and at least "
                      "one shard: tia merge OUT IN...");
  MergeOptions O;
  O.Output = Args[0];
  O.Inputs.assign(Args.begin() + 1, Args.end());
  return exitCode(runMerge(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
