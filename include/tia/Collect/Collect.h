//===- tia/Collect/Collect.h - running C++ tests for per-test coverage ----===//
//
// `tia collect` for C++: discovers the tests of a CMake build (ctest, and
// the cases inside each GoogleTest binary), runs each with its own coverage
// profile (one process per case, or one process per binary when tia's
// GoogleTest listener is compiled in), in parallel with a per-test timeout,
// classifies each outcome, reads the coverage in-process, and stores the
// outcomes, how to run each test again and its coverage.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COLLECT_COLLECT_H
#define TIA_COLLECT_COLLECT_H

#include "tia/Results/Runners.h"
#include "tia/Support/CaseFilters.h"
#include "tia/Support/Model.h"
#include "tia/Support/Shard.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;

namespace collect {

//===----------------------------------------------------------------------===//
// Discovery
//===----------------------------------------------------------------------===//

/// How ctest decides a test's outcome besides its exit code.
struct OutcomeRules {
  bool WillFail = false;              ///< WILL_FAIL: a failure passes
  std::optional<int> SkipReturnCode;  ///< SKIP_RETURN_CODE
  std::vector<std::string> PassRegex; ///< PASS_REGULAR_EXPRESSION
  std::vector<std::string> FailRegex; ///< FAIL_REGULAR_EXPRESSION
  std::vector<std::string> SkipRegex; ///< SKIP_REGULAR_EXPRESSION
};

/// What ctest says about running a test beside others (its properties).
struct Schedule {
  std::string CTestName;             ///< the ctest test it belongs to
  bool RunSerial = false;            ///< RUN_SERIAL: nothing else at once
  unsigned Processors = 1;           ///< PROCESSORS: the jobs it takes
  std::vector<std::string> Locks;    ///< RESOURCE_LOCK
  std::vector<std::string> Setup;    ///< FIXTURES_SETUP
  std::vector<std::string> Cleanup;  ///< FIXTURES_CLEANUP
  std::vector<std::string> Requires; ///< FIXTURES_REQUIRED
};

/// One test to run, as discovery found it.
struct DiscoveredTest {
  /// "gtest:<binary>:<Suite.Name>", "catch2:<binary>:<case name>" or
  /// "ctest:<name>".
  std::string Id;
  /// How to run it alone (stored with the test): for a GoogleTest case the
  /// binary with --gtest_filter=<Suite.Name> and the ctest test's other
  /// arguments, for a Catch2 case the ctest test's options and a spec
  /// naming the case (the last argument); the ctest test's environment,
  /// working directory, timeout.
  TestCommand Command;
  /// GoogleTest and Catch2 cases: the binary (absolute) and the case's
  /// name ("Suite.Name", or the Catch2 name).
  std::string Binary;
  std::string Case;
  /// A DISABLED_ case or a ctest test with the DISABLED property: recorded
  /// as skipped, not run.
  /// The file that is the test, when discovery knows it (a lit test's
  /// file, from its suite's source root): absolute. Empty otherwise.
  std::string File;
  bool Disabled = false;
  OutcomeRules Rules;
  /// The ctest test's; its GoogleTest cases share it.
  Schedule Sched;
};

/// What discovery found.
struct Discovery {
  std::vector<DiscoveredTest> Tests; ///< sorted by id
  /// Tests ctest lists but that cannot run (no command, a binary whose
  /// listing fails), one line each, for warnings.
  std::vector<std::string> Problems;
  /// How long each case binary (absolute) took to list its cases: about
  /// what starting one of its processes costs.
  std::map<std::string, double> ListSeconds;
};

/// The ctest tests of `ctest --show-only=json-v1`, before GoogleTest cases
/// are looked for: ids "ctest:<name>".
struct CTestEntry {
  std::string Name;
  std::vector<std::string> Command; ///< executable first; empty: not found
  std::string WorkingDir;           ///< empty: the directory of its file
  /// ENVIRONMENT ("NAME=VALUE"), then, once discovery applied it, what
  /// ENVIRONMENT_MODIFICATION leaves ("NAME" alone: unset).
  std::vector<std::string> Environment;
  /// ENVIRONMENT_MODIFICATION, as ctest lists it ("NAME=op:value").
  std::vector<std::string> EnvironmentModification;
  double Timeout = 0;
  bool Disabled = false;
  OutcomeRules Rules;
  Schedule Sched;
};

/// Parses the output of `ctest --show-only=json-v1`. Fails with
/// "malformed ctest JSON from BUILD_DIR: REASON".
llvm::Expected<std::vector<CTestEntry>>
parseCTestJson(llvm::StringRef Text, llvm::StringRef BuildDir);

/// Runs `ctest --show-only=json-v1` in \p BuildDir (with \p CTest), lists
/// the cases of every GoogleTest binary among the commands, and returns the
/// tests: a ctest test running a GoogleTest binary becomes the binary's
/// cases it runs (gtest_discover_tests' one test per case, or one test for
/// the whole binary); other ctest tests stay as they are. Fails when ctest
/// cannot run or BuildDir is no ctest build directory.
llvm::Expected<Discovery> discoverTests(llvm::StringRef BuildDir,
                                        llvm::StringRef CTest,
                                        llvm::StringRef WorkDir);

//===----------------------------------------------------------------------===//
// Collection
//===----------------------------------------------------------------------===//

/// What an incremental collect (select::IncrementalCollect) leaves out:
/// tests a selection from snapshot Snapshot found unaffected by the change
/// since. They are not run; their coverage in that snapshot is recorded at
/// the collect's commit too (carryCoverage), unless Restamp is false (a
/// shard: the merge copies only what the shares ran).
struct CarryOver {
  std::set<std::string> Tests;
  int64_t Snapshot = 0;
  bool Restamp = true;
};

/// Records the coverage each test of \p C held in snapshot C.Snapshot as
/// collected at \p Commit too, empty coverage included: the selection that
/// left it out cleared it for every change since the merge base of that
/// snapshot's commits, so its coverage holds at \p Commit as much as any
/// selection's answer holds (docs/Safety.md). Tests the snapshot does not
/// hold are no tests to carry. Returns how many were carried; none without
/// a commit or with Restamp false. Joins the caller's transaction.
llvm::Expected<unsigned> carryCoverage(Store &S, const CarryOver &C,
                                       llvm::StringRef Commit);

struct CollectOptions {
  std::string BuildDir; ///< absolute; holds CTestTestfile.cmake
  unsigned Jobs = 0;    ///< 0: one per core
  /// Seconds per test (per case, also in one-process-per-binary runs); 0:
  /// the ctest TIMEOUT property, else 1500 (ctest's default).
  double TimeoutSeconds = 0;
  /// Only these test ids (or glob patterns: '*', '?'); empty: all.
  std::vector<std::string> Only;
  /// An incremental collect: the tests not to run, whose coverage is
  /// carried over.
  std::optional<CarryOver> Carry;
  /// One process per case even for binaries with tia's listener.
  bool ProcessPerTest = false;
  /// Run the cases of one ctest test at once, split across the jobs (the
  /// default runs them one after another, as ctest does): only for suites
  /// whose cases share nothing (files, ports, globals on disk).
  bool SplitCases = false;
  std::string CTest = "ctest"; ///< program name or path
  std::string Gcov = "gcov";   ///< program name or path
  /// Absolute repository root, to make coverage paths relative.
  std::string ProjectRoot;
  /// Commit the tests run at (may be empty).
  std::string Commit;
  bool Quiet = false;
  /// --shard K/N: only share K of the tests (after --only), the cases of
  /// one binary possibly in several shares; the database records the share
  /// (Store::putShardRecord, kind "collect").
  std::optional<shard::ShardSpec> Shard;
  /// The duration of each test id that balances the shares; a test it
  /// lacks costs the mean. Empty: every test costs 1.
  std::map<std::string, double> Durations;
  /// Record the files each test reads and the directories it lists
  /// (runtime/FileReadTracer.c; docs/Collection.md, "Files tests read").
  bool TraceFiles = false;
  /// The files git tracks, repository-relative and sorted: only reads of
  /// these are kept.
  std::vector<std::string> TrackedFiles;
};

struct CollectSummary {
  unsigned Tests = 0; ///< results recorded
  unsigned Passed = 0, Failed = 0, Errored = 0, TimedOut = 0, Crashed = 0,
           Skipped = 0;
  unsigned WithCoverage = 0; ///< tests whose coverage was replaced
  unsigned Links = 0;        ///< test -> element links stored
  unsigned Processes = 0;    ///< test processes started
  unsigned Traced = 0;       ///< tests whose file reads were recorded
  /// Tests of CollectOptions::Carry left out of the run, and of those
  /// the ones whose coverage was carried to this commit.
  unsigned LeftOut = 0;
  unsigned Carried = 0;
  double Seconds = 0;
  int64_t RunId = 0;
  /// What kept tia from collecting some coverage (a binary without
  /// instrumentation, a missing gcov, an unreadable profile): the command
  /// fails after storing everything else.
  std::vector<std::string> Problems;
  /// Tests that passed although a process they started was killed before
  /// it wrote its profile (an empty one; tia's own tests kill a tia on
  /// purpose): what that process ran is unknown, so this run records no
  /// coverage for them; as for a failed test, one keeps its earlier
  /// coverage, if any, and selects as never covered otherwise. A warning,
  /// not a problem.
  std::vector<std::string> KilledProcess;
};

/// Discovers, runs and reads as described above, then stores in one
/// transaction: a run (Store::addRun(Commit, "collect")) with every outcome,
/// each test's TestInfo command, and the coverage of every test that passed
/// or was skipped and left a profile. A test that failed, crashed or timed
/// out may have stopped half-way: it keeps the coverage of its last passing
/// collect, or has none. Progress, a warning per test that did not pass
/// (with its message) go to \p Err.
/// Fails, writing nothing, when discovery fails, --only matches nothing, or
/// the database was never indexed.
llvm::Expected<CollectSummary> collect(Store &S, const CollectOptions &O,
                                       llvm::raw_ostream &Err);

/// Sets a function that the interrupt handler of the test runs (SIGINT or
/// SIGTERM while tests run) calls after killing the tests and before tia
/// exits, to clean up what the caller made; it must be async-signal-safe.
/// nullptr: none.
void setInterruptCleanup(void (*Cleanup)());

/// Kills the process groups of the tests running now (async-signal-safe),
/// for an interrupt handler of the caller's own.
void killRunningTests();

/// "collected 12 tests (10 passed, 1 failed, 1 crashed) in 3.2s: 87
/// test-element links; the files 12 tests read".
std::string summaryLine(const CollectSummary &Sum);

} // namespace collect
} // namespace tia

#endif // TIA_COLLECT_COLLECT_H
