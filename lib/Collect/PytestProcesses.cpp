//===- PytestProcesses.cpp - running pytest processes ---------------------===//

#include "PytestInternal.h"
#include "tia/Collect/Process.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "tia/Support/Progress.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <chrono>
#include <csignal>
#include <memory>
#include <set>
#include <thread>

namespace tia {
namespace collect {

void readPluginLog(const std::string &Path, PluginLog &Log) {
  // Polled while the job runs: only the lines written since the last call
  // are parsed, and a file that did not grow is not read.
  uint64_t Size = 0;
  if (llvm::sys::fs::file_size(Path, Size) || Size == Log.Consumed)
    return;
  if (Size < Log.Consumed)
    Log = PluginLog(); // written anew
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return;
  llvm::StringRef New = (*Buf)->getBuffer().drop_front(Log.Consumed);
  // A line being written waits for its end.
  New = New.take_front(New.rfind('\n') + 1);
  Log.Consumed += New.size();
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  New.split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    auto V = parseJson(Line);
    if (!V) {
      llvm::consumeError(V.takeError()); // not the plugin's
      continue;
    }
    llvm::json::Object *O = V->getAsObject();
    if (!O)
      continue;
    if (auto N = O->getInteger("collected")) {
      Log.Collected = static_cast<unsigned>(*N);
      Log.HaveCollected = true;
    } else if (auto Item = O->getString("item")) {
      Log.Items.emplace_back(Item->str(),
                             O->getString("path").value_or("").str());
    } else if (auto Item = O->getString("deselected")) {
      Log.Deselected.emplace_back(Item->str(),
                                  O->getString("path").value_or("").str());
    } else if (auto S = O->getString("start")) {
      Log.Running = S->str();
    } else if (O->getString("id")) {
      Log.Running.clear();
      Log.Results.push_back(std::move(*O));
    }
  }
}

std::string tail(const std::string &Path, size_t N) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return std::string();
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef((*Buf)->getBuffer()).split(Lines, '\n', -1, false);
  size_t From = Lines.size() > N ? Lines.size() - N : 0;
  std::vector<std::string> Out;
  for (size_t I = From; I < Lines.size(); ++I)
    Out.push_back(Lines[I].trim().str());
  return llvm::join(Out, " | ");
}

namespace {

/// Starts \p J in a process of its own, in \p Root.
llvm::Expected<llvm::sys::ProcessInfo> spawnJob(const PytestJob &J,
                                                const std::string &Root) {
  std::vector<llvm::StringRef> ArgRefs(J.Args.begin(), J.Args.end());
  std::vector<llvm::StringRef> EnvRefs(J.Env.begin(), J.Env.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(J.Out), llvm::StringRef(J.Err)};
  // pytest runs in the repository root, where its configuration is.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (std::error_code EC = llvm::sys::fs::set_current_path(Root))
    return makeErrorf("cannot enter {0}: {1}", Root, EC.message());
  std::string ExecError;
  bool ExecFailed = false;
  llvm::sys::ProcessInfo PI = llvm::sys::ExecuteNoWait(
      J.Args.front(), ArgRefs, EnvRefs, Redirects, 0, &ExecError, &ExecFailed);
  llvm::sys::fs::set_current_path(Cwd);
  if (ExecFailed)
    return makeErrorf("cannot run {0}: {1}", J.Args.front(), ExecError);
  return PI;
}

using Clock = std::chrono::steady_clock;

/// A job started: in a server, or as a process of its own.
struct Running {
  size_t Job;
  PytestServer *Server;
  llvm::sys::ProcessInfo PI;
  /// When a test last started or ended (at first: when the job started),
  /// and how much of the results log had been read then.
  Clock::time_point Progressed = Clock::now();
  uint64_t LogRead = 0;
  bool Killed = false; ///< past the timeout

  /// How it ended, once it did (a negative code: a signal ended it).
  std::optional<PytestServer::End> ended() {
    if (Server)
      return Server->poll();
    std::string ExecError;
    llvm::sys::ProcessInfo Done =
        llvm::sys::Wait(PI, /*SecondsToWait=*/0, &ExecError, nullptr,
                        /*Polling=*/true);
    if (Done.Pid == 0)
      return std::nullopt;
    return PytestServer::End{Done.ReturnCode, /*ServerLost=*/false};
  }

