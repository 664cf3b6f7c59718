//===- Schema.h - the store's tables, versions and migrations --*- C++ -*-===//
//
// Private to lib/Store. The meta table holds 'schema_version' (the version
// of the tables) and 'compatible_version' (the oldest version of tia's code
// that can still use them). Migrations are steps N -> N+1, each applied with
// its meta update in its own transaction; step 0 -> 1 creates everything.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_STORE_SCHEMA_H
#define TIA_LIB_STORE_SCHEMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>

namespace tia {

class Database;

namespace schema {

/// One migration step: turns schema version N into N+1.
struct Migration {
  /// The oldest schema version whose code can use the database after this
  /// step (the step's own version when older code would misread it).
  int CompatibleVersion;
  /// Applies the step. Runs inside the transaction migrate() opened for it;
  /// an error rolls the whole step back.
  llvm::Error (*Apply)(Database &DB);
};

/// tia's migrations: element I turns version I into I+1, so their number is
/// the schema version this tia writes (Store::SchemaVersion).
llvm::ArrayRef<Migration> migrations();

/// The versions recorded in the meta table.
struct Versions {
  int64_t Schema = 0;
  int64_t Compatible = 0;
};

/// The error for a file that is not (or no longer) a tia database:
/// "PATH is not a tia database: REASON (remove it or pass another --db)".
llvm::Error notTiaDatabase(const Database &DB, const llvm::Twine &Reason);

/// Reads \p DB's versions without writing anything. Returns std::nullopt for
/// a database without any table (a new or empty file). Fails with "PATH is
/// not a tia database: REASON (remove it or pass another --db)" for a file
/// SQLite cannot read, one with tables but no meta table, and one whose meta
/// table lacks the versions.
llvm::Expected<std::optional<Versions>> readVersions(Database &DB);

/// Applies \p Steps from \p DB's schema version (0 without a meta table) up
/// to Steps.size(), each step in its own transaction together with the meta
/// update, so that a failing step leaves the previous version. Does nothing
/// for a database at Steps.size() or newer.
llvm::Error migrate(Database &DB, llvm::ArrayRef<Migration> Steps);

/// Checks that a tia knowing \p Steps can use \p DB and, when \p DB is
/// writable, enables WAL and migrates it. Nothing is written before the
/// checks pass. Fails with the readVersions() errors and:
///  - "no tia database at PATH: run 'tia index' first" (read-only, empty)
///  - "PATH was made by a newer tia (schema N, this tia knows up to M):
///     upgrade tia or pass another --db" (compatible version above M)
///  - "PATH has an older schema (N): run any tia command that writes, such
///     as 'tia index', to upgrade it" (read-only, older than M)
llvm::Error openSchema(Database &DB, llvm::ArrayRef<Migration> Steps);

/// The meta value of \p Key as text; std::nullopt when absent.
llvm::Expected<std::optional<std::string>> readMeta(Database &DB,
                                                    llvm::StringRef Key);

/// Sets the meta value of \p Key to \p Value.
llvm::Error writeMeta(Database &DB, llvm::StringRef Key, llvm::StringRef Value);

/// Removes the meta value of \p Key, if any.
llvm::Error deleteMeta(Database &DB, llvm::StringRef Key);

/// Migration step 10: rewrites the paths of compile commands and test
/// commands relative to the root the index was made in, told by the
/// translation units (an absolute main file ends with its relative path)
/// (Locations.cpp).
llvm::Error relocateStoredPaths(Database &DB);

} // namespace schema
} // namespace tia

#endif // TIA_LIB_STORE_SCHEMA_H
