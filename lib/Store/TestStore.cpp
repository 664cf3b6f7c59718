//===- TestStore.cpp - tests, their coverage, runs and results ------------===//
//
// The part of the Store API about tests: the element -> test coverage map,
// what is known of each test (source location, how to run it) and the
// outcome of each test in each run.
//
//===----------------------------------------------------------------------===//

#include "CoverageIndex.h"
#include "Database.h"
#include "Schema.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <ctime>
#include <iterator>

namespace tia {

using store::collectText;
using store::inTransaction;
using store::keyId;
using store::queryOptionalInt;
using store::testId;

namespace {

/// \p Text relocatable against \p B, as a JSON string.
std::string jsonText(llvm::StringRef Text, const PathBases &B) {
  std::string S = relocatable(Text, B);
  return llvm::json::isUTF8(S) ? S : llvm::json::fixUTF8(S);
}

llvm::json::Array stringArray(const std::vector<std::string> &Strings,
                              const PathBases &B) {
  llvm::json::Array A;
  for (const std::string &S : Strings)
    A.push_back(jsonText(S, B));
  return A;
}

/// \p C as JSON, its paths relative to \p B.
std::string encodeCommand(const TestCommand &C, const PathBases &B) {
  llvm::json::Object O{{"executable", jsonText(C.Executable, B)},
                       {"directory", jsonText(C.WorkingDir, B)},
                       {"arguments", stringArray(C.Arguments, B)},
                       {"environment", stringArray(C.Environment, B)},
                       {"timeout", C.TimeoutSeconds}};
  // A ctest test's name is no path: it is kept as it is.
  if (!C.EnclosingCTest.empty())
    O["ctest"] = llvm::json::fixUTF8(C.EnclosingCTest);
  // Repository-relative, as a test's file is: no base to relocate.
  if (!C.EnclosingCTestFolders.empty()) {
    llvm::json::Array Folders;
    for (const std::string &F : C.EnclosingCTestFolders)
      Folders.push_back(llvm::json::fixUTF8(F));
    O["ctest_folders"] = std::move(Folders);
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(O));
  return OS.str();
}

/// The command stored as \p Text, its paths resolved against \p B.
llvm::Expected<TestCommand> decodeCommand(const Database &DB,
                                          llvm::StringRef Test,
                                          llvm::StringRef Text,
                                          const PathBases &B) {
  auto Bad = [&](const llvm::Twine &Why) {
    return schema::notTiaDatabase(DB, "the command of test " + Test +
                                          " is malformed: " + Why);
  };
  auto V = llvm::json::parse(Text);
  if (!V)
    return Bad(llvm::toString(V.takeError()));
  const llvm::json::Object *O = V->getAsObject();
  if (!O)
    return Bad("not an object");
  TestCommand C;
  if (auto S = O->getString("executable"))
    C.Executable = resolved(*S, B);
  if (auto S = O->getString("directory"))
    C.WorkingDir = resolved(*S, B);
  if (auto T = O->getNumber("timeout"))
    C.TimeoutSeconds = *T;
  if (auto S = O->getString("ctest"))
    C.EnclosingCTest = S->str();
  if (const llvm::json::Array *A = O->getArray("ctest_folders"))
    for (const llvm::json::Value &F : *A)
      if (std::optional<llvm::StringRef> S = F.getAsString())
        C.EnclosingCTestFolders.push_back(S->str());
  for (auto [Field, Out] :
       {std::pair<llvm::StringRef, std::vector<std::string> *>{"arguments",
                                                               &C.Arguments},
        {"environment", &C.Environment}}) {
    const llvm::json::Array *A = O->getArray(Field);
    if (!A)
      return Bad(Field + " is not an array");
    for (const llvm::json::Value &E : *A) {
      std::optional<llvm::StringRef> S = E.getAsString();
      if (!S)
        return Bad("an element of " + Field + " is not a string");
      Out->push_back(resolved(*S, B));
    }
  }
  return C;
}

/// Reads the columns "name, source_file, source_line, command" of \p S,
/// resolving the command's paths against \p B.
llvm::Expected<TestInfo> readTestInfo(const Database &DB, const Statement &S,
                                      const PathBases &B) {
  TestInfo T;
  T.Id = S.columnText(0);
  T.File = S.columnText(1);
  T.Line = static_cast<unsigned>(S.columnInt64(2));
  if (!S.columnIsNull(3)) {
    auto C = decodeCommand(DB, T.Id, S.columnText(3), B);
    if (!C)
      return C.takeError();
    T.Command = std::move(*C);
  }
  return T;
}

/// Reads the columns "name, attempt, outcome, duration, message" of \p S.
llvm::Expected<TestResult> readResult(const Database &DB, const Statement &S) {
  TestResult R;
  R.TestId = S.columnText(0);
  R.Attempt = static_cast<unsigned>(S.columnInt64(1));
  std::string Name = S.columnText(2);
  std::optional<Outcome> O = parseOutcome(Name);
  if (!O)
    return schema::notTiaDatabase(DB, "a result of test " + R.TestId +
                                          " has the unknown outcome '" + Name +
                                          "'");
  R.Result = *O;
  R.Seconds = S.columnDouble(3);
  R.Message = S.columnText(4);
  return R;
}

/// Runs \p S, whose rows are results (see readResult), and collects them.
llvm::Expected<std::vector<TestResult>> collectResults(const Database &DB,
                                                       Statement &S) {
  std::vector<TestResult> Out;
  if (llvm::Error E = S.forEachRow([&]() -> llvm::Error {
        auto R = readResult(DB, S);
        if (!R)
          return R.takeError();
        Out.push_back(std::move(*R));
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

} // namespace

//===----------------------------------------------------------------------===//
// Tests and coverage
//===----------------------------------------------------------------------===//

llvm::Error Store::addTest(llvm::StringRef Id) {
  auto S = DB->statement(
      "INSERT INTO tests(name) VALUES(?) ON CONFLICT(name) DO NOTHING");
  if (!S)
    return S.takeError();
  S->bindText(0, Id);
  return S->run();
}

llvm::Error Store::putCoverage(llvm::StringRef Id, llvm::StringRef Commit,
                               const std::vector<std::string> &Keys) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    std::vector<int64_t> KeyIds;
    KeyIds.reserve(Keys.size());
    for (const std::string &Key : Keys) {
      auto KeyId = Coverage->keyId(*DB, Key);
      if (!KeyId)
        return KeyId.takeError();
      KeyIds.push_back(*KeyId);
    }
    return putCoverageIds(Id, Commit, std::move(KeyIds));
  });
}

llvm::Error Store::putCoverageIds(llvm::StringRef Id, llvm::StringRef Commit,
                                  std::vector<int64_t> New) {
  auto Test = testId(*DB, Id);
  if (!Test)
    return Test.takeError();
  // Read once: the snapshots keep it, the bitmaps change by it.
  auto Old = store::coveredKeyIds(*DB, *Test, Id);
  if (!Old)
    return Old.takeError();
  auto Snapshot = store::beforeCoverageReplaced(*DB, *Test, Commit, *Old);
  if (!Snapshot)
    return Snapshot.takeError();
  auto Update =
      DB->statement("UPDATE tests SET coverage_commit = ? WHERE id = ?");
  if (!Update)
    return Update.takeError();
  Update->bindText(0, Commit);
  Update->bindInt64(1, *Test);
  if (llvm::Error E = Update->run())
    return E;

  llvm::sort(New);
  New.erase(std::unique(New.begin(), New.end()), New.end());
  // Only the keys whose tests change have their bitmaps rewritten.
  std::vector<int64_t> Gone, Added;
  std::set_difference(Old->begin(), Old->end(), New.begin(), New.end(),
                      std::back_inserter(Gone));
  std::set_difference(New.begin(), New.end(), Old->begin(), Old->end(),
                      std::back_inserter(Added));
  for (int64_t Key : Gone)
    if (llvm::Error E = Coverage->remove(Key, *Test))
      return E;
  for (int64_t Key : Added)
    if (llvm::Error E = Coverage->add(Key, *Test))
      return E;
  if (llvm::Error E = store::writeCoveredKeyIds(*DB, *Test, New))
    return E;
  if (llvm::Error E =
          store::afterCoverageReplaced(*DB, *Snapshot, *Test, Commit))
    return E;
  // After the test's own list is written: a damaged block met by the
  // flush is made again from the lists.
  return Coverage->flushIfLarge(*DB);
}

llvm::Expected<std::vector<TestRecord>> Store::tests() {
  auto Shared = sharedTests();
  if (!Shared)
    return Shared.takeError();
  return **Shared;
}

llvm::Expected<std::shared_ptr<const std::vector<TestRecord>>>
Store::sharedTests() {
  auto Stamp = DB->changeStamp();
  if (!Stamp)
    return Stamp.takeError();
  if (TestsRead.Stamp == *Stamp)
    return TestsRead.Value;
  auto S = DB->statement("SELECT t.name, t.coverage_commit, "
                         "coalesce((SELECT covered FROM test_coverage c "
                         "INDEXED BY test_coverage_counts "
                         "WHERE c.test_id = t.id), 0) "
                         "FROM tests t ORDER BY t.name");
  if (!S)
    return S.takeError();
  std::vector<TestRecord> Tests;
  if (llvm::Error E = S->forEachRow([&] {
        TestRecord T;
        T.Id = S->columnText(0);
        T.CoverageCommit = S->columnText(1);
        T.CoveredElements = static_cast<unsigned>(S->columnInt64(2));
        Tests.push_back(std::move(T));
      }))
    return E;
  TestsRead = {*Stamp, std::make_shared<const std::vector<TestRecord>>(
                           std::move(Tests))};
  return TestsRead.Value;
}

llvm::Expected<std::vector<std::string>>
Store::testsCovering(llvm::StringRef Key) {
  auto Ids = Coverage->testsCoveringKey(*DB, Key);
  if (!Ids)
    return Ids.takeError();
  return store::testNames(*DB, *Ids);
}

llvm::Expected<std::vector<std::string>> Store::coverageOf(llvm::StringRef Id) {
  auto Test = store::findTestId(*DB, Id);
  if (!Test)
    return Test.takeError();
  if (!*Test)
    return std::vector<std::string>();
  auto Keys = store::coveredKeyIds(*DB, **Test, Id);
  if (!Keys)
    return Keys.takeError();
  return store::keyNames(*DB, *Keys);
}

llvm::Expected<CoverageDamage> Store::coverageDamage() {
  CoverageDamage Out;
  if (!Coverage->damagedKeys().empty()) {
    auto Names = store::keyNames(
        *DB, std::vector<int64_t>(Coverage->damagedKeys().begin(),
                                  Coverage->damagedKeys().end()));
    if (!Names)
      return Names.takeError();
    Out.Keys = std::move(*Names);
  }
  auto Tests = store::testNames(*DB, Coverage->unreadableTests());
  if (!Tests)
    return Tests.takeError();
  Out.UnreadableTests = std::move(*Tests);
  return Out;
}

llvm::Expected<CoverageRepair> Store::repairCoverage() {
  CoverageRepair Out;
  if (llvm::Error E = inTransaction(*DB, [&]() -> llvm::Error {
        if (llvm::Error E = Coverage->flush(*DB))
          return E;
        auto R = store::repairCoverageIndex(*DB);
        if (!R)
          return R.takeError();
        Out = std::move(*R);
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

//===----------------------------------------------------------------------===//
// Test info
//===----------------------------------------------------------------------===//

llvm::Error Store::putTestInfo(const TestInfo &T) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Id = testId(*DB, T.Id);
    if (!Id)
      return Id.takeError();
    auto S = DB->statement("UPDATE tests SET source_file = ?, source_line = "
                           "?, command = ? WHERE id = ?");
    if (!S)
      return S.takeError();
    S->bindText(0, T.File);
    S->bindInt64(1, T.Line);
    if (T.Command)
      S->bindText(2, encodeCommand(*T.Command, Bases));
    else
      S->bindNull(2);
    S->bindInt64(3, *Id);
    return S->run();
  });
}

llvm::Expected<std::optional<TestInfo>> Store::testInfo(llvm::StringRef Id) {
  auto S = DB->statement("SELECT name, source_file, source_line, command "
                         "FROM tests WHERE name = ?");
  if (!S)
    return S.takeError();
  S->bindText(0, Id);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  auto T = readTestInfo(*DB, *S, Bases);
  if (!T)
    return T.takeError();
  return std::move(*T);
}

llvm::Expected<std::vector<TestInfo>> Store::testInfos() {
  auto Stamp = DB->changeStamp();
  if (!Stamp)
    return Stamp.takeError();
  if (InfosRead.Stamp == *Stamp)
    return InfosRead.Value;
  auto S = DB->statement("SELECT name, source_file, source_line, command "
                         "FROM tests ORDER BY name");
  if (!S)
    return S.takeError();
  std::vector<TestInfo> Out;
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        auto T = readTestInfo(*DB, *S, Bases);
        if (!T)
          return T.takeError();
        Out.push_back(std::move(*T));
        return llvm::Error::success();
      }))
    return E;
  InfosRead = {*Stamp, Out};
  return Out;
}

