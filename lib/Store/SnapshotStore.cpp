//===- SnapshotStore.cpp - coverage snapshots and result statistics -------===//
//
// A snapshot is a commit and, per test it holds, the commit that test's
// coverage was collected at. The coverage table holds each test's latest
// rows; coverage_history holds the rows later coverage replaced, for as long
// as a kept snapshot refers to them. So the coverage of test T in snapshot
// S is T's rows in coverage when S's commit for T is T's latest, else its
// rows in coverage_history at S's commit for T.
//
// A collect that finds a test gone (its case no longer listed, its file
// deleted) marks it retired in its commit's snapshot: a row whose commit is
// RetiredMark. The mark matches no coverage, and later snapshots inherit it
// until the test's coverage is recorded again.
//
//===----------------------------------------------------------------------===//

#include "CoverageIndex.h"
#include "Database.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include <ctime>
#include <map>

namespace tia {

using store::collectText;
using store::inTransaction;
using store::queryOptionalInt;

namespace store {

namespace {

/// Starts the snapshot of \p Commit, holding every test of the newest
/// snapshot, and drops the snapshots beyond Store::KeptSnapshots with the
/// history only they referred to. Returns its id.
llvm::Expected<int64_t> startSnapshot(Database &DB, llvm::StringRef Commit) {
  auto Add = DB.statement(
      "INSERT INTO coverage_snapshots(commit_id, created_at) VALUES(?, ?)");
  if (!Add)
    return Add.takeError();
  Add->bindText(0, Commit);
  Add->bindInt64(1, static_cast<int64_t>(std::time(nullptr)));
  if (llvm::Error E = Add->run())
    return E;
  int64_t Id = DB.lastInsertRowId();

  auto Inherit = DB.statement(
      "INSERT INTO snapshot_tests(snapshot_id, test_id, coverage_commit) "
      "SELECT ?1, test_id, coverage_commit FROM snapshot_tests "
      "WHERE snapshot_id = (SELECT max(id) FROM coverage_snapshots "
      "WHERE id < ?1)");
  if (!Inherit)
    return Inherit.takeError();
  Inherit->bindInt64(0, Id);
  if (llvm::Error E = Inherit->run())
    return E;

  auto Drop = DB.statement(
      "DELETE FROM coverage_snapshots WHERE id NOT IN (SELECT id FROM "
      "coverage_snapshots ORDER BY id DESC LIMIT ?)");
  if (!Drop)
    return Drop.takeError();
  Drop->bindInt64(0, Store::KeptSnapshots);
  if (llvm::Error E = Drop->run())
    return E;
  if (llvm::Error E = DB.exec(
          "DELETE FROM coverage_history WHERE NOT EXISTS (SELECT 1 FROM "
          "snapshot_tests st WHERE st.test_id = coverage_history.test_id AND "
          "st.coverage_commit = coverage_history.commit_id)"))
    return E;
  return Id;
}

/// The snapshot of \p Commit, started when there is none.
llvm::Expected<int64_t> snapshotAt(Database &DB, llvm::StringRef Commit) {
  auto Find = DB.statement("SELECT id FROM coverage_snapshots "
                           "WHERE commit_id = ?");
  if (!Find)
    return Find.takeError();
  Find->bindText(0, Commit);
  auto Found = queryOptionalInt(*Find);
  if (!Found)
    return Found.takeError();
  if (*Found)
    return **Found;
  return startSnapshot(DB, Commit);
}

} // namespace

llvm::Expected<int64_t>
beforeCoverageReplaced(Database &DB, int64_t TestId, llvm::StringRef Commit,
                       const std::vector<int64_t> &OldKeys) {
  // The keys being replaced stay for the snapshots that hold them.
  auto Keep = DB.statement(
      "INSERT OR IGNORE INTO coverage_history(test_id, commit_id, key_id) "
      "SELECT t.id, t.coverage_commit, j.value FROM tests t, json_each(?3) j "
      "WHERE t.id = ?1 AND t.coverage_commit != ?2 AND EXISTS (SELECT 1 "
      "FROM snapshot_tests st WHERE st.test_id = ?1 AND "
      "st.coverage_commit = t.coverage_commit)");
  if (!Keep)
    return Keep.takeError();
  Keep->bindInt64(0, TestId);
  Keep->bindText(1, Commit);
  Keep->bindText(2, idsJson(OldKeys));
  if (llvm::Error E = Keep->run())
    return E;
  // Older rows at the same commit are replaced too.
  auto Forget = DB.statement(
      "DELETE FROM coverage_history WHERE test_id = ? AND commit_id = ?");
  if (!Forget)
    return Forget.takeError();
  Forget->bindInt64(0, TestId);
  Forget->bindText(1, Commit);
  if (llvm::Error E = Forget->run())
    return E;

  return snapshotAt(DB, Commit);
}

llvm::Error afterCoverageReplaced(Database &DB, int64_t Snapshot,
                                  int64_t TestId, llvm::StringRef Commit) {
  auto S = DB.statement(
      "INSERT INTO snapshot_tests(snapshot_id, test_id, coverage_commit) "
      "VALUES(?, ?, ?) ON CONFLICT(snapshot_id, test_id) DO UPDATE SET "
      "coverage_commit = excluded.coverage_commit");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Snapshot);
  S->bindInt64(1, TestId);
  S->bindText(2, Commit);
  return S->run();
}

llvm::Error retireInSnapshot(Database &DB, llvm::StringRef Commit,
                             const std::vector<int64_t> &TestIds) {
  if (TestIds.empty())
    return llvm::Error::success();
  auto Snapshot = snapshotAt(DB, Commit);
  if (!Snapshot)
    return Snapshot.takeError();
  for (int64_t Id : TestIds)
    if (llvm::Error E = afterCoverageReplaced(DB, *Snapshot, Id, RetiredMark))
      return E;
  return llvm::Error::success();
}

} // namespace store

