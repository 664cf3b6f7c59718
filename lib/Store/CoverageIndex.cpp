//===- CoverageIndex.cpp - the element -> tests coverage index ------------===//

#include "CoverageIndex.h"
#include "IdList.h"
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
void IdSet::addMany(llvm::ArrayRef<uint32_t> Ids) {
  roaring_bitmap_add_many(Bits, Ids.size(), Ids.data());
}
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

llvm::Expected<std::vector<int64_t>> decodeKeyIds(llvm::StringRef Bytes,
                                                  llvm::StringRef What) {
  if (auto Ids = decodeIdList(Bytes))
    return std::move(*Ids);
  return makeErrorf("the coverage of {0} is not a list of element ids: "
                    "the database is damaged (run 'tia coverage repair', "
                    "then collect that test again)",
                    What);
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
  return decodeKeyIds(S->columnBlob(0), "test " + Name.str());
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
  S->bindBlob(2, encodeIdList(Ids));
  return S->run();
}

std::string idsJson(llvm::ArrayRef<int64_t> Ids) {
  std::string Out = "[";
  for (int64_t Id : Ids) {
    if (Out.size() > 1)
      Out += ',';
    Out += std::to_string(Id);
  }
  Out += ']';
  return Out;
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

llvm::Expected<std::vector<std::string>>
keyNames(Database &DB, const std::vector<int64_t> &Ids) {
  if (Ids.empty())
    return std::vector<std::string>();
  auto S = DB.statement("SELECT k.key FROM json_each(?) j CROSS JOIN "
                        "element_keys k ON k.id = j.value ORDER BY 1");
  if (!S)
    return S.takeError();
  S->bindText(0, idsJson(Ids));
  return collectText(*S);
}

//===----------------------------------------------------------------------===//
// coverage_blocks
//===----------------------------------------------------------------------===//

namespace {

llvm::Expected<uint32_t> testIdInIndex(int64_t Test) {
  if (Test < 0 || Test > int64_t(UINT32_MAX))
    return makeErrorf("test id {0} does not fit the coverage index (ids "
                      "up to {1}): export the coverage and start a new "
                      "database",
                      Test, UINT32_MAX);
  return static_cast<uint32_t>(Test);
}

/// The tests of block \p Block read from \p Bytes, or std::nullopt when
/// they are not a list of ids inside the block (damaged).
std::optional<std::vector<uint32_t>> decodeBlock(llvm::StringRef Bytes,
                                                 int64_t Block) {
  return decodeIdList32(Bytes, Block * TestsPerBlock,
                        (Block + 1) * TestsPerBlock);
}

/// The highest block any key has, -1 when there are none.
llvm::Expected<int64_t> lastBlock(Database &DB) {
  auto S = DB.statement("SELECT max(block) FROM coverage_blocks");
  if (!S)
    return S.takeError();
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  return *Row && !S->columnIsNull(0) ? S->columnInt64(0) : -1;
}

/// Reads block \p Block of key \p Key: empty when there is none,
/// std::nullopt when it is damaged.
llvm::Expected<std::optional<std::vector<uint32_t>>>
readBlock(Database &DB, int64_t Key, int64_t Block) {
  auto S = DB.statement(
      "SELECT tests FROM coverage_blocks WHERE block = ? AND key_id = ?");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Block);
  S->bindInt64(1, Key);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::optional<std::vector<uint32_t>>(std::vector<uint32_t>());
  return decodeBlock(S->columnBlob(0), Block);
}

/// What readBlock answers for each key of a block.
using BlockLists = std::vector<std::optional<std::vector<uint32_t>>>;

/// readBlock for each of \p Keys (sorted, unique) in block \p Block. Keys
/// dense in their range (an import of many tests touches most keys) are
/// read in one scan of the block's rows over that range, not a lookup each.
llvm::Expected<BlockLists> readBlockOfKeys(Database &DB, int64_t Block,
                                           llvm::ArrayRef<int64_t> Keys) {
  BlockLists Out(Keys.size(), std::vector<uint32_t>());
  if (Keys.empty())
    return Out;
  if (int64_t(Keys.size()) * 8 < Keys.back() - Keys.front() + 1) {
    for (size_t I = 0; I < Keys.size(); ++I) {
      auto Tests = readBlock(DB, Keys[I], Block);
      if (!Tests)
        return Tests.takeError();
      Out[I] = std::move(*Tests);
    }
    return Out;
  }
  auto S = DB.statement("SELECT key_id, tests FROM coverage_blocks WHERE "
                        "block = ? AND key_id BETWEEN ? AND ?");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Block);
  S->bindInt64(1, Keys.front());
  S->bindInt64(2, Keys.back());
  if (llvm::Error E = S->forEachRow([&] {
        auto It = std::lower_bound(Keys.begin(), Keys.end(), S->columnInt64(0));
        if (It != Keys.end() && *It == S->columnInt64(0))
          Out[It - Keys.begin()] = decodeBlock(S->columnBlob(1), Block);
      }))
    return E;
  return Out;
}

