//===- PytestServer.cpp - pytest jobs forked from one Python --------------===//
//
// The C++ side of tia_pytest_server.py: a Python started once, which
// imports pytest and coverage.py once and forks a child per job. It talks
// over a socket on its fd 3 (jobs in; "ready", each child's pid and exit
// code out). A socket rather than pipes: a write to a server that died
// fails with EPIPE (MSG_NOSIGNAL) instead of ending tia with SIGPIPE. tia's
// end is close-on-exec, so that no other process tia starts holds it open
// (a server whose socket another process holds would never see its end).
//
//===----------------------------------------------------------------------===//

#include "PytestInternal.h"
#include "tia/Collect/Process.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <set>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace tia {
namespace collect {

namespace {

/// The variables the interpreter reads when it starts (PYTHONPATH,
/// PYTHONHASHSEED, ...): a job runs in the server only when it would start
/// with the same ones.
std::vector<std::string> startupVariables(const std::vector<std::string> &Env) {
  std::vector<std::string> Out;
  std::set<llvm::StringRef> Seen;
  for (const std::string &Entry : Env) {
    llvm::StringRef Name = llvm::StringRef(Entry).split('=').first;
    if (Name.starts_with("PYTHON") && Seen.insert(Name).second)
      Out.push_back(Entry);
  }
  llvm::sort(Out);
  return Out;
}

/// \p Fd moved to a close-on-exec descriptor above the one the server is
/// given (3), so that dup2 onto it always makes a copy.
int highCloseOnExec(int Fd) {
  int High = ::fcntl(Fd, F_DUPFD_CLOEXEC, 10);
  ::close(Fd);
  return High;
}

/// Whether \p Pid has ended (gone, or a zombie its new parent has yet to
/// reap): it writes nothing more.
bool hasEnded(pid_t Pid) {
  if (::kill(Pid, 0) != 0)
    return true;
  // A file of /proc says its size is 0: read as a stream.
  auto Stat = llvm::MemoryBuffer::getFileAsStream(
      "/proc/" + std::to_string(Pid) + "/stat");
  if (!Stat)
    return true;
  // "PID (COMM) STATE ...": COMM may hold spaces and parentheses.
  llvm::StringRef Rest = (*Stat)->getBuffer().rsplit(')').second.ltrim();
  return Rest.starts_with("Z") || Rest.starts_with("X");
}

/// Kills \p Pid, a job whose server died (so not tia's child to wait for),
/// and waits up to a second for it to end, so that no late write of it
/// lands in the files its rerun writes.
void killOrphan(pid_t Pid) {
  killProcessTree(Pid);
  for (int I = 0; I < 1000 && !hasEnded(Pid); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

/// Whether every string \p J sends is UTF-8, which JSON carries unchanged.
bool sendsAsIs(const PytestJob &J) {
  auto UTF8 = [](const std::string &S) { return llvm::json::isUTF8(S); };
  return llvm::all_of(J.Args, UTF8) && llvm::all_of(J.Env, UTF8) &&
         UTF8(J.Out) && UTF8(J.Err);
}

} // namespace

PytestServer::PytestServer(const std::string &Python,
                           const std::vector<std::string> &Env,
                           const std::string &Root, const std::string &Log,
                           int ReadyMillis)
    : Python(Python), ReadyMillis(ReadyMillis), Startup(startupVariables(Env)) {
  Dead = !spawn(Env, Root, Log);
}

bool PytestServer::spawn(const std::vector<std::string> &Env,
                         const std::string &Root, const std::string &Log) {
  int Fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds) != 0)
    return false;
  Fds[0] = highCloseOnExec(Fds[0]);
  Fds[1] = highCloseOnExec(Fds[1]);

