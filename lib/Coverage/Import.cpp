//===- Import.cpp - mapping coverage reports onto indexed elements --------===//

#include "ImportInternal.h"
#include "tia/Coverage/Coverage.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

namespace tia {
namespace coverage {

namespace {

/// True when \p Path is \p Suffix or ends with "/" + \p Suffix.
bool pathEndsWith(llvm::StringRef Path, llvm::StringRef Suffix) {
  Suffix.consume_front("./");
  return Path == Suffix ||
         (Path.ends_with(Suffix) && Path.size() > Suffix.size() &&
          Path[Path.size() - Suffix.size() - 1] == '/');
}

} // namespace

llvm::Error
storeCoverage(Store &S,
              const std::map<std::string, std::set<std::string>> &Keys,
              llvm::StringRef Commit, ImportSummary &Summary) {
  llvm::Error E = S.transaction([&]() -> llvm::Error {
    for (auto &[Id, Covered] : Keys) {
      std::vector<std::string> List(Covered.begin(), Covered.end());
      if (llvm::Error E = S.putCoverage(Id, Commit, List))
        return E;
      Summary.Links += List.size();
      Summary.TestIds.push_back(Id);
      if (List.empty())
        Summary.Unlinked.push_back(Id);
    }
    return llvm::Error::success();
  });
  if (E)
    return E;
  Summary.Tests = Summary.TestIds.size();
  return llvm::Error::success();
}

llvm::Error requireWholeIndex(Store &S) {
  auto Share = S.indexShare();
  if (!Share)
    return Share.takeError();
  if (!*Share)
    return llvm::Error::success();
  return makeErrorf(
      "{0} holds share {1}/{2} of the index (tia index --shard): coverage "
      "collected into it would lose its links to the code of the other "
      "shares; merge the index shares first (tia merge), then collect on "
      "copies of the merged database (docs/CI.md, \"Sharded collection\")",
      S.path(), (*Share)->K, (*Share)->N);
}

llvm::Error IndexedFiles::load() {
  if (llvm::Error E = requireWholeIndex(S))
    return E;
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  if (Files->empty())
    return makeError("no index in the database: run 'tia index' before "
                     "importing coverage");
  for (auto &[Path, Hash] : *Files)
    Current[Path] = Hash;
  return llvm::Error::success();
}

llvm::Expected<const FileIndex *> IndexedFiles::fileIndex(llvm::StringRef Rel) {
  auto Cached = Files.find(Rel);
  if (Cached != Files.end())
    return Cached->second ? &*Cached->second : nullptr;
  std::optional<FileIndex> FI;
  auto It = Current.find(Rel);
  if (It != Current.end()) {
    auto Got = S.getFileIndex(Rel, It->second);
    if (!Got)
      return Got.takeError();
    FI = std::move(*Got);
  }
  auto &Slot = Files[Rel.str()];
  Slot = std::move(FI);
  return Slot ? &*Slot : nullptr;
}

std::string IndexedFiles::relative(llvm::StringRef File) const {
  llvm::SmallString<256> P(File);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  llvm::StringRef R = P;
  if (llvm::sys::path::is_absolute(R)) {
    if (!R.consume_front(Root) || !(R.empty() || R.consume_front("/")))
      return std::string(); // Outside the project.
    return R.str();
  }
  if (Current.count(R))
    return R.str();
  // A path relative to where the tests were built ("../src/a.cpp",
  // "../repo/src/a.cpp"): the one indexed file it can name, if only one
  // fits, whichever of the two paths is the longer.
  while (R.consume_front("../") || R.consume_front("./"))
    ;
  std::string Match;
  for (const auto &Entry : Current)
    if (pathEndsWith(Entry.first, R) || pathEndsWith(R, Entry.first)) {
      if (!Match.empty())
        return std::string(); // Ambiguous: better unmatched than wrong.
      Match = Entry.first;
    }
  return Match;
}

namespace {

/// Looks hits up in the current index, caching what it has read.
class ElementMatcher {
public:
  ElementMatcher(Store &S, llvm::StringRef Root) : S(S), Indexed(S, Root) {}

  /// Loads the current revision's file list. Fails when never indexed.
  llvm::Error init() { return Indexed.load(); }

  /// The keys of the elements the function hit names; empty when none.
  /// A name several files define (internal linkage) goes to the one whose
  /// path matches the report; when none matches, to all of them, since
  /// selecting too many tests is safe and too few is not.
  llvm::Expected<std::vector<std::string>> byFunction(const FunctionHit &H) {
    // Every test of a binary reports the same functions: look each up once.
    std::string CacheKey = H.Name + '\n' + H.File + '\n' +
                           std::to_string(H.Line) + '\n' + H.LocalPrefix;
    auto Cached = ByFunction.find(CacheKey);
    if (Cached != ByFunction.end())
      return Cached->second;
    auto Found = lookUp(H);
    if (Found)
      ByFunction[CacheKey] = *Found;
    return Found;
  }

private:
  llvm::Expected<std::vector<std::string>> lookUp(const FunctionHit &H) {
    std::string Rel = relative(H.File);
    auto Keys = S.keysForName(H.Name);
    if (!Keys)
      return Keys.takeError();
    std::vector<std::string> Out;
    if (Keys->size() == 1) {
      Out.push_back((*Keys)[0].Key);
      return Out;
    }
    for (const KeyInFile &K : *Keys)
      if ((!Rel.empty() && K.File == Rel) ||
          (!H.LocalPrefix.empty() && pathEndsWith(K.File, H.LocalPrefix)))
        Out.push_back(K.Key);
    if (Out.empty())
      for (const KeyInFile &K : *Keys)
        Out.push_back(K.Key);
    if (Out.empty() && H.Line != 0) {
      auto Key = byLine(Rel, H.Line);
      if (!Key)
        return Key.takeError();
      if (!Key->empty())
        Out.push_back(std::move(*Key));
    }
    return Out;
  }

public:
  /// The key of the innermost element containing the line; empty when none.
  llvm::Expected<std::string> byLine(llvm::StringRef Rel, unsigned Line) {
    auto FI = fileIndex(Rel);
    if (!FI)
      return FI.takeError();
    const Element *Best = nullptr;
    if (*FI)
      for (const Element &E : (*FI)->Elements)
        if (E.containsLine(Line) &&
            (!Best ||
             E.EndLine - E.BeginLine < Best->EndLine - Best->BeginLine))
          Best = &E;
    return Best ? Best->Key : std::string();
  }

