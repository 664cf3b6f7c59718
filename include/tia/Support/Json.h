//===- tia/Support/Json.h - reading JSON from outside ---------------------===//
//
// llvm::json::parse descends recursively, one stack frame set per level of
// nesting, with no limit of its own: a file of a million '[' ends the
// process with a stack overflow. Every JSON tia reads from outside goes
// through parseJson, which refuses such nesting first.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_JSON_H
#define TIA_SUPPORT_JSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace tia {

/// Deeper than any JSON a coverage tool, ctest or tia's extractor writes
/// (they nest fewer than 10 levels), shallow enough for the parser's
/// recursion on any thread's stack, sanitizers included.
constexpr unsigned MaxJsonNesting = 256;

/// llvm::json::parse(\p Text), except that a document whose arrays and
/// objects nest deeper than \p MaxNesting fails without being parsed
/// ("nested deeper than N levels at byte B"), as other errors do.
llvm::Expected<llvm::json::Value>
parseJson(llvm::StringRef Text, unsigned MaxNesting = MaxJsonNesting);

} // namespace tia

#endif // TIA_SUPPORT_JSON_H
