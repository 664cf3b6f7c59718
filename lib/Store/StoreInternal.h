//===- StoreInternal.h - what the Store's files share -----------*- C++ -*-===//
//
// Private to lib/Store: small query helpers the Store's implementation files
// (Store.cpp for the index, TestStore.cpp for tests, runs and coverage)
// share.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_STORE_STOREINTERNAL_H
#define TIA_LIB_STORE_STOREINTERNAL_H

#include "Database.h"
#include "tia/Support/Model.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace store {

/// Runs \p Body in a transaction that joins any enclosing one.
llvm::Error inTransaction(Database &DB, llvm::function_ref<llvm::Error()> Body);

/// Runs a statement that returns at most one integer; std::nullopt when it
/// returns no row.
llvm::Expected<std::optional<int64_t>> queryOptionalInt(Statement &S);

/// Runs \p S, which returns one text column, and collects it.
llvm::Expected<std::vector<std::string>> collectText(Statement &S);

/// The id of element key \p Key, interning it when new.
llvm::Expected<int64_t> keyId(Database &DB, llvm::StringRef Key);

/// The id of test \p Name; none when the store does not know it.
llvm::Expected<std::optional<int64_t>> findTestId(Database &DB,
                                                  llvm::StringRef Name);

/// The id of test \p Name, adding the test when unknown.
llvm::Expected<int64_t> testId(Database &DB, llvm::StringRef Name);

/// Stores what the Python front end recorded of file version
/// \p FileVersionId besides its elements: module, settings, problem and
/// imports. Does nothing when \p Info is empty (not a Python file).
llvm::Error insertPythonInfo(Database &DB, int64_t FileVersionId,
                             const std::optional<PythonFileInfo> &Info);

/// Reads the name graph (nodes and bindings) of Python file version
/// \p FileVersionId into \p Info.
llvm::Error readNameGraph(Database &DB, int64_t FileVersionId,
                          PythonFileInfo &Info);

/// Adds \p F's references and includes to file version \p FileVersionId;
/// rows already stored stay (ReferenceStore.cpp).
llvm::Error insertReferencesAndIncludes(Database &DB, int64_t FileVersionId,
                                        const FileIndex &F);

/// Reads the references and includes of file version \p FileVersionId
/// into \p F.
llvm::Error readReferencesAndIncludes(Database &DB, int64_t FileVersionId,
                                      FileIndex &F);
/// Before test \p TestId's coverage, the keys \p OldKeys, is replaced by
/// coverage collected at \p Commit: keeps \p OldKeys for the snapshots that
/// still hold them and finds (or starts) the snapshot of \p Commit. Returns
/// its id.
llvm::Expected<int64_t>
beforeCoverageReplaced(Database &DB, int64_t TestId, llvm::StringRef Commit,
                       const std::vector<int64_t> &OldKeys);

/// The coverage commit of a test a snapshot holds as retired (gone at the
/// snapshot's commit). '~' cannot start a revision, so an older tia reads
/// it as coverage of an unknown commit and selects every test.
inline constexpr const char RetiredMark[] = "~retired";

/// Marks each test of \p TestIds retired in the snapshot of \p Commit,
/// which starts when there is none.
llvm::Error retireInSnapshot(Database &DB, llvm::StringRef Commit,
                             const std::vector<int64_t> &TestIds);

/// After the replacement: records \p TestId at \p Commit in \p Snapshot.
llvm::Error afterCoverageReplaced(Database &DB, int64_t Snapshot,
                                  int64_t TestId, llvm::StringRef Commit);

} // namespace store
} // namespace tia

#endif // TIA_LIB_STORE_STOREINTERNAL_H
