//===- LitFolders.cpp - lit tests known by their files --------------------===//

#include "LitFolders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace select {

LitFolders::LitFolders(const std::vector<TestInfo> &Infos,
                       const std::set<std::string> &Retired) {
  for (const TestInfo &T : Infos) {
    if (!llvm::StringRef(T.Id).starts_with("lit:") || T.File.empty() ||
        Retired.count(T.Id))
      continue;
    IdOfFile.emplace(T.File, T.Id);
    Sample[llvm::sys::path::parent_path(T.File).str()].try_emplace(
        llvm::sys::path::extension(T.File).str(), T.File, T.Id);
  }
}

const std::string *LitFolders::testOf(llvm::StringRef File) const {
  auto It = IdOfFile.find(File);
  return It == IdOfFile.end() ? nullptr : &It->second;
}

namespace {

/// Files lit never takes for tests, whatever their suffix: its
/// configuration files and hidden files.
bool neverATest(llvm::StringRef Name) {
  return Name.starts_with(".") ||
         llvm::is_contained({"lit.cfg", "lit.cfg.py", "lit.site.cfg",
                             "lit.site.cfg.py", "lit.local.cfg",
                             "lit.local.cfg.py"},
                            Name);
}

} // namespace

std::optional<std::string> LitFolders::newTestAt(llvm::StringRef File) const {
  if (neverATest(llvm::sys::path::filename(File)))
    return std::nullopt;
  llvm::StringRef Suffix = llvm::sys::path::extension(File);
  auto Folder = Sample.find(llvm::sys::path::parent_path(File).str());
  if (Suffix.empty() || Folder == Sample.end())
    return std::nullopt;
  auto Known = Folder->second.find(Suffix.str());
  if (Known == Folder->second.end())
    return std::nullopt;
  // "lit:SUITE::PATH" and ROOT/PATH: the suite's root, then File below it.
  const auto &[KnownFile, KnownId] = Known->second;
  auto [Suite, Path] = llvm::StringRef(KnownId).drop_front(4).split("::");
  llvm::StringRef Root = KnownFile;
  if (!Root.consume_back(Path) || !(Root.empty() || Root.ends_with("/")))
    return std::nullopt;
  llvm::StringRef InSuite = File;
  if (!InSuite.consume_front(Root))
    return std::nullopt;
  return ("lit:" + Suite + "::" + InSuite).str();
}

} // namespace select
} // namespace tia
