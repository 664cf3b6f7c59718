//===- SnapshotBench.cpp - the cost of coverage snapshots -----------------===//
//
// Fills a database file with TESTS tests covering KEYS element keys each
// (out of 100,000), recorded at commit c1; records them all again at c2 (a
// new snapshot: the c1 rows move to the history) and at c2 once more (the
// same snapshot: nothing moves). Then times the tests covering 1,000 keys,
// once from the latest coverage (what selection read before snapshots) and
// once through the newest and the oldest snapshot.
//
//   tia-bench-snapshots DB_FILE [TESTS [KEYS]]     (default 10000 50)
//
//===----------------------------------------------------------------------===//

#include "tia/Store/Store.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstdlib>
#include <random>

using namespace tia;

namespace {

double seconds(std::chrono::steady_clock::time_point Since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       Since)
      .count();
}

int fail(llvm::Error E) {
  llvm::errs() << "tia-bench-snapshots: " << llvm::toString(std::move(E))
               << "\n";
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    llvm::errs() << "usage: tia-bench-snapshots DB_FILE [TESTS [KEYS]]\n";
    return 2;
  }
  std::string Path = Argv[1];
  unsigned Tests = Argc > 2 ? std::atoi(Argv[2]) : 10000;
  unsigned Keys = Argc > 3 ? std::atoi(Argv[3]) : 50;
  llvm::sys::fs::remove(Path);
  auto S = Store::open(Path, Store::Mode::ReadWrite);
  if (!S)
    return fail(S.takeError());
  Store &DB = **S;

  std::mt19937 Random(42);
  std::uniform_int_distribution<unsigned> Key(0, 99999);
  std::vector<std::vector<std::string>> Coverage(Tests);
  for (auto &List : Coverage)
    for (unsigned K = 0; K < Keys; ++K)
      List.push_back("cpp:k" + std::to_string(Key(Random)));

  auto Record = [&](llvm::StringRef Commit) -> llvm::Expected<double> {
    auto Start = std::chrono::steady_clock::now();
    if (llvm::Error E = DB.transaction([&]() -> llvm::Error {
          for (unsigned T = 0; T < Tests; ++T)
            if (llvm::Error E = DB.putCoverage("gtest:b:S.T" + std::to_string(T),
                                               Commit, Coverage[T]))
              return E;
          return llvm::Error::success();
        }))
      return E;
    return seconds(Start);
  };
  llvm::outs() << llvm::formatv("{0} tests x {1} keys\n", Tests, Keys);
  for (llvm::StringRef Step : {"c1", "c2", "c2"}) {
    auto T = Record(Step);
    if (!T)
      return fail(T.takeError());
    llvm::outs() << llvm::formatv("record at {0}: {1:f2} s\n", Step, *T);
  }

  auto Snaps = DB.coverageSnapshots();
  if (!Snaps)
    return fail(Snaps.takeError());
  std::vector<std::string> Queries;
  for (unsigned I = 0; I < 1000; ++I)
    Queries.push_back("cpp:k" + std::to_string(Key(Random)));
  auto Time = [&](std::optional<int64_t> Snapshot) -> llvm::Expected<double> {
    auto Start = std::chrono::steady_clock::now();
    size_t Found = 0;
    for (const std::string &Q : Queries) {
      auto R = Snapshot ? DB.testsCovering(Q, *Snapshot) : DB.testsCovering(Q);
      if (!R)
        return R.takeError();
      Found += R->size();
    }
    (void)Found;
    return seconds(Start);
  };
  auto Latest = Time(std::nullopt);
  auto Newest = Time(Snaps->front().Id);
  auto Oldest = Time(Snaps->back().Id);
  if (!Latest || !Newest || !Oldest)
    return fail(llvm::joinErrors(
        Latest ? llvm::Error::success() : Latest.takeError(),
        Newest ? llvm::Error::success() : Newest.takeError()));
  llvm::outs() << llvm::formatv(
      "1000 lookups: latest {0:f3} s, newest snapshot {1:f3} s ({2:f2}x), "
      "oldest snapshot {3:f3} s ({4:f2}x)\n",
      *Latest, *Newest, *Newest / *Latest, *Oldest, *Oldest / *Latest);
  uint64_t Size = 0;
  llvm::sys::fs::file_size(Path, Size);
  llvm::outs() << llvm::formatv("database: {0} MiB\n", Size >> 20);
  return 0;
}
