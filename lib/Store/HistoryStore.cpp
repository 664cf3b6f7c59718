//===- HistoryStore.cpp - result history, flaky tests, models -------------===//
//
// The part of the Store API that history-based failure prediction reads and
// writes: all results at once, the tests whose outcome flipped without a
// change, and the trained models.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "Schema.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include <ctime>

namespace tia {

using store::inTransaction;

llvm::Expected<std::vector<RunResult>> Store::allResults(int64_t Since) {
  auto S = DB->statement(
      "SELECT t.name, r.attempt, r.outcome, r.duration, r.message, r.run_id "
      "FROM results r JOIN runs u ON u.id = r.run_id "
      "JOIN tests t ON t.id = r.test_id WHERE u.started_at >= ? "
      "ORDER BY r.run_id, t.name, r.attempt");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Since);
  std::vector<RunResult> Out;
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        RunResult R;
        R.RunId = S->columnInt64(5);
        R.Result.TestId = S->columnText(0);
        R.Result.Attempt = static_cast<unsigned>(S->columnInt64(1));
        std::string Name = S->columnText(2);
        std::optional<Outcome> O = parseOutcome(Name);
        if (!O)
          return schema::notTiaDatabase(
              *DB, "a result of test " + R.Result.TestId +
                       " has the unknown outcome '" + Name + "'");
        R.Result.Result = *O;
        R.Result.Seconds = S->columnDouble(3);
        R.Result.Message = S->columnText(4);
        Out.push_back(std::move(R));
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<FlakyTest>> Store::flakyTests(int64_t Since) {
  // One pass over the results grouped by (test, commit); a run without a
  // commit is a group of its own, since nothing says two such runs tested
  // the same code.
  auto S = DB->statement(
      "SELECT t.name, CASE WHEN u.commit_id = '' THEN '#' || u.id "
      "ELSE u.commit_id END AS grp, r.run_id, r.outcome "
      "FROM results r JOIN runs u ON u.id = r.run_id "
      "JOIN tests t ON t.id = r.test_id "
      "WHERE u.started_at >= ? AND r.outcome <> 'skipped' "
      "ORDER BY t.name, grp, r.run_id, r.attempt");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Since);
  std::vector<FlakyTest> Out;
  FlakyTest Current;
  std::string Group;
  std::optional<bool> Previous; // the last outcome in the group: failed?
  auto Flush = [&] {
    if (Current.Flips > 0) {
      Current.FlipRate = static_cast<double>(Current.Flips) / Current.Pairs;
      Out.push_back(Current);
    }
  };
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        std::string Test = S->columnText(0);
        std::string Grp = S->columnText(1);
        std::string Name = S->columnText(3);
        std::optional<Outcome> O = parseOutcome(Name);
        if (!O)
          return schema::notTiaDatabase(*DB, "a result of test " + Test +
                                                 " has the unknown outcome '" +
                                                 Name + "'");
        if (Test != Current.TestId) {
          Flush();
          Current = FlakyTest();
          Current.TestId = Test;
          Previous.reset();
        }
        if (Grp != Group) {
          Group = Grp;
          Previous.reset();
        }
        bool Failed = isFailure(*O);
        if (Previous) {
          ++Current.Pairs;
          if (*Previous != Failed) {
            ++Current.Flips;
            Current.LastFlipRun = S->columnInt64(2);
          }
        }
        Previous = Failed;
        return llvm::Error::success();
      }))
    return E;
  Flush();
  return Out;
}

llvm::Expected<int64_t> Store::putModel(const StoredModel &M) {
  auto S = DB->statement("INSERT INTO models(format_version, created_at, "
                         "metadata, booster) VALUES(?, ?, ?, ?)");
  if (!S)
    return S.takeError();
  S->bindInt64(0, M.FormatVersion);
  S->bindInt64(1, M.CreatedAt ? M.CreatedAt
                              : static_cast<int64_t>(std::time(nullptr)));
  S->bindText(2, M.Metadata);
  S->bindText(3, M.Booster);
  if (llvm::Error E = S->run())
    return E;
  return DB->lastInsertRowId();
}

llvm::Expected<std::optional<StoredModel>> Store::latestModel() {
  auto S = DB->statement("SELECT id, format_version, created_at, metadata, "
                         "booster FROM models ORDER BY id DESC LIMIT 1");
  if (!S)
    return S.takeError();
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  StoredModel M;
  M.Id = S->columnInt64(0);
  M.FormatVersion = static_cast<int>(S->columnInt64(1));
  M.CreatedAt = S->columnInt64(2);
  M.Metadata = S->columnText(3);
  M.Booster = S->columnText(4);
  return M;
}

llvm::Error Store::pruneModels(unsigned Keep) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto S = DB->statement("DELETE FROM models WHERE id NOT IN "
                           "(SELECT id FROM models ORDER BY id DESC LIMIT ?)");
    if (!S)
      return S.takeError();
    S->bindInt64(0, Keep);
    return S->run();
  });
}

} // namespace tia
