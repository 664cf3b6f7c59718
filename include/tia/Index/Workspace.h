//===- tia/Index/Workspace.h - what `tia index` indexes ---------*- C++ -*-===//
//
// Resolves what `tia index` indexes in a workspace (the compilation
// database's translation units in the project, narrowed by .tia.yaml, the
// PATHs given and --shard; the Python files git tracks) and indexes it.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_INDEX_WORKSPACE_H
#define TIA_INDEX_WORKSPACE_H

#include "tia/Config/Workspace.h"
#include "tia/Support/Model.h"
#include "tia/Support/Shard.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace index {

/// What `tia index` asks.
struct IndexOptions {
  /// Directory holding compile_commands.json; empty: ./build, then ./.
  std::string BuildDir;
  unsigned Jobs = 0; ///< 0: one per core
  /// Index only the translation units at or below these paths.
  std::vector<std::string> Paths;
  /// --shard K/N: only share K of the translation units (and, in share 1,
  /// the Python files).
  std::optional<shard::ShardSpec> Shard;
  /// --balance-from: the database whose parse times balance the shares.
  std::string BalanceFrom;
};

/// Indexes what \p O asks of \p W into its database (indexProject); says
/// on \p Err unless \p Quiet what share it indexes and what it indexed.
/// \p ResourceDir is Clang's (empty: the default). Fails when there is
/// nothing to index, for a PATH that matches nothing, for a compilation
/// database that cannot be read, and like indexProject.
llvm::Error indexIn(const config::Workspace &W, const IndexOptions &O,
                    bool Quiet, llvm::StringRef ResourceDir,
                    llvm::raw_ostream &Err);

/// The Python files git tracks in \p W (repository-relative, sorted), as
/// paths.include and paths.exclude allow, or only those at or below
/// \p Paths (absolute) when given. Empty outside git.
llvm::Expected<std::vector<std::string>>
listPythonFiles(const config::Workspace &W,
                const std::vector<std::string> &Paths);

/// `tia index --shard K/N`: plans the shares of the translation units of
/// \p Wanted (by the parse times of --balance-from, else by the size of
/// their main files), says on \p Err what share K holds and its expected
/// cost (and that share 1 indexes the Python files, when \p HasPython),
/// and keeps only share K in \p Wanted. Fails when --balance-from cannot
/// be read.
llvm::Expected<shard::ShardPlan>
keepIndexShare(const config::Workspace &W, const IndexOptions &O,
               std::vector<CompileCommand> &Wanted, bool HasPython,
               llvm::raw_ostream &Err, bool Quiet);

} // namespace index
} // namespace tia

#endif // TIA_INDEX_WORKSPACE_H