/// Reads the tests of key \p Key, every block (one lookup each: the table
/// is ordered by block first): an empty set when it has none, std::nullopt
/// when a block is damaged.
llvm::Expected<std::optional<IdSet>> readKeyTests(Database &DB, int64_t Key) {
  auto Last = lastBlock(DB);
  if (!Last)
    return Last.takeError();
  IdSet Out;
  for (int64_t Block = 0; Block <= *Last; ++Block) {
    auto Tests = readBlock(DB, Key, Block);
    if (!Tests)
      return Tests.takeError();
    if (!*Tests)
      return std::nullopt;
    Out.addMany(**Tests);
  }
  return std::optional<IdSet>(std::move(Out));
}

llvm::Error writeBlock(Database &DB, int64_t Key, int64_t Block,
                       llvm::ArrayRef<uint32_t> Tests) {
  if (Tests.empty()) {
    auto S = DB.statement(
        "DELETE FROM coverage_blocks WHERE block = ? AND key_id = ?");
    if (!S)
      return S.takeError();
    S->bindInt64(0, Block);
    S->bindInt64(1, Key);
    return S->run();
  }
  auto S = DB.statement("INSERT INTO coverage_blocks(key_id, block, tests) "
                        "VALUES(?, ?, ?) ON CONFLICT(key_id, block) DO "
                        "UPDATE SET tests = excluded.tests");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Key);
  S->bindInt64(1, Block);
  S->bindBlob(2, encodeIdList(Tests));
  return S->run();
}

/// For each key of \p Keys (sorted, unique), the tests whose key list in
/// test_coverage holds it: what its blocks must hold. Reads every list
/// once. A list that is not a list of ids adds its test to \p Unreadable
/// when given (it may cover any key), else fails.
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
        auto Test = testIdInIndex(S->columnInt64(0));
        if (!Test)
          return Test.takeError();
        auto Ids = decodeKeyIds(S->columnBlob(2), "test " + S->columnText(1));
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
    return E;
  return Out;
}

/// \p Tests with \p Edits applied (sorted by test; of the changes of one
/// test, in call order, the last wins).
std::vector<uint32_t> applyEdits(const std::vector<uint32_t> &Tests,
                                 llvm::ArrayRef<CoverageEdit> Edits) {
  std::vector<uint32_t> Added, Removed;
  for (size_t I = 0; I < Edits.size(); ++I) {
    if (I + 1 < Edits.size() && Edits[I + 1].Test == Edits[I].Test)
      continue;
    (Edits[I].Covers ? Added : Removed).push_back(Edits[I].Test);
  }
  std::vector<uint32_t> Kept, Out;
  std::set_difference(Tests.begin(), Tests.end(), Removed.begin(),
                      Removed.end(), std::back_inserter(Kept));
  std::set_union(Kept.begin(), Kept.end(), Added.begin(), Added.end(),
                 std::back_inserter(Out));
  return Out;
}

} // namespace

