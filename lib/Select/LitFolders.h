//===- LitFolders.h - lit tests known by their files ------------*- C++ -*-===//
//
// Private to lib/Select. A lit test is a file: collect records each one's
// file (its suite's source root and its path in the suite). A change to the
// file is a change to the test. A file the coverage map has no test of may
// be a new test: lit runs every file of a suite's suffixes in the folders
// it walks, so its id follows from the known tests' ("lit:SUITE::" and its
// path below the suite's root). Beside known tests with its suffix it
// surely is one; a file added in a new folder takes the suffixes of the
// nearest folder above with known tests, as lit's configuration passes
// down the tree.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_LITFOLDERS_H
#define TIA_LIB_SELECT_LITFOLDERS_H

#include "tia/Git/Repository.h"
#include "tia/Support/Model.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace select {

/// A file of no known test that lit may run as a test.
struct NewLitTest {
  std::string Id; ///< "lit:SUITE::PATH", as lit would name it
  /// Only the suite's suffixes say so: the nearest folder at or above the
  /// file with the suite's known tests has none of its suffix (or there is
  /// none), so lit's configuration there may not take it (a folder of
  /// inputs another name excludes, a lit.local.cfg with other suffixes).
  bool Guessed = false;
};

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

  /// The tests lit would run for \p File, a file of no known test that the
  /// change gave status \p S, in each suite whose root holds it (the
  /// deepest: a nested suite's, not the one around it). The suite surely
  /// runs it when its known tests in the nearest folder at or above the
  /// file that has some have its suffix (its own folder only, for a file
  /// that was there before: a test elsewhere would be known). For a file
  /// the change put there, a suffix only the suite's tests elsewhere have,
  /// or no folder above with the suite's tests, is a guess (Guessed). None
  /// for lit's configuration files, hidden files, files LLVM's suites
  /// exclude, and, outside a folder of known tests, files below folders
  /// lit does not walk into (Inputs, Output, hidden ones).
  std::vector<NewLitTest> newTestsAt(llvm::StringRef File,
                                     git::ChangeStatus S) const;

private:
  /// A suite's source roots ("" or ending in '/': one, unless its tests
  /// moved or two trees share its name) and its tests' suffixes.
  struct Suite {
    std::set<std::string> Roots;
    std::set<std::string> Suffixes;
  };
  /// Suite, then the suffixes of its known tests in one folder.
  using SuffixesBySuite = std::map<std::string, std::set<std::string>>;

  /// The suffixes of suite \p Name's known tests in the nearest folder that
  /// has some, at or above \p Dir when \p Up, else in \p Dir only; null
  /// when none has.
  const std::set<std::string> *
  nearestSuffixes(llvm::StringRef Dir, llvm::StringRef Name, bool Up) const;
  /// The suites whose root holds \p File, with that root: those with the
  /// deepest root, as a suite nested in another's folder runs the files
  /// below its own root (several when suites share their sources).
  std::map<std::string, std::string> suitesHolding(llvm::StringRef File) const;

  std::map<std::string, std::vector<std::string>, std::less<>> IdsOfFile;
  std::map<std::string, SuffixesBySuite, std::less<>> Folders;
  std::map<std::string, Suite, std::less<>> Suites;
};

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_LITFOLDERS_H