llvm::Error Store::retireTests(llvm::StringRef Commit,
                               const std::vector<std::string> &Ids) {
  if (Commit.empty())
    return llvm::Error::success();
  auto Find = DB->statement("SELECT id FROM tests WHERE name = ?");
  if (!Find)
    return Find.takeError();
  std::vector<int64_t> TestIds;
  for (const std::string &Name : Ids) {
    Find->reset();
    Find->bindText(0, Name);
    auto Id = queryOptionalInt(*Find);
    if (!Id)
      return Id.takeError();
    if (*Id)
      TestIds.push_back(**Id);
  }
  return inTransaction(
      *DB, [&] { return store::retireInSnapshot(*DB, Commit, TestIds); });
}

llvm::Expected<std::vector<std::string>> Store::retiredTests(int64_t Snapshot) {
  auto S = DB->statement(
      "SELECT t.name FROM snapshot_tests st JOIN tests t ON t.id = st.test_id "
      "WHERE st.snapshot_id = ? AND st.coverage_commit = ? ORDER BY t.name");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Snapshot);
  S->bindText(1, store::RetiredMark);
  return collectText(*S);
}

llvm::Expected<std::vector<CoverageSnapshot>> Store::coverageSnapshots() {
  auto S =
      DB->statement("SELECT s.id, s.commit_id, s.created_at, count(st.test_id) "
                    "FROM coverage_snapshots s "
                    "LEFT JOIN snapshot_tests st ON st.snapshot_id = s.id "
                    "AND st.coverage_commit != ?1 "
                    "GROUP BY s.id ORDER BY s.id DESC");
  if (!S)
    return S.takeError();
  S->bindText(0, store::RetiredMark);
  std::vector<CoverageSnapshot> Out;
  if (llvm::Error E = S->forEachRow([&] {
        CoverageSnapshot C;
        C.Id = S->columnInt64(0);
        C.Commit = S->columnText(1);
        C.CreatedAt = S->columnInt64(2);
        C.Tests = static_cast<unsigned>(S->columnInt64(3));
        Out.push_back(std::move(C));
      }))
    return E;
  auto Commits = DB->statement("SELECT DISTINCT coverage_commit FROM "
                               "snapshot_tests WHERE snapshot_id = ? "
                               "AND coverage_commit != ? "
                               "ORDER BY coverage_commit");
  if (!Commits)
    return Commits.takeError();
  for (CoverageSnapshot &C : Out) {
    Commits->reset();
    Commits->bindInt64(0, C.Id);
    Commits->bindText(1, store::RetiredMark);
    auto List = collectText(*Commits);
    if (!List)
      return List.takeError();
    C.CoverageCommits = std::move(*List);
  }
  return Out;
}

