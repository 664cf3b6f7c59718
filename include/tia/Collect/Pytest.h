//===- tia/Collect/Pytest.h - per-test coverage from a pytest run ---------===//
//
// Runs the project's tests with pytest under coverage.py (pytest-cov, one
// dynamic context per test) and tia's own pytest plugin (outcome, duration,
// location and fixtures of every test), then imports it all into the
// store in one transaction: coverage, a "collect" run with its results,
// and how to rerun each test.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COLLECT_PYTEST_H
#define TIA_COLLECT_PYTEST_H

#include "tia/Collect/Collect.h"
#include "tia/Coverage/Coverage.h"
#include "tia/Support/Model.h"
#include "tia/Support/Shard.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tia {
class Store;

namespace collect {

struct PytestOptions {
  /// The Python that runs pytest (--python, else python.interpreter);
  /// empty: the first of `python3` on PATH and /usr/bin/python3 that can
  /// import pytest and pytest_cov.
  std::string Python;
  /// Absolute repository root: pytest runs there and measures it.
  std::string Root;
  /// The build directories whose extension modules, shared libraries and
  /// programs the tests may use, besides those below Root: their C and C++
  /// code counts for the tests that run it (docs/Collection.md, "Across
  /// languages and processes").
  std::vector<std::string> BuildDirs;
  /// Passed to pytest after tia's own arguments.
  std::vector<std::string> PytestArgs;
  /// Also write a JUnit XML report there (pytest's --junitxml).
  std::string JunitXml;
  /// The commit the tests run at; may be empty.
  std::string Commit;
  bool Quiet = false;
  /// Run each test file in a pytest process of its own (after one that
  /// only collects), so that what one file's tests leave behind (caches,
  /// globals) cannot hide calls from another's: the runtime evidence of a
  /// file then holds for that file alone. Off: one process for all, and
  /// the evidence is shared by all files.
  bool Isolate = true;
  /// Test files run at once when isolated (0 or 1: one after the other).
  unsigned Jobs = 1;
  /// Seconds a test may run (and pytest may import and collect) before its
  /// pytest is killed; 0: no limit. A test killed is recorded timed-out,
  /// and its file runs again without it, so that the others keep their
  /// coverage.
  double TimeoutSeconds = 1500;
  /// What to record for static selection; no runtime evidence without.
  std::optional<ProbePlan> Plan;
  /// Record the files each test reads and the directories it lists
  /// (docs/Collection.md, "Files tests read").
  bool TraceFiles = true;
  /// The files git tracks, repository-relative and sorted: only reads of
  /// these are kept.
  std::vector<std::string> TrackedFiles;
  /// --shard K/N (with Isolate): only share K of the test files; the
  /// database records the share (Store::putShardRecord, kind "pytest").
  std::optional<shard::ShardSpec> Shard;
  /// The duration of each test id ("pytest:NODEID") that balances the
  /// shares: a file costs its tests' sum, a test it lacks the mean. Empty:
  /// a file costs its number of tests.
  std::map<std::string, double> Durations;
  /// --incremental (with Isolate): the tests not to run, whose coverage is
  /// carried over; a test file runs whole when one of its tests is not.
  std::optional<CarryOver> Carry;
};

struct PytestSummary {
  std::string Python; ///< the interpreter that ran
  unsigned Passed = 0, Failed = 0, Errors = 0, Skipped = 0, Crashed = 0,
           TimedOut = 0;
  coverage::ImportSummary Coverage;
  double Seconds = 0;
  /// Test files run, and whether each had its own process.
  unsigned TestFiles = 0;
  bool Isolated = false;
  /// Runtime evidence: functions probed, and what was recorded.
  unsigned Probed = 0, Accesses = 0;
  /// Tests that failed under collect and passed when run again without
  /// tia's instrumentation: not recorded, their coverage kept.
  unsigned Broken = 0;
  /// --incremental: tests of the files left out, and the tests whose
  /// coverage was carried to this commit.
  unsigned LeftOut = 0, Carried = 0;
};

/// Runs pytest as above (with Isolate, one process per test file, with
/// the same arguments), showing [N/M] progress on \p Err (a few lines
/// without a terminal, nothing when Quiet); pytest's own output goes to a
/// log whose end is shown when pytest fails. Failing tests are results, not
/// errors. Fails, writing nothing, when no suitable Python is found, when
/// pytest cannot run the tests (usage error, internal error, interrupted,
/// no tests collected: the error carries the end of its output), or when
/// the coverage cannot be imported. When pytest crashes, or imports or
/// collects for longer than the timeout, the outcomes so far (the running
/// test as crashed) are stored and the error says so.
/// With a Plan, the runtime evidence is stored with the coverage
/// (Store::putRuntimeEvidence): isolated per test file, else shared.
/// Each test that failed or erred is run once more without tia's
/// instrumentation; one that passes then was broken by collect: a warning
/// on \p Err names it, its error and the instrumentation at fault, its
/// outcome is not recorded and its earlier coverage stays.
llvm::Expected<PytestSummary> collectPytest(Store &S, const PytestOptions &O,
                                            llvm::raw_ostream &Err);

/// "collected 3 pytest tests in 1.2s with /usr/bin/python3: 2 passed, 1
/// failed, 0 errors, 0 skipped; 9 test-element links (2 through imports);
/// 1 test file each in its own process, 4 functions probed, 0 runtime
/// accesses", with the tests broken by collection and timed out when
/// there are any; without an end of line.
std::string pytestSummaryLine(const PytestSummary &Sum);

} // namespace collect
} // namespace tia

#endif // TIA_COLLECT_PYTEST_H
