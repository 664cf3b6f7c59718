//===- PytestInternal.h - running pytest processes --------------*- C++ -*-===//
//
// Private to lib/Collect: one or more pytest processes, each logging through
// tia's plugin, run at most N at a time with [N/M] progress.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_COLLECT_PYTESTINTERNAL_H
#define TIA_LIB_COLLECT_PYTESTINTERNAL_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace tia {
namespace collect {

/// What the plugin wrote so far.
struct PluginLog {
  unsigned Collected = 0;
  bool HaveCollected = false;
  std::vector<llvm::json::Object> Results;
  /// $TIA_PYTEST_LIST: (node id, path relative to the repository root).
  std::vector<std::pair<std::string, std::string>> Items;
  /// $TIA_PYTEST_LIST: the items collected but deselected (-k, -m,
  /// --deselect, a plugin): tests that exist, though they do not run.
  std::vector<std::pair<std::string, std::string>> Deselected;
  std::string Running; ///< started, not finished
  /// Bytes of the log read so far (whole lines).
  uint64_t Consumed = 0;
};

/// Adds to \p Log what the plugin's log at \p Path holds beyond what \p Log
/// read of it (all of it again when the file was written anew); a missing
/// file changes nothing.
void readPluginLog(const std::string &Path, PluginLog &Log);

/// One pytest process.
struct PytestJob {
  std::vector<std::string> Args; ///< argv, the Python first
  std::vector<std::string> Env;  ///< the whole environment
  std::string ResultsLog;        ///< $TIA_PYTEST_RESULTS
  std::string Out, Err;          ///< where its stdout and stderr go
  /// Set by runJobs.
  int ReturnCode = 0;
  bool Crashed = false; ///< ended by a signal
  PluginLog Log;
  /// The tests runJobs killed the job in, after the timeout, in order;
  /// each run of the job after one deselects them all.
  std::vector<std::string> TimedOut;
  /// Killed after the timeout with no test running (importing, collecting):
  /// Crashed too.
  bool Stalled = false;
};

/// A pytest fork server (tia_pytest_server.py): one Python, started in the
/// repository root, that imports pytest and coverage.py once and runs one
/// job at a time in a child forked from itself.
class PytestServer {
public:
  /// Starts `Python -m tia_pytest_server` in \p Root with \p Env (which
  /// must let it import tia's modules), its own output to \p Log. A server
  /// that cannot start, or whose imports fail or take longer than
  /// \p ReadyMillis (a few tenths of a second as a rule, seconds on a
  /// loaded machine), accepts no job.
  PytestServer(const std::string &Python, const std::vector<std::string> &Env,
               const std::string &Root, const std::string &Log,
               int ReadyMillis = 120 * 1000);
  ~PytestServer();
  PytestServer(const PytestServer &) = delete;
  PytestServer &operator=(const PytestServer &) = delete;

  /// Whether \p J (`Python -m pytest ...`) runs here as on its own: it
  /// starts with the server's PYTHON* variables (the interpreter reads them
  /// before the fork), and its strings pass through JSON unchanged.
  bool accepts(const PytestJob &J) const;
  /// Sends \p J, after waiting for the server's imports the first time;
  /// false when the server is gone (run the job on its own then).
  bool start(const PytestJob &J);
  /// How the job started ended.
  struct End {
    int Code;        ///< its exit code; minus the signal's number
    bool ServerLost; ///< the server died with it: run it again on its own
  };
  /// The end of the job started, once it ended.
  std::optional<End> poll();
  /// Kills the job's child, once the server said which it is (false
  /// before); poll() then tells its end.
  bool killJob();
  bool busy() const { return Busy; }
  bool dead() const { return Dead; }

private:
  bool spawn(const std::vector<std::string> &Env, const std::string &Root,
             const std::string &Log);
  /// The server's next reply, waiting up to \p WaitMillis when given;
  /// none (yet), or none at all (then dead()).
  std::optional<llvm::json::Object> readReply(std::optional<int> WaitMillis);
  /// Marks the server dead, and kills and reaps it.
  void giveUp();
  bool send(const std::string &Line);

  std::string Python;
  int ReadyMillis;
  std::vector<std::string> Startup; ///< its PYTHON* variables, sorted
  pid_t Pid = 0;                    ///< the server
  pid_t JobPid = 0;    ///< the child running the job, once the server said
  int Socket = -1;     ///< tia's end
  std::string Pending; ///< read, not yet a whole line
  bool Ready = false, Busy = false, Dead = false;
};

/// The fork servers of one collect, started when a job first needs one, at
/// most \p Limit (one per job run at once).
class PytestServers {
public:
  PytestServers(std::string Python, std::vector<std::string> Env,
                std::string Root, std::string Log, unsigned Limit)
      : Python(std::move(Python)), Env(std::move(Env)), Root(std::move(Root)),
        Log(std::move(Log)), Limit(std::max(1u, Limit)) {}
  /// An idle server for \p J, started if need be; null: run it on its own.
  PytestServer *idleFor(const PytestJob &J);

private:
  std::string Python;
  std::vector<std::string> Env;
  std::string Root, Log;
  unsigned Limit;
  std::vector<std::unique_ptr<PytestServer>> Servers;
};

/// How runJobs runs its jobs.
struct JobsOptions {
  unsigned Parallel = 1; ///< jobs at once
  /// Progress counts test results against this ("testing", none when
  /// Quiet); 0: the first job's collected count.
  unsigned Total = 0;
  bool Quiet = true;
  /// Stop starting jobs after one that ended with a code other than 0, 1
  /// or 5 or by a signal.
  bool StopOnFailure = false;
  /// Seconds a job may go without a test starting or ending; 0: no limit.
  /// A job past it is killed: when a test was running, the job runs again
  /// with that test deselected (PytestJob::TimedOut), else it is Stalled.
  double TimeoutSeconds = 0;
  /// Where the jobs they accept run; the others (or all, when null) run in
  /// processes of their own.
  PytestServers *Servers = nullptr;
};

/// Runs \p Jobs in \p Root as \p O says, in order, with progress on \p Err.
/// Fails only when a process cannot be started; the jobs then running in
/// processes of their own are killed and waited for first (those in
/// servers end with their servers).
llvm::Error runJobs(std::vector<PytestJob> &Jobs, const std::string &Root,
                    const JobsOptions &O, llvm::raw_ostream &Err);

/// A test that failed under collect and passed without tia's
/// instrumentation.
struct BrokenByCollect {
  std::string NodeId;
  std::string Message; ///< its error under collect
  std::string Cause;   ///< the instrumentation that broke it
};

/// Runs the tests \p Failed ((node id, message under collect)) once more
/// with \p Plain (pytest with tia's plugin and no instrumentation), then
/// those that passed with \p CoverageOnly (coverage, no probes), to tell
/// which part of collect broke them; the node ids are added to each job's
/// arguments, each test getting \p TimeoutSeconds as in runJobs. Returns
/// the tests that passed without instrumentation. Fails only when a
/// process cannot be started.
llvm::Expected<std::vector<BrokenByCollect>>
recheckFailures(PytestJob Plain, PytestJob CoverageOnly,
                const std::vector<std::pair<std::string, std::string>> &Failed,
                const std::string &Root, double TimeoutSeconds,
                llvm::raw_ostream &Err);

/// The last \p N lines of \p Path, joined with " | ", for error messages.
std::string tail(const std::string &Path, size_t N);

} // namespace collect
} // namespace tia

#endif // TIA_LIB_COLLECT_PYTESTINTERNAL_H
