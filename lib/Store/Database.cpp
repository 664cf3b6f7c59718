//===- Database.cpp - RAII wrapper around one SQLite connection -----------===//

#include "Database.h"
#include "tia/Support/Error.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <cassert>
#include <sqlite3.h>

namespace tia {

namespace {

/// \p SQL on one line and at most about 80 characters, for error messages.
std::string describeSQL(llvm::StringRef SQL) {
  std::string Out;
  for (char C : SQL.trim()) {
    bool Space = C == ' ' || C == '\n' || C == '\t' || C == '\r';
    if (Space && (Out.empty() || Out.back() == ' '))
      continue;
    Out.push_back(Space ? ' ' : C);
  }
  if (Out.size() > 80)
    Out = Out.substr(0, 77) + "...";
  return Out;
}

} // namespace

char SqliteError::ID = 0;

SqliteError::SqliteError(std::string Path, std::string Doing, int Code,
                         std::string Message)
    : Path(std::move(Path)), Doing(std::move(Doing)), Code(Code),
      Message(std::move(Message)) {}

void SqliteError::log(llvm::raw_ostream &OS) const {
  OS << "cannot " << Doing << " in database " << Path << ": " << Message;
  if (Code == SQLITE_BUSY || Code == SQLITE_LOCKED)
    OS << " (another process is using it: retry when it is done)";
}

std::error_code SqliteError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

//===----------------------------------------------------------------------===//
// Statement
//===----------------------------------------------------------------------===//

Statement::Statement(Database &DB, sqlite3_stmt *Stmt, bool *InUse)
    : DB(&DB), Stmt(Stmt), InUse(InUse) {}

Statement::Statement(Statement &&Other) noexcept
    : DB(Other.DB), Stmt(Other.Stmt), InUse(Other.InUse),
      BindCode(Other.BindCode), BindMessage(std::move(Other.BindMessage)) {
  Other.Stmt = nullptr;
  Other.InUse = nullptr;
}

Statement::~Statement() {
  if (!Stmt)
    return;
  if (InUse) {
    sqlite3_reset(Stmt);
    sqlite3_clear_bindings(Stmt);
    *InUse = false;
  } else {
    sqlite3_finalize(Stmt);
  }
}

void Statement::rememberBindError(int Code, int Index) {
  if (Code == SQLITE_OK || BindCode != 0)
    return;
  BindCode = Code;
  BindMessage = llvm::formatv("parameter {0}: {1}", Index,
                              sqlite3_errmsg(sqlite3_db_handle(Stmt)))
                    .str();
}

void Statement::bindNull(int Index) {
  rememberBindError(sqlite3_bind_null(Stmt, Index + 1), Index);
}

void Statement::bindInt64(int Index, int64_t Value) {
  rememberBindError(sqlite3_bind_int64(Stmt, Index + 1, Value), Index);
}

void Statement::bindBool(int Index, bool Value) { bindInt64(Index, Value); }

void Statement::bindDouble(int Index, double Value) {
  rememberBindError(sqlite3_bind_double(Stmt, Index + 1, Value), Index);
}

void Statement::bindText(int Index, llvm::StringRef Value) {
  // A null pointer would bind NULL, not the empty string.
  const char *Data = Value.data() ? Value.data() : "";
  rememberBindError(sqlite3_bind_text64(Stmt, Index + 1, Data, Value.size(),
                                        SQLITE_TRANSIENT, SQLITE_UTF8),
                    Index);
}

void Statement::bindBlob(int Index, llvm::StringRef Value) {
  const char *Data = Value.data() ? Value.data() : "";
  rememberBindError(sqlite3_bind_blob64(Stmt, Index + 1, Data, Value.size(),
                                        SQLITE_TRANSIENT),
                    Index);
}

llvm::Expected<bool> Statement::step() {
  auto Doing = [&] { return "run '" + describeSQL(sqlite3_sql(Stmt)) + "'"; };
  if (BindCode != 0)
    return llvm::make_error<SqliteError>(DB->path().str(), Doing(), BindCode,
                                         BindMessage);
  int RC = sqlite3_step(Stmt);
  if (RC == SQLITE_ROW)
    return true;
  if (RC == SQLITE_DONE)
    return false;
  return DB->lastError(Doing());
}

llvm::Error Statement::run() {
  return forEachRow([] {});
}

llvm::Error Statement::forEachRow(llvm::function_ref<llvm::Error()> Body) {
  while (true) {
    auto Row = step();
    if (!Row)
      return Row.takeError();
    if (!*Row)
      return llvm::Error::success();
    if (llvm::Error E = Body())
      return E;
  }
}

void Statement::reset() {
  sqlite3_reset(Stmt);
  sqlite3_clear_bindings(Stmt);
  BindCode = 0;
  BindMessage.clear();
}

bool Statement::columnIsNull(int Index) const {
  return sqlite3_column_type(Stmt, Index) == SQLITE_NULL;
}

int64_t Statement::columnInt64(int Index) const {
  return sqlite3_column_int64(Stmt, Index);
}

bool Statement::columnBool(int Index) const { return columnInt64(Index) != 0; }

double Statement::columnDouble(int Index) const {
  return sqlite3_column_double(Stmt, Index);
}

std::string Statement::columnText(int Index) const {
  const unsigned char *Text = sqlite3_column_text(Stmt, Index);
  if (!Text)
    return std::string();
  return std::string(reinterpret_cast<const char *>(Text),
                     sqlite3_column_bytes(Stmt, Index));
}

std::string Statement::columnBlob(int Index) const {
  const void *Data = sqlite3_column_blob(Stmt, Index);
  if (!Data)
    return std::string();
  return std::string(static_cast<const char *>(Data),
                     sqlite3_column_bytes(Stmt, Index));
}

//===----------------------------------------------------------------------===//
// Database
//===----------------------------------------------------------------------===//

struct Database::CachedStatement {
  explicit CachedStatement(sqlite3_stmt *Stmt) : Stmt(Stmt) {}
  ~CachedStatement() { sqlite3_finalize(Stmt); }
  sqlite3_stmt *Stmt;
  bool InUse = false;
};

Database::Database(std::string Path, sqlite3 *Handle, bool ReadOnly)
    : Path(std::move(Path)), Handle(Handle), ReadOnly(ReadOnly) {}

Database::~Database() {
  assert(TransactionDepth == 0 && "database closed inside a transaction");
  for (auto &Entry : Cache) {
    (void)Entry;
    assert(!Entry.second->InUse && "statement outlives its database");
  }
  Cache.clear();
  sqlite3_close_v2(Handle);
}

int64_t Database::busyTimeoutMilliseconds() {
  int64_t Seconds = 600;
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("TIA_BUSY_TIMEOUT")) {
    int64_t Value;
    if (!llvm::StringRef(*Env).getAsInteger(10, Value) && Value >= 0)
      Seconds = Value;
  }
  return Seconds * 1000;
}

