//===- Commands.cpp - what the commands share -----------------------------===//

#include "CommandsInternal.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace tia {
namespace tool {

llvm::Error anchorPaths(Store &S, const Context &C, llvm::StringRef BuildDir) {
  PathBases B{C.Root, BuildDir.str()};
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

llvm::Expected<std::unique_ptr<Store>> openForUpdate(const Context &C,
                                                     llvm::StringRef BuildDir) {
  // A missing database is an error here, not a new empty one: the read-only
  // opening says so. An existing one is opened for writing straight away,
  // which checks that it is tia's before touching it and upgrades an older
  // schema.
  auto S = Store::open(C.DbPath, llvm::sys::fs::exists(C.DbPath)
                                     ? Store::Mode::ReadWrite
                                     : Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  if (llvm::Error E = anchorPaths(**S, C, BuildDir))
    return E;
  return S;
}

llvm::Expected<Context> makeContext(const GlobalOptions &G, bool NeedGit) {
  Context C;
  if (G.WorkingDir.empty()) {
    llvm::SmallString<256> Cwd;
    if (std::error_code EC = llvm::sys::fs::current_path(Cwd))
      return makeErrorf("cannot read the working directory: {0}", EC.message());
    C.WorkingDir = std::string(Cwd);
  } else {
    C.WorkingDir = absolutePath(G.WorkingDir, ".");
  }

  auto Repo = git::Repository::discover(C.WorkingDir);
  if (Repo) {
    C.Root = Repo->workdir();
    C.Repo.emplace(std::move(*Repo));
  } else if (NeedGit) {
    return Repo.takeError();
  } else {
    llvm::consumeError(Repo.takeError()); // Outside git the root is the cwd.
    C.Root = C.WorkingDir;
  }

  auto Config = config::loadConfig(C.Root);
  if (!Config)
    return Config.takeError();
  C.Config = std::move(*Config);

  if (!G.Db.empty())
    C.DbPath = absolutePath(G.Db, C.WorkingDir);
  else if (std::optional<std::string> Env =
               llvm::sys::Process::GetEnv("TIA_DB");
           Env && !Env->empty())
    C.DbPath = absolutePath(*Env, C.WorkingDir);
  else
    C.DbPath = C.Root + "/.tia/tia.db";
  return C;
}

} // namespace tool
} // namespace tia
