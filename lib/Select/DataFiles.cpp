//===- DataFiles.cpp - changed data files and the tests that read them ----===//

#include "DataFiles.h"
#include "tia/Support/Quote.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace select {
namespace detail {

namespace {

/// The directories above \p Path, innermost first, "." last.
std::vector<std::string> directoriesAbove(llvm::StringRef Path) {
  std::vector<std::string> Out;
  for (llvm::StringRef Dir =
           llvm::sys::path::parent_path(Path, llvm::sys::path::Style::posix);
       !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir, llvm::sys::path::Style::posix))
    Out.push_back(Dir.str());
  Out.push_back(".");
  return Out;
}

/// Added, deleted and renamed files change what listing their directory
/// returns; a modified one does not.
bool changesListings(git::ChangeStatus S) {
  return S != git::ChangeStatus::Modified;
}

} // namespace

llvm::Error DataFiles::readersOf(llvm::StringRef Path, git::ChangeStatus Status,
                                 bool Listers,
                                 std::map<std::string, std::string> &Found) {
  auto Readers = S.testsReading(Path, /*Listed=*/false);
  if (!Readers)
    return Readers.takeError();
  for (const std::string &T : *Readers)
    Found.emplace(T, "reads " + quotePath(Path));
  if (!Listers)
    return llvm::Error::success();
  // A walk lists every folder below the one it starts at, so a listing of
  // any folder above may have met the file.
  std::optional<bool> TestFile;
  for (const std::string &Dir : directoriesAbove(Path)) {
    auto Listing = S.testsReading(Dir, /*Listed=*/true);
    if (!Listing)
      return Listing.takeError();
    for (const std::string &T : *Listing)
      Found.emplace(T, "lists " + quotePath(Dir));
    auto Finding = S.testsFindingTestsIn(Dir);
    if (!Finding)
      return Finding.takeError();
    if (Finding->empty())
      continue;
    if (!TestFile) {
      auto IsTest = isLitTestFile(Path, Status);
      if (!IsTest)
        return IsTest.takeError();
      TestFile = *IsTest;
    }
    if (!*TestFile)
      for (const std::string &T : *Finding)
        Found.emplace(T, "lists " + quotePath(Dir) + " to find its tests");
  }
  return llvm::Error::success();
}

llvm::Expected<bool> DataFiles::isLitTestFile(llvm::StringRef Path,
                                              git::ChangeStatus Status) {
  if (!Lit) {
    auto Infos = S.testInfos();
    if (!Infos)
      return Infos.takeError();
    Lit.emplace(*Infos);
  }
  // A guessed test may be no test: the file keeps the rules of data files.
  return !Lit->testsOf(Path).empty() ||
         llvm::any_of(Lit->newTestsAt(Path, Status),
                      [](const NewLitTest &T) { return !T.Guessed; });
}

llvm::Expected<bool> DataFiles::anyKnown() {
  if (!Known) {
    auto Any = S.hasTrustedReads();
    if (!Any)
      return Any.takeError();
    Known = *Any;
  }
  return *Known;
}

llvm::Expected<const std::vector<std::string> *> DataFiles::unknownReaders() {
  if (!Unknown) {
    auto Tests = S.testsWithoutTrustedReads();
    if (!Tests)
      return Tests.takeError();
    Unknown = std::move(*Tests);
  }
  return &*Unknown;
}

llvm::Error
DataFiles::readersOfChange(const git::FileChange &C,
                           std::map<std::string, std::string> &Found) {
  bool Listers = changesListings(C.Status);
  if (!C.OldPath.empty())
    if (llvm::Error E =
            readersOf(C.OldPath, git::ChangeStatus::Modified, Listers, Found))
      return E;
  if (!C.NewPath.empty())
    if (llvm::Error E = readersOf(C.NewPath, C.Status, Listers, Found))
      return E;
  return llvm::Error::success();
}