llvm::Expected<std::vector<std::pair<std::string, TestDefinition>>>
Store::currentTestDefinitions() {
  auto S = DB->statement(
      "SELECT fv.path, d.framework, d.name, d.begin_line, d.end_line "
      "FROM revision_files rf "
      "JOIN file_versions fv ON fv.path = rf.path "
      "AND fv.content_hash = rf.content_hash "
      "JOIN test_definitions d ON d.file_version_id = fv.id "
      "WHERE rf.revision_id = (SELECT max(id) FROM revisions) "
      "ORDER BY fv.path, d.begin_line, d.framework, d.name");
  if (!S)
    return S.takeError();
  std::vector<std::pair<std::string, TestDefinition>> Out;
  if (llvm::Error E = S->forEachRow([&] {
        Out.emplace_back(
            S->columnText(0),
            TestDefinition{S->columnText(1), S->columnText(2),
                           static_cast<unsigned>(S->columnInt64(3)),
                           static_cast<unsigned>(S->columnInt64(4))});
      }))
    return E;
  return Out;
}

llvm::Error Store::removeTest(llvm::StringRef Id) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Test = store::findTestId(*DB, Id);
    if (!Test)
      return Test.takeError();
    if (!*Test)
      return llvm::Error::success();
    auto Keys = store::coveredKeyIds(*DB, **Test, Id);
    if (!Keys)
      return Keys.takeError();
    for (int64_t Key : *Keys)
      if (llvm::Error E = Coverage->remove(Key, **Test))
        return E;
    // test_coverage, results and snapshot rows go with the test.
    auto S = DB->statement("DELETE FROM tests WHERE id = ?");
    if (!S)
      return S.takeError();
    S->bindInt64(0, **Test);
    return S->run();
  });
}

