//===- Database.h - RAII wrapper around one SQLite connection ---*- C++ -*-===//
//
// Private to lib/Store. A Database owns one sqlite3 connection and a cache of
// prepared statements keyed by their SQL text; a Statement is one prepared
// statement with typed binds and column getters; a Transaction is a scoped
// transaction that rolls back unless committed. Every SQLite failure becomes
// an llvm::Error (a SqliteError) carrying sqlite3_errmsg and what was being
// done.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_STORE_DATABASE_H
#define TIA_LIB_STORE_DATABASE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

struct sqlite3;
struct sqlite3_stmt;

namespace tia {

class Database;

/// A failed SQLite call: the database, what was being done, the SQLite result
/// code and sqlite3_errmsg. Prints as "cannot DOING in database PATH: MESSAGE".
class SqliteError : public llvm::ErrorInfo<SqliteError> {
public:
  static char ID;

  SqliteError(std::string Path, std::string Doing, int Code,
              std::string Message);

  /// The primary SQLite result code (SQLITE_NOTADB, SQLITE_BUSY, ...).
  int code() const { return Code; }
  /// sqlite3_errmsg at the time of the failure.
  llvm::StringRef sqliteMessage() const { return Message; }

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string Path;
  std::string Doing;
  int Code;
  std::string Message;
};

/// One prepared statement. Binds and columns are 0-based. A bind failure is
/// remembered and returned by the next step() or run(), so that a sequence of
/// binds needs no error handling of its own. Statements handed out by the
/// cache are reset and their bindings cleared when they are destroyed; a
/// Statement must not outlive its Database.
class Statement {
public:
  Statement(Statement &&Other) noexcept;
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;
  Statement &operator=(Statement &&) = delete;
  ~Statement();

  void bindNull(int Index);
  void bindInt64(int Index, int64_t Value);
  void bindBool(int Index, bool Value);
  void bindDouble(int Index, double Value);
  /// Binds a copy of \p Value; an empty StringRef binds '' (never NULL).
  void bindText(int Index, llvm::StringRef Value);
  /// Binds a copy of \p Value as a BLOB.
  void bindBlob(int Index, llvm::StringRef Value);

  /// Advances to the next row: true when a row is available, false when the
  /// statement is done.
  llvm::Expected<bool> step();
  /// Steps until the statement is done, ignoring any rows.
  llvm::Error run();
  /// Steps until the statement is done, calling \p Body on each row while it
  /// is the current one. Stops at, and returns, the first failure of a step
  /// or of \p Body.
  llvm::Error forEachRow(llvm::function_ref<llvm::Error()> Body);
  /// forEachRow for a \p Body that cannot fail (returns void).
  template <
      typename Fn,
      std::enable_if_t<std::is_void_v<std::invoke_result_t<Fn &>>, int> = 0>
  llvm::Error forEachRow(Fn &&Body) {
    return forEachRow([&]() -> llvm::Error {
      Body();
      return llvm::Error::success();
    });
  }
  /// Makes the statement ready to be bound and run again: resets it, clears
  /// its bindings and any remembered bind failure.
  void reset();

  bool columnIsNull(int Index) const;
  int64_t columnInt64(int Index) const;
  bool columnBool(int Index) const;
  double columnDouble(int Index) const;
  /// The column as text; "" for NULL.
  std::string columnText(int Index) const;
  /// The column's bytes as they are (a BLOB); "" for NULL.
  std::string columnBlob(int Index) const;

private:
  friend class Database;
  Statement(Database &DB, sqlite3_stmt *Stmt, bool *InUse);
  void rememberBindError(int Code, int Index);

  Database *DB;
  sqlite3_stmt *Stmt;
  /// The cache slot's in-use flag; null when the statement is not cached and
  /// is finalized on destruction.
  bool *InUse;
  int BindCode = 0;
  std::string BindMessage;
};

/// One SQLite connection. Opening sets the connection's PRAGMAs
/// (foreign_keys=ON, busy_timeout=5000) without reading the file, so that a
/// caller can inspect the file before anything writes to it;
/// enableWriteAheadLog() sets the PRAGMAs that may write.
class Database {
public:
  enum class OpenMode {
    ReadOnly, ///< SQLITE_OPEN_READONLY; the file must exist
    ReadWrite ///< creates the file if missing (not its directories)
  };

