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
/// configuration files and hidden files.
bool neverATest(llvm::StringRef Name) {
  return Name.starts_with(".") ||
         llvm::is_contained({"lit.cfg", "lit.cfg.py", "lit.site.cfg",
                             "lit.site.cfg.py", "lit.local.cfg",
                             "lit.local.cfg.py"},
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

} // namespace

LitFolders::LitFolders(const std::vector<TestInfo> &Infos) {
  for (const TestInfo &T : Infos) {
    if (!llvm::StringRef(T.Id).starts_with("lit:") || T.File.empty())
      continue;
    IdsOfFile[T.File].push_back(T.Id);
    Sample[llvm::sys::path::parent_path(T.File).str()]
          [llvm::sys::path::extension(T.File).str()]
              .try_emplace(suiteOf(T.Id).str(), T.File, T.Id);
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

} // namespace select
} // namespace tia
