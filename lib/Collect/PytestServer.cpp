//===- PytestServer.cpp - pytest jobs forked from one Python --------------===//
//
// The C++ side of tia_pytest_server.py: a Python started once, which
// imports pytest and coverage.py once and forks a child per job. It talks
// over a socket on its fd 3 (jobs in, exit codes out); tia's end is
// close-on-exec, so that no other process tia starts holds it open (a
// server whose socket another process holds would never see its end).
//
//===----------------------------------------------------------------------===//

#include "PytestInternal.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <set>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
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

} // namespace

PytestServer::PytestServer(const std::string &Python,
                           const std::vector<std::string> &Env,
                           const std::string &Root, const std::string &Log)
    : Python(Python), Startup(startupVariables(Env)) {
  // A socket rather than pipes: a write to a server that died fails with
  // EPIPE (MSG_NOSIGNAL) instead of ending tia with SIGPIPE.
  int Fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Fds) != 0)
    return;
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
    return;
  }
  Socket = Fds[0];
  ::fcntl(Socket, F_SETFL, O_NONBLOCK);
}

PytestServer::~PytestServer() {
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

bool PytestServer::accepts(const PytestJob &J) const {
  return !Dead && J.Args.size() >= 3 && J.Args[0] == Python &&
         J.Args[1] == "-m" && J.Args[2] == "pytest" &&
         startupVariables(J.Env) == Startup;
}

std::optional<std::string> PytestServer::readLine(bool Wait) {
  while (true) {
    size_t End = Pending.find('\n');
    if (End != std::string::npos) {
      std::string Line = Pending.substr(0, End);
      Pending.erase(0, End + 1);
      return Line;
    }
    char Buf[512];
    ssize_t N = ::read(Socket, Buf, sizeof(Buf));
    if (N > 0) {
      Pending.append(Buf, N);
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && errno == EAGAIN && Wait) {
      pollfd P = {Socket, POLLIN, 0};
      ::poll(&P, 1, -1);
      continue;
    }
    if (N == 0 || errno != EAGAIN)
      Dead = true; // the server ended, or its pipe broke
    return std::nullopt;
  }
}

bool PytestServer::start(const PytestJob &J) {
  if (Dead || Busy || Pid <= 0)
    return false;
  if (!Ready) {
    // Its imports: a Python that cannot import pytest ends here.
    std::optional<std::string> Line = readLine(/*Wait=*/true);
    Ready = Line && Line->find("\"ready\"") != std::string::npos;
    if (!Ready) {
      Dead = true;
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
  for (size_t Done = 0; Done < Request.size();) {
    ssize_t N = ::send(Socket, Request.data() + Done, Request.size() - Done,
                       MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && errno == EAGAIN) {
      pollfd P = {Socket, POLLOUT, 0};
      ::poll(&P, 1, -1);
      continue;
    }
    if (N <= 0) {
      Dead = true;
      return false;
    }
    Done += N;
  }
  Busy = true;
  return true;
}

std::optional<int> PytestServer::poll() {
  if (!Busy)
    return std::nullopt;
  std::optional<std::string> Line = readLine(/*Wait=*/false);
  if (!Line) {
    if (!Dead)
      return std::nullopt;
    Busy = false;
    return -SIGKILL; // the server died with the job
  }
  Busy = false;
  auto V = llvm::json::parse(*Line);
  if (!V) {
    llvm::consumeError(V.takeError());
    Dead = true;
    return -SIGKILL;
  }
  const llvm::json::Object *O = V->getAsObject();
  std::optional<int64_t> Code = O ? O->getInteger("exit") : std::nullopt;
  if (!Code) {
    Dead = true;
    return -SIGKILL;
  }
  return static_cast<int>(*Code);
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
