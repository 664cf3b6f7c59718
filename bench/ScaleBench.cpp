//===- ScaleBench.cpp - the coverage map at the design's scale ------------===//
//
// Generates per-test coverage for TESTS tests over FUNCTIONS functions with
// a realistic density (each test covers 0.5-5% of the functions, most of
// them few: the fraction is 0.5% + 4.5% * u^3; half of a test's functions,
// up to 600, come from its own module of 1,000 functions, the rest from the
// whole program with a skew towards a shared core), then:
//
//  - imports it into a tia store with Store::putCoverage, BATCH tests per
//    transaction (one `tia collect` or `tia coverage import` each), and
//    reports the time and the database size;
//  - unless --no-baseline, writes the same links into the obvious table of
//    (test_id, key_id) rows with an index by key (what tia stored up to
//    schema 7), with plain prepared INSERTs: the baseline of the same run;
//  - times the selection query of a one-function change (the tests covering
//    one element, latest coverage and through the snapshot) with Google
//    Benchmark, on the store and on the baseline.
//
//   tia-bench-scale DIR TESTS FUNCTIONS [--batch N] [--no-baseline]
//                   [--no-store] [--shard K/N] [--import-only]
//                   [benchmark flags]
//   tia-bench-scale --into DB TESTS [--batch N] [--commit SHA] [--shard K/N]
//
// With --shard K/N, only share K of the tests is imported, as `tia collect
// --shard K/N` would (with a run of their results and the shard record),
// so that `tia merge` can merge the shares (utils/bench/bench-merge.sh).
// --import-only stops after the import.
//
// With --into, the coverage is imported into the existing tia database DB
// over its indexed functions (FUNCTIONS is their number), collected at
// commit SHA (default c1), and nothing else
// is done: utils/bench/bench-select-scale.sh then times `tia select` on it.
//
// Prints "name: value" lines for utils/bench/bench.sh to read.
//
//===----------------------------------------------------------------------===//

#include "tia/Store/Store.h"
#include "tia/Support/Shard.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <sqlite3.h>
#include <sys/resource.h>

using namespace tia;

