//===- CTestFolders.cpp - the ctest test a new lit test runs in -----------===//

#include "CTestFolders.h"
#include "tia/Support/LitId.h"
#include "tia/Support/Paths.h"

namespace tia {
namespace select {

namespace {

/// The suite of lit test id \p Id ("lit:SUITE::PATH").
llvm::StringRef suiteOf(llvm::StringRef Id) {
  std::optional<LitIdParts> Parts = splitLitId(Id);
  return Parts ? Parts->Suite : llvm::StringRef();
}

/// True when \p File lies below \p Folder ("." for the root).
bool below(llvm::StringRef File, llvm::StringRef Folder) {
  return Folder == "." || (isAtOrBelow(File, Folder) && File != Folder);
}

} // namespace

CTestFolders::CTestFolders(const std::vector<TestInfo> &Infos,
                           const std::set<std::string> &Live) {
  for (const TestInfo &T : Infos) {
    if (!isLitId(T.Id) || !Live.count(T.Id))
      continue;
    if (!T.Command || T.Command->EnclosingCTest.empty()) {
      if (!T.File.empty())
        FilesOfNoOneCTest.push_back(T.File);
      continue;
    }
    for (const std::string &Folder : T.Command->EnclosingCTestFolders)
      CTestsOfFolder[suiteOf(T.Id).str()][Folder].insert(
          T.Command->EnclosingCTest);
  }
}

std::optional<std::string>
CTestFolders::ctestRunning(llvm::StringRef Id, llvm::StringRef File) const {
  auto Suite = CTestsOfFolder.find(suiteOf(Id));
  if (Suite == CTestsOfFolder.end())
    return std::nullopt;
  std::set<std::string> Running;
  for (const auto &[Folder, CTests] : Suite->second) {
    if (!below(File, Folder))
      continue;
    for (const std::string &Other : FilesOfNoOneCTest)
      if (below(Other, Folder))
        return std::nullopt;
    Running.insert(CTests.begin(), CTests.end());
  }
  if (Running.size() != 1)
    return std::nullopt;
  return *Running.begin();
}

} // namespace select
} // namespace tia
