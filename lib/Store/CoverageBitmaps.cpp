//===- CoverageBitmaps.cpp - the element -> tests coverage bitmaps --------===//

#include "CoverageBitmaps.h"
#include "StoreInternal.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <roaring/roaring.h>
#include <utility>

namespace tia {
namespace store {

//===----------------------------------------------------------------------===//
// IdSet
//===----------------------------------------------------------------------===//

IdSet::IdSet() : Bits(roaring_bitmap_create()) {}

IdSet::~IdSet() {
  if (Bits)
    roaring_bitmap_free(Bits);
}

IdSet::IdSet(IdSet &&Other) noexcept : Bits(Other.Bits) {
  Other.Bits = roaring_bitmap_create();
}

IdSet &IdSet::operator=(IdSet &&Other) noexcept {
  std::swap(Bits, Other.Bits);
  return *this;
}

void IdSet::add(uint32_t Id) { roaring_bitmap_add(Bits, Id); }
void IdSet::remove(uint32_t Id) { roaring_bitmap_remove(Bits, Id); }
bool IdSet::empty() const { return roaring_bitmap_is_empty(Bits); }
uint64_t IdSet::size() const { return roaring_bitmap_get_cardinality(Bits); }
void IdSet::merge(const IdSet &Other) {
  roaring_bitmap_or_inplace(Bits, Other.Bits);
}
void IdSet::subtract(const IdSet &Other) {
  roaring_bitmap_andnot_inplace(Bits, Other.Bits);
}

namespace {
bool appendId(uint32_t Id, void *Out) {
  static_cast<std::vector<uint32_t> *>(Out)->push_back(Id);
  return true;
}
} // namespace

std::vector<uint32_t> IdSet::ids() const {
  // Iterated rather than copied into a vector sized by the cardinality, so
  // that a bitmap whose stored cardinality disagrees with its bits cannot
  // write past the end.
  std::vector<uint32_t> Out;
  Out.reserve(size());
  roaring_iterate(Bits, appendId, &Out);
  return Out;
}

std::string IdSet::json() const {
  std::string Out = "[";
  for (uint32_t Id : ids()) {
    if (Out.size() > 1)
      Out += ',';
    Out += std::to_string(Id);
  }
  Out += ']';
  return Out;
}

std::string IdSet::serialize() {
  roaring_bitmap_run_optimize(Bits);
  std::string Out(roaring_bitmap_portable_size_in_bytes(Bits), '\0');
  roaring_bitmap_portable_serialize(Bits, Out.data());
  return Out;
}

std::optional<IdSet> IdSet::deserialize(llvm::StringRef Bytes) {
  // CRoaring prints to stderr when the leading cookie is wrong: check it
  // first (12346 without run containers, 12347 with them).
  if (Bytes.size() < 4)
    return std::nullopt;
  unsigned Cookie = static_cast<unsigned char>(Bytes[0]) |
                    static_cast<unsigned char>(Bytes[1]) << 8;
  if (Cookie != 12346 && Cookie != 12347)
    return std::nullopt;
  // So does the safe reader when the bytes end too soon; measuring the
  // serialization first is silent, and refuses trailing bytes too.
  if (roaring_bitmap_portable_deserialize_size(Bytes.data(), Bytes.size()) !=
      Bytes.size())
    return std::nullopt;
  roaring_bitmap_t *Read =
      roaring_bitmap_portable_deserialize_safe(Bytes.data(), Bytes.size());
  if (!Read)
    return std::nullopt;
  IdSet Out;
  std::swap(Out.Bits, Read);
  roaring_bitmap_free(Read);
  // The safe reader only stays inside the buffer: a damaged blob can still
  // hold trailing bytes, or containers whose counts disagree with their
  // bits. Refuse both.
  if (roaring_bitmap_portable_size_in_bytes(Out.Bits) != Bytes.size() ||
      Out.ids().size() != Out.size())
    return std::nullopt;
  return Out;
}

//===----------------------------------------------------------------------===//
// test_coverage rows
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<int64_t>> parseKeyIds(llvm::StringRef Json,
                                                 llvm::StringRef What) {
  auto Bad = [&] {
    return makeErrorf("the coverage of {0} is not a list of element ids: "
                      "the database is damaged (run 'tia coverage repair', "
                      "then collect that test again)",
                      What);
  };
  Json = Json.trim();
  if (!Json.consume_front("[") || !Json.consume_back("]"))
    return Bad();
  std::vector<int64_t> Out;
  Json = Json.trim();
  while (!Json.empty()) {
    auto [Item, Rest] = Json.split(',');
    int64_t Id = 0;
    if (Item.trim().getAsInteger(10, Id))
      return Bad();
    Out.push_back(Id);
    Json = Rest;
  }
  return Out;
}

std::string keyIdsJson(const std::vector<int64_t> &Ids) {
  std::string Out = "[";
  for (int64_t Id : Ids) {
    if (Out.size() > 1)
      Out += ',';
    Out += std::to_string(Id);
  }
  Out += ']';
  return Out;
}

llvm::Expected<std::vector<int64_t>> coveredKeyIds(Database &DB, int64_t Test,
                                                   llvm::StringRef Name) {
  auto S = DB.statement("SELECT keys FROM test_coverage WHERE test_id = ?");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Test);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::vector<int64_t>();
  auto Ids = parseKeyIds(S->columnText(0), "test " + Name.str());
  if (!Ids)
    return Ids.takeError();
  llvm::sort(*Ids);
  Ids->erase(std::unique(Ids->begin(), Ids->end()), Ids->end());
  return std::move(*Ids);
}

llvm::Error writeCoveredKeyIds(Database &DB, int64_t Test,
                               const std::vector<int64_t> &Ids) {
  if (Ids.empty()) {
    auto S = DB.statement("DELETE FROM test_coverage WHERE test_id = ?");
    if (!S)
      return S.takeError();
    S->bindInt64(0, Test);
    return S->run();
  }
  auto S = DB.statement(
      "INSERT INTO test_coverage(test_id, covered, keys) VALUES(?, ?, ?) "
      "ON CONFLICT(test_id) DO UPDATE SET covered = excluded.covered, "
      "keys = excluded.keys");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Test);
  S->bindInt64(1, static_cast<int64_t>(Ids.size()));
  S->bindText(2, keyIdsJson(Ids));
  return S->run();
}

