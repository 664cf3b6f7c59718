//===- CoverageIndexTest.cpp - coverage as per-element bitmaps ----------===//

#include "CoverageIndex.h"
#include "Database.h"
#include "IdList.h"
#include "Schema.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <map>

using namespace tia;
using tia::testing::errorText;

namespace {

using Strings = std::vector<std::string>;

using tia::testing::openMemory;

TEST(CoverageIndexTest, IdSetRoundTrips) {
  store::IdSet Ids;
  for (uint32_t I : {3u, 70000u, 1u, 4u, 5u, 6u, 7u})
    Ids.add(I);
  std::string Bytes = Ids.serialize();
  auto Read = store::IdSet::deserialize(Bytes);
  ASSERT_TRUE(Read.has_value());
  EXPECT_EQ(Read->ids(), (std::vector<uint32_t>{1, 3, 4, 5, 6, 7, 70000}));
  EXPECT_EQ(Read->json(), "[1,3,4,5,6,7,70000]");
  EXPECT_FALSE(store::IdSet::deserialize("not a bitmap").has_value());
}

TEST(CoverageIndexTest, DamagedBitmapsAreRefused) {
  store::IdSet Ids;
  for (uint32_t I = 0; I < 5000; I += 2)
    Ids.add(I); // dense enough for a bitset container
  std::string Bytes = Ids.serialize();
  ASSERT_TRUE(store::IdSet::deserialize(Bytes).has_value());
  // Trailing bytes.
  EXPECT_FALSE(store::IdSet::deserialize(Bytes + "x").has_value());
  // Cut short.
  EXPECT_FALSE(
      store::IdSet::deserialize(Bytes.substr(0, Bytes.size() - 1)).has_value());
  // Bits flipped in the payload: either refused, or read consistently.
  for (size_t At = 8; At < Bytes.size(); At += Bytes.size() / 7) {
    std::string Damaged = Bytes;
    Damaged[At] = static_cast<char>(~Damaged[At]);
    if (auto Read = store::IdSet::deserialize(Damaged)) {
      EXPECT_EQ(Read->ids().size(), Read->size());
    }
  }
}

TEST(CoverageIndexTest, KeyIdListsDecode) {
  ASSERT_VALUE(Ids,
               store::decodeKeyIds(
                   store::encodeIdList(std::vector<int64_t>{1, 2, 3}), "t"));
  EXPECT_EQ(*Ids, (std::vector<int64_t>{1, 2, 3}));
  ASSERT_VALUE(None, store::decodeKeyIds(
                         store::encodeIdList(std::vector<int64_t>{}), "t"));
  EXPECT_TRUE(None->empty());
  EXPECT_EQ(store::idsJson({1, 2}), "[1,2]");
  auto Bad = store::decodeKeyIds(store::damagedIdList(), "test t");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "the coverage of test t is not a list of element ids: the "
            "database is damaged (run 'tia coverage repair', then collect "
            "that test again)");
}

TEST(CoverageIndexTest, ReimportMovesTheTestBetweenKeys) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t1", "c1", {"a", "b"}));
  ASSERT_OK(S->putCoverage("t2", "c1", {"b"}));
  ASSERT_OK(S->putCoverage("t1", "c1", {"b", "c", "c"}));
  ASSERT_VALUE(A, S->testsCovering("a"));
  EXPECT_TRUE(A->empty());
  ASSERT_VALUE(B, S->testsCovering("b"));
  EXPECT_EQ(*B, (Strings{"t1", "t2"}));
  ASSERT_VALUE(C, S->testsCovering("c"));
  EXPECT_EQ(*C, (Strings{"t1"}));
  ASSERT_VALUE(Keys, S->coverageOf("t1"));
  EXPECT_EQ(*Keys, (Strings{"b", "c"}));
  ASSERT_VALUE(Tests, S->tests());
  ASSERT_EQ(Tests->size(), 2u);
  EXPECT_EQ((*Tests)[0].CoveredElements, 2u);
}

TEST(CoverageIndexTest, ATransactionSeesItsOwnChanges) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->transaction([&]() -> llvm::Error {
    if (llvm::Error E = S->putCoverage("t1", "c1", {"a"}))
      return E;
    auto Tests = S->testsCovering("a");
    if (!Tests)
      return Tests.takeError();
    EXPECT_EQ(*Tests, (Strings{"t1"}));
    return S->putCoverage("t2", "c1", {"a"});
  }));
  ASSERT_VALUE(Tests, S->testsCovering("a"));
  EXPECT_EQ(*Tests, (Strings{"t1", "t2"}));
}