llvm::Error writeKeyTests(Database &DB, int64_t Key,
                          const std::vector<uint32_t> &Tests) {
  auto Last = lastBlock(DB);
  if (!Last)
    return Last.takeError();
  if (!Tests.empty())
    *Last = std::max<int64_t>(*Last, Tests.back() / TestsPerBlock);
  // Every block, the empty ones deleted.
  size_t Begin = 0;
  for (int64_t Block = 0; Block <= *Last; ++Block) {
    size_t End = Begin;
    while (End < Tests.size() && Tests[End] / TestsPerBlock == Block)
      ++End;
    if (llvm::Error E = writeBlock(
            DB, Key, Block,
            llvm::ArrayRef<uint32_t>(Tests).slice(Begin, End - Begin)))
      return E;
    Begin = End;
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// CoverageIndex
//===----------------------------------------------------------------------===//

llvm::Error CoverageIndex::add(int64_t Key, int64_t Test) {
  auto Id = testIdInIndex(Test);
  if (!Id)
    return Id.takeError();
  Pending.push_back({Key, *Id, /*Covers=*/true});
  return llvm::Error::success();
}

llvm::Error CoverageIndex::remove(int64_t Key, int64_t Test) {
  auto Id = testIdInIndex(Test);
  if (!Id)
    return Id.takeError();
  Pending.push_back({Key, *Id, /*Covers=*/false});
  return llvm::Error::success();
}

llvm::Error CoverageIndex::flush(Database &DB) {
  if (Pending.empty())
    return llvm::Error::success();
  std::vector<CoverageEdit> Edits;
  Edits.swap(Pending);
  return inTransaction(DB, [&] { return writeEdits(DB, Edits); });
}

llvm::Error CoverageIndex::flushIfLarge(Database &DB) {
  return Pending.size() < MaxPendingEdits ? llvm::Error::success() : flush(DB);
}

llvm::Error CoverageIndex::writeEdits(Database &DB,
                                      std::vector<CoverageEdit> &Edits) {
  // Block and key order, the table's: the B-tree is written front to back.
  // Stable, so that the changes of one (key, test) stay in call order.
  auto Order = [](const CoverageEdit &E) {
    return std::make_tuple(E.Test / TestsPerBlock, E.Key, E.Test);
  };
  std::stable_sort(Edits.begin(), Edits.end(),
                   [&](const CoverageEdit &A, const CoverageEdit &B) {
                     return Order(A) < Order(B);
                   });
  std::set<int64_t> Damaged;
  for (size_t Begin = 0; Begin < Edits.size();) {
    // One block: its keys' edits, read together.
    int64_t Block = Edits[Begin].Test / TestsPerBlock;
    std::vector<int64_t> Keys;
    std::vector<llvm::ArrayRef<CoverageEdit>> Groups;
    while (Begin < Edits.size() && Edits[Begin].Test / TestsPerBlock == Block) {
      size_t End = Begin;
      while (End < Edits.size() && Edits[End].Key == Edits[Begin].Key &&
             Edits[End].Test / TestsPerBlock == Block)
        ++End;
      Keys.push_back(Edits[Begin].Key);
      Groups.emplace_back(&Edits[Begin], End - Begin);
      Begin = End;
    }
    auto Stored = readBlockOfKeys(DB, Block, Keys);
    if (!Stored)
      return Stored.takeError();
    for (size_t I = 0; I < Keys.size(); ++I) {
      if (!(*Stored)[I])
        Damaged.insert(Keys[I]);
      if (Damaged.count(Keys[I]))
        continue;
      if (llvm::Error E = writeBlock(DB, Keys[I], Block,
                                     applyEdits(*(*Stored)[I], Groups[I])))
        return E;
    }
  }
  if (Damaged.empty())
    return llvm::Error::success();
  // A damaged block cannot be changed, but the key's blocks can be made
  // again: the key lists already hold this transaction's coverage.
  std::vector<int64_t> Keys(Damaged.begin(), Damaged.end());
  auto Rebuilt = testsFromKeyLists(DB, Keys, /*Unreadable=*/nullptr);
  if (!Rebuilt)
    return Rebuilt.takeError();
  for (size_t I = 0; I < Keys.size(); ++I)
    if (llvm::Error E = writeKeyTests(DB, Keys[I], (*Rebuilt)[I].ids()))
      return E;
  return llvm::Error::success();
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
    return E;
  std::vector<int64_t> Ids;
  if (llvm::Error E =
          Keys.forEachRow([&] { Ids.push_back(Keys.columnInt64(0)); }))
    return E;
  IdSet Out;
  std::vector<int64_t> Damaged;
  for (int64_t Key : Ids) {
    auto Tests = readKeyTests(DB, Key);
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
    return Out;
  // The key lists are what the blocks are made from: answer from them
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
  return Out;
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

namespace {

/// How many keys have a block that cannot be read.
llvm::Expected<unsigned> countDamagedKeys(Database &DB) {
  auto Blocks =
      DB.statement("SELECT key_id, block, tests FROM coverage_blocks");
  if (!Blocks)
    return Blocks.takeError();
  std::set<int64_t> Damaged;
  if (llvm::Error E = Blocks->forEachRow([&] {
        if (!decodeBlock(Blocks->columnBlob(2), Blocks->columnInt64(1)))
          Damaged.insert(Blocks->columnInt64(0));
      }))
    return E;
  return static_cast<unsigned>(Damaged.size());
}

/// Drops the coverage of test \p Test, from the snapshots too, with the
/// replaced coverage they kept: the test is then one with no coverage
/// recorded, which selection runs.
llvm::Error dropCoverage(Database &DB, int64_t Test) {
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
      return E;
  }
  return llvm::Error::success();
}

/// Writes every key's blocks from the (key, test) pairs of
/// temp.repair_links, read in key order: SQLite sorts them through files
/// past its cache, so memory holds one key's tests, not the links.
llvm::Error writeBlocksFromLinks(Database &DB) {
  auto S = DB.statement("SELECT key_id, test_id FROM temp.repair_links "
                        "ORDER BY key_id, test_id");
  if (!S)
    return S.takeError();
  int64_t Key = -1;
  std::vector<uint32_t> Tests;
  auto Write = [&]() -> llvm::Error {
    if (Key < 0)
      return llvm::Error::success();
    llvm::Error E = writeKeyTests(DB, Key, Tests);
    Tests.clear();
    return E;
  };
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        if (S->columnInt64(0) != Key) {
          if (llvm::Error E = Write())
            return E;
          Key = S->columnInt64(0);
        }
        Tests.push_back(static_cast<uint32_t>(S->columnInt64(1)));
        return llvm::Error::success();
      }))
    return E;
  return Write();
}

} // namespace

