//===- IdList.h - sorted ids as delta-coded varints -------------*- C++ -*-===//
//
// Private to lib/Store. The coverage lists (from schema 13: a test's element
// keys, an element key's tests) are sorted sets of small integers, stored as
// a count and the gaps between neighbours in LEB128 varints. Coverage ids
// are dense, so most gaps take one byte: about 1.1 bytes per id, where a
// CRoaring array container takes 2 and the JSON text of schema 8 took 6.
//
//   list := varint(count) varint(first) varint(next - previous - 1)...
//
// Decoding checks the whole shape (exact length, no overlong or overflowing
// varint, ids within the caller's bounds), so a damaged list is noticed
// rather than read as other ids.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_STORE_IDLIST_H
#define TIA_LIB_STORE_IDLIST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace store {

/// The encoding of \p Ids, which must be strictly increasing and not
/// negative.
std::string encodeIdList(llvm::ArrayRef<int64_t> Ids);
std::string encodeIdList(llvm::ArrayRef<uint32_t> Ids);

/// The ids \p Bytes encodes, or std::nullopt when they are not a list of
/// ids in [\p Low, \p High).
std::optional<std::vector<int64_t>>
decodeIdList(llvm::StringRef Bytes, int64_t Low = 0, int64_t High = INT64_MAX);

/// As decodeIdList, for ids that fit 32 bits (test ids).
std::optional<std::vector<uint32_t>>
decodeIdList32(llvm::StringRef Bytes, int64_t Low = 0,
               int64_t High = int64_t(UINT32_MAX) + 1);

/// Bytes that no list encodes: what a migration writes for a value it
/// could not read, so that it stays damaged (and is repaired) rather than
/// turning into an empty list.
llvm::StringRef damagedIdList();

} // namespace store
} // namespace tia

#endif // TIA_LIB_STORE_IDLIST_H
