//===- CoverageIndex.h - the element -> tests coverage index ----*- C++ -*-===//
//
// Private to lib/Store. The current coverage is stored twice (schema 13):
// per test, the sorted ids of the element keys it covers (test_coverage);
// per element key, the ids of the tests that cover it (coverage_blocks), cut
// in blocks of TestsPerBlock test ids. Both are IdList encodings, about 1.1
// bytes per id. Selection reads the key -> tests side; everything that goes
// from a test to its keys reads the test's list, which is the source of
// truth: a damaged block is answered from the lists and made again from them
// by `tia coverage repair`.
//
// A transaction collects the changes to the key -> tests side in memory
// (CoverageIndex) and writes each changed block once, just before it
// commits (or earlier, when the changes held grow past MaxPendingEdits). Blocks
// keep that write small: importing 1,000 new tests rewrites the one block their
// ids fall in, not every test list of every key.
//
//===----------------------------------------------------------------------===//
#ifndef TIA_LIB_STORE_COVERAGEINDEX_H
#define TIA_LIB_STORE_COVERAGEINDEX_H

#include "Database.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

struct roaring_bitmap_s;

namespace tia {
namespace store {

/// A set of 32-bit ids (a CRoaring bitmap) that frees itself: how a key's
/// tests are held in memory. Schemas 8 to 12 also stored them so
/// (serialize()), which the migration to schema 13 reads.
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
  /// Adds \p Ids, sorted.
  void addMany(llvm::ArrayRef<uint32_t> Ids);
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

/// How many test ids one coverage_blocks row covers: block B of a key
/// holds its tests with ids in [B * TestsPerBlock, (B + 1) * TestsPerBlock).
constexpr int64_t TestsPerBlock = 4096;

/// The element key ids of test_coverage's \p Bytes, or an error naming
/// \p What when they are not a list of ids (a damaged database).
llvm::Expected<std::vector<int64_t>> decodeKeyIds(llvm::StringRef Bytes,
                                                  llvm::StringRef What);

/// The sorted key ids test \p Test (named \p Name) covers now.
llvm::Expected<std::vector<int64_t>> coveredKeyIds(Database &DB, int64_t Test,
                                                   llvm::StringRef Name);

/// Replaces the keys test \p Test covers with \p Ids (sorted, unique).
llvm::Error writeCoveredKeyIds(Database &DB, int64_t Test,
                               const std::vector<int64_t> &Ids);

/// \p Ids as a JSON array, for json_each() in a query.
std::string idsJson(llvm::ArrayRef<int64_t> Ids);

/// The names of the tests \p Ids, sorted.
llvm::Expected<std::vector<std::string>> testNames(Database &DB,
                                                   const IdSet &Ids);

/// The element keys named by \p Ids, sorted.
llvm::Expected<std::vector<std::string>>
keyNames(Database &DB, const std::vector<int64_t> &Ids);

/// One change to the key -> tests lists: test \c Test now covers key
/// \c Key, or no longer does.
struct CoverageEdit {
  int64_t Key;
  uint32_t Test;
  bool Covers;
};

/// What the open transaction changed in the key -> tests lists, and the
/// key ids it looked up.
class CoverageIndex {
public:
  /// Test \p Test now covers (or no longer covers) key \p Key.
  llvm::Error add(int64_t Key, int64_t Test);
  llvm::Error remove(int64_t Key, int64_t Test);
  /// Writes every changed block; called before the transaction commits
  /// and before a query reads the blocks.
  llvm::Error flush(Database &DB);
  /// flush() when the changes held reach MaxPendingEdits, so that a
  /// transaction as large as a merge of whole databases holds a bounded
  /// share of them in memory.
  llvm::Error flushIfLarge(Database &DB);
  static constexpr size_t MaxPendingEdits = 2 << 20; // 32 MiB of edits
  /// Forgets the changes and the cached key ids (after a rollback).
  void discard();

  /// The id of element key \p Key (interned when new), cached.
  llvm::Expected<int64_t> keyId(Database &DB, llvm::StringRef Key);

  /// The tests covering any key whose id \p Keys returns (one integer
  /// column), after flushing. A key with a damaged block is answered from
  /// the key lists of test_coverage, counting a test whose list is
  /// unreadable as covering it, and is noted (damagedKeys()).
  llvm::Expected<IdSet> testsCovering(Database &DB, Statement &Keys);
  /// The tests covering element key \p Key, as testsCovering; none when
  /// the key is unknown (it is not interned).
  llvm::Expected<IdSet> testsCoveringKey(Database &DB, llvm::StringRef Key);
  /// The tests covering any element of the file version \p Path,
  /// \p ContentHash.
  llvm::Expected<IdSet> testsCoveringFile(Database &DB, llvm::StringRef Path,
                                          llvm::StringRef ContentHash);

  /// The keys with a damaged block that queries met since the store was
  /// opened.
  const std::set<int64_t> &damagedKeys() const { return DamagedKeys; }
  /// The tests whose unreadable key list those queries counted as covering.
  const IdSet &unreadableTests() const { return UnreadableTests; }

private:
  llvm::Error writeEdits(Database &DB, std::vector<CoverageEdit> &Edits);

  /// In call order: of the changes of one (key, test), the last wins.
  std::vector<CoverageEdit> Pending;
  llvm::StringMap<int64_t> KeyIds;
  std::set<int64_t> DamagedKeys;
  IdSet UnreadableTests;
};

/// Writes the key -> tests lists of key \p Key, replacing its blocks.
llvm::Error writeKeyTests(Database &DB, int64_t Key,
                          const std::vector<uint32_t> &Tests);

/// Store::repairCoverage in the caller's transaction: drops the key lists
/// that are not lists of ids and makes every block again from the others.
llvm::Expected<CoverageRepair> repairCoverageIndex(Database &DB);

} // namespace store
} // namespace tia

#endif // TIA_LIB_STORE_COVERAGEINDEX_H
