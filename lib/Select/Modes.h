//===- Modes.h - how the selection mode maps elements to tests --*- C++ -*-===//
//
// Private to lib/Select. Selection.cpp finds the changed elements and the
// coverage-based reasons; the mode then decides, per language and test,
// which evidence stands: coverage, static analysis, or both.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_MODES_H
#define TIA_LIB_SELECT_MODES_H

#include "tia/Git/Repository.h"
#include "tia/Select/Selection.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;
namespace select {

/// Applies \p O.Mode to \p ByTest (test id -> reasons, from coverage and
/// from the tests' own changes): in static and combined modes, runs the
/// static analyses (Python: name-based propagation) over the change and
/// replaces or completes the coverage reasons of the tests they decide;
/// their fallbacks join \p Sel's, unknown changed elements join
/// Sel.Elements, and Sel.Uncovered is computed again; the tests they know
/// that \p Known (the store's tests) lacks join it and Sel.TotalTests.
/// Does nothing in coverage mode.
llvm::Error applyMode(git::Repository &Repo, Store &S, const SelectOptions &O,
                      const std::vector<git::FileChange> &Changes,
                      const std::vector<FileIndex> &OldVersions,
                      const std::vector<FileIndex> &NewVersions,
                      Selection &Sel,
                      std::map<std::string, std::vector<Reason>> &ByTest,
                      std::set<std::string> &Known);

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_MODES_H