namespace {

/// CPU seconds this process used (user and system): on a shared machine
/// the figure that does not move with the other processes' load.
double cpuSeconds() {
  struct rusage U;
  getrusage(RUSAGE_SELF, &U);
  return U.ru_utime.tv_sec + U.ru_utime.tv_usec / 1e6 + U.ru_stime.tv_sec +
         U.ru_stime.tv_usec / 1e6;
}

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

[[noreturn]] void fail(const std::string &Message) {
  llvm::errs() << "tia-bench-scale: " << Message << "\n";
  std::exit(1);
}

void check(llvm::Error E) {
  if (E)
    fail(llvm::toString(std::move(E)));
}

uint64_t fileSize(const std::string &Path) {
  uint64_t Size = 0, Wal = 0;
  llvm::sys::fs::file_size(Path, Size);
  llvm::sys::fs::file_size(Path + "-wal", Wal);
  return Size + Wal;
}

void sqliteCheck(sqlite3 *DB, int RC, const char *What);

/// The size of database \p Path once its write-ahead log is copied into it
/// (what it takes at rest), through a connection of its own.
uint64_t checkpointedSize(const std::string &Path) {
  sqlite3 *DB = nullptr;
  if (sqlite3_open(Path.c_str(), &DB) == SQLITE_OK)
    sqlite3_exec(DB, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr,
                 nullptr);
  sqlite3_close(DB);
  return fileSize(Path);
}

/// The functions test \p T covers, as indexes into [0, Functions).
std::vector<uint32_t> coverageOf(unsigned T, unsigned Functions) {
  std::mt19937_64 Random(0x9e3779b9ULL * (T + 1));
  std::uniform_real_distribution<double> U(0, 1);
  double Fraction = 0.005 + 0.045 * std::pow(U(Random), 3);
  unsigned Count = std::max(1u, static_cast<unsigned>(Fraction * Functions));
  const unsigned Module = 1000;
  unsigned Modules = std::max(1u, Functions / Module);
  unsigned Base = (T % Modules) * Module;
  unsigned ModuleSize = std::min(Module, Functions - Base);
  std::vector<char> Seen(Functions, 0);
  std::vector<uint32_t> Out;
  Out.reserve(Count);
  unsigned Local = std::min({Count / 2, 600u, ModuleSize});
  while (Out.size() < Local) {
    uint32_t F = Base + static_cast<uint32_t>(U(Random) * ModuleSize);
    if (!Seen[F]++)
      Out.push_back(F);
  }
  while (Out.size() < Count) {
    double V = U(Random);
    uint32_t F = std::min<uint32_t>(Functions - 1, V * V * Functions);
    if (!Seen[F]++)
      Out.push_back(F);
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::string keyName(uint32_t F) {
  return "cpp:c:@N@bench@N@m" + std::to_string(F / 1000) + "@F@f" +
         std::to_string(F) + "#I#";
}

std::string testName(unsigned T) {
  return "gtest:bench_tests:Suite" + std::to_string(T / 100) + ".Test" +
         std::to_string(T);
}

struct Options {
  std::string Dir, Into, Commit = "c1";
  unsigned Tests = 0, Functions = 0, Batch = 1000;
  bool Baseline = true, StoreToo = true, ImportOnly = false;
  std::optional<shard::ShardSpec> Shard;
};

/// --shard: the plan of the tests' names into shares, each test costing
/// the same, as `tia collect --shard` makes it without --balance-from.
shard::ShardPlan testPlan(unsigned Tests, unsigned N) {
  std::vector<shard::WorkUnit> Units;
  for (unsigned T = 0; T < Tests; ++T)
    Units.push_back({testName(T), 1});
  return shard::partition(std::move(Units), N);
}

/// The tests share K of \p Plan holds (all without a plan), in order.
std::vector<unsigned> testsToImport(const Options &O,
                                    const shard::ShardPlan *Plan) {
  std::vector<unsigned> Out;
  std::set<std::string> Mine;
  if (Plan)
    for (const std::string &Name : Plan->unitsOf(O.Shard->K))
      Mine.insert(Name);
  for (unsigned T = 0; T < O.Tests; ++T)
    if (!Plan || Mine.count(testName(T)))
      Out.push_back(T);
  return Out;
}

/// Records share K's run (every test passed) and the shard record.
void recordShare(Store &S, const Options &O, const shard::ShardPlan &Plan,
                 const std::vector<unsigned> &Tests) {
  check(S.transaction([&]() -> llvm::Error {
    auto Run = S.addRun(O.Commit, "collect");
    if (!Run)
      return Run.takeError();
    std::vector<TestResult> Results;
    for (unsigned T : Tests) {
      TestResult R;
      R.TestId = testName(T);
      R.Seconds = 0.1;
      Results.push_back(std::move(R));
    }
    if (llvm::Error E = S.putResults(*Run, Results))
      return E;
    return S.putShardRecord(
        shardRecordOf("collect", Plan, *O.Shard, O.Commit, *Run));
  }));
}

/// Query keys of one-function changes: uniform over the functions.
std::vector<uint32_t> queryFunctions(unsigned Functions) {
  std::mt19937 Random(7);
  std::uniform_int_distribution<uint32_t> F(0, Functions - 1);
  std::vector<uint32_t> Out;
  for (unsigned I = 0; I < 1000; ++I)
    Out.push_back(F(Random));
  return Out;
}

void sqliteCheck(sqlite3 *DB, int RC, const char *What) {
  if (RC != SQLITE_OK && RC != SQLITE_DONE && RC != SQLITE_ROW)
    fail(std::string(What) + ": " + sqlite3_errmsg(DB));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  std::vector<char *> Rest = {Argv[0]};
  std::vector<std::string> Positional;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--batch" && I + 1 < Argc)
      O.Batch = std::atoi(Argv[++I]);
    else if (A == "--commit" && I + 1 < Argc)
      O.Commit = Argv[++I];
    else if (A == "--into" && I + 1 < Argc)
      O.Into = Argv[++I];
    else if (A == "--no-baseline")
      O.Baseline = false;
    else if (A == "--no-store")
      O.StoreToo = false;
    else if (A == "--import-only")
      O.ImportOnly = true;
    else if (A == "--shard" && I + 1 < Argc) {
      auto Spec = shard::parseShard(Argv[++I]);
      if (!Spec)
        fail(llvm::toString(Spec.takeError()));
      O.Shard = *Spec;
    } else if (A.starts_with("--benchmark"))
      Rest.push_back(Argv[I]);
    else
      Positional.push_back(A.str());
  }
  std::vector<std::string> Keys;
  if (!O.Into.empty() && Positional.size() == 1) {
    // The function keys of the indexed project, in a fixed order.
    sqlite3 *DB = nullptr;
    if (sqlite3_open_v2(O.Into.c_str(), &DB, SQLITE_OPEN_READONLY, nullptr) !=
        SQLITE_OK)
      fail("cannot open " + O.Into);
    sqlite3_stmt *S = nullptr;
    sqliteCheck(DB,
                sqlite3_prepare_v2(DB,
                                   "SELECT DISTINCT k.key FROM elements e "
                                   "JOIN element_keys k ON k.id = e.key_id "
                                   "WHERE e.kind = 'function' ORDER BY 1",
                                   -1, &S, nullptr),
                "read the function keys");
    while (sqlite3_step(S) == SQLITE_ROW)
      Keys.emplace_back(
          reinterpret_cast<const char *>(sqlite3_column_text(S, 0)));
    sqlite3_finalize(S);
    sqlite3_close(DB);
    O.Tests = std::atoi(Positional[0].c_str());
    O.Functions = Keys.size();
    O.Baseline = false;
  } else if (O.Into.empty() && Positional.size() == 3) {
    O.Dir = Positional[0];
    O.Tests = std::atoi(Positional[1].c_str());
    O.Functions = std::atoi(Positional[2].c_str());
    for (uint32_t F = 0; F < O.Functions; ++F)
      Keys.push_back(keyName(F));
    llvm::sys::fs::create_directories(O.Dir);
  } else {
    llvm::errs() << "usage: tia-bench-scale DIR TESTS FUNCTIONS [--batch N] "
                    "[--no-baseline] [--no-store] [benchmark flags]\n"
                    "       tia-bench-scale --into DB TESTS [--batch N] "
                    "[--commit SHA]\n";
    return 2;
  }
  if (!O.Tests || !O.Functions || !O.Batch)
    fail("TESTS, FUNCTIONS (or the indexed functions) and --batch must be "
         "positive");
  int RestArgc = static_cast<int>(Rest.size());
  benchmark::Initialize(&RestArgc, Rest.data());

  uint64_t Links = 0;
  auto GenStart = std::chrono::steady_clock::now();
  for (unsigned T = 0; T < O.Tests; ++T)
    Links += coverageOf(T, O.Functions).size();
  double GenSeconds = secondsSince(GenStart);
  llvm::outs() << llvm::formatv("tests: {0}\nfunctions: {1}\nlinks: {2}\n"
                                "links per test: {3:f0}\ngenerate: {4:f2} s\n",
                                O.Tests, O.Functions, Links,
                                double(Links) / O.Tests, GenSeconds);
  llvm::outs().flush();
  std::vector<uint32_t> Queries = queryFunctions(O.Functions);

  // --- tia's store ---
  std::unique_ptr<Store> S;
  int64_t Snapshot = 0;
  if (O.StoreToo) {
    std::string Path = O.Into.empty() ? O.Dir + "/store.db" : O.Into;
    if (O.Into.empty()) {
      llvm::sys::fs::remove(Path);
      llvm::sys::fs::remove(Path + "-wal");
    }
    auto Opened = Store::open(Path, Store::Mode::ReadWrite);
    if (!Opened)
      fail(llvm::toString(Opened.takeError()));
    S = std::move(*Opened);
    std::optional<shard::ShardPlan> Plan;
    if (O.Shard)
      Plan = testPlan(O.Tests, O.Shard->N);
    std::vector<unsigned> Mine = testsToImport(O, Plan ? &*Plan : nullptr);
    auto Start = std::chrono::steady_clock::now();
    double Cpu = cpuSeconds();
    double Gen = 0, GenCpu = 0;
    for (size_t First = 0; First < Mine.size(); First += O.Batch) {
      check(S->transaction([&]() -> llvm::Error {
        for (size_t I = First; I < std::min(Mine.size(), First + O.Batch);
             ++I) {
          unsigned T = Mine[I];
          auto G = std::chrono::steady_clock::now();
          double GC = cpuSeconds();
          std::vector<uint32_t> Cov = coverageOf(T, O.Functions);
          Gen += secondsSince(G);
          GenCpu += cpuSeconds() - GC;
          std::vector<std::string> Names;
          for (uint32_t F : Cov)
            Names.push_back(Keys[F]);
          if (llvm::Error E = S->putCoverage(testName(T), O.Commit, Names))
            return E;
        }
        return llvm::Error::success();
      }));
    }
    if (Plan)
      recordShare(*S, O, *Plan, Mine);
    double Import = secondsSince(Start) - Gen;
    Cpu = cpuSeconds() - Cpu - GenCpu;
    auto Snaps = S->coverageSnapshots();
    if (!Snaps)
      fail(llvm::toString(Snaps.takeError()));
    Snapshot = Snaps->front().Id;
    llvm::outs() << llvm::formatv(
        "store tests: {3}\nstore import: {0:f2} s\nstore import cpu: {1:f2} "
        "s\nstore size: {2} bytes\n",
        Import, Cpu, checkpointedSize(Path), Mine.size());
    llvm::outs().flush();
    if (!O.Into.empty() || O.ImportOnly)
      return 0;
    benchmark::RegisterBenchmark(
        "store/testsCovering", [&](benchmark::State &St) {
          size_t I = 0, Found = 0;
          for (auto _ : St) {
            auto R = S->testsCovering(Keys[Queries[I++ % Queries.size()]]);
            if (!R)
              fail(llvm::toString(R.takeError()));
            Found += R->size();
          }
          St.counters["tests"] = double(Found) / St.iterations();
        });
    benchmark::RegisterBenchmark(
        "store/testsCovering-snapshot", [&](benchmark::State &St) {
          size_t I = 0, Found = 0;
          for (auto _ : St) {
            auto R =
                S->testsCovering(Keys[Queries[I++ % Queries.size()]], Snapshot);
            if (!R)
              fail(llvm::toString(R.takeError()));
            Found += R->size();
          }
          St.counters["tests"] = double(Found) / St.iterations();
        });
    benchmark::RegisterBenchmark(
        "store/testsCovering-hottest", [&](benchmark::State &St) {
          size_t Found = 0;
          for (auto _ : St) {
            auto R = S->testsCovering(Keys[0], Snapshot);
            if (!R)
              fail(llvm::toString(R.takeError()));
            Found += R->size();
          }
          St.counters["tests"] = double(Found) / St.iterations();
        });
  }

  // --- the baseline: (test_id, key_id) rows ---
  sqlite3 *Raw = nullptr;
  sqlite3_stmt *Lookup = nullptr;
  if (O.Baseline) {
    std::string Path = O.Dir + "/rows.db";
    llvm::sys::fs::remove(Path);
    llvm::sys::fs::remove(Path + "-wal");
    if (sqlite3_open(Path.c_str(), &Raw) != SQLITE_OK)
      fail("cannot open " + Path);
    sqliteCheck(Raw,
                sqlite3_exec(Raw,
                             "PRAGMA journal_mode=WAL; PRAGMA "
                             "synchronous=NORMAL; PRAGMA cache_size=-65536;"
                             "CREATE TABLE tests(id INTEGER PRIMARY KEY, "
                             "name TEXT NOT NULL UNIQUE);"
                             "CREATE TABLE element_keys(id INTEGER PRIMARY "
                             "KEY, key TEXT NOT NULL UNIQUE);"
                             "CREATE TABLE coverage(test_id INTEGER NOT NULL, "
                             "key_id INTEGER NOT NULL, PRIMARY KEY(test_id, "
                             "key_id)) WITHOUT ROWID;"
                             "CREATE INDEX coverage_by_key ON "
                             "coverage(key_id, test_id);",
                             nullptr, nullptr, nullptr),
                "create the baseline");
    sqlite3_stmt *AddKey, *AddTest, *AddRow;
    sqlite3_prepare_v2(Raw, "INSERT INTO element_keys(id, key) VALUES(?, ?)",
                       -1, &AddKey, nullptr);
    sqlite3_prepare_v2(Raw, "INSERT INTO tests(id, name) VALUES(?, ?)", -1,
                       &AddTest, nullptr);
    sqlite3_prepare_v2(Raw,
                       "INSERT INTO coverage(test_id, key_id) VALUES(?, ?)", -1,
                       &AddRow, nullptr);
    sqlite3_exec(Raw, "BEGIN", nullptr, nullptr, nullptr);
    for (uint32_t F = 0; F < O.Functions; ++F) {
      sqlite3_bind_int64(AddKey, 1, F + 1);
      sqlite3_bind_text(AddKey, 2, Keys[F].c_str(), -1, SQLITE_STATIC);
      sqliteCheck(Raw, sqlite3_step(AddKey), "insert a key");
      sqlite3_reset(AddKey);
    }
    sqlite3_exec(Raw, "COMMIT", nullptr, nullptr, nullptr);
    auto Start = std::chrono::steady_clock::now();
    double Cpu = cpuSeconds();
    double Gen = 0, GenCpu = 0;
    for (unsigned First = 0; First < O.Tests; First += O.Batch) {
      sqlite3_exec(Raw, "BEGIN", nullptr, nullptr, nullptr);
      for (unsigned T = First; T < std::min(O.Tests, First + O.Batch); ++T) {
        std::string Name = testName(T);
        sqlite3_bind_int64(AddTest, 1, T + 1);
        sqlite3_bind_text(AddTest, 2, Name.c_str(), -1, SQLITE_TRANSIENT);
        sqliteCheck(Raw, sqlite3_step(AddTest), "insert a test");
        sqlite3_reset(AddTest);
        auto G = std::chrono::steady_clock::now();
        double GC = cpuSeconds();
        std::vector<uint32_t> Cov = coverageOf(T, O.Functions);
        Gen += secondsSince(G);
        GenCpu += cpuSeconds() - GC;
        for (uint32_t F : Cov) {
          sqlite3_bind_int64(AddRow, 1, T + 1);
          sqlite3_bind_int64(AddRow, 2, F + 1);
          sqliteCheck(Raw, sqlite3_step(AddRow), "insert a row");
          sqlite3_reset(AddRow);
        }
      }
      sqliteCheck(Raw, sqlite3_exec(Raw, "COMMIT", nullptr, nullptr, nullptr),
                  "commit");
    }
    double Import = secondsSince(Start) - Gen;
    Cpu = cpuSeconds() - Cpu - GenCpu;
    llvm::outs() << llvm::formatv(
        "rows import: {0:f2} s\nrows import cpu: {1:f2} s\n"
        "rows size: {2} bytes\n",
        Import, Cpu, checkpointedSize(Path));
    llvm::outs().flush();
    sqlite3_finalize(AddKey);
    sqlite3_finalize(AddTest);
    sqlite3_finalize(AddRow);
    sqlite3_prepare_v2(Raw,
                       "SELECT t.name FROM element_keys k "
                       "JOIN coverage c ON c.key_id = k.id "
                       "JOIN tests t ON t.id = c.test_id "
                       "WHERE k.key = ? ORDER BY t.name",
                       -1, &Lookup, nullptr);
    benchmark::RegisterBenchmark(
        "rows/testsCovering", [&](benchmark::State &St) {
          size_t I = 0, Found = 0;
          for (auto _ : St) {
            const std::string &K = Keys[Queries[I++ % Queries.size()]];
            sqlite3_bind_text(Lookup, 1, K.c_str(), -1, SQLITE_STATIC);
            std::vector<std::string> Names;
            while (sqlite3_step(Lookup) == SQLITE_ROW)
              Names.emplace_back(reinterpret_cast<const char *>(
                  sqlite3_column_text(Lookup, 0)));
            sqlite3_reset(Lookup);
            Found += Names.size();
          }
          St.counters["tests"] = double(Found) / St.iterations();
        });
  }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (Lookup)
    sqlite3_finalize(Lookup);
  if (Raw)
    sqlite3_close(Raw);
  return 0;
}
