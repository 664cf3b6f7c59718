//===- ModuleSource.h - where import-time code uses a name ------*- C++ -*-===//
//
// Private to lib/Select. Static analysis says a module's import-time code
// uses a name ("module code of pkg uses install"), not on which line: the
// name graph has no lines. For explanations, the head's version of the
// module is read and the statement found: the first line outside its
// functions and classes, imports and comments, that spells the name.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_MODULESOURCE_H
#define TIA_LIB_SELECT_MODULESOURCE_H

#include "tia/Git/Repository.h"
#include "tia/Store/Store.h"
#include "tia/Support/Model.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace select {

/// The head's version of the project's Python modules, to find the
/// statement of a module's import-time code that uses a name.
class ModuleSource {
public:
  ModuleSource(git::Repository &Repo, Store &S, std::optional<std::string> Head,
               const std::vector<FileIndex> &NewVersions)
      : Repo(Repo), S(S), Head(std::move(Head)), NewVersions(NewVersions) {}

  /// \p Chain with its leading "module code of M uses NAME" placed: the
  /// first line of M outside its functions and classes, imports and
  /// comments, that spells NAME (\p Chain as it is when there is none).
  /// Empty when it says nothing a covers reason does not: the changed
  /// element is M's code itself, or M is \p TestFile, the test's own.
  llvm::Expected<std::string> place(llvm::StringRef Chain,
                                    llvm::StringRef TestFile);

private:
  /// The path of \p Module at the head; empty when not indexed.
  llvm::Expected<std::string> pathOf(llvm::StringRef Module);

  /// The line of \p Path's module-level code that spells \p Name; 0 when
  /// none does.
  llvm::Expected<unsigned> lineUsing(const std::string &Path,
                                     llvm::StringRef Name);

  /// True when \p Text has \p Name as a whole identifier.
  static bool spells(llvm::StringRef Text, llvm::StringRef Name);

  /// \p Path's content at the head (the work tree when no head commit).
  llvm::Expected<std::string> headContent(const std::string &Path);

  /// The elements of \p Path's version \p Content: the changed file's new
  /// version, or the stored one.
  llvm::Expected<std::vector<Element>> elementsOf(const std::string &Path,
                                                  const std::string &Content);

  git::Repository &Repo;
  Store &S;
  std::optional<std::string> Head;
  const std::vector<FileIndex> &NewVersions;
  std::optional<std::map<std::string, std::string>> Modules, HeadBlobs;
};

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_MODULESOURCE_H
