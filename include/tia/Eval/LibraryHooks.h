//===- tia/Eval/LibraryHooks.h - the commands' steps for eval ---*- C++ -*-===//
//
// What `tia index`, `tia collect` and `tia select` do at each version of an
// evaluation, from the libraries those commands call.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_EVAL_LIBRARYHOOKS_H
#define TIA_EVAL_LIBRARYHOOKS_H

#include "tia/Eval/CommandSteps.h"
#include <string>
#include <vector>

namespace tia {
namespace eval {

/// How the collections at each version run.
struct CollectSettings {
  /// Test processes at once (0: one per core; pytest: 1).
  unsigned Jobs = 0;
  /// Collect only the ctest tests whose ids match one of these globs;
  /// empty: every test.
  std::vector<std::string> Only;
  /// The Python that runs pytest; empty: as tia collect --pytest finds it.
  std::string Python;
};

/// CommandHooks that run as `tia index`, `tia collect`, `tia collect
/// --pytest` and `tia select` do, quietly, in the workspace of the tree
/// with the database they are given; with Clang's resource directory
/// \p ResourceDir (empty: the default).
CommandHooks libraryHooks(const CollectSettings &C,
                          llvm::StringRef ResourceDir);

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_LIBRARYHOOKS_H
