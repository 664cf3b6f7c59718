//===- Process.h - running a test process with a timeout -------*- C++ -*-===//
//
// Used by lib/Collect for the tests and by lib/Eval for the build and test
// commands of its scratch clone: one process group per process, killed on
// a timeout and on an interrupt of tia.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COLLECT_PROCESS_H
#define TIA_COLLECT_PROCESS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <sys/types.h>
#include <vector>

namespace tia {
namespace collect {

/// A process to start.
struct ProcessSpec {
  std::string Executable;               ///< absolute, or relative to cwd
  std::vector<std::string> Arguments;   ///< after the executable
  std::vector<std::string> Environment; ///< the whole environment
  std::string WorkingDir;               ///< empty: tia's
  std::string OutputFile; ///< stdout and stderr go here (truncated)
};

/// How it ended.
struct ProcessEnd {
  enum Kind { Exited, Signaled, TimedOut, NotStarted } How = NotStarted;
  int ExitCode = 0;
  int Signal = 0;
  double Seconds = 0;
  std::string Error; ///< NotStarted: why
};

/// Starts \p Spec in a process group of its own, with stdin from /dev/null,
/// and waits for it. When \p TimeoutSeconds (> 0) pass without \p Progressed
/// returning true (polled every few milliseconds; it may be empty), the
/// whole group is killed. An interrupt of tia (SIGINT, SIGTERM) kills every
/// running group. Thread-safe.
ProcessEnd runProcess(const ProcessSpec &Spec, double TimeoutSeconds,
                      llvm::function_ref<bool()> Progressed = nullptr);

/// Kills \p Pid and the processes below it (its children, theirs, ...,
/// found in /proc), for a process that runs in tia's own group: a test's
/// hung child goes with it. A process that left the tree (a daemon, an
/// orphan) is not found.
void killProcessTree(pid_t Pid);

/// tia's environment without the variables named in \p Drop, then \p Add
/// ("NAME=VALUE", later ones replacing earlier ones of the same name;
/// "NAME" alone unsets NAME, as ctest's ENVIRONMENT_MODIFICATION may).
std::vector<std::string>
buildEnvironment(const std::vector<std::string> &Drop,
                 const std::vector<std::vector<std::string>> &Add);

/// "SIGSEGV (Segmentation fault)" for a signal number.
std::string signalName(int Signal);

/// "1s", "2.5s": seconds for messages.
std::string secondsText(double Seconds);

/// Reads the whole file \p Path ("" when it cannot be read).
std::string readFileOrEmpty(llvm::StringRef Path);

} // namespace collect
} // namespace tia

#endif // TIA_COLLECT_PROCESS_H