llvm::Expected<CoverageRepair> repairCoverageIndex(Database &DB) {
  CoverageRepair Out;
  auto Damaged = countDamagedKeys(DB);
  if (!Damaged)
    return Damaged.takeError();
  Out.DamagedKeys = *Damaged;

  if (llvm::Error E = DB.exec("DROP TABLE IF EXISTS temp.repair_links; "
                              "CREATE TEMP TABLE repair_links(key_id INTEGER "
                              "NOT NULL, test_id INTEGER NOT NULL)"))
    return E;
  auto Link = DB.statement(
      "INSERT INTO temp.repair_links(key_id, test_id) VALUES(?, ?)");
  if (!Link)
    return Link.takeError();
  // A key list that is not one cannot be read back: the test's coverage is
  // dropped, so that selection runs it as never covered until it is
  // collected again.
  std::vector<int64_t> Unreadable;
  auto Lists = DB.statement("SELECT tc.test_id, t.name, tc.keys FROM "
                            "test_coverage tc JOIN tests t ON t.id = "
                            "tc.test_id ORDER BY t.name");
  if (!Lists)
    return Lists.takeError();
  if (llvm::Error E = Lists->forEachRow([&]() -> llvm::Error {
        int64_t Test = Lists->columnInt64(0);
        auto Ids = decodeIdList(Lists->columnBlob(2));
        if (!Ids) {
          Unreadable.push_back(Test);
          Out.DroppedTests.push_back(Lists->columnText(1));
          return llvm::Error::success();
        }
        ++Out.Tests;
        for (int64_t Key : *Ids) {
          Link->reset();
          Link->bindInt64(0, Key);
          Link->bindInt64(1, Test);
          if (llvm::Error E = Link->run())
            return E;
        }
        return llvm::Error::success();
      }))
    return E;
  for (int64_t Test : Unreadable)
    if (llvm::Error E = dropCoverage(DB, Test))
      return E;

  // Every block made again from the lists: blocks that read well but
  // disagree with the lists are fixed too.
  if (llvm::Error E = DB.exec("DELETE FROM coverage_blocks"))
    return E;
  if (llvm::Error E = writeBlocksFromLinks(DB))
    return E;
  if (llvm::Error E = DB.exec("DROP TABLE temp.repair_links"))
    return E;
  auto Count =
      DB.statement("SELECT count(DISTINCT key_id) FROM coverage_blocks");
  if (!Count)
    return Count.takeError();
  auto Written = queryOptionalInt(*Count);
  if (!Written)
    return Written.takeError();
  Out.Keys = static_cast<unsigned>(Written->value_or(0));
  return Out;
}

} // namespace store
} // namespace tia