TEST(CoverageIndexTest, RollbackForgetsChangesAndNewKeys) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t0", "c1", {"old"}));
  llvm::Error E = S->transaction([&]() -> llvm::Error {
    if (llvm::Error E = S->putCoverage("t1", "c1", {"new", "old"}))
      return E;
    return makeError("stop");
  });
  EXPECT_EQ(llvm::toString(std::move(E)), "stop");
  ASSERT_VALUE(Old, S->testsCovering("old"));
  EXPECT_EQ(*Old, (Strings{"t0"}));
  // The key interned by the rolled-back transaction is gone: a later import
  // interns it again instead of pointing at a missing row.
  ASSERT_OK(S->putCoverage("t2", "c1", {"new"}));
  ASSERT_VALUE(New, S->testsCovering("new"));
  EXPECT_EQ(*New, (Strings{"t2"}));
}

TEST(CoverageIndexTest, RemovedTestLeavesTheIndex) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t1", "c1", {"a"}));
  ASSERT_OK(S->putCoverage("t2", "c1", {"a"}));
  ASSERT_OK(S->removeTest("t1"));
  // The freed id may be reused by the next test.
  ASSERT_OK(S->putCoverage("t3", "c1", {"b"}));
  ASSERT_VALUE(A, S->testsCovering("a"));
  EXPECT_EQ(*A, (Strings{"t2"}));
  ASSERT_VALUE(B, S->testsCovering("b"));
  EXPECT_EQ(*B, (Strings{"t3"}));
}

/// A key's tests spread over blocks of TestsPerBlock ids: each change
/// rewrites its own block, and the last change of a test in a transaction
/// wins.
TEST(CoverageIndexTest, TestsInSeveralBlocks) {
  auto DB = Database::open(":memory:", Database::OpenMode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(DB)) << llvm::toString(DB.takeError());
  ASSERT_OK(schema::migrate(**DB, schema::migrations()));
  store::CoverageIndex Index;
  ASSERT_VALUE(A, Index.keyId(**DB, "a"));
  const uint32_t Far = 2 * store::TestsPerBlock + 5;
  for (uint32_t Test : {1u, uint32_t(store::TestsPerBlock), Far})
    ASSERT_OK(Index.add(*A, Test));
  ASSERT_OK(Index.flush(**DB));
  auto Blocks = (*DB)->statement(
      "SELECT group_concat(block) FROM coverage_blocks WHERE key_id = ?");
  ASSERT_TRUE(static_cast<bool>(Blocks));
  Blocks->bindInt64(0, *A);
  ASSERT_VALUE(Row, Blocks->step());
  ASSERT_TRUE(*Row);
  EXPECT_EQ(Blocks->columnText(0), "0,1,2");
  // Removed and added again, and added then removed, in one transaction.
  ASSERT_OK(Index.remove(*A, Far));
  ASSERT_OK(Index.add(*A, Far));
  ASSERT_OK(Index.add(*A, 2));
  ASSERT_OK(Index.remove(*A, 2));
  ASSERT_OK(Index.remove(*A, store::TestsPerBlock));
  ASSERT_VALUE(OfA, Index.testsCoveringKey(**DB, "a"));
  EXPECT_EQ(OfA->ids(), (std::vector<uint32_t>{1, Far}));
  // The emptied block is gone.
  Blocks->reset();
  Blocks->bindInt64(0, *A);
  ASSERT_VALUE(Again, Blocks->step());
  ASSERT_TRUE(*Again);
  EXPECT_EQ(Blocks->columnText(0), "0,2");
}

