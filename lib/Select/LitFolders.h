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
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace select {

class LitFolders {
public:
  /// The lit tests of \p Infos with a file, but those in \p Retired.
  LitFolders(const std::vector<TestInfo> &Infos,
             const std::set<std::string> &Retired);

  bool empty() const { return IdOfFile.empty(); }

  /// The known lit test whose file is \p File; nullptr when none is.
  const std::string *testOf(llvm::StringRef File) const;

  /// The id lit would give \p File, when a known lit test with its suffix
  /// lives in its folder; std::nullopt otherwise (a folder of no known
  /// test, an Inputs folder, another suffix, lit's configuration files
  /// and hidden files, which lit never runs).
  std::optional<std::string> newTestAt(llvm::StringRef File) const;

private:
  std::map<std::string, std::string, std::less<>> IdOfFile;
  /// Folder, then suffix: one known test there, file and id.
  std::map<std::string,
           std::map<std::string, std::pair<std::string, std::string>>>
      Sample;
};

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_LITFOLDERS_H
