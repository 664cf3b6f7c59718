//===- LitFolders.cpp - lit tests known by their files --------------------===//

#include "LitFolders.h"
#include "tia/Support/LitId.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"
#include <optional>

namespace tia {
namespace select {

namespace {

/// Files lit never takes for tests, whatever their suffix: its
/// configuration files, hidden files, and the files LLVM's suites put in
/// `config.excludes` beside tests whose suffix they have (tia does not
/// read lit's configuration).
bool neverATest(llvm::StringRef Name) {
  return Name.starts_with(".") ||
         llvm::is_contained({"lit.cfg", "lit.cfg.py", "lit.site.cfg",
                             "lit.site.cfg.py", "lit.local.cfg",
                             "lit.local.cfg.py", "CMakeLists.txt", "README.txt",
                             "LICENSE.txt"},
                            Name);
}

/// True when \p PathInSuite lies below a folder lit does not walk into when
/// it looks for tests: Inputs (LLVM's convention for test inputs, in its
/// suites' `config.excludes`), Output and hidden folders.
bool belowUnwalkedFolder(llvm::StringRef PathInSuite) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  PathInSuite.split(Parts, '/');
  Parts.pop_back();
  return llvm::any_of(Parts, [](llvm::StringRef Part) {
    return Part == "Inputs" || Part == "Output" || Part.starts_with(".");
  });
}

/// Added, renamed or copied: the file was not at its path before.
bool isNewAtItsPath(git::ChangeStatus S) {
  return S == git::ChangeStatus::Added || S == git::ChangeStatus::Renamed ||
         S == git::ChangeStatus::Copied;
}

} // namespace

LitFolders::LitFolders(const std::vector<TestInfo> &Infos) {
  for (const TestInfo &T : Infos) {
    std::optional<LitIdParts> Parts = splitLitId(T.Id);
    if (!Parts || T.File.empty())
      continue;
    auto [Name, Path] = *Parts;
    llvm::StringRef Root = T.File;
    if (!Root.consume_back(Path) || !(Root.empty() || Root.ends_with("/")))
      continue;
    IdsOfFile[T.File].push_back(T.Id);
    std::string Suffix = llvm::sys::path::extension(T.File).str();
    Folders[llvm::sys::path::parent_path(T.File).str()][Name.str()].insert(
        Suffix);
    Suite &S = Suites[Name.str()];
    S.Roots.insert(Root.str());
    S.Suffixes.insert(Suffix);
  }
}

std::vector<std::string> LitFolders::testsOf(llvm::StringRef File) const {
  auto It = IdsOfFile.find(File);
  return It == IdsOfFile.end() ? std::vector<std::string>() : It->second;
}

const std::set<std::string> *LitFolders::nearestSuffixes(llvm::StringRef Dir,
                                                         llvm::StringRef Name,
                                                         bool Up) const {
  for (;;) {
    auto Folder = Folders.find(Dir);
    if (Folder != Folders.end()) {
      auto Known = Folder->second.find(Name.str());
      if (Known != Folder->second.end())
        return &Known->second;
    }
    if (!Up || Dir.empty())
      return nullptr;
    Dir = llvm::sys::path::parent_path(Dir);
  }
}

std::map<std::string, std::string>
LitFolders::suitesHolding(llvm::StringRef File) const {
  std::map<std::string, std::string> Out;
  size_t Deepest = 0;
  for (const auto &[Name, Known] : Suites)
    for (const std::string &Root : Known.Roots) {
      if (!File.starts_with(Root) || Root.size() < Deepest)
        continue;
      if (Root.size() > Deepest)
        Out.clear();
      Deepest = Root.size();
      Out[Name] = Root;
    }
  return Out;
}

std::vector<NewLitTest> LitFolders::newTestsAt(llvm::StringRef File,
                                               git::ChangeStatus S) const {
  std::vector<NewLitTest> Out;
  std::string Suffix = llvm::sys::path::extension(File).str();
  if (Suffix.empty() || neverATest(llvm::sys::path::filename(File)))
    return Out;
  bool New = isNewAtItsPath(S);
  llvm::StringRef Dir = llvm::sys::path::parent_path(File);
  // Beside known tests, lit walked the folder: its name is no exclusion.
  bool Walked = Folders.count(Dir);
  for (const auto &[Name, Root] : suitesHolding(File)) {
    llvm::StringRef InSuite = File.drop_front(Root.size());
    if (!Walked && belowUnwalkedFolder(InSuite))
      continue;
    std::string Id = litId(Name, InSuite);
    const std::set<std::string> *Near = nearestSuffixes(Dir, Name, New);
    if (Near && Near->count(Suffix))
      Out.push_back({std::move(Id), false});
    else if (New && Suites.find(Name)->second.Suffixes.count(Suffix))
      Out.push_back({std::move(Id), true});
  }
  return Out;
}

} // namespace select
} // namespace tia