/// One key to the ids of its tests: pending changes included, an unknown
/// key neither found nor interned.
TEST(CoverageIndexTest, TestsCoveringOneKey) {
  auto DB = Database::open(":memory:", Database::OpenMode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(DB)) << llvm::toString(DB.takeError());
  ASSERT_OK(schema::migrate(**DB, schema::migrations()));
  store::CoverageIndex Index;
  ASSERT_VALUE(A, Index.keyId(**DB, "a"));
  ASSERT_VALUE(B, Index.keyId(**DB, "b"));
  ASSERT_OK(Index.add(*A, 7));
  ASSERT_OK(Index.add(*A, 3));
  ASSERT_OK(Index.add(*B, 7));
  ASSERT_VALUE(OfA, Index.testsCoveringKey(**DB, "a"));
  EXPECT_EQ(OfA->ids(), (std::vector<uint32_t>{3, 7}));
  ASSERT_OK(Index.remove(*A, 7));
  ASSERT_VALUE(Again, Index.testsCoveringKey(**DB, "a"));
  EXPECT_EQ(Again->ids(), (std::vector<uint32_t>{3}));
  ASSERT_VALUE(None, Index.testsCoveringKey(**DB, "unknown"));
  EXPECT_TRUE(None->empty());
  auto Count = (*DB)->statement("SELECT count(*) FROM element_keys");
  ASSERT_TRUE(static_cast<bool>(Count)) << llvm::toString(Count.takeError());
  ASSERT_VALUE(Row, Count->step());
  ASSERT_TRUE(*Row);
  EXPECT_EQ(Count->columnInt64(0), 2);
}

class CoverageMigrationTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-bitmaps", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  llvm::SmallString<128> Dir;
};

/// Every "test:key" pair of the current coverage of \p Path, from the
/// tests' key lists (schema 13).
Strings currentCoverage(llvm::StringRef Path) {
  Strings Out;
  auto Raw = Database::open(Path, Database::OpenMode::ReadOnly);
  if (!Raw) {
    ADD_FAILURE() << llvm::toString(Raw.takeError());
    return Out;
  }
  auto Rows = (*Raw)->statement(
      "SELECT test_id, keys FROM test_coverage ORDER BY test_id");
  if (!Rows) {
    ADD_FAILURE() << llvm::toString(Rows.takeError());
    return Out;
  }
  if (llvm::Error E = Rows->forEachRow([&]() -> llvm::Error {
        auto Keys = store::decodeKeyIds(Rows->columnBlob(1), "a test");
        if (!Keys)
          return Keys.takeError();
        for (int64_t Key : *Keys)
          Out.push_back(Rows->columnText(0) + ":" + std::to_string(Key));
        return llvm::Error::success();
      }))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return Out;
}

/// A version-7 database with coverage rows at two commits, a snapshot that
/// still holds the older rows in coverage_history, becomes the current
/// version (through 8's bitmaps) with the same answers.
TEST_F(CoverageMigrationTest, Version7CoverageBecomesIdLists) {
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "tia.db");
  {
    auto Raw = Database::open(Path, Database::OpenMode::ReadWrite);
    ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
    ASSERT_OK(schema::migrate(**Raw, schema::migrations().take_front(7)));
    ASSERT_OK((*Raw)->exec(
        "INSERT INTO element_keys(id, key) VALUES(1, 'k1'), (2, 'k2'), "
        "(3, 'k3');"
        "INSERT INTO tests(id, name, coverage_commit) VALUES"
        "(1, 'a', 'c2'), (2, 'b', 'c1'), (3, 'none', '');"
        "INSERT INTO coverage(test_id, key_id) VALUES(1, 2), (1, 3), "
        "(2, 1), (2, 2);"
        "INSERT INTO coverage_snapshots(id, commit_id, created_at) VALUES"
        "(1, 'c1', 0), (2, 'c2', 0);"
        "INSERT INTO snapshot_tests(snapshot_id, test_id, coverage_commit) "
        "VALUES (1, 1, 'c1'), (1, 2, 'c1'), (2, 1, 'c2'), (2, 2, 'c1');"
        "INSERT INTO coverage_history(test_id, commit_id, key_id) VALUES"
        "(1, 'c1', 1);"));
  }
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ((*S)->schemaVersion(), Store::SchemaVersion);
  ASSERT_VALUE(K1, (*S)->testsCovering("k1"));
  EXPECT_EQ(*K1, (Strings{"b"}));
  ASSERT_VALUE(K2, (*S)->testsCovering("k2"));
  EXPECT_EQ(*K2, (Strings{"a", "b"}));
  // Snapshot c1 holds a's older coverage (k1), c2 its latest (k2, k3).
  ASSERT_VALUE(K1AtC1, (*S)->testsCovering("k1", 1));
  EXPECT_EQ(*K1AtC1, (Strings{"a", "b"}));
  ASSERT_VALUE(K3AtC1, (*S)->testsCovering("k3", 1));
  EXPECT_TRUE(K3AtC1->empty());
  ASSERT_VALUE(K3AtC2, (*S)->testsCovering("k3", 2));
  EXPECT_EQ(*K3AtC2, (Strings{"a"}));
  ASSERT_VALUE(OfA, (*S)->coverageOf("a"));
  EXPECT_EQ(*OfA, (Strings{"k2", "k3"}));
  ASSERT_VALUE(OfAAtC1, (*S)->coverageOf("a", 1));
  EXPECT_EQ(*OfAAtC1, (Strings{"k1"}));
  ASSERT_VALUE(Tests, (*S)->tests());
  ASSERT_EQ(Tests->size(), 3u);
  EXPECT_EQ((*Tests)[0].CoveredElements, 2u);
  EXPECT_EQ((*Tests)[2].CoveredElements, 0u);

  // New coverage after the migration keeps the snapshots working.
  ASSERT_OK((*S)->putCoverage("b", "c3", {"k3"}));
  ASSERT_VALUE(K3, (*S)->testsCovering("k3"));
  EXPECT_EQ(*K3, (Strings{"a", "b"}));
  ASSERT_VALUE(K1AtC2, (*S)->testsCovering("k1", 2));
  EXPECT_EQ(*K1AtC2, (Strings{"b"}));
  S->reset();

  // The same pairs, in the tests' key lists.
  EXPECT_EQ(currentCoverage(Path), (Strings{"1:2", "1:3", "2:3"}));
}

