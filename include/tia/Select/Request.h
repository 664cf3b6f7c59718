//===- tia/Select/Request.h - a selection as a command asks it --*- C++ -*-===//
//
// select, explain, run and collect --incremental make their selection the
// same way: the options given, else .tia.yaml's select section, else the
// defaults, and TIA_ALL; the database opened to read with its paths
// anchored, and the Python settings the index remembered.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_REQUEST_H
#define TIA_SELECT_REQUEST_H

#include "tia/Config/Workspace.h"
#include "tia/Select/Policy.h"
#include <memory>
#include <optional>
#include <string>

namespace tia {
namespace select {

/// What a command asks of a selection; what it leaves out comes from
/// .tia.yaml.
struct Request {
  /// Empty: select.base of .tia.yaml, else DefaultBase.
  std::string Base;
  std::string DefaultBase;
  std::optional<std::string> Head; ///< std::nullopt: the work tree
  SelectionMode Mode = SelectionMode::Combined;
  /// Ablations of static selection (hidden options, for benchmarks).
  bool ContextMatching = true, CriticalPruning = true;
  /// --all: select every test.
  bool All = false;
  /// std::nullopt: select.max_tests / select.time_budget of .tia.yaml.
  std::optional<unsigned> MaxTests;
  std::optional<double> TimeBudget;
  /// Compare the compile commands of BUILD_DIR/compile_commands.json
  /// (relative to the working directory) with the indexed ones; empty: do
  /// not.
  std::string BuildDir;
  /// Clang's resource directory; empty: the default.
  std::string ResourceDir;
};

/// A selection, where it was made and the database it was made from.
struct Planned {
  config::Workspace Ctx; ///< its Repo always set
  std::unique_ptr<Store> DB;
  select::Plan Plan;
  PolicyOptions Policy; ///< what the selection was made with
};

/// Who asked for every test: "--all" when \p AllFlag, else "TIA_ALL=V"
/// when the environment value \p Env is set to anything but empty, "0",
/// "false" or "no" (any case); empty when nobody did.
std::string allRequestedBy(bool AllFlag, std::optional<std::string> Env);

/// The selection \p R asks for in \p W, from its database opened to read.
/// Fails without a base (in \p R or select.base), outside git, for a
/// missing database, for pytest settings that cannot be read, and like
/// select::plan.
llvm::Expected<Planned> planRequest(config::Workspace W, const Request &R);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_REQUEST_H
