//===- FileReadStore.cpp - the files each test read -----------------------===//
//
// `tia collect` traces the files each test opens and the directories it
// lists; selection goes from a changed data file to the tests that read it.
// Paths are interned in data_paths so that a read is two integers, as the
// coverage map holds element key ids.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/STLExtras.h"

namespace tia {

using store::collectText;
using store::inTransaction;
using store::queryOptionalInt;
using store::testId;

namespace {

/// The id of data path \p Path, interning it when new.
llvm::Expected<int64_t> pathId(Database &DB, llvm::StringRef Path) {
  auto Find = DB.statement("SELECT id FROM data_paths WHERE path = ?");
  if (!Find)
    return Find.takeError();
  Find->bindText(0, Path);
  auto Id = queryOptionalInt(*Find);
  if (!Id)
    return Id.takeError();
  if (*Id)
    return **Id;
  auto Insert = DB.statement("INSERT INTO data_paths(path) VALUES(?)");
  if (!Insert)
    return Insert.takeError();
  Insert->bindText(0, Path);
  if (llvm::Error E = Insert->run())
    return E;
  return DB.lastInsertRowId();
}

/// test_reads.listed: how the test met a path.
enum ReadKind : int64_t { ReadFile = 0, ListedDirectory = 1, RunnerListed = 2 };

llvm::Error insertReads(Database &DB, int64_t Test,
                        const std::vector<std::string> &Paths, ReadKind Kind) {
  for (const std::string &Path : Paths) {
    auto Id = pathId(DB, Path);
    if (!Id)
      return Id.takeError();
    auto S = DB.statement("INSERT OR IGNORE INTO test_reads(test_id, path_id, "
                          "listed) VALUES(?, ?, ?)");
    if (!S)
      return S.takeError();
    S->bindInt64(0, Test);
    S->bindInt64(1, *Id);
    S->bindInt64(2, Kind);
    if (llvm::Error E = S->run())
      return E;
  }
  return llvm::Error::success();
}

/// A record is trusted when it is complete and was taken together with the
/// test's current coverage.
constexpr const char *Trusted =
    "r.complete = 1 AND r.commit_id = t.coverage_commit";

} // namespace

llvm::Error Store::putFileReads(const FileReads &R) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Test = testId(*DB, R.TestId);
    if (!Test)
      return Test.takeError();
    // The reads go with the old record (ON DELETE CASCADE).
    auto Drop =
        DB->statement("DELETE FROM test_file_records WHERE test_id = ?");
    if (!Drop)
      return Drop.takeError();
    Drop->bindInt64(0, *Test);
    if (llvm::Error E = Drop->run())
      return E;
    auto Add = DB->statement("INSERT INTO test_file_records(test_id, "
                             "commit_id, complete) VALUES(?, ?, ?)");
    if (!Add)
      return Add.takeError();
    Add->bindInt64(0, *Test);
    Add->bindText(1, R.Commit);
    Add->bindBool(2, R.Complete);
    if (llvm::Error E = Add->run())
      return E;
    if (llvm::Error E = insertReads(*DB, *Test, R.Files, ReadFile))
      return E;
    if (llvm::Error E = insertReads(*DB, *Test, R.Directories, ListedDirectory))
      return E;
    return insertReads(*DB, *Test, R.RunnerDirectories, RunnerListed);
  });
}

llvm::Expected<std::vector<FileReads>> Store::fileReads() {
  auto S =
      DB->statement("SELECT t.name, r.commit_id, r.complete, p.path, x.listed "
                    "FROM test_file_records r JOIN tests t ON t.id = r.test_id "
                    "LEFT JOIN test_reads x ON x.test_id = r.test_id "
                    "LEFT JOIN data_paths p ON p.id = x.path_id "
                    "ORDER BY t.name, x.listed, p.path");
  if (!S)
    return S.takeError();
  std::vector<FileReads> Out;
  if (llvm::Error E = S->forEachRow([&] {
        std::string Test = S->columnText(0);
        if (Out.empty() || Out.back().TestId != Test) {
          FileReads R;
          R.TestId = Test;
          R.Commit = S->columnText(1);
          R.Complete = S->columnBool(2);
          Out.push_back(std::move(R));
        }
        if (S->columnIsNull(3))
          return;
        int64_t Kind = S->columnInt64(4);
        (Kind == RunnerListed      ? Out.back().RunnerDirectories
         : Kind == ListedDirectory ? Out.back().Directories
                                   : Out.back().Files)
            .push_back(S->columnText(3));
      }))
    return E;
  return Out;
}

namespace {

llvm::Expected<std::vector<std::string>>
testsWith(Database &DB, llvm::StringRef Path, ReadKind Kind) {
  auto S = DB.statement(
      std::string("SELECT t.name FROM data_paths p "
                  "JOIN test_reads x ON x.path_id = p.id AND x.listed = ? "
                  "JOIN test_file_records r ON r.test_id = x.test_id "
                  "JOIN tests t ON t.id = r.test_id "
                  "WHERE p.path = ? AND ") +
      Trusted + " ORDER BY t.name");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Kind);
  S->bindText(1, Path);
  return collectText(*S);
}

} // namespace

llvm::Expected<std::vector<std::string>>
Store::testsFindingTestsIn(llvm::StringRef Path) {
  return testsWith(*DB, Path, RunnerListed);
}

llvm::Expected<std::vector<std::string>>
Store::testsReading(llvm::StringRef Path, bool Listed) {
  return testsWith(*DB, Path, Listed ? ListedDirectory : ReadFile);
}

llvm::Expected<std::vector<std::string>> Store::testsWithoutTrustedReads() {
  auto S =
      DB->statement(std::string("SELECT t.name FROM tests t WHERE NOT EXISTS ("
                                "SELECT 1 FROM test_file_records r "
                                "WHERE r.test_id = t.id AND ") +
                    Trusted + ") ORDER BY t.name");
  if (!S)
    return S.takeError();
  return collectText(*S);
}

llvm::Expected<bool> Store::hasTrustedReads() {
  auto S =
      DB->statement(std::string("SELECT 1 FROM test_file_records r "
                                "JOIN tests t ON t.id = r.test_id WHERE ") +
                    Trusted + " LIMIT 1");
  if (!S)
    return S.takeError();
  auto Row = queryOptionalInt(*S);
  if (!Row)
    return Row.takeError();
  return Row->has_value();
}

} // namespace tia
