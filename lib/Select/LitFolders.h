//===- LitFolders.h - lit tests known by their files ------------*- C++ -*-===//
//
// Private to lib/Select. A lit test is a file: collect records each one's
// file (its suite's source root and its path in the suite). A change to the
// file is a change to the test. A file the coverage map has no test of,
// in a folder of known lit tests and with their suffix, is a new test of
// their suite: lit runs every file of a suite's suffixes, so its id follows
// from theirs ("lit:SUITE::" and its path below the suite's root). A file
// added in a folder of no known test (a new folder) takes the suffixes of
// the nearest folder above with known tests, as lit's configuration passes
// down the tree.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_LITFOLDERS_H
#define TIA_LIB_SELECT_LITFOLDERS_H

#include "tia/Git/Repository.h"
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

  /// The ids lit would give \p File, which the change added (or renamed or
  /// copied there): newTestsAt in a folder of known tests; in a folder of
  /// none (a new one), one per suite whose root holds it, when the nearest
  /// folder above with the suite's known tests has one of its suffix (any
  /// of the suite's when none has). None below a folder named Inputs or
  /// Output or a hidden one: lit does not walk into those (LLVM's
  /// `config.excludes`; tia does not read lit's configuration).
  std::vector<std::string> addedTestsAt(llvm::StringRef File) const;

  /// addedTestsAt for a file the change put there (status \p S), else
  /// newTestsAt: a file that was there before and is no known test is one
  /// only in a folder of known tests (collected by an older tia).
  std::vector<std::string> newTestsAt(llvm::StringRef File,
                                      git::ChangeStatus S) const;

private:
  /// The suffixes of \p Suite's known tests in the nearest folder above
  /// \p Dir that has some, or in the whole suite when none has.
  std::vector<std::string> suffixesAbove(llvm::StringRef Dir,
                                         llvm::StringRef Suite) const;

  std::map<std::string, std::vector<std::string>, std::less<>> IdsOfFile;
  /// Folder, then suffix, then suite: one known test there, file and id.
  std::map<std::string,
           std::map<std::string,
                    std::map<std::string, std::pair<std::string, std::string>>>>
      Sample;
  /// Suite, then suffix: one known test, file and id.
  std::map<std::string,
           std::map<std::string, std::pair<std::string, std::string>>,
           std::less<>>
      SuiteSample;
};

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_LITFOLDERS_H
