//===- tia/Support/Progress.h - progress of long work ---------------------===//

#ifndef TIA_SUPPORT_PROGRESS_H
#define TIA_SUPPORT_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace tia {

/// Reports "[N/M] what (ETA 12s)" for long work. On a terminal the line is
/// rewritten in place; elsewhere (CI logs) only a few lines are printed, at
/// each quarter of the work, and, once asked (startHeartbeat), a heartbeat
/// line whenever no line was printed for a while, naming the longest
/// running units (those started() and not yet stepped); with Quiet
/// nothing. Thread-safe, but the heartbeat writes to the stream from a
/// thread of its own: only work that writes nothing else to it meanwhile
/// (or only through a stream that is not buffered) starts one.
class Progress {
public:
  Progress(llvm::StringRef Verb, unsigned Total, llvm::raw_ostream &OS,
           bool Quiet);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// Without a terminal, prints a heartbeat line whenever
  /// heartbeatSeconds() pass without a line, until finish().
  void startHeartbeat();
  /// Marks \p What as running, for the heartbeat.
  void started(llvm::StringRef What);
  /// Marks \p What as no longer running without counting it as done.
  void ended(llvm::StringRef What);
  /// Marks one more unit done; \p What names it (and is no longer running).
  void step(llvm::StringRef What);
  /// Clears the terminal line and stops the heartbeat; call before printing
  /// the summary.
  void finish();
  /// Seconds since construction.
  double elapsed() const;

  /// The longest a log without a terminal stays silent while work runs:
  /// 30 seconds, or TIA_HEARTBEAT_SECONDS (for tests of the heartbeat).
  static double heartbeatSeconds();

private:
  using Clock = std::chrono::steady_clock;
  void printLine(llvm::StringRef Tail); ///< with M held
  void beat();                          ///< the heartbeat thread

  std::string Verb;
  unsigned Total;
  unsigned Done = 0;
  unsigned NextQuarter = 1;
  llvm::raw_ostream &OS;
  bool Quiet;
  bool Terminal;
  Clock::time_point Start;
  Clock::time_point LastLine;
  /// What runs, and since when.
  std::map<std::string, Clock::time_point> Running;
  std::mutex M;
  std::condition_variable Wake;
  bool Stopping = false;
  std::thread Heartbeat;
};

} // namespace tia

#endif // TIA_SUPPORT_PROGRESS_H