llvm::Expected<std::vector<std::string>>
Store::testsCovering(llvm::StringRef Key, int64_t Snapshot) {
  auto Current = Coverage->testsCoveringKey(*DB, Key);
  if (!Current)
    return Current.takeError();
  // The key's current tests whose latest coverage the snapshot holds, and
  // the replaced rows it holds. CROSS JOIN fixes the order: from the key to
  // its few tests, then to the snapshot's row of each, never through all
  // the snapshot's tests.
  auto S = DB->statement(
      "SELECT t.name FROM json_each(?3) j "
      "CROSS JOIN tests t ON t.id = j.value "
      "CROSS JOIN snapshot_tests st ON st.snapshot_id = ?1 AND "
      "st.test_id = t.id AND st.coverage_commit = t.coverage_commit "
      "UNION "
      "SELECT t.name FROM element_keys k "
      "CROSS JOIN coverage_history h ON h.key_id = k.id "
      "CROSS JOIN snapshot_tests st ON st.snapshot_id = ?1 AND "
      "st.test_id = h.test_id AND st.coverage_commit = h.commit_id "
      "CROSS JOIN tests t ON t.id = h.test_id "
      "WHERE k.key = ?2 AND h.commit_id != t.coverage_commit "
      "ORDER BY 1");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Snapshot);
  S->bindText(1, Key);
  S->bindText(2, Current->json());
  return collectText(*S);
}

llvm::Expected<std::vector<std::string>>
Store::testsCoveringFile(llvm::StringRef Path, llvm::StringRef ContentHash,
                         int64_t Snapshot) {
  auto Current = Coverage->testsCoveringFile(*DB, Path, ContentHash);
  if (!Current)
    return Current.takeError();
  auto S = DB->statement(
      "SELECT t.name FROM json_each(?4) j "
      "CROSS JOIN tests t ON t.id = j.value "
      "CROSS JOIN snapshot_tests st ON st.snapshot_id = ?1 AND "
      "st.test_id = t.id AND st.coverage_commit = t.coverage_commit "
      "UNION "
      "SELECT t.name FROM file_versions fv "
      "JOIN elements e ON e.file_version_id = fv.id "
      "CROSS JOIN coverage_history h ON h.key_id = e.key_id "
      "CROSS JOIN snapshot_tests st ON st.snapshot_id = ?1 AND "
      "st.test_id = h.test_id AND st.coverage_commit = h.commit_id "
      "CROSS JOIN tests t ON t.id = h.test_id "
      "WHERE fv.path = ?2 AND fv.content_hash = ?3 AND "
      "h.commit_id != t.coverage_commit "
      "ORDER BY 1");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Snapshot);
  S->bindText(1, Path);
  S->bindText(2, ContentHash);
  S->bindText(3, Current->json());
  return collectText(*S);
}

llvm::Expected<std::vector<std::string>> Store::coverageOf(llvm::StringRef Id,
                                                           int64_t Snapshot) {
  // The snapshot holds either the test's latest coverage or rows of
  // coverage_history that a later import replaced.
  auto Holds = DB->statement(
      "SELECT st.coverage_commit = t.coverage_commit FROM tests t "
      "JOIN snapshot_tests st ON st.snapshot_id = ?1 AND st.test_id = t.id "
      "WHERE t.name = ?2");
  if (!Holds)
    return Holds.takeError();
  Holds->bindInt64(0, Snapshot);
  Holds->bindText(1, Id);
  auto Latest = queryOptionalInt(*Holds);
  if (!Latest)
    return Latest.takeError();
  if (!*Latest)
    return std::vector<std::string>();
  if (**Latest)
    return coverageOf(Id);
  auto S = DB->statement(
      "SELECT k.key FROM tests t "
      "JOIN snapshot_tests st ON st.snapshot_id = ?1 AND st.test_id = t.id "
      "JOIN coverage_history h ON h.test_id = t.id "
      "AND h.commit_id = st.coverage_commit "
      "JOIN element_keys k ON k.id = h.key_id "
      "WHERE t.name = ?2 ORDER BY 1");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Snapshot);
  S->bindText(1, Id);
  return collectText(*S);
}