llvm::Expected<std::vector<std::string>> testNames(Database &DB,
                                                   const IdSet &Ids) {
  if (Ids.empty())
    return std::vector<std::string>();
  auto S = DB.statement("SELECT t.name FROM json_each(?) j "
                        "CROSS JOIN tests t ON t.id = j.value ORDER BY 1");
  if (!S)
    return S.takeError();
  S->bindText(0, Ids.json());
  return collectText(*S);
}

//===----------------------------------------------------------------------===//
// CoverageIndex
//===----------------------------------------------------------------------===//

namespace {

llvm::Expected<uint32_t> bitmapId(int64_t Test) {
  if (Test < 0 || Test > int64_t(UINT32_MAX))
    return makeErrorf("test id {0} does not fit the coverage bitmaps (ids "
                      "up to {1}): export the coverage and start a new "
                      "database",
                      Test, UINT32_MAX);
  return static_cast<uint32_t>(Test);
}

/// Reads the bitmap of key \p Key: an empty one when it has none,
/// std::nullopt when its blob is not a bitmap (damaged).
llvm::Expected<std::optional<IdSet>> readBitmap(Database &DB, int64_t Key) {
  auto S = DB.statement("SELECT tests FROM coverage_keys WHERE key_id = ?");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Key);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::optional<IdSet>(IdSet());
  return IdSet::deserialize(S->columnBlob(0));
}

/// For each key of \p Keys (sorted, unique), the tests whose key list in
/// test_coverage holds it: what its bitmap must be. Reads every list once.
/// A list that is not a list of ids adds its test to \p Unreadable when
/// given (it may cover any key), else fails.
llvm::Expected<std::vector<IdSet>>
testsFromKeyLists(Database &DB, const std::vector<int64_t> &Keys,
                  IdSet *Unreadable) {
  std::vector<IdSet> Out(Keys.size());
  auto S = DB.statement("SELECT tc.test_id, t.name, tc.keys "
                        "FROM test_coverage tc JOIN tests t ON t.id = "
                        "tc.test_id ORDER BY tc.test_id");
  if (!S)
    return S.takeError();
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        auto Test = bitmapId(S->columnInt64(0));
        if (!Test)
          return Test.takeError();
        auto Ids = parseKeyIds(S->columnText(2), "test " + S->columnText(1));
        if (!Ids) {
          if (!Unreadable)
            return Ids.takeError();
          // Counted as covering every key asked for: selection runs it.
          llvm::consumeError(Ids.takeError());
          Unreadable->add(*Test);
          return llvm::Error::success();
        }
        for (int64_t Id : *Ids) {
          auto It = std::lower_bound(Keys.begin(), Keys.end(), Id);
          if (It != Keys.end() && *It == Id)
            Out[It - Keys.begin()].add(*Test);
        }
        return llvm::Error::success();
      }))
    return std::move(E);
  return std::move(Out);
}

