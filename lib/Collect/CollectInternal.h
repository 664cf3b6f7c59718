//===- CollectInternal.h - what the parts of collect share ----------------===//

#ifndef TIA_LIB_COLLECT_COLLECTINTERNAL_H
#define TIA_LIB_COLLECT_COLLECTINTERNAL_H

#include "FileReadsInternal.h"
#include "tia/Collect/Collect.h"
#include "tia/Collect/Process.h"
#include "tia/Coverage/Gcov.h"
#include "tia/Coverage/Profiles.h"
#include "tia/Support/CaseFilters.h"
#include "tia/Support/Progress.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace collect {

//===----------------------------------------------------------------------===//
// Outcomes
//===----------------------------------------------------------------------===//

/// The tests the newest coverage snapshot holds: those whose coverage a
/// run that does not pass keeps.
llvm::Expected<std::set<std::string>> testsWithCoverage(Store &S);

/// Warns of a test that did not pass, with its message, and of what
/// selection uses for it instead of this run's coverage (\p HadCoverage:
/// it is in testsWithCoverage).
void warnNotPassed(const TestResult &R, bool HadCoverage,
                   llvm::raw_ostream &Err);

/// The outcome of a test that ran alone in \p End, with \p Output (stdout
/// and stderr): GoogleTest's own report for a case (\p GTest), ctest's
/// rules otherwise. The message is one line.
TestResult classify(const DiscoveredTest &T, const ProcessEnd &End,
                    llvm::StringRef Output, double TimeoutSeconds);

/// What tia's listener wrote to its journal (see runtime/GTestListener.cpp
/// and Catch2Listener.cpp), segments relative to its folder, case names
/// unescaped ("%20" is a space).
struct Journal {
  struct Case {
    std::string Segment; ///< empty until the case ended
    bool Ended = false;
    Outcome Result = Outcome::Passed;
    double Seconds = 0;
    std::string Message;
  };
  std::vector<std::string> ProgramSegments;
  std::map<std::string, std::vector<std::string>> SuiteSegments;
  std::map<std::string, Case> Cases; ///< every case that started
  std::vector<std::string> Started;  ///< in order
  bool Exists = false;

  /// Reads complete lines of journal text.
  void parse(llvm::StringRef Text);
};

/// The framework of case \p T (a GoogleTest or Catch2 case).
CaseFramework frameworkOf(const DiscoveredTest &T);

/// The arguments of case \p T's command but the one that names the case:
/// what all the cases of one binary run through one listener share.
std::vector<std::string> argumentsWithoutCase(const DiscoveredTest &T);

//===----------------------------------------------------------------------===//
// Binaries and their coverage
//===----------------------------------------------------------------------===//

/// What tia knows of one executable the tests run.
struct Binary {
  std::string Path;
  coverage::BinaryProbe Probe;
  /// Clang: the mappings, read once (null for other kinds, or when they
  /// could not be read: then Problem says why).
  std::unique_ptr<coverage::ClangCoverage> Clang;
  std::string Problem;
};

/// Reads per-test coverage from where a test process left it: clang raw
/// profiles (files), gcov data files (under GCOV_PREFIX folders).
class CoverageReader {
public:
  CoverageReader(std::string Gcov, std::string WorkDir)
      : Gcov(std::move(Gcov)), WorkDir(std::move(WorkDir)) {}

  /// The functions the profiles at \p Locations (files or folders, searched
  /// for *.profraw and *.gcda) say ran, read against \p B. std::nullopt when
  /// there is no profile at all.
  llvm::Expected<std::optional<std::vector<coverage::FunctionHit>>>
  read(const Binary &B, const std::vector<std::string> &Locations);

  /// Fails when gcov cannot be found ("cannot find gcov ...").
  llvm::Error checkGcov();

  /// Reads every gcov data file under \p Locations with one gcov run and
  /// keeps what they say for read(): the segments a listener wrote are read
  /// once, not once per case.
  llvm::Error prefetchGcov(const std::vector<std::string> &Locations);

private:
  /// Runs gcov on those of \p DataFiles not read yet.
  llvm::Error runGcov(const std::vector<std::string> &DataFiles);

