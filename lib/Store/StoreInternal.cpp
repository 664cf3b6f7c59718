//===- StoreInternal.cpp - what the Store's files share -------------------===//

#include "StoreInternal.h"
#include <cassert>

namespace tia {
namespace store {

/// Runs \p Body in a transaction that joins any enclosing one.
llvm::Error inTransaction(Database &DB,
                          llvm::function_ref<llvm::Error()> Body) {
  Transaction T(DB);
  if (llvm::Error E = T.begin())
    return E;
  if (llvm::Error E = Body()) {
    T.rollback();
    return E;
  }
  return T.commit();
}

/// Runs a statement that returns at most one integer; std::nullopt when it
/// returns no row.
llvm::Expected<std::optional<int64_t>> queryOptionalInt(Statement &S) {
  auto Row = S.step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return S.columnInt64(0);
}

/// The id of element key \p Key, interning it when new.
llvm::Expected<int64_t> keyId(Database &DB, llvm::StringRef Key) {
  auto Find = DB.statement("SELECT id FROM element_keys WHERE key = ?");
  if (!Find)
    return Find.takeError();
  Find->bindText(0, Key);
  auto Id = queryOptionalInt(*Find);
  if (!Id)
    return Id.takeError();
  if (*Id)
    return **Id;
  auto Insert = DB.statement("INSERT INTO element_keys(key) VALUES(?)");
  if (!Insert)
    return Insert.takeError();
  Insert->bindText(0, Key);
  if (llvm::Error E = Insert->run())
    return E;
  return DB.lastInsertRowId();
}

/// The id of test \p Name; none when the store does not know it.
llvm::Expected<std::optional<int64_t>> findTestId(Database &DB,
                                                  llvm::StringRef Name) {
  auto Find = DB.statement("SELECT id FROM tests WHERE name = ?");
  if (!Find)
    return Find.takeError();
  Find->bindText(0, Name);
  return queryOptionalInt(*Find);
}

/// The id of test \p Name, adding the test when unknown.
llvm::Expected<int64_t> testId(Database &DB, llvm::StringRef Name) {
  auto Add = DB.statement(
      "INSERT INTO tests(name) VALUES(?) ON CONFLICT(name) DO NOTHING");
  if (!Add)
    return Add.takeError();
  Add->bindText(0, Name);
  if (llvm::Error E = Add->run())
    return E;
  auto Id = findTestId(DB, Name);
  if (!Id)
    return Id.takeError();
  assert(*Id && "test row vanished right after its insertion");
  return **Id;
}

/// Runs \p S, which returns one text column, and collects it.
llvm::Expected<std::vector<std::string>> collectText(Statement &S) {
  std::vector<std::string> Out;
  if (llvm::Error E = S.forEachRow([&] { Out.push_back(S.columnText(0)); }))
    return E;
  return Out;
}

} // namespace store
} // namespace tia