/// A version-12 database (JSON key lists, a CRoaring bitmap per key),
/// with one damaged bitmap and one unreadable list, becomes version 13
/// with the same answers, the damage kept for the repair.
TEST_F(CoverageMigrationTest, Version12CoverageBecomesIdLists) {
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "tia.db");
  {
    auto Raw = Database::open(Path, Database::OpenMode::ReadWrite);
    ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
    ASSERT_OK(schema::migrate(**Raw, schema::migrations().take_front(12)));
    ASSERT_OK((*Raw)->exec(
        "INSERT INTO element_keys(id, key) VALUES(1, 'k1'), (2, 'k2'), "
        "(3, 'k3');"
        "INSERT INTO tests(id, name, coverage_commit) VALUES"
        "(1, 'a', 'c1'), (5000, 'b', 'c1'), (7, 'bad', 'c1');"
        "INSERT INTO test_coverage(test_id, covered, keys) VALUES"
        "(1, 2, '[2,1]'), (5000, 2, '[2, 3]'), (7, 1, '[3,');"));
    auto Bitmap = (*Raw)->statement(
        "INSERT INTO coverage_keys(key_id, tests) VALUES(?, ?)");
    ASSERT_TRUE(static_cast<bool>(Bitmap));
    for (auto [Key, Tests] :
         std::vector<std::pair<int64_t, std::vector<uint32_t>>>{
             {1, {1}}, {2, {1, 5000}}}) {
      store::IdSet Set;
      Set.addMany(Tests);
      Bitmap->reset();
      Bitmap->bindInt64(0, Key);
      Bitmap->bindBlob(1, Set.serialize());
      ASSERT_OK(Bitmap->run());
    }
    Bitmap->reset();
    Bitmap->bindInt64(0, 3);
    Bitmap->bindBlob(1, "not a bitmap");
    ASSERT_OK(Bitmap->run());
  }
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ((*S)->schemaVersion(), Store::SchemaVersion);
  ASSERT_VALUE(K2, (*S)->testsCovering("k2"));
  EXPECT_EQ(*K2, (Strings{"a", "b"}));
  ASSERT_VALUE(OfB, (*S)->coverageOf("b"));
  EXPECT_EQ(*OfB, (Strings{"k2", "k3"}));
  // k3's bitmap was damaged: answered from the lists, with "bad", whose
  // list cannot be read either.
  ASSERT_VALUE(K3, (*S)->testsCovering("k3"));
  EXPECT_EQ(*K3, (Strings{"b", "bad"}));
  ASSERT_VALUE(Damage, (*S)->coverageDamage());
  EXPECT_EQ(Damage->Keys, (Strings{"k3"}));
  EXPECT_EQ(Damage->UnreadableTests, (Strings{"bad"}));
  ASSERT_VALUE(R, (*S)->repairCoverage());
  EXPECT_EQ(R->DamagedKeys, 1u);
  EXPECT_EQ(R->DroppedTests, (Strings{"bad"}));
  ASSERT_VALUE(Fixed, (*S)->testsCovering("k3"));
  EXPECT_EQ(*Fixed, (Strings{"b"}));
  S->reset();
  EXPECT_EQ(currentCoverage(Path), (Strings{"1:1", "1:2", "5000:2", "5000:3"}));
}