llvm::Expected<std::unique_ptr<Database>> Database::open(llvm::StringRef Path,
                                                         OpenMode Mode) {
  bool ReadOnly = Mode == OpenMode::ReadOnly;
  int Flags = ReadOnly ? SQLITE_OPEN_READONLY
                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  std::string P = Path.str();
  sqlite3 *Handle = nullptr;
  int RC = sqlite3_open_v2(P.c_str(), &Handle, Flags, nullptr);
  if (RC != SQLITE_OK) {
    std::string Reason = Handle ? sqlite3_errmsg(Handle) : sqlite3_errstr(RC);
    sqlite3_close_v2(Handle);
    return makeErrorf("cannot open database {0}: {1}", Path, Reason);
  }
  std::unique_ptr<Database> DB(new Database(std::move(P), Handle, ReadOnly));
  // These only configure the connection: neither reads the file, so a file
  // that is not a database is still untouched and can be diagnosed.
  if (llvm::Error E = DB->exec("PRAGMA foreign_keys = ON"))
    return E;
  // Another tia may hold the write lock (an index writing its results, an
  // import of another test's coverage): wait for it rather than fail with
  // "database is locked". Every write transaction is short and starts with
  // BEGIN IMMEDIATE, so waiting cannot deadlock.
  if (llvm::Error E = DB->exec(
          ("PRAGMA busy_timeout = " + llvm::Twine(busyTimeoutMilliseconds()))
              .str()))
    return E;
  return DB;
}

bool Database::isMemory() const { return Path.empty() || Path == ":memory:"; }

llvm::Error Database::enableWriteAheadLog() {
  if (!isMemory())
    if (llvm::Error E = exec("PRAGMA journal_mode = WAL"))
      return E;
  return exec("PRAGMA synchronous = NORMAL");
}

llvm::Error Database::exec(llvm::StringRef SQL) {
  std::string Text = SQL.str();
  char *Message = nullptr;
  int RC = sqlite3_exec(Handle, Text.c_str(), nullptr, nullptr, &Message);
  if (RC == SQLITE_OK)
    return llvm::Error::success();
  std::string Reason = Message ? Message : sqlite3_errstr(RC);
  sqlite3_free(Message);
  return llvm::make_error<SqliteError>(Path, "run '" + describeSQL(SQL) + "'",
                                       RC & 0xff, Reason);
}

