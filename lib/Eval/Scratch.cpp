//===- Scratch.cpp - the scratch clone tia eval works in ------------------===//

#include "tia/Eval/Scratch.h"
#include "tia/Collect/Collect.h"
#include "tia/Collect/Process.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace tia {
namespace eval {

namespace {

/// The directory to remove when interrupted; written before the handler is
/// set, read only by it.
char InterruptedScratch[4096];

/// Only async-signal-safe calls here: fork, exec, wait.
void removeScratch() {
  pid_t Pid = fork();
  if (Pid == 0) {
    execl("/bin/rm", "rm", "-rf", InterruptedScratch, (char *)nullptr);
    _exit(127);
  }
  if (Pid > 0) {
    int Status;
    waitpid(Pid, &Status, 0);
  }
}

/// The interrupt handler until the first process runs; from then on the
/// process runner's handler ends the running processes (the build, the
/// tests) and calls removeScratch.
void removeScratchOnSignal() {
  collect::killRunningTests();
  removeScratch();
  _exit(130);
}

/// The same for a kept clone, which stays.
void endRunningProcesses() {
  collect::killRunningTests();
  _exit(130);
}

/// The last non-empty line of \p Log, for a one-line error.
std::string lastLine(llvm::StringRef Log) {
  auto Buf = llvm::MemoryBuffer::getFile(Log);
  if (!Buf)
    return "";
  llvm::StringRef Text = (*Buf)->getBuffer().rtrim();
  llvm::StringRef Line = Text.rsplit('\n').second;
  if (Line.empty())
    Line = Text;
  return Line.trim().take_front(200).str();
}

} // namespace

llvm::Expected<std::unique_ptr<ScratchClone>>
ScratchClone::create(llvm::StringRef RepoDir) {
  llvm::SmallString<128> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("tia-eval", Dir))
    return makeErrorf("cannot create a scratch directory: {0} (set TMPDIR "
                      "to a writable directory)",
                      EC.message());
  std::unique_ptr<ScratchClone> S(
      new ScratchClone(Dir.str().str(), /*Kept=*/false));
  if (llvm::Error E = S->findGit())
    return E;
  if (llvm::Error E = S->cloneFrom(RepoDir))
    return E;
  return S;
}

namespace {

/// True when \p Dir is empty or holds nothing but what a kept clone's own
/// run leaves before its clone exists (its lock, with its temporary folder
/// and git log): a first run whose clone failed must not keep the folder
/// from the next. A folder of someone else's "tmp" has no lock.
bool holdsNoFilesOfOthers(llvm::StringRef Dir) {
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC), End;
  bool Any = false;
  for (; !EC && It != End; It.increment(EC)) {
    Any = true;
    if (!llvm::is_contained({"lock", "tmp", "git.log"},
                            llvm::sys::path::filename(It->path())))
      return false;
  }
  return !EC && (!Any || llvm::sys::fs::exists(llvm::Twine(Dir) + "/lock"));
}

/// \p Path with symbolic links resolved; itself when it does not exist.
std::string realPathOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.rtrim('/').str();
  return Real.str().str();
}

} // namespace

llvm::Expected<std::unique_ptr<ScratchClone>>
ScratchClone::keep(llvm::StringRef RepoDir, llvm::StringRef Dir) {
  llvm::SmallString<256> Abs(Dir);
  if (std::error_code EC = llvm::sys::fs::make_absolute(Abs))
    return makeErrorf("--scratch {0}: {1}", Dir, EC.message());
  bool Reused = llvm::sys::fs::exists(Abs + "/tree/.git");
  if (!Reused && llvm::sys::fs::exists(Abs) && !holdsNoFilesOfOthers(Abs))
    return makeErrorf("--scratch {0} holds files but no clone of tia eval: "
                      "name a new or empty folder",
                      Dir);
  if (std::error_code EC = llvm::sys::fs::create_directories(Abs))
    return makeErrorf("cannot create --scratch {0}: {1}", Dir, EC.message());
  std::unique_ptr<ScratchClone> S(
      new ScratchClone(Abs.str().str(), /*Kept=*/true));
  if (llvm::Error E = S->holdLock())
    return E;
  if (llvm::Error E = S->findGit())
    return E;
  if (!Reused) {
    if (llvm::Error E = S->cloneFrom(RepoDir))
      return E;
    return S;
  }
  if (llvm::Error E = S->git({"config", "--get", "remote.origin.url"}))
    return E;
  std::string Origin = lastLine(S->Dir + "/git.log");
  if (realPathOf(Origin) != realPathOf(RepoDir))
    return makeErrorf("--scratch {0} holds a clone of {1}, not of this "
                      "repository: name another folder",
                      Dir, Origin);
  return S;
}

llvm::Error ScratchClone::holdLock() {
  std::string Lock = Dir + "/lock";
  if (std::error_code EC = llvm::sys::fs::openFileForWrite(
          Lock, LockFd, llvm::sys::fs::CD_OpenAlways))
    return makeErrorf("cannot open {0}: {1}", Lock, EC.message());
  if (llvm::sys::fs::tryLockFile(LockFd))
    return makeErrorf("another tia eval is at work in {0}: wait for it to "
                      "end, or name another --scratch folder",
                      Dir);
  // Held: no other run uses the temporary files an interrupted run left.
  std::string Tmp = Dir + "/tmp";
  llvm::sys::fs::remove_directories(Tmp, /*IgnoreErrors=*/true);
  llvm::sys::fs::create_directory(Tmp);
  return llvm::Error::success();
}