  std::string Gcov;
  std::string GcovPath;
  std::string WorkDir;
  std::mutex M;
  unsigned Calls = 0;
  /// Data file -> the functions it says ran.
  std::map<std::string, std::vector<coverage::FunctionHit>> GcovCache;
};

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// What a test run left: its outcome and its coverage, if any.
struct TestRun {
  TestResult Result;
  std::optional<std::vector<coverage::FunctionHit>> Hits;
  /// Why there is no coverage although the test ended normally; empty.
  std::string CoverageProblem;
  /// A process the test started left an empty profile: it was killed
  /// before it wrote what it ran (CollectSummary::KilledProcess).
  bool KilledProcess = false;
  /// The files it read, when collect traced them.
  std::optional<RawReads> Reads;
  /// The test's own program (its binary, or the script ctest runs).
  std::string Binary;
};

/// The wall times of processes of one binary.
struct ProcessTimes {
  CaseFramework Framework = CaseFramework::GTest;
  unsigned Count = 0;
  double Seconds = 0;
  double Quickest = 0;

  void add(double S) {
    Quickest = Count ? std::min(Quickest, S) : S;
    Seconds += S;
    ++Count;
  }
};

/// The shared state of one collection.
struct RunContext {
  RunContext(const CollectOptions &Options, std::string WorkDir,
             CoverageReader &Reader, Progress &Prog)
      : Options(Options), WorkDir(std::move(WorkDir)), Reader(Reader),
        Prog(Prog) {}

  const CollectOptions &Options;
  std::string WorkDir;
  CoverageReader &Reader;
  Progress &Prog;
  /// The file read tracer preloaded into the tests; empty: none.
  std::string Tracer;
  std::mutex M;
  unsigned Processes = 0;
  unsigned Counter = 0;
  /// Warnings about how tests were run, once each.
  std::set<std::string> Notes;
  /// Per binary, the processes that each ran one case of it: what starting
  /// a process per case cost (startCostNote).
  std::map<std::string, ProcessTimes> CaseProcesses;
  /// withPrograms' cache: how each program was built, and the mappings of
  /// each binary with the programs its tests ran.
  std::map<std::string, coverage::Instrumentation> ProgramKinds;
  std::map<std::string, std::unique_ptr<Binary>> WithPrograms;

  /// A fresh folder under WorkDir.
  std::string freshDir(llvm::StringRef Stem);
  /// The timeout of \p T: --timeout, else its ctest TIMEOUT, else 1500s.
  double timeoutOf(const DiscoveredTest &T) const;
  /// The variables that trace the reads of \p T into \p ReadsFile; none
  /// when collect traces no reads.
  std::vector<std::string> traceVariables(const DiscoveredTest &T,
                                          const std::string &ReadsFile) const;
  /// \p B, or, when the test ran other clang-instrumented programs of the
  /// build (\p Reads' Executed: a tool under test, started directly or
  /// through a script), one whose mappings hold theirs too, read once per
  /// set of programs: what those programs ran counts for the test.
  const Binary &withPrograms(const Binary &B,
                             const std::optional<RawReads> &Reads);
  /// True when \p Reads shows that the test ran an instrumented program of
  /// the build, or opened an instrumented shared library of it as a file
  /// (the dynamic loader's own opens are not traced).
  bool ranInstrumented(const RawReads &Reads);
  /// True for real path \p Path inside the build directory, as given or
  /// with its symbolic links resolved; call with M held.
  bool insideBuild(llvm::StringRef Path);
  /// The build directory with its symbolic links resolved; insideBuild's.
  std::optional<std::string> RealBuildDir;
  /// How program or library \p Path (real) was built, probed once; call
  /// with M held.
  coverage::Instrumentation kindOfProgram(const std::string &Path);
  /// What the tracer wrote to \p Files for a run of \p Binary that ended
  /// with \p Result: incomplete when the test did not pass (it may have
  /// stopped before a read) or no process loaded the tracer. std::nullopt
  /// when collect traces no reads.
  std::optional<RawReads> readsOf(const std::string &Binary, Outcome Result,
                                  const std::vector<std::string> &Files);
};

/// Work for one thread: tests (indexes into the test list) run one after
/// another, each alone or all through one listener process, under the
/// ctest properties of the ctest test they belong to.
struct Unit {
  std::vector<size_t> Tests;
  bool Listener = false;
  const Schedule *Sched = nullptr; ///< never null
};