/// Every "test:key" row of the `coverage` table of \p Path (a database
/// before schema 8).
Strings coverageRows(llvm::StringRef Path) {
  Strings Out;
  auto Raw = Database::open(Path, Database::OpenMode::ReadOnly);
  if (!Raw) {
    ADD_FAILURE() << llvm::toString(Raw.takeError());
    return Out;
  }
  auto Rows = (*Raw)->statement("SELECT test_id || ':' || key_id FROM "
                                "coverage ORDER BY test_id, key_id");
  if (!Rows) {
    ADD_FAILURE() << llvm::toString(Rows.takeError());
    return Out;
  }
  if (llvm::Error E =
          Rows->forEachRow([&] { Out.push_back(Rows->columnText(0)); }))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return Out;
}

/// A version-7 database whose 40 tests cover 300 keys in a pattern (test t
/// covers key k when (k * 7 + t * 3) % 11 < 4 or k % 40 == t): many
/// bitmaps of various sizes, written one after another by the migration,
/// give the same answers as the rows they came from.
TEST_F(CoverageMigrationTest, Version7ManyKeysMigrateToTheSameCoverage) {
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "tia.db");
  const int Tests = 40, Keys = 300;
  std::map<std::string, Strings> Expected; // key -> test names, sorted
  {
    auto Raw = Database::open(Path, Database::OpenMode::ReadWrite);
    ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
    ASSERT_OK(schema::migrate(**Raw, schema::migrations().take_front(7)));
    std::string SQL = "BEGIN;";
    for (int T = 1; T <= Tests; ++T)
      SQL += "INSERT INTO tests(id, name, coverage_commit) VALUES(" +
             std::to_string(T) + ", 't" + std::to_string(100 + T) + "', 'c1');";
    for (int K = 1; K <= Keys; ++K) {
      std::string Key = "k" + std::to_string(1000 + K);
      SQL += "INSERT INTO element_keys(id, key) VALUES(" + std::to_string(K) +
             ", '" + Key + "');";
      Expected[Key]; // keys no test covers stay empty
      for (int T = 1; T <= Tests; ++T)
        if ((K * 7 + T * 3) % 11 < 4 || K % 40 == T) {
          SQL += "INSERT INTO coverage(test_id, key_id) VALUES(" +
                 std::to_string(T) + ", " + std::to_string(K) + ");";
          Expected[Key].push_back("t" + std::to_string(100 + T));
        }
    }
    ASSERT_OK((*Raw)->exec(SQL + "COMMIT;"));
  }
  Strings Before = coverageRows(Path);
  ASSERT_GT(Before.size(), 4000u);

  auto S = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ((*S)->schemaVersion(), Store::SchemaVersion);
  for (const auto &[Key, Names] : Expected) {
    ASSERT_VALUE(Covering, (*S)->testsCovering(Key));
    EXPECT_EQ(*Covering, Names) << Key;
  }
  S->reset();
  EXPECT_EQ(currentCoverage(Path), Before);
}

/// A migration that fails after it wrote some bitmaps (a test id too large
/// for them, on the last key) leaves the database at version 7 as it was.
TEST_F(CoverageMigrationTest, FailedVersion8MigrationLeavesVersion7) {
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "tia.db");
  {
    auto Raw = Database::open(Path, Database::OpenMode::ReadWrite);
    ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
    ASSERT_OK(schema::migrate(**Raw, schema::migrations().take_front(7)));
    ASSERT_OK((*Raw)->exec(
        "INSERT INTO element_keys(id, key) VALUES(1, 'k1'), (2, 'k2'), "
        "(3, 'k3');"
        "INSERT INTO tests(id, name) VALUES(1, 'a'), (2, 'b'), "
        "(5000000000, 'huge');"
        "INSERT INTO coverage(test_id, key_id) VALUES(1, 1), (2, 1), "
        "(1, 2), (5000000000, 3);"));
  }
  Strings Before = coverageRows(Path);
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_FALSE(static_cast<bool>(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "cannot upgrade database " + std::string(Path) +
                " from schema 7 to 8: test id 5000000000 does not fit a "
                "bitmap (ids up to 4294967295): export the coverage and "
                "start a new database");
  auto Raw = Database::open(Path, Database::OpenMode::ReadOnly);
  ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
  ASSERT_VALUE(V, schema::readVersions(**Raw));
  ASSERT_TRUE(V->has_value());
  EXPECT_EQ((*V)->Schema, 7);
  ASSERT_VALUE(HasBitmaps, (*Raw)->hasTable("coverage_keys"));
  EXPECT_FALSE(*HasBitmaps);
  ASSERT_VALUE(HasRows, (*Raw)->hasTable("coverage"));
  EXPECT_TRUE(*HasRows);
  Raw->reset();
  EXPECT_EQ(coverageRows(Path), Before);
}