llvm::Error ScratchClone::findGit() {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return makeError("git not found on PATH: eval clones the repository "
                     "with it");
  GitPath = *Git;
  return llvm::Error::success();
}

llvm::Error ScratchClone::cloneFrom(llvm::StringRef RepoDir) {
  return git({"clone", "-q", "--shared", "--no-checkout", RepoDir.str(), Tree},
             Dir);
}

ScratchClone::ScratchClone(std::string D, bool Kept)
    : Dir(std::move(D)), Tree(Dir + "/tree"), Db(Dir + "/tia.db"), Kept(Kept) {
  if (!Kept) {
    size_t N = std::min(Dir.size(), sizeof(InterruptedScratch) - 1);
    memcpy(InterruptedScratch, Dir.data(), N);
    InterruptedScratch[N] = 0;
  }
  // A kept clone stays when interrupted; the processes running still end.
  collect::setInterruptCleanup(Kept ? nullptr : removeScratch);
  llvm::sys::SetInterruptFunction(Kept ? endRunningProcesses
                                       : removeScratchOnSignal);
  if (const char *T = getenv("TMPDIR"))
    OldTmpDir = T;
  // The steps' temporary files (a kept clone's from an interrupted run go
  // once its lock is held: holdLock).
  std::string Tmp = Dir + "/tmp";
  llvm::sys::fs::create_directory(Tmp);
  setenv("TMPDIR", Tmp.c_str(), 1);
}

ScratchClone::~ScratchClone() {
  llvm::sys::SetInterruptFunction(nullptr);
  collect::setInterruptCleanup(nullptr);
  if (OldTmpDir)
    setenv("TMPDIR", OldTmpDir->c_str(), 1);
  else
    unsetenv("TMPDIR");
  if (LockFd >= 0) {
    (void)llvm::sys::fs::unlockFile(LockFd);
    ::close(LockFd);
  }
  if (!Kept)
    llvm::sys::fs::remove_directories(Dir, /*IgnoreErrors=*/true);
}

llvm::Error ScratchClone::git(std::vector<std::string> Args,
                              llvm::StringRef Cwd) {
  std::vector<llvm::StringRef> Argv = {"git",
                                       "-C",
                                       Cwd.empty() ? llvm::StringRef(Tree)
                                                   : Cwd,
                                       "-c",
                                       "user.name=tia eval",
                                       "-c",
                                       "user.email=eval@tia.invalid",
                                       "-c",
                                       "core.hooksPath=/dev/null"};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::string Log = Dir + "/git.log";
  std::optional<llvm::StringRef> Redirects[] = {
      std::nullopt, llvm::StringRef(Log), llvm::StringRef(Log)};
  std::string Msg;
  int Rc = llvm::sys::ExecuteAndWait(GitPath, Argv, std::nullopt, Redirects, 0,
                                     0, &Msg);
  if (Rc != 0)
    return makeErrorf("git {0} failed in the scratch clone: {1}", Args[0],
                      Msg.empty() ? lastLine(Log) : Msg);
  return llvm::Error::success();
}

namespace {

/// Removes every __pycache__ folder below \p Tree. Python (and pytest's
/// assertion rewriting) trusts a cached module whose source has the same
/// size and modification second: a checkout that rewrites a file within
/// the second it was cached (a one-character change) would run the old
/// code.
void removeBytecodeCaches(llvm::StringRef Tree) {
  std::vector<std::string> Caches;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Tree, EC), End;
       It != End && !EC; It.increment(EC)) {
    if (It->type() != llvm::sys::fs::file_type::directory_file)
      continue;
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name == ".git" || Name == "__pycache__") {
      if (Name == "__pycache__")
        Caches.push_back(It->path());
      It.no_push();
    }
  }
  for (const std::string &Dir : Caches)
    // A cache that cannot be removed is read as before: its error would
    // tell nothing the test run does not.
    (void)llvm::sys::fs::remove_directories(Dir);
}

} // namespace

llvm::Error ScratchClone::checkout(llvm::StringRef Commit) {
  if (llvm::Error E =
          git({"checkout", "-q", "--force", "--detach", Commit.str()}))
    return E;
  removeBytecodeCaches(Tree);
  return llvm::Error::success();
}

int ScratchClone::shell(llvm::StringRef Cmd, llvm::StringRef Name) {
  collect::ProcessSpec Spec;
  Spec.Executable = "/bin/sh";
  Spec.Arguments = {"-c", "eval \"$1\"", "sh", Cmd.str()};
  Spec.Environment = collect::buildEnvironment({}, {});
  Spec.WorkingDir = Tree;
  Spec.OutputFile = Dir + "/" + Name.str() + ".log";
  collect::ProcessEnd End = collect::runProcess(Spec, /*TimeoutSeconds=*/0);
  return End.How == collect::ProcessEnd::Exited ? End.ExitCode : -1;
}

std::string ScratchClone::logLine(llvm::StringRef Name) const {
  return lastLine(Dir + "/" + Name.str() + ".log");
}

} // namespace eval
} // namespace tia
