//===- Process.cpp - running a test process with a timeout ----------------===//
//
// posix_spawn rather than fork: tia runs tests from several threads, and a
// forked child of a threaded process may only call async-signal-safe
// functions until it execs.
//
//===----------------------------------------------------------------------===//

#include "tia/Collect/Process.h"
#include "tia/Collect/Collect.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace tia {
namespace collect {

namespace {

// The process groups running now, for the interrupt handler, which may only
// touch lock-free atomics.
constexpr unsigned MaxGroups = 256;
std::atomic<pid_t> Groups[MaxGroups];

/// On SIGINT or SIGTERM: end the tests too, and tia without storing
/// anything (the open transaction is never committed).
std::atomic<void (*)()> Cleanup{nullptr};

void killAllGroups() {
  killRunningTests();
  if (void (*F)() = Cleanup.load())
    F();
  ::_exit(130);
}

int registerGroup(pid_t P) {
  static std::once_flag Once;
  std::call_once(Once, [] { llvm::sys::SetInterruptFunction(killAllGroups); });
  for (unsigned I = 0; I < MaxGroups; ++I) {
    pid_t Empty = 0;
    if (Groups[I].compare_exchange_strong(Empty, P))
      return static_cast<int>(I);
  }
  return -1; // More than MaxGroups at once: that one is not tracked.
}

void unregisterGroup(int Slot) {
  if (Slot >= 0)
    Groups[Slot].store(0);
}

} // namespace

void killRunningTests() {
  for (std::atomic<pid_t> &G : Groups)
    if (pid_t P = G.load())
      ::kill(-P, SIGKILL);
}

void setInterruptCleanup(void (*F)()) { Cleanup.store(F); }

std::string signalName(int Signal) {
  const char *Name = sigabbrev_np(Signal);
  std::string Out =
      Name ? std::string("SIG") + Name : "signal " + std::to_string(Signal);
  if (const char *Desc = sigdescr_np(Signal))
    Out += std::string(" (") + Desc + ")";
  return Out;
}

std::string secondsText(double Seconds) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%gs", Seconds);
  return Buf;
}

std::string readFileOrEmpty(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

std::vector<std::string>
buildEnvironment(const std::vector<std::string> &Drop,
                 const std::vector<std::vector<std::string>> &Add) {
  std::vector<std::string> Out;
  llvm::StringMap<size_t> Where;
  // An unset variable keeps its place, empty, until the end.
  auto Put = [&](llvm::StringRef Entry) {
    llvm::StringRef Name = Entry.split('=').first;
    if (!Entry.contains('='))
      Entry = "";
    auto [It, New] = Where.try_emplace(Name, Out.size());
    if (New)
      Out.push_back(Entry.str());
    else
      Out[It->second] = Entry.str();
  };
  for (char **E = environ; E && *E; ++E) {
    llvm::StringRef Entry(*E);
    if (llvm::is_contained(Drop, Entry.split('=').first))
      continue;
    Put(Entry);
  }
  for (const std::vector<std::string> &List : Add)
    for (const std::string &Entry : List)
      Put(Entry);
  llvm::erase_if(Out, [](const std::string &E) { return E.empty(); });
  return Out;
}

/// The children of \p Pid, from each of its threads' children file.
static std::vector<pid_t> childrenOf(pid_t Pid) {
  std::vector<pid_t> Out;
  std::string Tasks = "/proc/" + std::to_string(Pid) + "/task";
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Tasks, EC), End; It != End && !EC;
       It.increment(EC)) {
    // A file of /proc says its size is 0: read as a stream.
    auto Text = llvm::MemoryBuffer::getFileAsStream(It->path() + "/children");
    if (!Text)
      continue;
    llvm::SmallVector<llvm::StringRef, 8> Pids;
    (*Text)->getBuffer().split(Pids, ' ', -1, false);
    for (llvm::StringRef P : Pids) {
      pid_t Child;
      if (!P.trim().getAsInteger(10, Child))
        Out.push_back(Child);
    }
  }
  return Out;
}

void killProcessTree(pid_t Pid) {
  // Stopped first, top down, so that none starts another process while
  // the tree is read; a stopped process still dies of SIGKILL.
  std::vector<pid_t> Tree = {Pid};
  for (size_t I = 0; I < Tree.size(); ++I) {
    ::kill(Tree[I], SIGSTOP);
    llvm::append_range(Tree, childrenOf(Tree[I]));
  }
  for (pid_t P : Tree)
    ::kill(P, SIGKILL);
}

ProcessEnd runProcess(const ProcessSpec &Spec, double TimeoutSeconds,
                      llvm::function_ref<bool()> Progressed) {
  using Clock = std::chrono::steady_clock;
  ProcessEnd End;

  std::vector<char *> Argv, Envp;
  Argv.push_back(const_cast<char *>(Spec.Executable.c_str()));
  for (const std::string &A : Spec.Arguments)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  for (const std::string &E : Spec.Environment)
    Envp.push_back(const_cast<char *>(E.c_str()));
  Envp.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawnattr_t Attr;
  posix_spawn_file_actions_init(&Actions);
  posix_spawnattr_init(&Attr);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, Spec.OutputFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  if (!Spec.WorkingDir.empty())
    posix_spawn_file_actions_addchdir_np(&Actions, Spec.WorkingDir.c_str());
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&Attr, 0);

  Clock::time_point Start = Clock::now();
  pid_t Pid = 0;
  int RC = posix_spawn(&Pid, Spec.Executable.c_str(), &Actions, &Attr,
                       Argv.data(), Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  if (RC != 0) {
    End.Error = std::strerror(RC);
    return End;
  }
  int Slot = registerGroup(Pid);

  Clock::time_point Deadline =
      Start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(TimeoutSeconds));
  bool Killed = false;
  // Poll: a short sleep costs little next to a test, and keeps the timeout
  // and the progress check in one loop without a signal handler. WNOWAIT
  // leaves the ended process a zombie, so its group id cannot be reused
  // before the group is killed below.
  auto Sleep = std::chrono::milliseconds(1);
  while (true) {
    siginfo_t Info;
    Info.si_pid = 0;
    int W = ::waitid(P_PID, Pid, &Info, WEXITED | WNOHANG | WNOWAIT);
    if (W == 0 && Info.si_pid == Pid)
      break;
    if (W < 0 && errno != EINTR)
      break;
    Clock::time_point Now = Clock::now();
    if (Progressed && Progressed())
      Deadline = Now + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(TimeoutSeconds));
    if (TimeoutSeconds > 0 && Now >= Deadline && !Killed) {
      ::kill(-Pid, SIGKILL);
      Killed = true;
    }
    std::this_thread::sleep_for(Sleep);
    if (Sleep < std::chrono::milliseconds(20))
      Sleep *= 2;
  }
  // Whatever the test left behind in its group goes too.
  ::kill(-Pid, SIGKILL);
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
    ;
  unregisterGroup(Slot);
  End.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  if (Killed) {
    End.How = ProcessEnd::TimedOut;
  } else if (WIFSIGNALED(Status)) {
    End.How = ProcessEnd::Signaled;
    End.Signal = WTERMSIG(Status);
  } else {
    End.How = ProcessEnd::Exited;
    End.ExitCode = WEXITSTATUS(Status);
  }
  return End;
}

} // namespace collect
} // namespace tia
