//===- SelectInternal.h - what the selection's stages share -----*- C++ -*-===//
//
// Private to lib/Select. The C++ impact analysis: from a changed element
// that is not a plain function edit (a class, variable, macro, region,
// declaration, constexpr function) through the reference graph to the
// functions it reaches and the tests that cover them; and the fallbacks
// scoped to the translation units that read a file.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_SELECTINTERNAL_H
#define TIA_LIB_SELECT_SELECTINTERNAL_H

#include "tia/Select/Selection.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include <functional>
#include <map>
#include <set>

namespace tia {
namespace select {
namespace detail {

/// Test id -> why it is selected.
using TestReasons = std::map<std::string, std::vector<Reason>>;

/// A newly defined macro name (or one an #undef no longer hides): the code
/// that spells it may expand it now.
struct NameScan {
  size_t Element = 0; ///< index into Selection::Elements
  std::string Name;
  std::string File; ///< where it is defined, head side
  unsigned Line = 0;
};

/// Where the analysis reads a file version it needs to scan: the head
/// version of a changed file, else the store's index and git's blob (the
/// content hash is the blob id).
struct HeadVersion {
  std::string Content;
  FileIndex Index;
};

class Impact {
public:
  using ContentReader =
      std::function<llvm::Expected<std::optional<std::string>>(
          llvm::StringRef Path, llvm::StringRef Hash)>;

  /// \p Snapshot: the coverage snapshot that links elements to tests;
  /// std::nullopt: the latest coverage of each test.
  Impact(Store &S, Selection &Sel, TestReasons &ByTest,
         std::optional<int64_t> Snapshot, ContentReader Read)
      : S(S), Sel(Sel), ByTest(ByTest), Snapshot(Snapshot),
        Read(std::move(Read)) {}

  /// A version (base or head) of a changed file: its references count
  /// besides the store's, and its elements tell what a key is.
  void addVersion(const FileIndex &F);
  /// The head version of a changed file, for name scans.
  void addHead(llvm::StringRef Path, HeadVersion V) {
    Heads[Path.str()] = std::move(V);
  }

  /// The head versions of the changed files, by path.
  const std::map<std::string, HeadVersion, std::less<>> &heads() const {
    return Heads;
  }

  /// Applies the rules for Sel.Elements[I] beyond "the tests that cover
  /// it": the users of a changed class, variable, macro, region or
  /// declaration, the callers of a changed constexpr function, what a
  /// variable's initialiser calls.
  llvm::Error follow(size_t I);

  /// The callers of \p FunctionKey, for a new constexpr overload of it.
  llvm::Error followCallers(size_t I, llvm::StringRef FunctionKey);

  /// The users of the non-function element \p Key under rule \p R, for
  /// changed element \p I (same-named elements of a new one).
  llvm::Error followUsers(size_t I, Rule R, llvm::StringRef Key);

  /// Finds the code that spells a newly defined name.
  llvm::Error scan(const NameScan &N);

  /// Adds a fallback scoped to the translation units that read \p File
  /// (plus \p More); with none, a fallback to all tests.
  llvm::Error includers(FallbackKind K, llvm::StringRef File,
                        const llvm::Twine &Detail,
                        const std::vector<std::string> &More = {});

  /// Selects the tests of every scoped fallback.
  llvm::Error resolveScoped();

private:
  struct User {
    std::string Key;
    std::string File;
    std::string Display;
    ReferenceKind Kind = ReferenceKind::Type;
    std::optional<ElementKind> ElemKind;
    bool CompileTime = false;
  };

  llvm::Expected<std::vector<User>> usersOf(llvm::StringRef Key);
  llvm::Expected<const std::vector<std::string> *>
  covering(llvm::StringRef Key);
  /// Adds the tests covering \p Key as reasons of element \p I.
  llvm::Expected<bool> select(size_t I, Rule R, llvm::StringRef Key,
                              llvm::StringRef Via);
  /// Breadth-first from \p Key through its users.
  llvm::Error walk(size_t I, Rule R, llvm::StringRef Key, bool IsFunction);

  Store &S;
  Selection &Sel;
  TestReasons &ByTest;
  std::optional<int64_t> Snapshot;
  ContentReader Read;
  std::map<std::string, HeadVersion, std::less<>> Heads;
  /// References of the changed files' versions, by target.
  std::map<std::string, std::vector<User>, std::less<>> VersionUsers;
  std::map<std::string, std::vector<std::string>, std::less<>> Covering;
  /// Displays of the changed files' elements, by key.
  std::map<std::string, std::string> Displays;
  std::map<std::string, std::vector<StoredTranslationUnit>, std::less<>>
      Readers;
  /// Elements of Sel.Elements that selected at least one test.
  std::set<size_t> Reached;

public:
  bool reached(size_t I) const { return Reached.count(I); }
};

/// The key the references to \p E name: macros by name alone
/// ("cpp:macro:NAME" for "cpp:macro:NAME#2").
std::string referenceKey(const Element &E);

/// The rule a change to an element of kind \p K follows.
Rule ruleFor(ElementKind K);

} // namespace detail
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_SELECTINTERNAL_H