  /// Opens \p Path (":memory:" for an in-memory database). Fails with
  /// "cannot open database PATH: REASON".
  static llvm::Expected<std::unique_ptr<Database>> open(llvm::StringRef Path,
                                                        OpenMode Mode);
  ~Database();
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;

  /// How long a connection waits for another one's write lock before
  /// failing with SQLITE_BUSY: $TIA_BUSY_TIMEOUT seconds, default 600.
  static int64_t busyTimeoutMilliseconds();

  llvm::StringRef path() const { return Path; }
  bool isReadOnly() const { return ReadOnly; }
  bool isMemory() const;

  /// Sets journal_mode=WAL (not for an in-memory database) and
  /// synchronous=NORMAL. Both read the file header, and WAL rewrites it: call
  /// this only once the file is known to be one to write.
  llvm::Error enableWriteAheadLog();

  /// Runs \p SQL, one or more statements without parameters (DDL).
  llvm::Error exec(llvm::StringRef SQL);

  /// The prepared statement for \p SQL from the cache, preparing it on first
  /// use. When the cached one is still in use (the same SQL is running in an
  /// enclosing loop), a fresh statement is prepared for this use.
  llvm::Expected<Statement> statement(llvm::StringRef SQL);

  /// True when a table named \p Name exists.
  llvm::Expected<bool> hasTable(llvm::StringRef Name);

  /// A value that differs whenever the database's rows may have changed
  /// since it was last taken: by this connection (rows inserted, updated or
  /// deleted) or by another one (SQLite's data_version). What a cache of a
  /// query result compares before it answers.
  llvm::Expected<std::pair<int64_t, int64_t>> changeStamp();

  /// The rowid of the last row inserted on this connection.
  int64_t lastInsertRowId() const;

  /// True inside a Transaction.
  bool inTransaction() const { return TransactionDepth > 0; }

  /// Sets what runs when the outermost transaction ends: \p BeforeCommit
  /// just before COMMIT (its error rolls everything back and is returned by
  /// the commit), \p AfterRollback after a rollback. The Store writes the
  /// coverage bitmaps a transaction changed in \p BeforeCommit.
  void setTransactionHooks(std::function<llvm::Error()> BeforeCommit,
                           std::function<void()> AfterRollback);

  /// An error for the last failed call on this connection, made while
  /// \p Doing ("run 'SQL'", "commit a transaction", ...).
  llvm::Error lastError(llvm::StringRef Doing) const;

private:
  friend class Transaction;
  struct CachedStatement;

  Database(std::string Path, sqlite3 *Handle, bool ReadOnly);

  llvm::Error beginTransaction();
  llvm::Error commitTransaction();
  void rollbackTransaction();
  /// Rolls the SQLite transaction back, if SQLite did not do so already.
  void rollbackNow();

  std::string Path;
  sqlite3 *Handle;
  bool ReadOnly;
  llvm::StringMap<std::unique_ptr<CachedStatement>> Cache;
  int TransactionDepth = 0;
  /// Set when a nested transaction rolled back: the outermost one must
  /// roll back too.
  bool NeedsRollback = false;
  std::function<llvm::Error()> BeforeCommit;
  std::function<void()> AfterRollback;
};

/// A scoped transaction. begin() starts it (or joins the enclosing one);
/// commit() commits it (or, when nested, leaves the decision to the outer
/// one); destroying it without commit() rolls it back. A nested rollback
/// makes the outer commit() fail and roll back everything.
class Transaction {
public:
  explicit Transaction(Database &DB) : DB(DB) {}
  ~Transaction();
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;

  llvm::Error begin();
  llvm::Error commit();
  void rollback();

private:
  Database &DB;
  bool Active = false;
};

} // namespace tia

#endif // TIA_LIB_STORE_DATABASE_H
