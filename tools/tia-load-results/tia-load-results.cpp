//===- tia-load-results.cpp - write scripted runs into a tia database -----===//
//
// A developer and test tool, like LLVM's yaml2obj: it writes runs, results,
// test infos and (for tests of bad input) model rows into a database through
// the Store API, so that generated histories (utils/bench/gen-history.py) and lit
// tests need no test runner. Input, one record a line, tab-separated, '#'
// starts a comment:
//
//   test    ID  FILE  LINE                  where a test is defined
//   run     COMMIT  STARTED_AT  SOURCE      a run (a revision of the git
//                                           repository around the working
//                                           directory, or a 40-hex id; "-"
//                                           for none; epoch seconds)
//   result  TEST  OUTCOME  SECONDS  ATTEMPT one result of the last run
//   model   FORMAT_VERSION  METADATA  BOOSTER   a raw model row
//
// Usage: tia-load-results DB FILE   (FILE '-' reads stdin). All of it is
// written in one transaction; any bad line writes nothing.
//
//===----------------------------------------------------------------------===//

#include "tia/Git/Repository.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace tia;

namespace {

/// \p Rev as a commit id: kept when it is one, resolved in the repository
/// around the working directory otherwise.
llvm::Expected<std::string> commitOf(llvm::StringRef Rev) {
  if (Rev == "-")
    return "";
  if (Rev.size() == 40 && llvm::all_of(Rev, llvm::isHexDigit))
    return Rev.str();
  auto Repo = git::Repository::discover(".");
  if (!Repo)
    return Repo.takeError();
  return Repo->resolveCommit(Rev);
}

llvm::Error load(Store &S, llvm::StringRef Name, llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  int64_t Run = 0;
  std::vector<TestResult> Pending;
  auto Flush = [&]() -> llvm::Error {
    if (Run && !Pending.empty())
      if (llvm::Error E = S.putResults(Run, Pending))
        return E;
    Pending.clear();
    return llvm::Error::success();
  };
  for (size_t N = 0; N != Lines.size(); ++N) {
    llvm::StringRef L = Lines[N].rtrim("\r");
    if (L.trim().empty() || L.starts_with("#"))
      continue;
    llvm::SmallVector<llvm::StringRef, 6> F;
    L.split(F, '\t');
    auto Bad = [&](llvm::StringRef Why) {
      return makeErrorf("{0}:{1}: {2}", Name, N + 1, Why);
    };
    if (F[0] == "test" && F.size() == 4) {
      TestInfo T;
      T.Id = F[1].str();
      T.File = F[2].str();
      if (F[3].getAsInteger(10, T.Line))
        return Bad("bad line number");
      if (llvm::Error E = S.putTestInfo(T))
        return E;
    } else if (F[0] == "run" && F.size() == 4) {
      if (llvm::Error E = Flush())
        return E;
      int64_t Started = 0;
      if (F[2].getAsInteger(10, Started))
        return Bad("bad start time");
      auto Commit = commitOf(F[1]);
      if (!Commit)
        return Commit.takeError();
      auto Id = S.addRun(*Commit, F[3], Started);
      if (!Id)
        return Id.takeError();
      Run = *Id;
    } else if (F[0] == "result" && F.size() == 5) {
      if (!Run)
        return Bad("a result before any run");
      TestResult R;
      R.TestId = F[1].str();
      std::optional<Outcome> O = parseOutcome(F[2]);
      if (!O)
        return Bad("unknown outcome '" + F[2].str() + "'");
      R.Result = *O;
      if (F[3].getAsDouble(R.Seconds) || F[4].getAsInteger(10, R.Attempt))
        return Bad("bad seconds or attempt");
      Pending.push_back(std::move(R));
    } else if (F[0] == "model" && F.size() == 4) {
      StoredModel M;
      if (F[1].getAsInteger(10, M.FormatVersion))
        return Bad("bad format version");
      M.Metadata = F[2].str();
      M.Booster = F[3].str();
      if (auto Id = S.putModel(M); !Id)
        return Id.takeError();
    } else {
      return Bad("expected 'test ID FILE LINE', 'run COMMIT TIME SOURCE', "
                 "'result TEST OUTCOME SECONDS ATTEMPT' or 'model FORMAT "
                 "METADATA BOOSTER', tab-separated");
    }
  }
  return Flush();
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    llvm::errs() << "usage: tia-load-results DB FILE\n";
    return 2;
  }
  auto Buf = llvm::StringRef(Argv[2]) == "-"
                 ? llvm::MemoryBuffer::getSTDIN()
                 : llvm::MemoryBuffer::getFile(Argv[2]);
  auto Fail = [](llvm::Error E) {
    llvm::WithColor::error(llvm::errs(), "tia-load-results")
        << llvm::toString(std::move(E)) << "\n";
    return 1;
  };
  if (!Buf)
    return Fail(
        makeErrorf("cannot read {0}: {1}", Argv[2], Buf.getError().message()));
  auto S = Store::open(Argv[1], Store::Mode::ReadWrite);
  if (!S)
    return Fail(S.takeError());
  if (llvm::Error E = (*S)->transaction(
          [&] { return load(**S, Argv[2], (*Buf)->getBuffer()); }))
    return Fail(std::move(E));
  return 0;
}
