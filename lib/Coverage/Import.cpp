//===- Import.cpp - mapping coverage reports onto indexed elements --------===//

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

/// Looks hits up in the current index, caching what it has read.
class ElementMatcher {
public:
  ElementMatcher(Store &S, llvm::StringRef Root) : S(S), Root(Root) {}

  /// Loads the current revision's file list. Fails when never indexed.
  llvm::Error init() {
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

  /// The key of the element the function hit names; empty when none.
  llvm::Expected<std::string> byFunction(const FunctionHit &H) {
    std::string Rel = relative(H.File);
    auto Keys = S.keysForName(H.Name);
    if (!Keys)
      return Keys.takeError();
    if (Keys->size() == 1)
      return (*Keys)[0].Key;
    for (const KeyInFile &K : *Keys)
      if (K.File == Rel)
        return K.Key;
    if (!Keys->empty() && Rel.empty())
      return (*Keys)[0].Key; // Same name in several files, no file to choose.
    if (H.Line == 0)
      return std::string();
    return byLine(Rel, H.Line);
  }

  /// The key of the innermost element containing the line; empty when none.
  llvm::Expected<std::string> byLine(llvm::StringRef Rel, unsigned Line) {
    auto FI = fileIndex(Rel);
    if (!FI)
      return FI.takeError();
    const Element *Best = nullptr;
    if (*FI)
      for (const Element &E : (*FI)->Elements)
        if (E.containsLine(Line) &&
            (!Best || E.EndLine - E.BeginLine < Best->EndLine - Best->BeginLine))
          Best = &E;
    return Best ? Best->Key : std::string();
  }

  std::string relative(llvm::StringRef File) const {
    llvm::SmallString<256> P(File);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    llvm::StringRef R = P;
    if (llvm::sys::path::is_absolute(R)) {
      if (!R.consume_front(Root) || !(R.empty() || R.consume_front("/")))
        return std::string(); // Outside the project.
    }
    return R.str();
  }

private:
  llvm::Expected<const FileIndex *> fileIndex(llvm::StringRef Rel) {
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

  Store &S;
  std::string Root;
  std::map<std::string, std::string, std::less<>> Current;
  std::map<std::string, std::optional<FileIndex>, std::less<>> Files;
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

llvm::Expected<ImportSummary>
importCoverage(Store &S, const std::vector<std::string> &Files,
               const ImportOptions &Options) {
  ElementMatcher Matcher(S, Options.ProjectRoot);
  if (llvm::Error E = Matcher.init())
    return std::move(E);

  // Read and match everything first, so a bad file writes nothing.
  std::map<std::string, std::set<std::string>> Keys;
  ImportSummary Summary;
  for (const std::string &File : Files) {
    auto Reports = readReport(File, Options.Fmt);
    if (!Reports)
      return Reports.takeError();
    for (TestCoverage &T : *Reports) {
      std::string Id = Options.TestId.empty() ? T.TestId : Options.TestId;
      if (Id.empty())
        return makeErrorf("coverage file {0} does not name its test: pass "
                          "--test ID",
                          File);
      std::set<std::string> &Covered = Keys[Id];
      for (const FunctionHit &H : T.Functions) {
        auto Key = Matcher.byFunction(H);
        if (!Key)
          return Key.takeError();
        if (Key->empty())
          ++Summary.UnmatchedNames;
        else
          Covered.insert(std::move(*Key));
      }
      for (const LineHit &L : T.Lines) {
        auto Key = Matcher.byLine(Matcher.relative(L.File), L.Line);
        if (!Key)
          return Key.takeError();
        if (!Key->empty())
          Covered.insert(std::move(*Key));
      }
    }
  }

  llvm::Error E = S.transaction([&]() -> llvm::Error {
    for (auto &[Id, Covered] : Keys) {
      std::vector<std::string> List(Covered.begin(), Covered.end());
      if (llvm::Error E = S.putCoverage(Id, Options.Commit, List))
        return E;
      Summary.Links += List.size();
      Summary.TestIds.push_back(Id);
    }
    return llvm::Error::success();
  });
  if (E)
    return std::move(E);
  Summary.Tests = Summary.TestIds.size();
  return Summary;
}

} // namespace coverage
} // namespace tia
