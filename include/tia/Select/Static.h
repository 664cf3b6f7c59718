//===- tia/Select/Static.h - static selection and its evidence ------------===//
//
// How `tia select` maps a changed element to tests (the mode, per
// language), and what static selection keeps between commands: the
// critical names computed at index time and the functions a test run
// should probe. For Python, static selection is name-based dependency
// propagation (NameRTS); for C++ it is reachability in the reference graph
// (tia/Select/Graph.h, lib/Select/CppStatic.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_STATIC_H
#define TIA_SELECT_STATIC_H

#include "tia/Support/Model.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tia {
class Store;

namespace select {

/// How changed elements become tests.
enum class SelectionMode {
  /// Coverage where the map has evidence for a test and element; static
  /// analysis for what it lacks: new elements, tests without coverage,
  /// tests whose coverage is older than a change to what they ran.
  Combined,
  /// Only the coverage map (and the rules for new elements).
  Coverage,
  /// Only static analysis, for the languages that have one.
  Static,
};

/// Returns "combined", "coverage" or "static".
llvm::StringRef modeName(SelectionMode M);
/// Parses a name returned by modeName; std::nullopt for anything else.
std::optional<SelectionMode> parseMode(llvm::StringRef Name);
/// Parses \p Text, mode names separated by commas (spaces around each
/// allowed), into the modes in their order. Fails for a name that is not
/// a mode and for a mode named twice, the message starting with \p Option
/// ("--modes takes static, coverage and combined, comma-separated, not
/// 'x'").
llvm::Expected<std::vector<SelectionMode>>
parseModeList(llvm::StringRef Text, llvm::StringRef Option);

/// Settings of static selection (`python:` in .tia.yaml).
struct StaticOptions {
  /// How many names count as critical (python.critical-functions).
  unsigned CriticalFunctions = 500;
  /// Decorators that register what they decorate
  /// (python.registry-decorators): matched against every part of a
  /// decorator's dotted name, case-insensitively.
  std::vector<std::string> RegistryKeywords{"register", "route", "router",
                                            "hook"};
  /// pytest's python_functions: methods named so run without being named.
  std::vector<std::string> TestFunctionPatterns{"test"};
  /// Test files propagated at once (0: one per core).
  unsigned Jobs = 0;
  /// Algorithm 2's context-aware matching; off only to measure it.
  bool ContextMatching = true;
  /// Critical-function pruning; off only to measure it.
  bool CriticalPruning = true;
};

/// Index time: ranks the names of the store's current revision by their
/// aggregated expansion (the names their definitions add, summed over a
/// propagation from every test file) and returns the top
/// CriticalFunctions names that define a function or method, most
/// expanding first.
llvm::Expected<std::vector<std::pair<std::string, uint64_t>>>
computeCriticalNames(Store &S, const StaticOptions &O);

/// Collect time: the plan for the store's current revision.
llvm::Expected<ProbePlan> probePlan(Store &S, const StaticOptions &O);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_STATIC_H
