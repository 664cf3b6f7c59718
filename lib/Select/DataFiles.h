//===- DataFiles.h - changed data files and the tests that read them -*- C++
//-*-===//
//
// Private to lib/Select. A change to a file no front end reads (a golden
// file, a JSON config, a test corpus) selects the tests that read it at
// their coverage commit, as `tia collect` traced them (Store::fileReads),
// and the tests whose reads are not known. It decides nothing while no
// test's reads are known, and, unless configured otherwise, for a file no
// traced test read: those keep the fallback that selects every test.
//
// lit lists its suite's folders to find its tests; a new or deleted test
// file there changes that one test (LitFolders), not the others, so their
// runner's listings do not select them for it. Any other file added there
// (an input, a lit.local.cfg, a folder) does.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_DATAFILES_H
#define TIA_LIB_SELECT_DATAFILES_H

#include "LitFolders.h"
#include "SelectInternal.h"
#include "tia/Git/Repository.h"

namespace tia {
namespace select {
namespace detail {

class DataFiles {
public:
  /// \p UnreadSelectsAll: a file no traced test read selects every test
  /// (select.unread_files_select_all).
  DataFiles(Store &S, bool UnreadSelectsAll)
      : S(S), UnreadSelectsAll(UnreadSelectsAll) {}

  /// Selects the tests that read the file \p C changes (its old path),
  /// listed the directory a file was added to or deleted from, or whose
  /// reads are not known, into \p ByTest under a fallback of scope Readers.
  /// Returns false when the reads cannot decide (none known, or nobody
  /// read the file and that selects all): the caller applies its fallback.
  llvm::Expected<bool> decide(Selection &Sel, const git::FileChange &C,
                              TestReasons &ByTest);

  /// Selects the tests that read the Python source \p C changes as a file
  /// (a script a ctest or lit test runs, lit's configuration: collect keeps
  /// those reads for every test but pytest's), or list its folder when it
  /// is added, deleted or renamed, and the tests other than pytest's whose
  /// reads are not known, under a fallback of scope Readers: no coverage
  /// follows the source into them, and they may read it as data, so a
  /// comment counts too. None while no test's reads are known.
  llvm::Error selectSourceReaders(Selection &Sel, const git::FileChange &C,
                                  TestReasons &ByTest);

private:
  /// True when any test's reads are known (a trusted record).
  llvm::Expected<bool> anyKnown();
  /// The tests whose reads are not known, read once.
  llvm::Expected<const std::vector<std::string> *> unknownReaders();
  /// Tests that read a path \p C changes (both paths of a rename), or,
  /// when it adds, deletes or renames a file, list a folder above it.
  llvm::Error readersOfChange(const git::FileChange &C,
                              std::map<std::string, std::string> &Found);
  /// Adds a data-file fallback of scope Readers for \p Shown selecting
  /// \p Found (with how each read it) and \p Unknown.
  void addReadersFallback(Selection &Sel, llvm::StringRef Shown,
                          std::string Detail,
                          const std::map<std::string, std::string> &Found,
                          const std::vector<std::string> &Unknown,
                          TestReasons &ByTest);
  /// Tests that read \p Path (or list a directory above it when \p Listers)
  /// with how, into \p Found. \p Status: how the change put a file at
  /// \p Path (Modified for a path the file was at before).
  llvm::Error readersOf(llvm::StringRef Path, git::ChangeStatus Status,
                        bool Listers,
                        std::map<std::string, std::string> &Found);
  /// True when \p Path is the file of a lit test, known or surely new.
  llvm::Expected<bool> isLitTestFile(llvm::StringRef Path,
                                     git::ChangeStatus Status);

  Store &S;
  bool UnreadSelectsAll;
  std::optional<bool> Known;
  std::optional<std::vector<std::string>> Unknown;
  std::optional<LitFolders> Lit;
};

} // namespace detail
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_DATAFILES_H
