//===- tia/Support/Hash.h - content and token hashes ----------------------===//

#ifndef TIA_SUPPORT_HASH_H
#define TIA_SUPPORT_HASH_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace tia {

/// Returns git's blob id (40 lowercase hex digits of SHA-1 over
/// "blob <size>\0<content>") of \p Content, so that a file version indexed
/// from the work tree and the same version seen in a git diff share one id.
std::string gitBlobHash(llvm::StringRef Content);

/// 16 lowercase hex digits of a 64-bit hash of the running program's file,
/// which tells one build of tia from another; empty when it cannot be read.
std::string executableDigest();

/// Incremental 64-bit hash of a token stream. Each token is fed as its
/// spelling; the separator keeps "a b" and "ab" apart.
class TokenHasher {
public:
  void add(llvm::StringRef Token);
  /// 16 lowercase hex digits; the hash of no tokens is "0000000000000000".
  std::string hex() const;
  bool empty() const { return Count == 0; }

private:
  uint64_t State = 0;
  uint64_t Count = 0;
};

} // namespace tia

#endif // TIA_SUPPORT_HASH_H
