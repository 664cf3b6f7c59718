//===- MigrateBench.cpp - memory of the schema 7 -> 8 coverage migration --===//
//
// Upgrading a database to schema 8 turns its (test_id, key_id) coverage rows
// into per-key bitmaps. This program makes a schema-7 database of TESTS
// tests covering KEYS keys each (drawn from 100,000), then, in a fresh
// process, opens it with tia's Store (which migrates it) and reports the
// time and the peak resident memory of each step, so that the migration's
// memory can be read against the generation's in the same run.
//
//   tia-bench-migrate make DB_FILE TESTS KEYS
//   tia-bench-migrate open DB_FILE
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "Schema.h"
#include "tia/Store/Store.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <sys/resource.h>

using namespace tia;

namespace {

double seconds(std::chrono::steady_clock::time_point Since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Since)
      .count();
}

/// Peak resident memory of this process so far, in MiB.
double peakMiB() {
  struct rusage U;
  getrusage(RUSAGE_SELF, &U);
  return U.ru_maxrss / 1024.0;
}

int fail(llvm::Error E) {
  llvm::errs() << "tia-bench-migrate: " << llvm::toString(std::move(E)) << "\n";
  return 1;
}

int make(llvm::StringRef Path, int Tests, int Keys) {
  auto Start = std::chrono::steady_clock::now();
  auto DB = Database::open(Path, Database::OpenMode::ReadWrite);
  if (!DB)
    return fail(DB.takeError());
  if (llvm::Error E = schema::migrate(**DB, schema::migrations().take_front(7)))
    return fail(std::move(E));
  if (llvm::Error E = (*DB)->exec("BEGIN"))
    return fail(std::move(E));
  const int AllKeys = 100000;
  for (int K = 1; K <= AllKeys; ++K) {
    auto S = (*DB)->statement("INSERT INTO element_keys(id, key) VALUES(?, ?)");
    if (!S)
      return fail(S.takeError());
    S->bindInt64(0, K);
    S->bindText(1, "key" + std::to_string(K));
    if (llvm::Error E = S->run())
      return fail(std::move(E));
  }
  std::mt19937 Random(42);
  std::uniform_int_distribution<int> Key(1, AllKeys);
  for (int T = 1; T <= Tests; ++T) {
    auto Add = (*DB)->statement(
        "INSERT INTO tests(id, name, coverage_commit) VALUES(?, ?, 'c1')");
    if (!Add)
      return fail(Add.takeError());
    Add->bindInt64(0, T);
    Add->bindText(1, "test" + std::to_string(T));
    if (llvm::Error E = Add->run())
      return fail(std::move(E));
    std::set<int> Covered;
    while (static_cast<int>(Covered.size()) < Keys)
      Covered.insert(Key(Random));
    for (int K : Covered) {
      auto Row = (*DB)->statement(
          "INSERT INTO coverage(test_id, key_id) VALUES(?, ?)");
      if (!Row)
        return fail(Row.takeError());
      Row->bindInt64(0, T);
      Row->bindInt64(1, K);
      if (llvm::Error E = Row->run())
        return fail(std::move(E));
    }
  }
  if (llvm::Error E = (*DB)->exec("COMMIT"))
    return fail(std::move(E));
  llvm::outs() << llvm::formatv("made: {0} links, {1:F1} s, peak {2:F1} MiB\n",
                                int64_t(Tests) * Keys, seconds(Start),
                                peakMiB());
  return 0;
}

int open(llvm::StringRef Path) {
  double Before = peakMiB();
  auto Start = std::chrono::steady_clock::now();
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  if (!S)
    return fail(S.takeError());
  llvm::outs() << llvm::formatv(
      "migrated: schema {0}, {1:F1} s, peak {2:F1} MiB (before: {3:F1} MiB)\n",
      (*S)->schemaVersion(), seconds(Start), peakMiB(), Before);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc == 5 && llvm::StringRef(Argv[1]) == "make")
    return make(Argv[2], std::atoi(Argv[3]), std::atoi(Argv[4]));
  if (Argc == 3 && llvm::StringRef(Argv[1]) == "open")
    return open(Argv[2]);
  llvm::errs() << "usage: tia-bench-migrate make DB_FILE TESTS KEYS\n"
                  "       tia-bench-migrate open DB_FILE\n";
  return 2;
}
