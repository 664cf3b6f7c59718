//===- LitFolders.cpp - lit tests known by their files --------------------===//

#include "LitFolders.h"
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
    llvm::StringRef Id = T.Id;
    if (!Id.consume_front("lit:") || T.File.empty())
      continue;
    auto [Name, Path] = Id.split("::");
    llvm::StringRef Root = T.File;
    if (!Root.consume_back(Path) || !(Root.empty() || Root.ends_with("/")))
      continue;
    IdsOfFile[T.File].push_back(T.Id);
    std::string Suffix = llvm::sys::path::extension(T.File).str();
    Folders[llvm::sys::path::parent_path(T.File).str()][Name.str()].insert(
        Suffix);
    Suite &S = Suites[Name.str()];
    S.Root = Root.str();
    S.Suffixes.insert(Suffix);
  }
}

std::vector<std::string> LitFolders::testsOf(llvm::StringRef File) const {
  auto It = IdsOfFile.find(File);
  return It == IdsOfFile.end() ? std::vector<std::string>() : It->second;
}

const LitFolders::SuffixesBySuite *LitFolders::nearestTests(llvm::StringRef Dir,
                                                            bool Up) const {
  for (;;) {
    auto It = Folders.find(Dir);
    if (It != Folders.end())
      return &It->second;
    if (!Up || Dir.empty())
      return nullptr;
    Dir = llvm::sys::path::parent_path(Dir);
  }
}

std::optional<std::string> LitFolders::idIn(llvm::StringRef File,
                                            llvm::StringRef Name) const {
  auto It = Suites.find(Name);
  llvm::StringRef InSuite = File;
  if (It == Suites.end() || !InSuite.consume_front(It->second.Root) ||
      belowUnwalkedFolder(InSuite))
    return std::nullopt;
  return ("lit:" + Name + "::" + InSuite).str();
}

std::vector<NewLitTest> LitFolders::newTestsAt(llvm::StringRef File,
                                               git::ChangeStatus S) const {
  std::vector<NewLitTest> Out;
  std::string Suffix = llvm::sys::path::extension(File).str();
  if (Suffix.empty() || neverATest(llvm::sys::path::filename(File)))
    return Out;
  bool New = isNewAtItsPath(S);
  auto Add = [&](llvm::StringRef Name, bool Guessed) {
    if (std::optional<std::string> Id = idIn(File, Name))
      Out.push_back({std::move(*Id), Guessed});
  };
  if (const SuffixesBySuite *Near =
          nearestTests(llvm::sys::path::parent_path(File), New)) {
    for (const auto &[Name, Suffixes] : *Near)
      if (Suffixes.count(Suffix))
        Add(Name, false);
      else if (New && Suites.find(Name)->second.Suffixes.count(Suffix))
        Add(Name, true);
    return Out;
  }
  if (New)
    for (const auto &[Name, Suite] : Suites)
      if (Suite.Suffixes.count(Suffix))
        Add(Name, true);
  return Out;
}

} // namespace select
} // namespace tia