//===----------------------------------------------------------------------===//
// Runs and results
//===----------------------------------------------------------------------===//

llvm::Expected<int64_t> Store::addRun(llvm::StringRef Commit,
                                      llvm::StringRef Source,
                                      int64_t StartedAt) {
  auto S = DB->statement(
      "INSERT INTO runs(commit_id, started_at, source) VALUES(?, ?, ?)");
  if (!S)
    return S.takeError();
  S->bindText(0, Commit);
  S->bindInt64(1, StartedAt ? StartedAt
                            : static_cast<int64_t>(std::time(nullptr)));
  S->bindText(2, Source);
  if (llvm::Error E = S->run())
    return E;
  return DB->lastInsertRowId();
}

llvm::Error Store::putResults(int64_t RunId,
                              const std::vector<TestResult> &Results) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto S = DB->statement(
        "INSERT INTO results(run_id, test_id, attempt, outcome, duration, "
        "message) VALUES(?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(run_id, test_id, attempt) DO UPDATE SET "
        "outcome = excluded.outcome, duration = excluded.duration, "
        "message = excluded.message");
    if (!S)
      return S.takeError();
    for (const TestResult &R : Results) {
      auto Id = testId(*DB, R.TestId);
      if (!Id)
        return Id.takeError();
      S->reset();
      S->bindInt64(0, RunId);
      S->bindInt64(1, *Id);
      S->bindInt64(2, R.Attempt);
      S->bindText(3, outcomeName(R.Result));
      S->bindDouble(4, R.Seconds);
      S->bindText(5, R.Message);
      if (llvm::Error E = S->run())
        return E;
    }
    return llvm::Error::success();
  });
}

