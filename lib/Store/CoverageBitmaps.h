//===- CoverageBitmaps.h - the element -> tests coverage bitmaps -*- C++
//-*-===//
//
// Private to lib/Store. From schema 8 on, the current coverage is stored
// twice: per test, the sorted ids of the element keys it covers
// (test_coverage, JSON text that the `coverage` view unfolds into rows), and
// per element key, the ids of the tests that cover it as a compressed
// bitmap (coverage_keys, CRoaring's portable format). Selection reads the
// bitmaps; everything that goes from a test to its keys reads the rows.
//
// A transaction collects the changes to the bitmaps in memory (CoverageIndex)
// and writes each changed bitmap once, just before it commits, so that
// importing thousands of tests rewrites each bitmap once, not once per test.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_STORE_COVERAGEBITMAPS_H
#define TIA_LIB_STORE_COVERAGEBITMAPS_H

#include "Database.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

struct roaring_bitmap_s;

namespace tia {
namespace store {

/// A set of 32-bit ids (a CRoaring bitmap) that frees itself.
class IdSet {
public:
  IdSet();
  ~IdSet();
  IdSet(IdSet &&Other) noexcept;
  IdSet &operator=(IdSet &&Other) noexcept;
  IdSet(const IdSet &) = delete;
  IdSet &operator=(const IdSet &) = delete;

  void add(uint32_t Id);
  void remove(uint32_t Id);
  bool empty() const;
  uint64_t size() const;
  /// Adds every id of \p Other.
  void merge(const IdSet &Other);
  /// Removes every id of \p Other.
  void subtract(const IdSet &Other);
  /// The ids in increasing order.
  std::vector<uint32_t> ids() const;
  /// The ids as a JSON array, for json_each() in a query.
  std::string json() const;

  /// The portable serialization (compressed runs where they pay).
  std::string serialize();
  /// Reads \p Bytes written by serialize(); std::nullopt when they are not
  /// a bitmap.
  static std::optional<IdSet> deserialize(llvm::StringRef Bytes);

private:
  roaring_bitmap_s *Bits;
};

/// The element key ids of a test_coverage row (a JSON array of integers),
/// or an error naming \p What when the text is not such an array.
llvm::Expected<std::vector<int64_t>> parseKeyIds(llvm::StringRef Json,
                                                 llvm::StringRef What);

/// A JSON array of \p Ids.
std::string keyIdsJson(const std::vector<int64_t> &Ids);

/// The sorted key ids test \p Test (named \p Name) covers now.
llvm::Expected<std::vector<int64_t>> coveredKeyIds(Database &DB, int64_t Test,
                                                   llvm::StringRef Name);

/// Replaces the keys test \p Test covers with \p Ids (sorted, unique).
llvm::Error writeCoveredKeyIds(Database &DB, int64_t Test,
                               const std::vector<int64_t> &Ids);

/// The names of the tests \p Ids, sorted.
llvm::Expected<std::vector<std::string>> testNames(Database &DB,
                                                   const IdSet &Ids);

/// What the open transaction changed in the key -> tests bitmaps, and the
/// key ids it looked up.
class CoverageIndex {
public:
  /// Test \p Test now covers (or no longer covers) key \p Key.
  llvm::Error add(int64_t Key, int64_t Test);
  llvm::Error remove(int64_t Key, int64_t Test);
  /// Writes every changed bitmap; called before the transaction commits
  /// and before a query reads the bitmaps.
  llvm::Error flush(Database &DB);
  /// Forgets the changes and the cached key ids (after a rollback).
  void discard();

  /// The id of element key \p Key (interned when new), cached.
  llvm::Expected<int64_t> keyId(Database &DB, llvm::StringRef Key);

  /// The tests covering any key whose id \p Keys returns (one integer
  /// column), after flushing. A key whose bitmap is damaged is answered
  /// from the key lists of test_coverage, counting a test whose list is
  /// unreadable as covering it, and is noted (damagedKeys()).
  llvm::Expected<IdSet> testsCovering(Database &DB, Statement &Keys);
  /// The tests covering element key \p Key, as testsCovering; none when
  /// the key is unknown (it is not interned).
  llvm::Expected<IdSet> testsCoveringKey(Database &DB, llvm::StringRef Key);
  /// The tests covering any element of the file version \p Path,
  /// \p ContentHash.
  llvm::Expected<IdSet> testsCoveringFile(Database &DB, llvm::StringRef Path,
                                          llvm::StringRef ContentHash);

  /// The damaged bitmaps queries met since the store was opened.
  const std::set<int64_t> &damagedKeys() const { return DamagedKeys; }
  /// The tests whose unreadable key list those queries counted as covering.
  const IdSet &unreadableTests() const { return UnreadableTests; }

private:
  struct Change {
    IdSet Added, Removed;
  };
  std::unordered_map<int64_t, Change> Pending;
  llvm::StringMap<int64_t> KeyIds;
  std::set<int64_t> DamagedKeys;
  IdSet UnreadableTests;
};

/// Schema step 8's data migration: fills coverage_keys from the rows of
/// the `coverage` table (later, the view over test_coverage), one key at a
/// time in key order.
llvm::Error buildCoverageBitmaps(Database &DB);

/// Store::repairCoverage in the caller's transaction: drops the key lists
/// that are not lists of ids and makes every bitmap again from the others.
llvm::Expected<CoverageRepair> repairCoverageBitmaps(Database &DB);

} // namespace store
} // namespace tia

#endif // TIA_LIB_STORE_COVERAGEBITMAPS_H
