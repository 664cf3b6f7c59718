//===- Scratch.cpp - the scratch clone tia eval works in ------------------===//

#include "tia/Eval/Scratch.h"
#include "tia/Collect/Collect.h"
#include "tia/Collect/Process.h"
#include "tia/Support/Error.h"
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
  std::unique_ptr<ScratchClone> S(new ScratchClone(Dir.str().str()));
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return makeError("git not found on PATH: eval clones the repository "
                     "with it");
  S->GitPath = *Git;
  if (llvm::Error E = S->git(
          {"clone", "-q", "--shared", "--no-checkout", RepoDir.str(), S->Tree},
          S->Dir))
    return E;
  return S;
}

ScratchClone::ScratchClone(std::string D)
    : Dir(std::move(D)), Tree(Dir + "/tree"), Db(Dir + "/tia.db") {
  size_t N = std::min(Dir.size(), sizeof(InterruptedScratch) - 1);
  memcpy(InterruptedScratch, Dir.data(), N);
  InterruptedScratch[N] = 0;
  collect::setInterruptCleanup(removeScratch);
  llvm::sys::SetInterruptFunction(removeScratchOnSignal);
  if (const char *T = getenv("TMPDIR"))
    OldTmpDir = T;
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