  std::vector<std::string> Words = {Python, "-m", "tia_pytest_server"};
  std::vector<char *> Argv, Envp;
  for (std::string &W : Words)
    Argv.push_back(W.data());
  Argv.push_back(nullptr);
  for (const std::string &E : Env)
    Envp.push_back(const_cast<char *>(E.c_str()));
  Envp.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, Log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  posix_spawn_file_actions_adddup2(&Actions, Fds[1], 3);
  posix_spawn_file_actions_addchdir_np(&Actions, Root.c_str());
  int RC = posix_spawn(&Pid, Python.c_str(), &Actions, nullptr, Argv.data(),
                       Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  ::close(Fds[1]);
  if (RC != 0) {
    Pid = 0;
    ::close(Fds[0]);
    return false;
  }
  Socket = Fds[0];
  ::fcntl(Socket, F_SETFL, O_NONBLOCK);
  return true;
}

PytestServer::~PytestServer() {
  if (Busy && JobPid > 0)
    killProcessTree(JobPid); // tia stops early: the job's child goes too
  if (Socket >= 0)
    ::close(Socket); // the server's end of input: it exits
  if (Pid > 0) {
    if (Busy)
      ::kill(Pid, SIGKILL);
    int Status;
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
      ;
  }
}

void PytestServer::giveUp() {
  Dead = true;
  if (Pid > 0) {
    ::kill(Pid, SIGKILL);
    int Status;
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
      ;
    Pid = 0;
  }
}

bool PytestServer::accepts(const PytestJob &J) const {
  return !Dead && J.Args.size() >= 3 && J.Args[0] == Python &&
         J.Args[1] == "-m" && J.Args[2] == "pytest" &&
         startupVariables(J.Env) == Startup && sendsAsIs(J);
}

std::optional<llvm::json::Object>
PytestServer::readReply(std::optional<int> WaitMillis) {
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(WaitMillis.value_or(0));
  while (true) {
    size_t End = Pending.find('\n');
    if (End != std::string::npos) {
      auto V = llvm::json::parse(llvm::StringRef(Pending).take_front(End));
      Pending.erase(0, End + 1);
      if (!V)
        llvm::consumeError(V.takeError());
      if (V && V->getAsObject())
        return std::move(*V->getAsObject());
      Dead = true; // not the server speaking
      return std::nullopt;
    }
    char Buf[512];
    ssize_t N = ::read(Socket, Buf, sizeof(Buf));
    if (N > 0) {
      Pending.append(Buf, N);
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && errno == EAGAIN && WaitMillis) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
          Deadline - std::chrono::steady_clock::now());
      if (Left.count() <= 0)
        return std::nullopt; // nothing whole in time
      pollfd P = {Socket, POLLIN, 0};
      ::poll(&P, 1, static_cast<int>(Left.count()));
      continue;
    }
    if (N == 0 || errno != EAGAIN)
      Dead = true; // the server ended, or its socket broke
    return std::nullopt;
  }
}

bool PytestServer::send(const std::string &Line) {
  for (size_t Done = 0; Done < Line.size();) {
    ssize_t N =
        ::send(Socket, Line.data() + Done, Line.size() - Done, MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && errno == EAGAIN) {
      pollfd P = {Socket, POLLOUT, 0};
      ::poll(&P, 1, -1);
      continue;
    }
    if (N <= 0)
      return false;
    Done += N;
  }
  return true;
}

bool PytestServer::start(const PytestJob &J) {
  if (Dead || Busy)
    return false;
  if (!Ready) {
    // Its imports: a Python that cannot import pytest ends here, and one
    // whose imports hang is given up (its jobs run on their own, where
    // collect's timeout applies).
    std::optional<llvm::json::Object> Reply = readReply(ReadyMillis);
    Ready = Reply && Reply->getBoolean("ready").value_or(false);
    if (!Ready) {
      giveUp();
      return false;
    }
  }
  llvm::json::Array Args, Env;
  for (size_t I = 3; I < J.Args.size(); ++I)
    Args.push_back(J.Args[I]);
  for (const std::string &E : J.Env)
    Env.push_back(E);
  std::string Request;
  llvm::raw_string_ostream(Request)
      << llvm::json::Value(llvm::json::Object{{"args", std::move(Args)},
                                              {"env", std::move(Env)},
                                              {"out", J.Out},
                                              {"err", J.Err}})
      << "\n";
  if (!send(Request)) {
    Dead = true;
    return false;
  }
  Busy = true;
  JobPid = 0;
  return true;
}

std::optional<PytestServer::End> PytestServer::poll() {
  if (!Busy)
    return std::nullopt;
  while (std::optional<llvm::json::Object> Reply = readReply(std::nullopt)) {
    if (std::optional<int64_t> Child = Reply->getInteger("pid")) {
      JobPid = static_cast<pid_t>(*Child);
    } else if (std::optional<int64_t> Code = Reply->getInteger("exit")) {
      Busy = false;
      JobPid = 0;
      return End{static_cast<int>(*Code), /*ServerLost=*/false};
    }
  }
  if (!Dead)
    return std::nullopt;
  // The server died with the job running: its child, orphaned, ends too.
  if (JobPid > 0)
    killOrphan(JobPid);
  Busy = false;
  JobPid = 0;
  return End{-SIGKILL, /*ServerLost=*/true};
}

bool PytestServer::killJob() {
  // poll() reads the pid when it comes; reading here could take the end.
  if (!Busy || JobPid <= 0)
    return false;
  killProcessTree(JobPid); // the server replies with its end
  return true;
}

PytestServer *PytestServers::idleFor(const PytestJob &J) {
  for (const std::unique_ptr<PytestServer> &S : Servers)
    if (!S->busy() && S->accepts(J))
      return S.get();
  // A server that died (its imports failed, most likely) says the next
  // would too: the jobs run on their own.
  bool AnyDead = llvm::any_of(Servers, [](const auto &S) { return S->dead(); });
  if (Servers.size() >= Limit || AnyDead)
    return nullptr;
  Servers.push_back(std::make_unique<PytestServer>(
      Python, Env, Root, Log + "." + std::to_string(Servers.size())));
  return Servers.back()->accepts(J) ? Servers.back().get() : nullptr;
}

} // namespace collect
} // namespace tia