llvm::Expected<Statement> Database::statement(llvm::StringRef SQL) {
  auto It = Cache.find(SQL);
  if (It != Cache.end() && !It->second->InUse) {
    It->second->InUse = true;
    return Statement(*this, It->second->Stmt, &It->second->InUse);
  }
  sqlite3_stmt *Stmt = nullptr;
  if (sqlite3_prepare_v2(Handle, SQL.data(), static_cast<int>(SQL.size()),
                         &Stmt, nullptr) != SQLITE_OK)
    return lastError("prepare '" + describeSQL(SQL) + "'");
  assert(Stmt && "no SQL statement in the text");
  if (It != Cache.end())
    return Statement(*this, Stmt, nullptr);
  auto &Slot = Cache[SQL];
  Slot = std::make_unique<CachedStatement>(Stmt);
  Slot->InUse = true;
  return Statement(*this, Stmt, &Slot->InUse);
}

llvm::Expected<bool> Database::hasTable(llvm::StringRef Name) {
  auto S = statement(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
  if (!S)
    return S.takeError();
  S->bindText(0, Name);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  return *Row && S->columnInt64(0) > 0;
}

llvm::Expected<std::pair<int64_t, int64_t>> Database::changeStamp() {
  auto S = statement("PRAGMA data_version");
  if (!S)
    return S.takeError();
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  return std::make_pair(int64_t(sqlite3_total_changes64(Handle)),
                        *Row ? S->columnInt64(0) : 0);
}

int64_t Database::lastInsertRowId() const {
  return sqlite3_last_insert_rowid(Handle);
}

llvm::Error Database::lastError(llvm::StringRef Doing) const {
  return llvm::make_error<SqliteError>(Path, Doing.str(),
                                       sqlite3_errcode(Handle) & 0xff,
                                       sqlite3_errmsg(Handle));
}

llvm::Error Database::beginTransaction() {
  if (TransactionDepth == 0) {
    // IMMEDIATE takes the write lock at once, so that busy_timeout waits for
    // another writer instead of a later write failing with SQLITE_BUSY.
    const char *SQL = ReadOnly ? "BEGIN" : "BEGIN IMMEDIATE";
    if (sqlite3_exec(Handle, SQL, nullptr, nullptr, nullptr) != SQLITE_OK)
      return lastError("begin a transaction");
    NeedsRollback = false;
  }
  ++TransactionDepth;
  return llvm::Error::success();
}

llvm::Error Database::commitTransaction() {
  assert(TransactionDepth > 0 && "commit without a transaction");
  if (--TransactionDepth > 0)
    return llvm::Error::success();
  if (NeedsRollback) {
    NeedsRollback = false;
    rollbackNow();
    return makeErrorf("cannot commit a transaction in database {0}: a nested "
                      "transaction failed, so nothing was written",
                      Path);
  }
  if (BeforeCommit) {
    // Runs at depth 1, so that what it writes joins this transaction.
    ++TransactionDepth;
    llvm::Error E = BeforeCommit();
    --TransactionDepth;
    if (E) {
      rollbackNow();
      return E;
    }
  }
  if (sqlite3_exec(Handle, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
    llvm::Error E = lastError("commit a transaction");
    rollbackNow();
    return E;
  }
  return llvm::Error::success();
}

void Database::rollbackTransaction() {
  assert(TransactionDepth > 0 && "rollback without a transaction");
  if (--TransactionDepth > 0) {
    NeedsRollback = true;
    return;
  }
  NeedsRollback = false;
  rollbackNow();
}

void Database::rollbackNow() {
  // Some errors (SQLITE_FULL, SQLITE_IOERR, ...) make SQLite roll back by
  // itself. A failing ROLLBACK has nobody to report to: SQLite then leaves a
  // hot journal that the next connection rolls back on open.
  if (!sqlite3_get_autocommit(Handle))
    sqlite3_exec(Handle, "ROLLBACK", nullptr, nullptr, nullptr);
  if (AfterRollback)
    AfterRollback();
}

void Database::setTransactionHooks(std::function<llvm::Error()> Before,
                                   std::function<void()> After) {
  BeforeCommit = std::move(Before);
  AfterRollback = std::move(After);
}

//===----------------------------------------------------------------------===//
// Transaction
//===----------------------------------------------------------------------===//

Transaction::~Transaction() { rollback(); }

llvm::Error Transaction::begin() {
  assert(!Active && "transaction begun twice");
  if (llvm::Error E = DB.beginTransaction())
    return E;
  Active = true;
  return llvm::Error::success();
}

llvm::Error Transaction::commit() {
  assert(Active && "commit of a transaction that is not active");
  Active = false;
  return DB.commitTransaction();
}

void Transaction::rollback() {
  if (!Active)
    return;
  Active = false;
  DB.rollbackTransaction();
}

} // namespace tia
