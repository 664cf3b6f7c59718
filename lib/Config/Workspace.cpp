//===- Workspace.cpp - where a command runs -------------------------------===//

#include "tia/Config/Workspace.h"
#include "tia/Support/Error.h"
#include "tia/Support/Paths.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

namespace tia {
namespace config {

namespace {

llvm::Expected<std::string> absoluteWorkingDir(llvm::StringRef Given) {
  if (!Given.empty())
    return absolutePath(Given, ".");
  llvm::SmallString<256> Cwd;
  if (std::error_code EC = llvm::sys::fs::current_path(Cwd))
    return makeErrorf("cannot read the working directory: {0}", EC.message());
  return std::string(Cwd);
}

std::string databasePath(llvm::StringRef Db, const Workspace &W) {
  if (!Db.empty())
    return absolutePath(Db, W.WorkingDir);
  if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("TIA_DB");
      Env && !Env->empty())
    return absolutePath(*Env, W.WorkingDir);
  return W.Root + "/.tia/tia.db";
}

} // namespace

llvm::Expected<Workspace> findWorkspace(llvm::StringRef WorkingDir,
                                        llvm::StringRef Db, bool NeedGit) {
  Workspace W;
  auto Dir = absoluteWorkingDir(WorkingDir);
  if (!Dir)
    return Dir.takeError();
  W.WorkingDir = std::move(*Dir);

  auto Repo = git::Repository::discover(W.WorkingDir);
  if (Repo) {
    W.Root = Repo->workdir();
    W.Repo.emplace(std::move(*Repo));
  } else if (NeedGit) {
    return Repo.takeError();
  } else {
    llvm::consumeError(Repo.takeError()); // Outside git the root is the cwd.
    W.Root = W.WorkingDir;
  }

  auto Config = loadConfig(W.Root);
  if (!Config)
    return Config.takeError();
  W.Config = std::move(*Config);
  W.DbPath = databasePath(Db, W);
  return W;
}

llvm::Error anchorPaths(Store &S, const Workspace &W,
                        llvm::StringRef BuildDir) {
  PathBases B{W.Root, BuildDir.str()};
  S.setPathBases(B);
  if (!BuildDir.empty())
    return llvm::Error::success();
  auto Recorded = S.recordedBuildDir();
  if (!Recorded)
    return Recorded.takeError();
  B.BuildDir = Recorded->value_or("");
  S.setPathBases(std::move(B));
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Store>> openForUpdate(const Workspace &W,
                                                     llvm::StringRef BuildDir) {
  // A missing database is an error here, not a new empty one: the read-only
  // opening says so. An existing one is opened for writing straight away,
  // which checks that it is tia's before touching it and upgrades an older
  // schema.
  auto S = Store::open(W.DbPath, llvm::sys::fs::exists(W.DbPath)
                                     ? Store::Mode::ReadWrite
                                     : Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  if (llvm::Error E = anchorPaths(**S, W, BuildDir))
    return E;
  return S;
}

llvm::Expected<std::string> recordedCommit(const Workspace &W,
                                           llvm::StringRef Rev) {
  if (!Rev.empty()) {
    if (!W.Repo)
      return makeError("--commit needs a git repository: run tia inside the "
                       "work tree");
    return W.Repo->resolveCommit(Rev);
  }
  if (!W.Repo)
    return std::string();
  auto H = W.Repo->headCommit();
  if (!H)
    return H.takeError();
  return H->value_or("");
}

} // namespace config
} // namespace tia
