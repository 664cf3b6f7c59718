//===- tia/Support/Error.h - making errors --------------------------------===//
//
// Every failure in tia is an llvm::Error. User-facing messages are lowercase,
// name the file (and line) and what to do, and end without a period.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_ERROR_H
#define TIA_SUPPORT_ERROR_H

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {

/// Returns an error carrying \p Msg.
llvm::Error makeError(const llvm::Twine &Msg);

/// Returns an error whose message is formatted with llvm::formatv.
template <typename... Ts>
llvm::Error makeErrorf(const char *Fmt, Ts &&...Vals) {
  return makeError(llvm::formatv(Fmt, std::forward<Ts>(Vals)...).str());
}

} // namespace tia

#endif // TIA_SUPPORT_ERROR_H