llvm::Error writeBitmap(Database &DB, int64_t Key, IdSet &Tests) {
  if (Tests.empty()) {
    auto S = DB.statement("DELETE FROM coverage_keys WHERE key_id = ?");
    if (!S)
      return S.takeError();
    S->bindInt64(0, Key);
    return S->run();
  }
  auto S = DB.statement("INSERT INTO coverage_keys(key_id, tests) "
                        "VALUES(?, ?) ON CONFLICT(key_id) DO UPDATE SET "
                        "tests = excluded.tests");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Key);
  S->bindBlob(1, Tests.serialize());
  return S->run();
}

} // namespace

llvm::Error CoverageIndex::add(int64_t Key, int64_t Test) {
  auto Id = bitmapId(Test);
  if (!Id)
    return Id.takeError();
  Change &C = Pending[Key];
  C.Removed.remove(*Id);
  C.Added.add(*Id);
  return llvm::Error::success();
}

llvm::Error CoverageIndex::remove(int64_t Key, int64_t Test) {
  auto Id = bitmapId(Test);
  if (!Id)
    return Id.takeError();
  Change &C = Pending[Key];
  C.Added.remove(*Id);
  C.Removed.add(*Id);
  return llvm::Error::success();
}

llvm::Error CoverageIndex::flush(Database &DB) {
  if (Pending.empty())
    return llvm::Error::success();
  // Key order: the bitmaps' B-tree is written front to back.
  std::vector<int64_t> Keys;
  Keys.reserve(Pending.size());
  for (const auto &[Key, C] : Pending)
    Keys.push_back(Key);
  std::sort(Keys.begin(), Keys.end());
  llvm::Error E = inTransaction(DB, [&]() -> llvm::Error {
    std::vector<int64_t> Damaged;
    for (int64_t Key : Keys) {
      auto Tests = readBitmap(DB, Key);
      if (!Tests)
        return Tests.takeError();
      if (!*Tests) {
        Damaged.push_back(Key);
        continue;
      }
      const Change &C = Pending[Key];
      (*Tests)->subtract(C.Removed);
      (*Tests)->merge(C.Added);
      if (llvm::Error E = writeBitmap(DB, Key, **Tests))
        return E;
    }
    if (Damaged.empty())
      return llvm::Error::success();
    // A damaged bitmap cannot be changed, but it can be made again: the
    // key lists already hold this transaction's coverage.
    auto Rebuilt = testsFromKeyLists(DB, Damaged, /*Unreadable=*/nullptr);
    if (!Rebuilt)
      return Rebuilt.takeError();
    for (size_t I = 0; I < Damaged.size(); ++I)
      if (llvm::Error E = writeBitmap(DB, Damaged[I], (*Rebuilt)[I]))
        return E;
    return llvm::Error::success();
  });
  Pending.clear();
  return E;
}

void CoverageIndex::discard() {
  Pending.clear();
  KeyIds.clear();
}

llvm::Expected<int64_t> CoverageIndex::keyId(Database &DB,
                                             llvm::StringRef Key) {
  auto It = KeyIds.find(Key);
  if (It != KeyIds.end())
    return It->second;
  auto Id = store::keyId(DB, Key);
  if (!Id)
    return Id.takeError();
  KeyIds[Key] = *Id;
  return *Id;
}

llvm::Expected<IdSet> CoverageIndex::testsCovering(Database &DB,
                                                   Statement &Keys) {
  if (llvm::Error E = flush(DB))
    return std::move(E);
  std::vector<int64_t> Ids;
  if (llvm::Error E =
          Keys.forEachRow([&] { Ids.push_back(Keys.columnInt64(0)); }))
    return std::move(E);
  IdSet Out;
  std::vector<int64_t> Damaged;
  for (int64_t Key : Ids) {
    auto Tests = readBitmap(DB, Key);
    if (!Tests)
      return Tests.takeError();
    if (!*Tests) {
      Damaged.push_back(Key);
      continue;
    }
    if (Ids.size() == 1)
      return std::move(**Tests);
    Out.merge(**Tests);
  }
  if (Damaged.empty())
    return std::move(Out);
  // The key lists are what the bitmaps are made from: answer from them
  // (the database may be open only to read), and count a test whose list
  // is unreadable too as covering the key, so that selection runs it.
  llvm::sort(Damaged);
  Damaged.erase(std::unique(Damaged.begin(), Damaged.end()), Damaged.end());
  IdSet Unreadable;
  auto FromLists = testsFromKeyLists(DB, Damaged, &Unreadable);
  if (!FromLists)
    return FromLists.takeError();
  for (const IdSet &Tests : *FromLists)
    Out.merge(Tests);
  Out.merge(Unreadable);
  DamagedKeys.insert(Damaged.begin(), Damaged.end());
  UnreadableTests.merge(Unreadable);
  return std::move(Out);
}

