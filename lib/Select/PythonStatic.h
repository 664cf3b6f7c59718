//===- PythonStatic.h - static selection of Python tests --------*- C++ -*-===//
//
// Private to lib/Select. Feeds name-based propagation (NameRTS.h) with the
// head of a change: every Python file of the diff base with the change
// applied (stored versions where the store has them, parsed otherwise),
// the nodes that changed, the critical names and the runtime evidence of
// each test file, and checks that evidence (and coverage) against what
// changed since it was recorded.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_PYTHONSTATIC_H
#define TIA_LIB_SELECT_PYTHONSTATIC_H

#include "tia/Git/Repository.h"
#include "tia/Select/Selection.h"
#include "tia/Support/Model.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;
namespace select {

struct StaticRequest {
  git::Repository &Repo;
  Store &S;
  const SelectOptions &Options;
  std::string DiffBase;
  /// std::nullopt: the work tree.
  std::optional<std::string> Head;
  const std::vector<git::FileChange> &Changes;
  /// The versions of the changed files the selection resolved.
  const std::vector<FileIndex> &OldVersions;
  const std::vector<FileIndex> &NewVersions;
  /// Combined mode: tell which Python tests' coverage is stale.
  bool CheckCoverage = false;
};

/// A test static analysis links to a changed element.
struct StaticHit {
  std::string Test; ///< "pytest:<node id>"
  /// The element holding the changed node (the new version's, or the old
  /// one's when deleted), with how it changed.
  ElementChange Change = ElementChange::Modified;
  Element Elem;
  /// True when the node is new: combined mode takes new elements from
  /// static analysis even for tests with coverage.
  bool NewNode = false;
  /// How the test reaches it ("test code ... uses f -> m.f").
  std::string Chain;
};

/// A changed element whose change only rebinds names: module- or
/// class-level variables that bind without running code and that nothing
/// reads without naming them. What it affects is what uses those names.
struct NameBoundChange {
  /// The functions and methods whose code uses a changed name: (the key of
  /// the element holding one, "m.f, which uses NAME").
  std::vector<std::pair<std::string, std::string>> Users;
};

struct StaticAnswer {
  /// Every Python test of the head static analysis decided.
  std::set<std::string> Tests;
  std::vector<StaticHit> Hits;
  std::vector<Fallback> Fallbacks;
  /// Lines for Selection::ModeNotes.
  std::vector<std::string> Notes;
  /// CheckCoverage: Python tests whose coverage predates a change to an
  /// element they covered (or cannot be checked).
  std::set<std::string> StaleCoverage;
  /// Python tests whose runtime evidence is incomplete (a child process
  /// collect could not trace, a run that did not pass): static analysis
  /// selects them for every Python change, and their coverage, which is
  /// incomplete alike, does not decide for them.
  std::set<std::string> IncompleteEvidence;
  /// Name-bound changes, by element key.
  std::map<std::string, NameBoundChange> NameBound;
  /// Python tests whose file's runtime evidence took part (present, and
  /// not older than a change it reaches): what they reach dynamically by
  /// name is known.
  std::set<std::string> Evidenced;
};

/// Runs name-based selection for the Python tests of \p R's change.
llvm::Expected<StaticAnswer> selectPythonStatic(const StaticRequest &R);

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_PYTHONSTATIC_H