  /// Kills the job; false while its server has yet to say which process
  /// runs it.
  bool kill() {
    if (Server)
      return Server->killJob();
    killProcessTree(PI.Pid);
    return true;
  }
};

/// Ends the jobs of \p Live that run in processes of their own, and waits
/// for them, so that none outlives the collect that gave up on them. A
/// server's job ends with its server (~PytestServer).
void stopOwnProcesses(std::vector<Running> &Live) {
  for (Running &R : Live) {
    if (R.Server)
      continue;
    killProcessTree(R.PI.Pid);
    std::string ExecError;
    llvm::sys::Wait(R.PI, /*SecondsToWait=*/std::nullopt, &ExecError);
  }
  Live.clear();
}

/// What \p J runs, for messages: its test file, or the listing.
std::string jobSubject(const PytestJob &J) {
  for (const std::string &Var : J.Env)
    if (llvm::StringRef(Var).starts_with("TIA_PYTEST_ONLY="))
      return Var.substr(16);
  return "the listing of the tests";
}

/// runJobs: starts the jobs in order, at most O.Parallel at a time, and
/// polls them until all ended.
class JobRunner {
public:
  JobRunner(std::vector<PytestJob> &Jobs, const std::string &Root,
            const JobsOptions &O, llvm::raw_ostream &Err)
      : Jobs(Jobs), Root(Root), O(O), Err(Err), Shown(Jobs.size(), 0) {
    if (O.Total)
      startProgress(O.Total);
  }

  llvm::Error run() {
    // Polled, the pause growing while nothing happens: a job ends within a
    // few milliseconds of its last test, and a long test costs a few
    // wake-ups.
    auto Pause = std::chrono::milliseconds(1);
    while (true) {
      if (llvm::Error E = startMore())
        return giveUp(std::move(E));
      if (Live.empty())
        break;
      bool Changed = false;
      for (size_t I = 0; I < Live.size();) {
        std::optional<PytestServer::End> End = Live[I].ended();
        report(Live[I]);
        if (!End) {
          killIfOverdue(Live[I++]);
          continue;
        }
        Changed = true;
        llvm::Expected<bool> Again = runsAgain(Live[I], *End);
        if (!Again) {
          Live.erase(Live.begin() + I);
          return giveUp(Again.takeError());
        }
        if (*Again)
          ++I;
        else
          Live.erase(Live.begin() + I);
      }
      if (Changed || Live.empty()) {
        Pause = std::chrono::milliseconds(1);
        continue;
      }
      std::this_thread::sleep_for(Pause);
      Pause = std::min(Pause * 2, std::chrono::milliseconds(50));
    }
    if (Prog)
      Prog->finish();
    return llvm::Error::success();
  }

private:
  /// Starts the next jobs while slots are free (none after a failure,
  /// with StopOnFailure).
  llvm::Error startMore() {
    while (!Stop && Next < Jobs.size() && Live.size() < O.Parallel) {
      auto R = start(Next);
      if (!R)
        return R.takeError();
      Live.push_back(*R);
      ++Next;
    }
    return llvm::Error::success();
  }

  /// Starts job \p J in an idle server that accepts it, else (or with
  /// \p OwnProcess) in a process of its own.
  llvm::Expected<Running> start(size_t J, bool OwnProcess = false) {
    PytestServer *Server =
        O.Servers && !OwnProcess ? O.Servers->idleFor(Jobs[J]) : nullptr;
    if (Server && Server->start(Jobs[J]))
      return Running{J, Server, {}};
    auto PI = spawnJob(Jobs[J], Root);
    if (!PI)
      return PI.takeError();
    return Running{J, nullptr, *PI};
  }

  /// Fails with \p E, leaving no job of its own running.
  llvm::Error giveUp(llvm::Error E) {
    stopOwnProcesses(Live);
    return E;
  }

  /// Reads what \p R's tests did since the last call: progress, and the
  /// time of the last test that started or ended.
  void report(Running &R) {
    PytestJob &J = Jobs[R.Job];
    readPluginLog(J.ResultsLog, J.Log);
    if (J.Log.Consumed != R.LogRead) {
      R.LogRead = J.Log.Consumed;
      R.Progressed = Clock::now();
    }
    if (!Prog && J.Log.HaveCollected)
      startProgress(J.Log.Collected);
    if (!Prog)
      return;
    if (!J.Log.Running.empty())
      Prog->started(J.Log.Running);
    for (size_t &N = Shown[R.Job]; N < J.Log.Results.size(); ++N)
      Prog->step(J.Log.Results[N].getString("id").value_or(""));
  }

  /// Progress over \p Total tests, with a heartbeat in a log: the warnings
  /// this runner writes meanwhile go to a stream that is not buffered.
  void startProgress(unsigned Total) {
    Prog = std::make_unique<Progress>("testing", Total, Err, O.Quiet);
    Prog->startHeartbeat();
  }

  /// Kills \p R once the timeout passed with no test starting or ending;
  /// its end then comes as any other.
  void killIfOverdue(Running &R) {
    if (O.TimeoutSeconds <= 0 || R.Killed ||
        Clock::now() - R.Progressed <
            std::chrono::duration<double>(O.TimeoutSeconds))
      return;
    R.Killed = R.kill();
  }

