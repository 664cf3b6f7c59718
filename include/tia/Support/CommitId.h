//===- tia/Support/CommitId.h - commit ids as people read them -----------===//
//
// Every message, report and progress line shows a commit by the same
// prefix of its id, so that one id reads the same everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_COMMITID_H
#define TIA_SUPPORT_COMMITID_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace tia {

/// How many hex digits of a commit id tia shows: as many as git's short
/// ids reach in large repositories, so that they stay unambiguous.
constexpr size_t ShortIdWidth = 12;

/// Returns the first ShortIdWidth characters of \p Commit (all of it when
/// shorter; "" for "").
inline std::string shortId(llvm::StringRef Commit) {
  return Commit.take_front(ShortIdWidth).str();
}

} // namespace tia

#endif // TIA_SUPPORT_COMMITID_H
