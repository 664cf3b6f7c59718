//===- NameStore.cpp - what name-based static selection keeps -------------===//
//
// The part of the Store about static selection for Python beyond the file
// versions: the critical names and the runtime evidence of test runs. The
// name graph itself is stored per file version (PythonStore.cpp).
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include <ctime>
#include <map>

namespace tia {

using store::inTransaction;

llvm::Error Store::putCriticalNames(
    const std::vector<std::pair<std::string, uint64_t>> &Names) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    if (llvm::Error E = DB->exec("DELETE FROM python_critical"))
      return E;
    auto S = DB->statement("INSERT INTO python_critical(name, rank, "
                           "expansion) VALUES(?, ?, ?) ON CONFLICT DO NOTHING");
    if (!S)
      return S.takeError();
    for (size_t I = 0; I < Names.size(); ++I) {
      S->reset();
      S->bindText(0, Names[I].first);
      S->bindInt64(1, static_cast<int64_t>(I));
      S->bindInt64(2, static_cast<int64_t>(Names[I].second));
      if (llvm::Error E = S->run())
        return E;
    }
    return llvm::Error::success();
  });
}

llvm::Expected<std::vector<std::pair<std::string, uint64_t>>>
Store::criticalNames() {
  auto S = DB->statement("SELECT name, expansion FROM python_critical "
                         "ORDER BY rank, name");
  if (!S)
    return S.takeError();
  std::vector<std::pair<std::string, uint64_t>> Out;
  if (llvm::Error E = S->forEachRow([&] {
        Out.emplace_back(S->columnText(0),
                         static_cast<uint64_t>(S->columnInt64(1)));
      }))
    return E;
  return Out;
}

llvm::Error Store::putRuntimeEvidence(const RuntimeEvidence &R) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Run = DB->statement("INSERT INTO python_evidence_runs(commit_id, "
                             "isolated, created_at) VALUES(?, ?, ?)");
    if (!Run)
      return Run.takeError();
    Run->bindText(0, R.Commit);
    Run->bindBool(1, R.Isolated);
    Run->bindInt64(2, static_cast<int64_t>(std::time(nullptr)));
    if (llvm::Error E = Run->run())
      return E;
    int64_t Id = DB->lastInsertRowId();

    auto Probed = DB->statement("INSERT INTO python_probed(run_id, key) "
                                "VALUES(?, ?) ON CONFLICT DO NOTHING");
    if (!Probed)
      return Probed.takeError();
    for (const std::string &Key : R.Probed) {
      Probed->reset();
      Probed->bindInt64(0, Id);
      Probed->bindText(1, Key);
      if (llvm::Error E = Probed->run())
        return E;
    }
    auto Access = DB->statement("INSERT INTO python_accesses(run_id, scope, "
                                "kind, value) VALUES(?, ?, ?, ?) "
                                "ON CONFLICT DO NOTHING");
    if (!Access)
      return Access.takeError();
    for (const RuntimeEvidence::Access &A : R.Accesses) {
      Access->reset();
      Access->bindInt64(0, Id);
      Access->bindText(1, A.Scope);
      Access->bindText(2, A.Kind);
      Access->bindText(3, A.Value);
      if (llvm::Error E = Access->run())
        return E;
    }
    auto File = DB->statement(
        "INSERT INTO python_evidence_files(test_file, run_id) VALUES(?, ?) "
        "ON CONFLICT(test_file) DO UPDATE SET run_id = excluded.run_id");
    if (!File)
      return File.takeError();
    for (const std::string &F : R.TestFiles) {
      File->reset();
      File->bindText(0, F);
      File->bindInt64(1, Id);
      if (llvm::Error E = File->run())
        return E;
    }
    return DB->exec("DELETE FROM python_evidence_runs WHERE id NOT IN "
                    "(SELECT run_id FROM python_evidence_files)");
  });
}

llvm::Expected<std::vector<RuntimeEvidence>> Store::runtimeEvidence() {
  std::vector<RuntimeEvidence> Out;
  std::map<int64_t, size_t> IndexOf;
  auto Runs = DB->statement("SELECT id, commit_id, isolated FROM "
                            "python_evidence_runs WHERE id IN (SELECT run_id "
                            "FROM python_evidence_files) ORDER BY id");
  if (!Runs)
    return Runs.takeError();
  if (llvm::Error E = Runs->forEachRow([&] {
        RuntimeEvidence R;
        R.Id = Runs->columnInt64(0);
        R.Commit = Runs->columnText(1);
        R.Isolated = Runs->columnBool(2);
        IndexOf[R.Id] = Out.size();
        Out.push_back(std::move(R));
      }))
    return E;
  auto Files = DB->statement("SELECT run_id, test_file FROM "
                             "python_evidence_files ORDER BY test_file");
  if (!Files)
    return Files.takeError();
  if (llvm::Error E = Files->forEachRow([&] {
        auto It = IndexOf.find(Files->columnInt64(0));
        if (It != IndexOf.end())
          Out[It->second].TestFiles.push_back(Files->columnText(1));
      }))
    return E;
  auto Probed = DB->statement("SELECT run_id, key FROM python_probed "
                              "ORDER BY run_id, key");
  if (!Probed)
    return Probed.takeError();
  if (llvm::Error E = Probed->forEachRow([&] {
        auto It = IndexOf.find(Probed->columnInt64(0));
        if (It != IndexOf.end())
          Out[It->second].Probed.push_back(Probed->columnText(1));
      }))
    return E;
  auto Access = DB->statement("SELECT run_id, scope, kind, value FROM "
                              "python_accesses ORDER BY run_id, scope, kind, "
                              "value");
  if (!Access)
    return Access.takeError();
  if (llvm::Error E = Access->forEachRow([&] {
        auto It = IndexOf.find(Access->columnInt64(0));
        if (It != IndexOf.end())
          Out[It->second].Accesses.push_back({Access->columnText(1),
                                              Access->columnText(2),
                                              Access->columnText(3)});
      }))
    return E;
  return Out;
}

} // namespace tia
