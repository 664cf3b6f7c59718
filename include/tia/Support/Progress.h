//===- tia/Support/Progress.h - progress of long work ---------------------===//

#ifndef TIA_SUPPORT_PROGRESS_H
#define TIA_SUPPORT_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <mutex>

namespace tia {

/// Reports "[N/M] what (ETA 12s)" for long work. On a terminal the line is
/// rewritten in place; elsewhere (CI logs) only a few lines are printed, at
/// each quarter of the work; with Quiet nothing. Thread-safe.
class Progress {
public:
  Progress(llvm::StringRef Verb, unsigned Total, llvm::raw_ostream &OS,
           bool Quiet);
  /// Marks one more unit done; \p What names it.
  void step(llvm::StringRef What);
  /// Clears the terminal line; call before printing the summary.
  void finish();
  /// Seconds since construction.
  double elapsed() const;

private:
  std::string Verb;
  unsigned Total;
  unsigned Done = 0;
  unsigned NextQuarter = 1;
  llvm::raw_ostream &OS;
  bool Quiet;
  bool Terminal;
  std::chrono::steady_clock::time_point Start;
  std::mutex M;
};

} // namespace tia

#endif // TIA_SUPPORT_PROGRESS_H
