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

#include "tia/Coverage/Coverage.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
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
  /// Passed to pytest after tia's own arguments.
  std::vector<std::string> PytestArgs;
  /// Also write a JUnit XML report there (pytest's --junitxml).
  std::string JunitXml;
  /// The commit the tests run at; may be empty.
  std::string Commit;
  bool Quiet = false;
};

struct PytestSummary {
  std::string Python; ///< the interpreter that ran
  unsigned Passed = 0, Failed = 0, Errors = 0, Skipped = 0, Crashed = 0;
  coverage::ImportSummary Coverage;
  double Seconds = 0;
};

/// Runs pytest as above, showing [N/M] progress on \p Err (a few lines
/// without a terminal, nothing when Quiet); pytest's own output goes to a
/// log whose end is shown when pytest fails. Failing tests are results, not
/// errors. Fails, writing nothing, when no suitable Python is found, when
/// pytest cannot run the tests (usage error, internal error, interrupted,
/// no tests collected: the error carries the end of its output), or when
/// the coverage cannot be imported. When pytest crashes, the outcomes so
/// far (the running test as crashed) are stored and the error says so.
llvm::Expected<PytestSummary> collectPytest(Store &S, const PytestOptions &O,
                                            llvm::raw_ostream &Err);

} // namespace collect
} // namespace tia

#endif // TIA_COLLECT_PYTEST_H
