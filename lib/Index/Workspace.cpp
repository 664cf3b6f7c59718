//===- Workspace.cpp - what `tia index` indexes ---------------------------===//

#include "tia/Index/Workspace.h"
#include "tia/Index/Index.h"
#include "tia/Index/Units.h"
#include "tia/Select/PythonSettings.h"
#include "tia/Support/Error.h"
#include "tia/Support/Paths.h"
#include <chrono>

namespace tia {
namespace index {

namespace {

/// What `tia index` asks of lib/Index, from its options: the translation
/// units to index, the Python files, the settings, the commit and share.
class IndexRequestBuilder {
public:
  IndexRequestBuilder(const IndexOptions &O, const config::Workspace &Ctx,
                      bool Quiet, llvm::StringRef ResourceDir,
                      llvm::raw_ostream &Err)
      : O(O), Ctx(Ctx), Quiet(Quiet), ResourceDir(ResourceDir), Err(Err) {}

  /// The request but for the revision (describeRevision()).
  llvm::Expected<IndexRequest> build() {
    if (llvm::Error E = chooseWork())
      return E;
    if (llvm::Error E = pythonSettings())
      return E;
    R.Jobs = O.Jobs;
    R.Quiet = Quiet;
    return R;
  }

  /// Sets the commit \p Request is of, whether the work tree differs from
  /// it (asked once the database and its .gitignore exist, which git
  /// must not count), and what share this is.
  llvm::Error describeRevision(IndexRequest &Request) {
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
    auto BuildDir = findBuildDir(O.BuildDir, Ctx.WorkingDir, Ctx.Root);
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
    if (!ResourceDir.empty())
      R.FrontEnd.ResourceDir = ResourceDir.str();
    if (!R.BuildDir.empty() && R.BuildDir != Ctx.Root &&
        isAtOrBelow(R.BuildDir, Ctx.Root))
      R.FrontEnd.ExcludedDirs.push_back(R.BuildDir);

    for (const std::string &P : O.Paths)
      Paths.push_back(absolutePath(P, Ctx.WorkingDir));
    std::vector<bool> PathUsed(Paths.size(), false);
    ProjectUnits Project =
        projectUnits(std::move(Commands), Ctx.Root, R.FrontEnd.ExcludedDirs,
                     Ctx.Config, Paths, PathUsed);
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
        keepIndexShare(Ctx, O, R.Units, !R.PythonFiles.empty(), Err, Quiet);
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
    auto Python = select::pythonOptions(Ctx, Memo);
    if (!Python)
      return Python.takeError();
    R.Python = std::move(*Python);
    R.Static = select::staticOptions(Ctx, R.Python);
    R.Static.Jobs = O.Jobs;
    return llvm::Error::success();
  }

  const IndexOptions &O;
  const config::Workspace &Ctx;
  bool Quiet;
  llvm::StringRef ResourceDir;
  llvm::raw_ostream &Err;
  IndexRequest R;
  std::vector<std::string> Paths; ///< the PATHs given, absolute
  std::optional<shard::ShardPlan> Plan;
};

} // namespace

llvm::Error indexIn(const config::Workspace &W, const IndexOptions &O,
                    bool Quiet, llvm::StringRef ResourceDir,
                    llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  IndexRequestBuilder Builder(O, W, Quiet, ResourceDir, Err);
  auto Request = Builder.build();
  if (!Request)
    return Request.takeError();
  auto S = Store::open(W.DbPath, Store::Mode::ReadWrite);
  if (!S)
    return S.takeError();
  if (llvm::Error E = config::anchorPaths(**S, W, Request->BuildDir))
    return E;
  ignoreDatabaseDir(W.DbPath, W.Root);
  if (llvm::Error E = Builder.describeRevision(*Request))
    return E;
  auto Sum = indexProject(**S, *Request, Err);
  if (!Sum)
    return Sum.takeError();
  if (!Quiet)
    Err << summaryLine(*Sum,
                       !Request->Units.empty() || !Request->BuildDir.empty(),
                       std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - Start)
                           .count())
        << "\n";
  return llvm::Error::success();
}

} // namespace index
} // namespace tia