llvm::Expected<int64_t> Store::newestRunTime() {
  auto S = DB->statement("SELECT coalesce(max(started_at), 0) FROM runs");
  if (!S)
    return S.takeError();
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  return *Row ? S->columnInt64(0) : 0;
}

llvm::Expected<std::vector<RunRecord>> Store::runs() {
  auto S = DB->statement(
      "SELECT id, commit_id, started_at, source FROM runs ORDER BY id");
  if (!S)
    return S.takeError();
  std::vector<RunRecord> Out;
  if (llvm::Error E = S->forEachRow([&] {
        Out.push_back({S->columnInt64(0), S->columnText(1), S->columnInt64(2),
                       S->columnText(3)});
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<TestResult>> Store::resultsOfRun(int64_t RunId) {
  auto S = DB->statement("SELECT t.name, r.attempt, r.outcome, r.duration, "
                         "r.message FROM results r "
                         "JOIN tests t ON t.id = r.test_id WHERE r.run_id = ? "
                         "ORDER BY t.name, r.attempt");
  if (!S)
    return S.takeError();
  S->bindInt64(0, RunId);
  return collectResults(*DB, *S);
}

llvm::Expected<std::vector<TestResult>> Store::latestResults() {
  // Per test, the row with the greatest (run_id, attempt).
  auto S = DB->statement(
      "SELECT t.name, r.attempt, r.outcome, r.duration, r.message "
      "FROM results r JOIN tests t ON t.id = r.test_id "
      "WHERE NOT EXISTS (SELECT 1 FROM results n WHERE n.test_id = r.test_id "
      "AND (n.run_id > r.run_id OR (n.run_id = r.run_id AND "
      "n.attempt > r.attempt))) ORDER BY t.name");
  if (!S)
    return S.takeError();
  return collectResults(*DB, *S);
}

llvm::Expected<std::vector<std::pair<int64_t, TestResult>>>
Store::resultHistory(llvm::StringRef Id) {
  auto S = DB->statement("SELECT t.name, r.attempt, r.outcome, r.duration, "
                         "r.message, r.run_id FROM results r "
                         "JOIN tests t ON t.id = r.test_id WHERE t.name = ? "
                         "ORDER BY r.run_id, r.attempt");
  if (!S)
    return S.takeError();
  S->bindText(0, Id);
  std::vector<std::pair<int64_t, TestResult>> Out;
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        auto R = readResult(*DB, *S);
        if (!R)
          return R.takeError();
        Out.emplace_back(S->columnInt64(5), std::move(*R));
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

} // namespace tia