/// A store file where t1 covers a and b, t2 covers b and t3 covers c, with
/// \p Damage (SQL) applied to it afterwards, outside tia.
class DamagedCoverageTest : public CoverageMigrationTest {
protected:
  std::string make(llvm::StringRef Damage) {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, "tia.db");
    {
      auto S = Store::open(Path, Store::Mode::ReadWrite);
      if (!S) {
        ADD_FAILURE() << llvm::toString(S.takeError());
        return "";
      }
      check((*S)->putCoverage("t1", "c1", {"a", "b"}));
      check((*S)->putCoverage("t2", "c1", {"b"}));
      check((*S)->putCoverage("t3", "c1", {"c"}));
    }
    auto Raw = Database::open(Path, Database::OpenMode::ReadWrite);
    if (!Raw) {
      ADD_FAILURE() << llvm::toString(Raw.takeError());
      return "";
    }
    check((*Raw)->exec(Damage));
    return std::string(Path);
  }
  static void check(llvm::Error E) {
    if (E)
      ADD_FAILURE() << llvm::toString(std::move(E));
  }
};

// A count of five and one id: cut short.
const char DamageTestsOfA[] =
    "UPDATE coverage_blocks SET tests = x'0500' WHERE key_id = "
    "(SELECT id FROM element_keys WHERE key = 'a');";
const char DamageListOfT3[] =
    "UPDATE test_coverage SET keys = x'0500' WHERE test_id = "
    "(SELECT id FROM tests WHERE name = 't3');";

/// Reading a damaged bitmap answers from the key lists and says so.
TEST_F(DamagedCoverageTest, SelectionReadsTheKeyListsInstead) {
  std::string Path = make(DamageTestsOfA);
  auto S = Store::open(Path, Store::Mode::ReadOnly);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_VALUE(A, (*S)->testsCovering("a"));
  EXPECT_EQ(*A, (Strings{"t1"}));
  ASSERT_VALUE(Snapshots, (*S)->coverageSnapshots());
  ASSERT_EQ(Snapshots->size(), 1u);
  ASSERT_VALUE(AAtC1, (*S)->testsCovering("a", (*Snapshots)[0].Id));
  EXPECT_EQ(*AAtC1, (Strings{"t1"}));
  ASSERT_VALUE(B, (*S)->testsCovering("b"));
  EXPECT_EQ(*B, (Strings{"t1", "t2"}));
  ASSERT_VALUE(Damage, (*S)->coverageDamage());
  EXPECT_EQ(Damage->Keys, (Strings{"a"}));
  EXPECT_TRUE(Damage->UnreadableTests.empty());
}

/// A test whose key list cannot be read either may cover the key: it is
/// counted as covering it (selected), and named.
TEST_F(DamagedCoverageTest, AnUnreadableKeyListCountsAsCovering) {
  std::string Path = make(std::string(DamageTestsOfA) + DamageListOfT3);
  auto S = Store::open(Path, Store::Mode::ReadOnly);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_VALUE(A, (*S)->testsCovering("a"));
  EXPECT_EQ(*A, (Strings{"t1", "t3"}));
  ASSERT_VALUE(Damage, (*S)->coverageDamage());
  EXPECT_EQ(Damage->Keys, (Strings{"a"}));
  EXPECT_EQ(Damage->UnreadableTests, (Strings{"t3"}));
}