/// Runs \p Run on each of \p Units on \p Jobs threads, starting each unit
/// in the order given when ctest would start it beside the running ones
/// (RUN_SERIAL, PROCESSORS, RESOURCE_LOCK, FIXTURES_SETUP, _REQUIRED and
/// _CLEANUP among the units given). Returns when all ended.
void runScheduled(const std::vector<Unit> &Units, unsigned Jobs,
                  llvm::function_ref<void(const Unit &)> Run);

/// Runs \p T alone in its own process with its own profile; counts it as
/// progress when \p Step.
TestRun runAlone(RunContext &Ctx, const DiscoveredTest &T, const Binary &B,
                 bool Step = true);

/// Runs the cases \p Cases of one binary (same command but for the filter)
/// in as few processes as crashes and hangs allow, through tia's listener.
/// Returns one TestRun per case, in the order given. When the listener
/// turns out not to be active, runs the cases alone.
std::vector<TestRun>
runWithListener(RunContext &Ctx,
                const std::vector<const DiscoveredTest *> &Cases,
                const Binary &B);

//===----------------------------------------------------------------------===//
// Which discovered tests run (Choose.cpp)
//===----------------------------------------------------------------------===//

/// The tests --only names (ids or glob patterns) among \p All, with the
/// tests that set up and clean up the fixtures they require; warns of
/// names that match nothing. Fails when none matches.
llvm::Expected<std::vector<DiscoveredTest>>
selectOnly(std::vector<DiscoveredTest> All,
           const std::vector<std::string> &Only, llvm::raw_ostream &Err,
           bool Quiet);

/// Leaves the tests \p Carry carries over out of \p Tests, but for those
/// that set up or clean up a fixture a test that runs requires (said on
/// \p Err unless \p Quiet); returns how many were left out.
unsigned leaveOut(std::vector<DiscoveredTest> &Tests,
                  const std::optional<CarryOver> &Carry, llvm::raw_ostream &Err,
                  bool Quiet);

/// --shard: keeps share K of \p Tests (a test is a unit: the cases of one
/// binary may go to several shares) and says what it holds; returns the
/// plan, std::nullopt without --shard.
std::optional<shard::ShardPlan> keepShare(std::vector<DiscoveredTest> &Tests,
                                          const CollectOptions &O,
                                          llvm::raw_ostream &Err);

//===----------------------------------------------------------------------===//
// The tests a collect finds gone (Retire.cpp)
//===----------------------------------------------------------------------===//

/// The C++ tests of \p Known that a whole collect of build directory
/// \p BuildDir did not discover (\p Listed: the ids it did) although their
/// stored command runs there (its executable or working directory is inside \p
/// BuildDir): ctest or their binary's case listing no longer names them.
std::vector<std::string> goneCppTests(const std::vector<TestInfo> &Known,
                                      const std::set<std::string> &Listed,
                                      llvm::StringRef BuildDir);

/// The pytest tests of \p Known (ids) that are gone, given what the
/// session collected (\p Listed: node id and file, deselected ones too): a
/// test of a listed file that was not listed (nor, for a parametrized
/// function's own id, any of its instances), and a test of an unlisted file
/// that no longer exists
/// (\p FileExists, relative to tia's root; judged only when the session's
/// node ids are relative to that root too).
std::vector<std::string>
gonePytestTests(const std::vector<std::string> &Known,
                const std::vector<std::pair<std::string, std::string>> &Listed,
                llvm::function_ref<bool(llvm::StringRef)> FileExists);

/// Says on \p Err which tests a collect retired; nothing when none.
void noteRetired(const std::vector<std::string> &Ids, llvm::raw_ostream &Err);

//===----------------------------------------------------------------------===//
// What starting a process per case cost
//===----------------------------------------------------------------------===//

/// When cases of a binary ran one process each, the note saying what
/// starting those processes cost (\p ListSeconds: discovery's listing
/// times, else the quickest process stands for the start-up), and, when it
/// is more than a quarter of the run's process time (\p RunSeconds on
/// \p Jobs threads), a second line with the fix. Empty when no binary ran
/// two cases one process each.
std::string startCostNote(const std::map<std::string, ProcessTimes> &PerBinary,
                          const std::map<std::string, double> &ListSeconds,
                          double RunSeconds, unsigned Jobs,
                          bool ProcessPerTest);

} // namespace collect
} // namespace tia

#endif // TIA_LIB_COLLECT_COLLECTINTERNAL_H
