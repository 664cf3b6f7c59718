//===- CTestFolders.h - the ctest test a new lit test runs in ---*- C++ -*-===//
//
// Private to lib/Select. ctest runs a lit test only by running the ctest
// test whose lit command found it (TestCommand::EnclosingCTest). A new lit
// test file has none yet; but a ctest test whose lit command names a folder
// runs every test below it (collect records those folders,
// EnclosingCTestFolders), so a new file there runs in that ctest test.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_CTESTFOLDERS_H
#define TIA_LIB_SELECT_CTESTFOLDERS_H

#include "tia/Support/Model.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace select {

class CTestFolders {
public:
  /// The folders the enclosing ctest tests of \p Infos' lit tests in
  /// \p Live run (a retired test's record may name a ctest test that is
  /// gone).
  CTestFolders(const std::vector<TestInfo> &Infos,
               const std::set<std::string> &Live);

  /// The ctest test that runs lit test \p Id, of file \p File (repository
  /// relative): the one whose lit command runs a folder above it in the
  /// test's suite. None when no ctest test does, or when several do (a
  /// folder and one inside it), or when a known lit test in that folder
  /// has no one ctest test (two run it, or an older tia collected it):
  /// ctest could run the new test in another too.
  std::optional<std::string> ctestRunning(llvm::StringRef Id,
                                          llvm::StringRef File) const;

private:
  /// Suite, then folder ("." for the root), then the ctest tests whose lit
  /// command runs the suite's tests in that folder whole. By suite: one
  /// source tree may hold suites of several configurations, each run by
  /// its own ctest test.
  std::map<std::string, std::map<std::string, std::set<std::string>>,
           std::less<>>
      CTestsOfFolder;
  /// The files of the known lit tests with no one ctest test.
  std::vector<std::string> FilesOfNoOneCTest;
};

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_CTESTFOLDERS_H
