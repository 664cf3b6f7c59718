//===- LitFolders.cpp - lit tests known by their files --------------------===//

#include "LitFolders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include <optional>

namespace tia {
namespace select {

namespace {

/// The suite of lit test id \p Id ("lit:SUITE::PATH").
llvm::StringRef suiteOf(llvm::StringRef Id) {
  return Id.drop_front(4).split("::").first;
}

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

/// The id lit gives \p File in the suite of \p KnownId, whose file is
/// \p KnownFile: the suite's root is KnownFile without KnownId's path.
std::optional<std::string> idBeside(llvm::StringRef File,
                                    llvm::StringRef KnownFile,
                                    llvm::StringRef KnownId) {
  auto [Suite, Path] = KnownId.drop_front(4).split("::");
  llvm::StringRef Root = KnownFile;
  if (!Root.consume_back(Path) || !(Root.empty() || Root.ends_with("/")))
    return std::nullopt;
  llvm::StringRef InSuite = File;
  if (!InSuite.consume_front(Root))
    return std::nullopt;
  return ("lit:" + Suite + "::" + InSuite).str();
}

/// True when lit test id \p Id lies below a folder lit does not walk into
/// when it looks for tests: Inputs (LLVM's convention for test inputs, in
/// its suites' `config.excludes`), Output and hidden folders.
bool belowUnwalkedFolder(llvm::StringRef Id) {
  llvm::StringRef Path = Id.drop_front(4).split("::").second;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Path.split(Parts, '/');
  Parts.pop_back();
  return llvm::any_of(Parts, [](llvm::StringRef Part) {
    return Part == "Inputs" || Part == "Output" || Part.starts_with(".");
  });
}

/// Added, renamed or copied: a file that was not at its path before.
bool putThere(git::ChangeStatus S) {
  return S == git::ChangeStatus::Added || S == git::ChangeStatus::Renamed ||
         S == git::ChangeStatus::Copied;
}

} // namespace

LitFolders::LitFolders(const std::vector<TestInfo> &Infos) {
  for (const TestInfo &T : Infos) {
    if (!llvm::StringRef(T.Id).starts_with("lit:") || T.File.empty())
      continue;
    IdsOfFile[T.File].push_back(T.Id);
    Sample[llvm::sys::path::parent_path(T.File).str()]
          [llvm::sys::path::extension(T.File).str()]
              .try_emplace(suiteOf(T.Id).str(), T.File, T.Id);
    SuiteSample[suiteOf(T.Id).str()].try_emplace(
        llvm::sys::path::extension(T.File).str(), T.File, T.Id);
  }
}

std::vector<std::string> LitFolders::testsOf(llvm::StringRef File) const {
  auto It = IdsOfFile.find(File);
  return It == IdsOfFile.end() ? std::vector<std::string>() : It->second;
}

std::vector<std::string> LitFolders::newTestsAt(llvm::StringRef File) const {
  std::vector<std::string> Out;
  llvm::StringRef Suffix = llvm::sys::path::extension(File);
  if (Suffix.empty() || neverATest(llvm::sys::path::filename(File)))
    return Out;
  auto Folder = Sample.find(llvm::sys::path::parent_path(File).str());
  if (Folder == Sample.end())
    return Out;
  auto Known = Folder->second.find(Suffix.str());
  if (Known == Folder->second.end())
    return Out;
  for (const auto &[Suite, Test] : Known->second)
    if (std::optional<std::string> Id =
            idBeside(File, Test.first, Test.second))
      Out.push_back(std::move(*Id));
  return Out;
}

std::vector<std::string>
LitFolders::suffixesAbove(llvm::StringRef Dir, llvm::StringRef Suite) const {
  std::vector<std::string> Out;
  for (llvm::StringRef Above = llvm::sys::path::parent_path(Dir);
       !Above.empty(); Above = llvm::sys::path::parent_path(Above)) {
    auto Folder = Sample.find(Above.str());
    if (Folder == Sample.end())
      continue;
    for (const auto &[Suffix, Suites] : Folder->second)
      if (Suites.count(Suite.str()))
        Out.push_back(Suffix);
    if (!Out.empty())
      return Out;
  }
  auto Whole = SuiteSample.find(Suite);
  if (Whole != SuiteSample.end())
    for (const auto &[Suffix, Test] : Whole->second)
      Out.push_back(Suffix);
  return Out;
}

std::vector<std::string> LitFolders::addedTestsAt(llvm::StringRef File) const {
  llvm::StringRef Dir = llvm::sys::path::parent_path(File);
  llvm::StringRef Suffix = llvm::sys::path::extension(File);
  // In a folder of known tests, their suffixes decide.
  if (Sample.count(Dir.str()))
    return newTestsAt(File);
  std::vector<std::string> Out;
  if (Suffix.empty() || neverATest(llvm::sys::path::filename(File)))
    return Out;
  for (const auto &[Suite, BySuffix] : SuiteSample) {
    const auto &[KnownFile, KnownId] = BySuffix.begin()->second;
    std::optional<std::string> Id = idBeside(File, KnownFile, KnownId);
    if (Id && !belowUnwalkedFolder(*Id) &&
        llvm::is_contained(suffixesAbove(Dir, Suite), Suffix))
      Out.push_back(std::move(*Id));
  }
  return Out;
}

std::vector<std::string> LitFolders::newTestsAt(llvm::StringRef File,
                                                git::ChangeStatus S) const {
  return putThere(S) ? addedTestsAt(File) : newTestsAt(File);
}

} // namespace select
} // namespace tia
