//===- tia/Support/LitId.h - the ids of lit tests -------------------------===//
//
// A lit test is one test file of a suite, and its id is "lit:SUITE::PATH":
// the suite's name (lit's config.name) and the file's path below the
// suite's source root, '/'-separated. Discovery makes these ids, selection
// reads their suites and paths, and the runners' result formats map to
// them, so that one spelling is written in one place.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_LITID_H
#define TIA_SUPPORT_LITID_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <optional>
#include <string>

namespace tia {

/// What every lit test id starts with.
constexpr llvm::StringLiteral LitIdPrefix = "lit:";

/// True when \p Id names a lit test.
inline bool isLitId(llvm::StringRef Id) { return Id.starts_with(LitIdPrefix); }

/// The id of the test at \p Path (below the suite's source root) of suite
/// \p Suite.
inline std::string litId(llvm::StringRef Suite, llvm::StringRef Path) {
  return (llvm::Twine(LitIdPrefix) + Suite + "::" + Path).str();
}

/// The suite and the path of a lit test id.
struct LitIdParts {
  llvm::StringRef Suite;
  llvm::StringRef Path;
};

/// The parts of \p Id; none when it is no lit id or either part is empty.
inline std::optional<LitIdParts> splitLitId(llvm::StringRef Id) {
  if (!Id.consume_front(LitIdPrefix))
    return std::nullopt;
  auto [Suite, Path] = Id.split("::");
  if (Suite.empty() || Path.empty())
    return std::nullopt;
  return LitIdParts{Suite, Path};
}

} // namespace tia

#endif // TIA_SUPPORT_LITID_H
