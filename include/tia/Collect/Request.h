//===- tia/Collect/Request.h - a collection as a command asks it *- C++ -*-===//
//
// `tia collect` and `tia collect --pytest` (and `tia eval`, at each
// version) ask for a collection in a workspace: its root, its commit, the
// files git tracks there (to trace the reads of), an earlier database to
// balance the shards by, and, with --incremental, the tests a selection
// lets carry their coverage over.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COLLECT_REQUEST_H
#define TIA_COLLECT_REQUEST_H

#include "tia/Config/Workspace.h"
#include "tia/Support/Shard.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace collect {

/// What `tia collect --pytest` asks: the Python tests, with pytest.
struct PytestRequest {
  /// --python; empty: python.interpreter, else found on PATH.
  std::string Python;
  /// --junitxml: also write pytest's JUnit XML report there.
  std::string JunitXml;
  /// After `--`: passed to pytest.
  std::vector<std::string> PytestArgs;
  /// One pytest process per test file (--no-isolation: one for all).
  bool Isolate = true;
  /// Test files run at once.
  unsigned Jobs = 1;
  /// --timeout: seconds a test may run before its pytest is killed.
  double TimeoutSeconds = 1500;
  /// Record the files each test reads (--no-file-trace: not).
  bool TraceFiles = true;
  /// --shard K/N: only share K of the test files.
  std::optional<shard::ShardSpec> Shard;
  /// --balance-from: the database whose test durations balance the shares.
  std::string BalanceFrom;
  /// -p: the build whose extension modules and programs the tests use;
  /// empty: the one the index recorded, if any.
  std::string BuildDir;
  /// --incremental: run only the test files holding a test the change
  /// since the newest coverage snapshot can affect, or a new one.
  bool Incremental = false;
};

/// What `tia collect` asks: the tests of a CMake build.
struct CollectRequest {
  /// Build directory of the tests (CTestTestfile.cmake); empty: ./build,
  /// then ./.
  std::string BuildDir;
  unsigned Jobs = 0;             ///< 0: one per core
  double TimeoutSeconds = 0;     ///< 0: ctest's TIMEOUT, else 1500
  std::vector<std::string> Only; ///< ids or globs; empty: every test
  bool ProcessPerTest = false;   ///< never use tia's GoogleTest listener
  /// Run the cases of one ctest test at once (collect::CollectOptions).
  bool SplitCases = false;
  std::string Gcov;  ///< empty: "gcov"
  std::string CTest; ///< empty: "ctest"
  /// Record the files each test reads (--no-file-trace: not).
  bool TraceFiles = true;
  /// --shard K/N: only share K of the tests (GoogleTest cases, ctest tests).
  std::optional<shard::ShardSpec> Shard;
  /// --balance-from: the database whose test durations balance the shares.
  std::string BalanceFrom;
  /// --incremental: run only the tests the change since the newest
  /// coverage snapshot can affect, and the new ones; carry the rest over.
  bool Incremental = false;
};

/// Runs the tests of the CMake build \p R names in \p W (collect()), each
/// with its coverage, into \p W's database; says on \p Err what went wrong
/// and, unless \p Quiet, what was collected. \p ResourceDir is Clang's for
/// the selection of --incremental. Fails for a build directory that cannot
/// be found, a database that cannot be opened, and with the last problem
/// collect() reported.
llvm::Error collectIn(const config::Workspace &W, const CollectRequest &R,
                      bool Quiet, llvm::StringRef ResourceDir,
                      llvm::raw_ostream &Err);

/// Runs the Python tests of \p W with pytest (collectPytest()) into its
/// database, with the probes static selection wants; warns on \p Err about
/// coverage contexts that name no known test. Fails like collectPytest
/// and for settings that cannot be read.
llvm::Error collectPytestIn(const config::Workspace &W, const PytestRequest &R,
                            bool Quiet, llvm::StringRef ResourceDir,
                            llvm::raw_ostream &Err);

} // namespace collect
} // namespace tia

#endif // TIA_COLLECT_REQUEST_H