llvm::Expected<IdSet> CoverageIndex::testsCoveringKey(Database &DB,
                                                      llvm::StringRef Key) {
  auto Keys = DB.statement("SELECT id FROM element_keys WHERE key = ?");
  if (!Keys)
    return Keys.takeError();
  Keys->bindText(0, Key);
  return testsCovering(DB, *Keys);
}

llvm::Expected<IdSet>
CoverageIndex::testsCoveringFile(Database &DB, llvm::StringRef Path,
                                 llvm::StringRef ContentHash) {
  auto Keys = DB.statement("SELECT DISTINCT e.key_id FROM file_versions fv "
                           "JOIN elements e ON e.file_version_id = fv.id "
                           "WHERE fv.path = ? AND fv.content_hash = ?");
  if (!Keys)
    return Keys.takeError();
  Keys->bindText(0, Path);
  Keys->bindText(1, ContentHash);
  return testsCovering(DB, *Keys);
}

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
        auto Id = bitmapId(S->columnInt64(1));
        if (!Id)
          return Id.takeError();
        Tests.add(*Id);
        return llvm::Error::success();
      }))
    return E;
  return Write();
}

llvm::Expected<CoverageRepair> repairCoverageBitmaps(Database &DB) {
  CoverageRepair Out;
  auto Blobs = DB.statement("SELECT tests FROM coverage_keys");
  if (!Blobs)
    return Blobs.takeError();
  if (llvm::Error E = Blobs->forEachRow([&] {
        if (!IdSet::deserialize(Blobs->columnBlob(0)))
          ++Out.DamagedBitmaps;
      }))
    return std::move(E);

  // A key list that is not one cannot be read back: the test's coverage is
  // dropped, so that selection runs it as never covered until it is
  // collected again.
  std::vector<int64_t> Unreadable;
  auto Lists = DB.statement("SELECT tc.test_id, t.name, tc.keys FROM "
                            "test_coverage tc JOIN tests t ON t.id = "
                            "tc.test_id ORDER BY t.name");
  if (!Lists)
    return Lists.takeError();
  if (llvm::Error E = Lists->forEachRow([&] {
        ++Out.Tests;
        auto Ids = parseKeyIds(Lists->columnText(2), "");
        if (Ids)
          return;
        llvm::consumeError(Ids.takeError()); // counted and reported instead
        Unreadable.push_back(Lists->columnInt64(0));
        Out.DroppedTests.push_back(Lists->columnText(1));
      }))
    return std::move(E);
  Out.Tests -= Unreadable.size();
  // Out of the snapshots too, with the replaced coverage they kept: the
  // test is then one with no coverage recorded, which selection runs.
  for (int64_t Test : Unreadable)
    for (const char *SQL :
         {"DELETE FROM test_coverage WHERE test_id = ?",
          "DELETE FROM snapshot_tests WHERE test_id = ?",
          "DELETE FROM coverage_history WHERE test_id = ?",
          "UPDATE tests SET coverage_commit = '' WHERE id = ?"}) {
      auto Drop = DB.statement(SQL);
      if (!Drop)
        return Drop.takeError();
      Drop->bindInt64(0, Test);
      if (llvm::Error E = Drop->run())
        return std::move(E);
    }

  // Every bitmap made again from the lists, in key order through the
  // `coverage` view (SQLite sorts on disk past its cache): bounded memory,
  // and bitmaps that read well but disagree with the lists are fixed too.
  if (llvm::Error E = DB.exec("DELETE FROM coverage_keys"))
    return std::move(E);
  if (llvm::Error E = buildCoverageBitmaps(DB))
    return std::move(E);
  auto Count = DB.statement("SELECT count(*) FROM coverage_keys");
  if (!Count)
    return Count.takeError();
  auto Written = queryOptionalInt(*Count);
  if (!Written)
    return Written.takeError();
  Out.Bitmaps = static_cast<unsigned>(Written->value_or(0));
  return Out;
}

} // namespace store
} // namespace tia