void DataFiles::addReadersFallback(
    Selection &Sel, llvm::StringRef Shown, std::string Detail,
    const std::map<std::string, std::string> &Found,
    const std::vector<std::string> &Unknown, TestReasons &ByTest) {
  size_t Index = Sel.Fallbacks.size();
  Sel.Fallbacks.push_back({FallbackKind::DataFile,
                           Shown.str(),
                           std::move(Detail),
                           FallbackScope::Readers,
                           {}});
  for (auto &[Test, How] : Found)
    ByTest[Test].push_back(
        {NoIndex, Index, How, Rule::Reads, Evidence::Fallback});
  for (const std::string &Test : Unknown)
    if (!Found.count(Test))
      ByTest[Test].push_back({NoIndex, Index,
                              "its file reads are not known (not traced at "
                              "its coverage commit, or incompletely)",
                              Rule::Reads, Evidence::Fallback});
}

llvm::Expected<bool> DataFiles::decide(Selection &Sel, const git::FileChange &C,
                                       TestReasons &ByTest) {
  auto Any = anyKnown();
  if (!Any)
    return Any.takeError();
  if (!*Any)
    return false;
  std::map<std::string, std::string> Found;
  if (llvm::Error E = readersOfChange(C, Found))
    return E;
  llvm::StringRef Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
  // A lit test's own file, known or surely new, is that test's (the lit
  // test rules select it); that no other test read it is no unknown.
  bool TestFile = false;
  if (Found.empty()) {
    auto IsTest = isLitTestFile(
        Shown, C.NewPath.empty() ? git::ChangeStatus::Modified : C.Status);
    if (!IsTest)
      return IsTest.takeError();
    TestFile = *IsTest;
  }
  if (Found.empty() && UnreadSelectsAll && !TestFile)
    return false;
  auto Unknown = unknownReaders();
  if (!Unknown)
    return Unknown.takeError();
  if (Found.empty() && (*Unknown)->empty()) {
    Sel.Notes.push_back({Shown.str(),
                         TestFile ? "a lit test's file, which no other test "
                                    "read when traced"
                                  : "no test read it when traced "
                                    "(select.unread_files_select_all: false)",
                         NoteKind::Ignored});
    return true;
  }
  addReadersFallback(Sel, Shown,
                     std::string(git::statusName(C.Status)) + ": read by " +
                         std::to_string(Found.size()) + " traced " +
                         (Found.size() == 1 ? "test" : "tests") + ", " +
                         std::to_string((*Unknown)->size()) +
                         " with unknown reads",
                     Found, **Unknown, ByTest);
  return true;
}

llvm::Error DataFiles::selectSourceReaders(Selection &Sel,
                                           const git::FileChange &C,
                                           TestReasons &ByTest) {
  // With no test's reads known, coverage decides, as it did before reads.
  auto Any = anyKnown();
  if (!Any)
    return Any.takeError();
  if (!*Any)
    return llvm::Error::success();
  std::map<std::string, std::string> Found;
  if (llvm::Error E = readersOfChange(C, Found))
    return E;
  auto Unknown = unknownReaders();
  if (!Unknown)
    return Unknown.takeError();
  // A pytest test's Python is its coverage's: its unknown reads add nothing.
  std::vector<std::string> Untraced;
  for (const std::string &T : **Unknown)
    if (!llvm::StringRef(T).starts_with("pytest:"))
      Untraced.push_back(T);
  if (Found.empty() && Untraced.empty())
    return llvm::Error::success();
  addReadersFallback(
      Sel, C.NewPath.empty() ? C.OldPath : C.NewPath,
      std::string(git::statusName(C.Status)) +
          ": Python source read as a file by " + std::to_string(Found.size()) +
          " traced " + (Found.size() == 1 ? "test" : "tests") + ", " +
          std::to_string(Untraced.size()) +
          " other than pytest's with unknown reads (no coverage follows "
          "Python there)",
      Found, Untraced, ByTest);
  return llvm::Error::success();
}

} // namespace detail
} // namespace select
} // namespace tia