llvm::Expected<std::vector<TestRecord>> Store::snapshotTests(int64_t Snapshot) {
  auto S = DB->statement(
      "SELECT t.name, st.coverage_commit, CASE "
      "WHEN st.coverage_commit = t.coverage_commit THEN "
      "coalesce((SELECT covered FROM test_coverage c "
      "INDEXED BY test_coverage_counts "
      "WHERE c.test_id = t.id), 0) "
      "ELSE (SELECT count(*) FROM coverage_history h WHERE h.test_id = t.id "
      "AND h.commit_id = st.coverage_commit) END "
      "FROM snapshot_tests st JOIN tests t ON t.id = st.test_id "
      "WHERE st.snapshot_id = ? AND st.coverage_commit != ? ORDER BY t.name");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Snapshot);
  S->bindText(1, store::RetiredMark);
  std::vector<TestRecord> Out;
  if (llvm::Error E = S->forEachRow([&] {
        TestRecord T;
        T.Id = S->columnText(0);
        T.CoverageCommit = S->columnText(1);
        T.CoveredElements = static_cast<unsigned>(S->columnInt64(2));
        Out.push_back(std::move(T));
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<TestStatistics>> Store::testStatistics() {
  std::map<std::string, TestStatistics> ById;
  auto Counts = DB->statement(
      "SELECT t.name, r.outcome, count(*), sum(r.duration) FROM results r "
      "JOIN tests t ON t.id = r.test_id GROUP BY t.name, r.outcome "
      "ORDER BY t.name, r.outcome");
  if (!Counts)
    return Counts.takeError();
  if (llvm::Error E = Counts->forEachRow([&]() -> llvm::Error {
        std::string Name = Counts->columnText(0);
        std::optional<Outcome> O = parseOutcome(Counts->columnText(1));
        if (!O)
          return makeErrorf("{0} is not a tia database: a result of test {1} "
                            "has the unknown outcome '{2}' (remove it or pass "
                            "another --db)",
                            DB->path(), Name, Counts->columnText(1));
        TestStatistics &T = ById[Name];
        T.Id = Name;
        unsigned N = static_cast<unsigned>(Counts->columnInt64(2));
        T.Results += N;
        if (isFailure(*O))
          T.Failures += N;
        if (*O != Outcome::Skipped) {
          double Total =
              T.MeanSeconds * T.TimedResults + Counts->columnDouble(3);
          T.TimedResults += N;
          T.MeanSeconds = Total / T.TimedResults;
        }
        return llvm::Error::success();
      }))
    return E;

  auto Last = DB->statement(
      "SELECT t.name, r.outcome, r.run_id, ru.commit_id FROM results r "
      "JOIN tests t ON t.id = r.test_id JOIN runs ru ON ru.id = r.run_id "
      "WHERE NOT EXISTS (SELECT 1 FROM results n WHERE n.test_id = r.test_id "
      "AND (n.run_id > r.run_id OR (n.run_id = r.run_id AND "
      "n.attempt > r.attempt))) ORDER BY t.name");
  if (!Last)
    return Last.takeError();
  if (llvm::Error E = Last->forEachRow([&] {
        auto It = ById.find(Last->columnText(0));
        if (It == ById.end())
          return;
        It->second.Last =
            parseOutcome(Last->columnText(1)).value_or(Outcome::Passed);
        It->second.LastRun = Last->columnInt64(2);
        It->second.LastCommit = Last->columnText(3);
      }))
    return E;

  std::vector<TestStatistics> Out;
  for (auto &[Name, T] : ById)
    Out.push_back(std::move(T));
  return Out;
}

} // namespace tia
