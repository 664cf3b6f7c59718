//===- LitFolders.h - lit tests known by their files ------------*- C++ -*-===//
//
// Private to lib/Select. A lit test is a file: collect records each one's
// file (its suite's source root and its path in the suite). A change to the
// file is a change to the test. A file the coverage map has no test of,
// in a folder of known lit tests and with their suffix, is a new test of
// their suite: lit runs every file of a suite's suffixes, so its id follows
// from theirs ("lit:SUITE::" and its path below the suite's root).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_LITFOLDERS_H
#define TIA_LIB_SELECT_LITFOLDERS_H

#include "tia/Support/Model.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <vector>

namespace tia {
namespace select {

class LitFolders {
public:
  /// The lit tests of \p Infos with a file (retired ones too: a change
  /// that brings a file back brings its test back).
  explicit LitFolders(const std::vector<TestInfo> &Infos);

  bool empty() const { return IdsOfFile.empty(); }

  /// The known lit tests whose file is \p File: one per suite that runs
  /// it (suites sharing their sources, one per configuration); empty when
  /// none is.
  std::vector<std::string> testsOf(llvm::StringRef File) const;

  /// The ids lit would give \p File, one per suite with a known lit test
  /// of its suffix in its folder; empty otherwise (a folder of no known
  /// test, an Inputs folder, another suffix, lit's configuration files
  /// and hidden files, which lit never runs).
  std::vector<std::string> newTestsAt(llvm::StringRef File) const;

private:
  std::map<std::string, std::vector<std::string>, std::less<>> IdsOfFile;
  /// Folder, then suffix, then suite: one known test there, file and id.
  std::map<std::string,
           std::map<std::string,
                    std::map<std::string, std::pair<std::string, std::string>>>>
      Sample;
};

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_LITFOLDERS_H