  /// Takes \p R's end \p E. True when the job runs again (in \p R): its
  /// server died, or it was killed in a test, which the new run deselects.
  llvm::Expected<bool> runsAgain(Running &R, PytestServer::End E) {
    PytestJob &J = Jobs[R.Job];
    if (E.ServerLost) {
      // Run again from the start, in a process of its own: the results
      // log starts over (the progress already shown stays), and what the
      // lost run's children left can only add coverage and reads.
      Err << "tia: warning: pytest's fork server ended while running "
          << jobSubject(J) << "; running it again in a process of its own\n";
      return restart(R, /*OwnProcess=*/true);
    }
    if (R.Killed && !J.Log.Running.empty() &&
        !llvm::is_contained(J.TimedOut, J.Log.Running)) {
      // The tests before it run again (the killed run saved no coverage),
      // the progress counts it once. (A test that --deselect did not
      // leave out ends the job as a stall.)
      J.TimedOut.push_back(J.Log.Running);
      if (Prog)
        Prog->step(J.Log.Running);
      J.Args.push_back("--deselect");
      J.Args.push_back(J.Log.Running);
      return restart(R, /*OwnProcess=*/false);
    }
    J.ReturnCode = E.Code;
    J.Crashed = E.Code < 0;
    J.Stalled = R.Killed;
    if (O.StopOnFailure &&
        (E.Code < 0 || (E.Code != 0 && E.Code != 1 && E.Code != 5)))
      Stop = true;
    return false;
  }

  /// Starts \p R's job anew, in \p R.
  llvm::Expected<bool> restart(Running &R, bool OwnProcess) {
    // The log starts over: removed, so that the old one is not read again
    // as the new run's before the new run rewrites it.
    llvm::sys::fs::remove(Jobs[R.Job].ResultsLog);
    Jobs[R.Job].Log = PluginLog();
    auto Again = start(R.Job, OwnProcess);
    if (!Again)
      return Again.takeError();
    R = *Again;
    return true;
  }

  std::vector<PytestJob> &Jobs;
  const std::string &Root;
  const JobsOptions &O;
  llvm::raw_ostream &Err;
  std::vector<Running> Live;
  std::unique_ptr<Progress> Prog;
  std::vector<size_t> Shown; ///< results of each job shown as progress
  size_t Next = 0;           ///< the next job to start
  bool Stop = false;
};

} // namespace

llvm::Error runJobs(std::vector<PytestJob> &Jobs, const std::string &Root,
                    const JobsOptions &O, llvm::raw_ostream &Err) {
  JobsOptions Checked = O;
  Checked.Parallel = std::max(1u, O.Parallel);
  return JobRunner(Jobs, Root, Checked, Err).run();
}

/// The node ids among \p NodeIds that \p J (run with them) saw pass.
static llvm::Expected<std::set<std::string>>
passingIn(PytestJob J, const std::vector<std::string> &NodeIds,
          const std::string &Root, double TimeoutSeconds,
          llvm::raw_ostream &Err) {
  // The node ids go before the user's arguments' end: pytest takes them
  // anywhere.
  J.Args.insert(J.Args.end(), NodeIds.begin(), NodeIds.end());
  std::vector<PytestJob> Jobs = {std::move(J)};
  JobsOptions O;
  O.TimeoutSeconds = TimeoutSeconds;
  if (llvm::Error E = runJobs(Jobs, Root, O, Err))
    return E;
  std::set<std::string> Passed;
  for (const llvm::json::Object &R : Jobs[0].Log.Results)
    if (R.getString("outcome").value_or("") == "passed")
      Passed.insert(R.getString("id").value_or("").str());
  return Passed;
}

llvm::Expected<std::vector<BrokenByCollect>>
recheckFailures(PytestJob Plain, PytestJob CoverageOnly,
                const std::vector<std::pair<std::string, std::string>> &Failed,
                const std::string &Root, double TimeoutSeconds,
                llvm::raw_ostream &Err) {
  std::vector<std::string> Ids;
  for (auto &[Id, Message] : Failed)
    Ids.push_back(Id);
  auto WithoutTia = passingIn(std::move(Plain), Ids, Root, TimeoutSeconds, Err);
  if (!WithoutTia)
    return WithoutTia.takeError();
  if (WithoutTia->empty())
    return std::vector<BrokenByCollect>();
  std::vector<std::string> Broken(WithoutTia->begin(), WithoutTia->end());
  auto WithCoverage =
      passingIn(std::move(CoverageOnly), Broken, Root, TimeoutSeconds, Err);
  if (!WithCoverage)
    return WithCoverage.takeError();
  std::vector<BrokenByCollect> Out;
  for (auto &[Id, Message] : Failed)
    if (WithoutTia->count(Id))
      Out.push_back(
          {Id, Message,
           WithCoverage->count(Id)
               ? "tia's runtime-evidence probes or child-process tracing "
                 "(tia_evidence, tia_child)"
               : "coverage measurement (coverage.py through pytest-cov)"});
  return Out;
}

} // namespace collect
} // namespace tia