  std::string relative(llvm::StringRef File) const {
    return Indexed.relative(File);
  }

private:
  llvm::Expected<const FileIndex *> fileIndex(llvm::StringRef Rel) {
    return Indexed.fileIndex(Rel);
  }

  Store &S;
  IndexedFiles Indexed;
  std::map<std::string, std::vector<std::string>> ByFunction;
};

llvm::Expected<std::vector<TestCoverage>> readReport(llvm::StringRef File,
                                                     Format Fmt) {
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf)
    return makeErrorf("cannot read coverage file {0}: {1}", File,
                      Buf.getError().message());
  if (Fmt == Format::Lcov)
    return parseLcov((*Buf)->getBuffer(), File);
  auto One = parseLlvmCovJson((*Buf)->getBuffer(), File);
  if (!One)
    return One.takeError();
  std::vector<TestCoverage> Out;
  Out.push_back(std::move(*One));
  return Out;
}

} // namespace

llvm::Expected<unsigned>
addFunctionHits(Store &S, llvm::StringRef Root,
                const std::map<std::string, std::vector<FunctionHit>> &Hits,
                std::map<std::string, std::set<std::string>> &Keys) {
  if (Hits.empty())
    return 0;
  ElementMatcher Matcher(S, Root);
  if (llvm::Error E = Matcher.init())
    return E;
  unsigned Added = 0;
  for (const auto &[Test, Functions] : Hits) {
    auto It = Keys.find(Test);
    if (It == Keys.end())
      continue;
    for (const FunctionHit &H : Functions) {
      auto Found = Matcher.byFunction(H);
      if (!Found)
        return Found.takeError();
      for (std::string &Key : *Found)
        Added += It->second.insert(std::move(Key)).second;
    }
  }
  return Added;
}

llvm::Expected<ImportSummary>
importReports(Store &S, const std::vector<TestCoverage> &Reports,
              const ImportOptions &Options) {
  ElementMatcher Matcher(S, Options.ProjectRoot);
  if (llvm::Error E = Matcher.init())
    return E;

  // Match everything first, so a failure writes nothing.
  std::map<std::string, std::set<std::string>> Keys;
  std::set<std::string> RanSomething;
  ImportSummary Summary;
  for (const TestCoverage &T : Reports) {
    std::string Id = Options.TestId.empty() ? T.TestId : Options.TestId;
    if (Id.empty())
      return makeError("a coverage report does not name its test: pass "
                       "--test ID");
    if (!T.Functions.empty() || !T.Lines.empty())
      RanSomething.insert(Id);
    std::set<std::string> &Covered = Keys[Id];
    for (const FunctionHit &H : T.Functions) {
      auto Found = Matcher.byFunction(H);
      if (!Found)
        return Found.takeError();
      if (Found->empty())
        ++Summary.UnmatchedNames;
      Covered.insert(Found->begin(), Found->end());
    }
    for (const LineHit &L : T.Lines) {
      auto Key = Matcher.byLine(Matcher.relative(L.File), L.Line);
      if (!Key)
        return Key.takeError();
      if (!Key->empty())
        Covered.insert(std::move(*Key));
    }
  }

  if (llvm::Error E = storeCoverage(S, Keys, Options.Commit, Summary))
    return E;
  // A test that ran no instrumented code (a lit test of programs from
  // outside the build) matches nothing, rightly.
  llvm::erase_if(Summary.Unlinked, [&](const std::string &Id) {
    return !RanSomething.count(Id);
  });
  return Summary;
}

llvm::Expected<ImportSummary>
importCoverage(Store &S, const std::vector<std::string> &Files,
               const ImportOptions &Options) {
  if (llvm::Error E = requireWholeIndex(S))
    return E;
  if (Options.Fmt == Format::CoveragePy)
    return importCoveragePy(S, Files, Options);
  // Read everything first, so a bad file writes nothing.
  std::vector<TestCoverage> All;
  for (const std::string &File : Files) {
    auto Reports = readReport(File, Options.Fmt);
    if (!Reports)
      return Reports.takeError();
    if (Reports->empty())
      return makeErrorf("coverage file {0} has no coverage records: check "
                        "that it is the tracefile of a test run",
                        File);
    for (TestCoverage &T : *Reports) {
      if (Options.TestId.empty() && T.TestId.empty())
        return makeErrorf("coverage file {0} does not name its test: pass "
                          "--test ID",
                          File);
      All.push_back(std::move(T));
    }
  }
  return importReports(S, All, Options);
}

} // namespace coverage
} // namespace tia
