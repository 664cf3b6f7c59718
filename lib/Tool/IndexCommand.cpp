//===- IndexCommand.cpp - tia index ---------------------------------------===//
//
// Resolves what `tia index` indexes (the compilation database's
// translation units in the project, narrowed by .tia.yaml, the PATHs given
// and --shard; the Python files git tracks) and hands it to lib/Index.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Index/Index.h"
#include "tia/Index/Units.h"
#include "tia/Support/Error.h"
#include <chrono>

namespace tia {
namespace tool {

namespace {

/// What `tia index` asks of lib/Index, from its options: the translation
/// units to index, the Python files, the settings, the commit and share.
class IndexRequestBuilder {
public:
  IndexRequestBuilder(const GlobalOptions &G, const IndexOptions &O,
                      const Context &Ctx, llvm::raw_ostream &Err)
      : G(G), O(O), Ctx(Ctx), Err(Err) {}

  /// The request but for the revision (describeRevision()).
  llvm::Expected<index::IndexRequest> build() {
    if (llvm::Error E = chooseWork())
      return E;
    if (llvm::Error E = pythonSettings())
      return E;
    R.Jobs = O.Jobs;
    R.Quiet = G.Quiet;
    return R;
  }

  /// Sets the commit \p Request is of, whether the work tree differs from
  /// it (asked once the database and its .gitignore exist, which git
  /// must not count), and what share this is.
  llvm::Error describeRevision(index::IndexRequest &Request) {
    if (Ctx.Repo) {
      auto Head = Ctx.Repo->headCommit();
      if (!Head)
        return Head.takeError();
      Request.Commit = Head->value_or("");
      auto Dirty = Ctx.Repo->isDirty();
      if (!Dirty)
        return Dirty.takeError();
      Request.Dirty = *Dirty;
    }
    if (Plan)
      Request.Shard = shardRecordOf("index", *Plan, *O.Shard, Request.Commit);
    return llvm::Error::success();
  }

private:
  /// The compilation database's translation units in the project,
  /// narrowed by .tia.yaml and the PATHs given (each must match
  /// something), the Python files, and this machine's share of them.
  llvm::Error chooseWork() {
    // C++ needs a compilation database; a repository with only Python
    // files has none, and that is fine unless -p named one.
    std::vector<CompileCommand> Commands;
    auto BuildDir = index::findBuildDir(O.BuildDir, Ctx.WorkingDir, Ctx.Root);
    if (BuildDir) {
      R.BuildDir = *BuildDir;
      auto Loaded = cpp::loadCompilationDatabase(*BuildDir);
      if (!Loaded)
        return Loaded.takeError();
      Commands = std::move(*Loaded);
    } else if (!O.BuildDir.empty()) {
      return BuildDir.takeError();
    }
    R.Root = Ctx.Root;
    R.FrontEnd.ProjectRoot = Ctx.Root;
    if (!G.ResourceDir.empty())
      R.FrontEnd.ResourceDir = G.ResourceDir;
    if (!R.BuildDir.empty() && R.BuildDir != Ctx.Root &&
        isAtOrBelow(R.BuildDir, Ctx.Root))
      R.FrontEnd.ExcludedDirs.push_back(R.BuildDir);

    for (const std::string &P : O.Paths)
      Paths.push_back(absolutePath(P, Ctx.WorkingDir));
    std::vector<bool> PathUsed(Paths.size(), false);
    index::ProjectUnits Project = index::projectUnits(
        std::move(Commands), Ctx.Root, R.FrontEnd.ExcludedDirs, Ctx.Config,
        Paths, PathUsed);
    R.Units = std::move(Project.Units);
    auto Listed = listPythonFiles(Ctx, Paths);
    if (!Listed)
      return Listed.takeError();
    R.PythonFiles = std::move(*Listed);
    for (size_t I = 0; I < Paths.size(); ++I)
      for (const std::string &F : R.PythonFiles)
        if (isAtOrBelow(Ctx.Root + "/" + F, Paths[I]))
          PathUsed[I] = true;
    if (R.Units.empty() && Paths.empty() && R.PythonFiles.empty()) {
      if (!BuildDir)
        return makeError(llvm::toString(BuildDir.takeError()) +
                         " (nor any Python file tracked by git to index)");
      return makeErrorf("{0}/compile_commands.json has no translation unit "
                        "below {1}, nor is there any Python file tracked by "
                        "git: configure the project there, or run tia inside "
                        "the repository it builds",
                        R.BuildDir, Ctx.Root);
    }
    llvm::consumeError(BuildDir.takeError()); // Python only: no C++ to index.
    for (size_t I = 0; I < Paths.size(); ++I)
      if (!PathUsed[I])
        return makeErrorf("{0} matches no translation unit in "
                          "{1}/compile_commands.json and no Python file git "
                          "tracks: check the path or re-run cmake",
                          O.Paths[I], R.BuildDir.empty() ? "." : R.BuildDir);
    R.Narrowed = !Paths.empty();
    R.WholeDatabase = Paths.empty() && !O.Shard && !Project.ConfigLeftOut;
    R.ShareOfWholeDatabase = Paths.empty() && O.Shard && !Project.ConfigLeftOut;
    return keepShare();
  }

  /// --shard: this machine's share. Python files are indexed whole in
  /// share 1 (the name graph's critical names need them all).
  llvm::Error keepShare() {
    if (!O.Shard)
      return llvm::Error::success();
    auto P =
        keepIndexShare(Ctx, O, R.Units, !R.PythonFiles.empty(), Err, G.Quiet);
    if (!P)
      return P.takeError();
    Plan = std::move(*P);
    if (O.Shard->K != 1)
      R.PythonFiles.clear();
    return llvm::Error::success();
  }

  llvm::Error pythonSettings() {
    if (R.PythonFiles.empty())
      return llvm::Error::success();
    auto Tracked = Ctx.Repo->trackedFiles();
    if (!Tracked)
      return Tracked.takeError();
    R.Tracked = std::move(*Tracked);
    python::PytestSettingsMemo Memo;
    Memo.Remember = [this](llvm::StringRef Key, llvm::StringRef Answer) {
      R.PytestReading.emplace(Key.str(), Answer.str());
    };
    auto Python = pythonOptions(Ctx, Memo);
    if (!Python)
      return Python.takeError();
    R.Python = std::move(*Python);
    R.Static = staticOptions(Ctx, R.Python);
    R.Static.Jobs = O.Jobs;
    return llvm::Error::success();
  }

  const GlobalOptions &G;
  const IndexOptions &O;
  const Context &Ctx;
  llvm::raw_ostream &Err;
  index::IndexRequest R;
  std::vector<std::string> Paths; ///< the PATHs given, absolute
  std::optional<shard::ShardPlan> Plan;
};

} // namespace

llvm::Error runIndex(const GlobalOptions &G, const IndexOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  IndexRequestBuilder Builder(G, O, *Ctx, Err);
  auto Request = Builder.build();
  if (!Request)
    return Request.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadWrite);
  if (!S)
    return S.takeError();
  if (llvm::Error E = anchorPaths(**S, *Ctx, Request->BuildDir))
    return E;
  index::ignoreDatabaseDir(Ctx->DbPath, Ctx->Root);
  if (llvm::Error E = Builder.describeRevision(*Request))
    return E;
  auto Sum = index::indexProject(**S, *Request, Err);
  if (!Sum)
    return Sum.takeError();
  if (!G.Quiet)
    Err << index::summaryLine(
               *Sum, !Request->Units.empty() || !Request->BuildDir.empty(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             Start)
                   .count())
        << "\n";
  return llvm::Error::success();
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
