//===- tia/Support/Quote.h - paths in text and JSON output ----------------===//
//
// A path in a repository may hold any byte but '\0' and '/' between its
// components: spaces, quotes, newlines, bytes that are not UTF-8. Output
// meant for people and for line-based tools quotes such paths the way git
// does; JSON carries them so that no byte is lost.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_QUOTE_H
#define TIA_SUPPORT_QUOTE_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace tia {

/// True when \p Text needs quoting on a line of text output: it holds a
/// control character (newline, tab, ...), DEL, '"' or '\\', or bytes that
/// are not valid UTF-8.
bool needsQuoting(llvm::StringRef Text);

/// \p Text as git prints such a path (core.quotePath=false): unchanged when
/// it needs no quoting; otherwise in double quotes with C escapes (\\n, \\t,
/// \\", \\\\, ...) and, for other control characters and every byte of an
/// invalid UTF-8 sequence, a three-digit octal escape ("\\351"). Spaces and
/// valid UTF-8 stay as they are.
std::string quotePath(llvm::StringRef Text);

/// \p Text for a JSON string: unchanged when it is valid UTF-8 (the JSON
/// writer escapes quotes and control characters); otherwise quotePath(),
/// so a consumer can tell the form by its leading '"' and decode it as git's
/// quoted paths are decoded. The same for a valid path that starts with '"',
/// so that the form stays unambiguous.
std::string jsonPath(llvm::StringRef Text);

/// \p Arg as one word for a POSIX shell: as it is when it holds only
/// characters no shell treats specially, else in single quotes.
std::string shellQuoted(llvm::StringRef Arg);

} // namespace tia

#endif // TIA_SUPPORT_QUOTE_H
