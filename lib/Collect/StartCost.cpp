//===- StartCost.cpp - what starting a process per case cost --------------===//
//
// Without tia's listener linked into a test binary, collect runs each of
// its cases in a process of its own, so that each case's counters are its
// own. A binary whose main() is slow to start (fixtures built before the
// first case, benchmarks, a large static initialisation) then pays that
// start once per case, which can be most of a collect. The note says what it
// cost, and the fix when it matters.
//
//===----------------------------------------------------------------------===//

#include "CollectInternal.h"
#include "tia/Support/Plural.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace collect {

namespace {

/// Seconds as a person reads them: "14.0s", "3m05s", "1h12m".
std::string readableSeconds(double Seconds) {
  if (Seconds < 60)
    return llvm::formatv("{0:f1}s", Seconds).str();
  unsigned Whole = static_cast<unsigned>(Seconds + 0.5);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Whole < 3600)
    OS << llvm::format("%um%02us", Whole / 60, Whole % 60);
  else
    OS << llvm::format("%uh%02um", Whole / 3600, Whole % 3600 / 60);
  return OS.str();
}

/// What linking tia's listener into binary \p Name of framework \p F
/// takes in its CMakeLists.txt.
std::string listenerCall(llvm::StringRef Name, CaseFramework F) {
  if (F == CaseFramework::GTest)
    return ("tia_add_coverage(" + Name + ")").str();
  return ("tia_add_coverage(" + Name + " FRAMEWORK " + caseFrameworkName(F) +
          ")")
      .str();
}

} // namespace

std::string startCostNote(const std::map<std::string, ProcessTimes> &PerBinary,
                          const std::map<std::string, double> &ListSeconds,
                          double RunSeconds, unsigned Jobs,
                          bool ProcessPerTest) {
  unsigned Cases = 0, Binaries = 0;
  double Cost = 0, CostliestCost = -1;
  const std::pair<const std::string, ProcessTimes> *Costliest = nullptr;
  double CostliestStart = 0;
  for (const auto &Entry : PerBinary) {
    const ProcessTimes &Times = Entry.second;
    if (Times.Count < 2) // one case has no process to share
      continue;
    auto Listed = ListSeconds.find(Entry.first);
    // A listing starts the binary and does nearly nothing else; without
    // one, the quickest case's process bounds the start-up from above.
    double Start =
        std::min(Listed != ListSeconds.end() ? Listed->second : Times.Quickest,
                 Times.Quickest);
    double Paid = Start * Times.Count;
    Cases += Times.Count;
    ++Binaries;
    Cost += Paid;
    if (Paid > CostliestCost) {
      CostliestCost = Paid;
      Costliest = &Entry;
      CostliestStart = Start;
    }
  }
  // Below a second in all, the processes are not worth a line.
  if (!Costliest || Cost < 1)
    return "";
  std::string Name = llvm::sys::path::filename(Costliest->first).str();
  double Capacity = RunSeconds * std::max(Jobs, 1u);
  double Share = Capacity > 0 ? std::min(Cost / Capacity, 1.0) : 0;
  std::string Note = llvm::formatv(
      "tia: note: {0} case{1} of {2} binar{3} ran one process each; a "
      "process of {4} takes {5} to start, {6} in all ({7:f0}% of the run's "
      "process time)\n",
      Cases, pluralS(Cases), Binaries, Binaries == 1 ? "y" : "ies", Name,
      readableSeconds(CostliestStart), readableSeconds(Cost), Share * 100);
  if (Share <= 0.25)
    return Note;
  if (ProcessPerTest)
    return Note + "tia: hint: without --process-per-test, the cases of a "
                  "binary with tia's listener share one process\n";
  return Note + "tia: hint: link tia's listener so that the cases of " + Name +
         " share one process: " +
         listenerCall(Name, Costliest->second.Framework) +
         " in its CMakeLists.txt (docs/Collection.md, \"With tia's CMake "
         "helper\")\n";
}

} // namespace collect
} // namespace tia