/// New coverage of a key whose bitmap is damaged makes the bitmap again
/// from the key lists, instead of failing every later import.
TEST_F(DamagedCoverageTest, AnImportRebuildsTheKeyItChanges) {
  std::string Path = make(DamageTestsOfA);
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_OK((*S)->putCoverage("t4", "c2", {"a"}));
  ASSERT_VALUE(A, (*S)->testsCovering("a"));
  EXPECT_EQ(*A, (Strings{"t1", "t4"}));
  ASSERT_VALUE(Damage, (*S)->coverageDamage());
  EXPECT_TRUE(Damage->empty());
  // A test leaving the key rebuilds it too.
  std::string Again = std::string(DamageTestsOfA);
  S->reset();
  {
    auto Raw = Database::open(Path, Database::OpenMode::ReadWrite);
    ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
    ASSERT_OK((*Raw)->exec(Again));
  }
  auto S2 = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S2)) << llvm::toString(S2.takeError());
  ASSERT_OK((*S2)->removeTest("t1"));
  ASSERT_VALUE(A2, (*S2)->testsCovering("a"));
  EXPECT_EQ(*A2, (Strings{"t4"}));
  ASSERT_VALUE(Damage2, (*S2)->coverageDamage());
  EXPECT_TRUE(Damage2->empty());
}

/// The repair makes every bitmap again and drops what cannot be read.
TEST_F(DamagedCoverageTest, RepairRebuildsTheIndexAndDropsBadLists) {
  std::string Path = make(std::string(DamageTestsOfA) + DamageListOfT3);
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_VALUE(R, (*S)->repairCoverage());
  EXPECT_EQ(R->DamagedKeys, 1u);
  EXPECT_EQ(R->DroppedTests, (Strings{"t3"}));
  EXPECT_EQ(R->Tests, 2u);
  EXPECT_EQ(R->Keys, 2u); // a and b
  ASSERT_VALUE(A, (*S)->testsCovering("a"));
  EXPECT_EQ(*A, (Strings{"t1"}));
  ASSERT_VALUE(C, (*S)->testsCovering("c"));
  EXPECT_TRUE(C->empty());
  ASSERT_VALUE(Damage, (*S)->coverageDamage());
  EXPECT_TRUE(Damage->empty());
  ASSERT_VALUE(Tests, (*S)->tests());
  ASSERT_EQ(Tests->size(), 3u);
  EXPECT_EQ((*Tests)[2].Id, "t3");
  EXPECT_EQ((*Tests)[2].CoveredElements, 0u);
  // The dropped test can be collected again.
  ASSERT_OK((*S)->putCoverage("t3", "c2", {"c"}));
  ASSERT_VALUE(C2, (*S)->testsCovering("c"));
  EXPECT_EQ(*C2, (Strings{"t3"}));
  // A sound database: nothing damaged, the same bitmaps.
  ASSERT_VALUE(Again, (*S)->repairCoverage());
  EXPECT_EQ(Again->DamagedKeys, 0u);
  EXPECT_TRUE(Again->DroppedTests.empty());
  EXPECT_EQ(Again->Keys, 3u);
}

/// Re-importing a test reads its old key list once, through the parser
/// that names the problem, before the snapshots keep it: an unreadable list
/// fails with what to do, not with SQLite's "malformed JSON" from a second
/// read, and changes nothing.
TEST_F(DamagedCoverageTest, ReimportReadsTheOldListOnceAndSaysWhatToDo) {
  std::string Path = make(DamageListOfT3);
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(errorText((*S)->putCoverage("t3", "c2", {"a"})),
            "the coverage of test t3 is not a list of element ids: the "
            "database is damaged (run 'tia coverage repair', then collect "
            "that test again)");
  ASSERT_VALUE(A, (*S)->testsCovering("a"));
  EXPECT_EQ(*A, (Strings{"t1"}));
  ASSERT_VALUE(Snapshots, (*S)->coverageSnapshots());
  EXPECT_EQ(Snapshots->size(), 1u);
  // A sound test keeps its replaced keys for the snapshot as before.
  ASSERT_OK((*S)->putCoverage("t1", "c2", {"c"}));
  ASSERT_VALUE(Again, (*S)->coverageSnapshots());
  ASSERT_EQ(Again->size(), 2u);
  ASSERT_VALUE(OfT1AtC1, (*S)->coverageOf("t1", (*Again)[1].Id));
  EXPECT_EQ(*OfT1AtC1, (Strings{"a", "b"}));
  ASSERT_VALUE(OfT1, (*S)->coverageOf("t1"));
  EXPECT_EQ(*OfT1, (Strings{"c"}));
}

} // namespace
