//===- tia/Store/Balance.h - the costs a shard plan balances ----*- C++ -*-===//
//
// `--shard K/N --balance-from DB`: the costs an earlier run recorded in its
// database, so that every worker computes the same shares from the same
// file, without talking to the others.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_STORE_BALANCE_H
#define TIA_STORE_BALANCE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>

namespace tia {

/// The parse time of each translation unit (repository-relative path) the
/// database at \p Path recorded; units never timed are left out. Fails like
/// Store::open, the message starting "--balance-from: ".
llvm::Expected<std::map<std::string, double>>
recordedParseTimes(llvm::StringRef Path);

/// The latest duration of each test id the database at \p Path recorded.
/// Fails like recordedParseTimes.
llvm::Expected<std::map<std::string, double>>
recordedDurations(llvm::StringRef Path);

} // namespace tia

#endif // TIA_STORE_BALANCE_H
