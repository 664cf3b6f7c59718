//===- CoverageMigrations.cpp - moving coverage between layouts -----------===//

#include "CoverageMigrations.h"
#include "CoverageIndex.h"
#include "IdList.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace tia {
namespace store {

namespace {

llvm::Error writeBitmap(Database &DB, int64_t Key, IdSet &Tests) {
  auto S = DB.statement("INSERT INTO coverage_keys(key_id, tests) "
                        "VALUES(?, ?) ON CONFLICT(key_id) DO UPDATE SET "
                        "tests = excluded.tests");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Key);
  S->bindBlob(1, Tests.serialize());
  return S->run();
}

/// The ids of a schema-8 key list (a JSON array of integers), or
/// std::nullopt when the text is not one.
std::optional<std::vector<int64_t>> parseJsonKeyIds(llvm::StringRef Json) {
  Json = Json.trim();
  if (!Json.consume_front("[") || !Json.consume_back("]"))
    return std::nullopt;
  std::vector<int64_t> Out;
  Json = Json.trim();
  while (!Json.empty()) {
    auto [Item, Rest] = Json.split(',');
    int64_t Id = 0;
    if (Item.trim().getAsInteger(10, Id) || Id < 0)
      return std::nullopt;
    Out.push_back(Id);
    Json = Rest;
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

llvm::Error convertKeyLists(Database &DB) {
  auto Read = DB.statement("SELECT test_id, covered, keys FROM test_coverage");
  auto Write = DB.statement("INSERT INTO test_coverage_lists(test_id, "
                            "covered, keys) VALUES(?, ?, ?)");
  if (!Read)
    return Read.takeError();
  if (!Write)
    return Write.takeError();
  return Read->forEachRow([&]() -> llvm::Error {
    auto Ids = parseJsonKeyIds(Read->columnText(2));
    Write->reset();
    Write->bindInt64(0, Read->columnInt64(0));
    Write->bindInt64(1, Read->columnInt64(1));
    Write->bindBlob(2, Ids ? encodeIdList(*Ids) : damagedIdList().str());
    return Write->run();
  });
}

llvm::Error convertBitmaps(Database &DB) {
  auto Read = DB.statement("SELECT key_id, tests FROM coverage_keys");
  if (!Read)
    return Read.takeError();
  return Read->forEachRow([&]() -> llvm::Error {
    int64_t Key = Read->columnInt64(0);
    if (auto Tests = IdSet::deserialize(Read->columnBlob(1)))
      return writeKeyTests(DB, Key, Tests->ids());
    auto Damaged = DB.statement(
        "INSERT INTO coverage_blocks(key_id, block, tests) VALUES(?, 0, ?)");
    if (!Damaged)
      return Damaged.takeError();
    Damaged->bindInt64(0, Key);
    Damaged->bindBlob(1, damagedIdList());
    return Damaged->run();
  });
}

} // namespace

llvm::Error buildCoverageBitmaps(Database &DB) {
  // One pass over the rows in key order (the index coverage_by_key), writing
  // each key's bitmap as soon as its last row is read: memory holds one
  // bitmap, not the table. Writing coverage_keys while reading coverage is
  // safe in SQLite: the statement reads another table's B-tree. The caller's
  // transaction keeps the migration all-or-nothing.
  auto S = DB.statement("SELECT key_id, test_id FROM coverage "
                        "ORDER BY key_id, test_id");
  if (!S)
    return S.takeError();
  int64_t Key = -1;
  IdSet Tests;
  auto Write = [&]() -> llvm::Error {
    if (Key < 0 || Tests.empty())
      return llvm::Error::success();
    llvm::Error E = writeBitmap(DB, Key, Tests);
    Tests = IdSet();
    return E;
  };
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        int64_t RowKey = S->columnInt64(0);
        if (RowKey != Key) {
          if (llvm::Error E = Write())
            return E;
          Key = RowKey;
        }
        int64_t Id = S->columnInt64(1);
        if (Id < 0 || Id > int64_t(UINT32_MAX))
          return makeErrorf("test id {0} does not fit a bitmap (ids up to "
                            "{1}): export the coverage and start a new "
                            "database",
                            Id, UINT32_MAX);
        Tests.add(static_cast<uint32_t>(Id));
        return llvm::Error::success();
      }))
    return E;
  return Write();
}

llvm::Error convertCoverageToIdLists(Database &DB) {
  if (llvm::Error E = convertKeyLists(DB))
    return E;
  return convertBitmaps(DB);
}

} // namespace store
} // namespace tia
