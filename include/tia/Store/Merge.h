//===- tia/Store/Merge.h - shard databases into one -------------*- C++ -*-===//
//
// `tia merge OUT IN...`: the databases of `--shard K/N` workers become the
// database one unsharded run would have made. Two parts: matching the
// inputs' shard records into complete (or incomplete) sets of shares, which
// is plain data in and out, and copying what each share did into OUT.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_STORE_MERGE_H
#define TIA_STORE_MERGE_H

#include "tia/Store/Store.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Progress;

namespace merge {

/// The most shares a shard record may name: far more CI workers than any
/// pipeline runs, few enough that matchShares lists every missing share.
constexpr unsigned MaxShares = 10000;

/// Reads a shard record as a shard's database keeps it: \p Text, the JSON
/// value of meta row \p Key ("shard collect"). Fails with "meta 'KEY' is
/// not a shard record tia can read" for anything else: no JSON object
/// (or one nested deeper than tia reads), no kind, or a share K/N outside
/// 1 <= K <= N <= MaxShares.
llvm::Expected<ShardRecord> parseShardRecord(llvm::StringRef Key,
                                             llvm::StringRef Text);

/// What one input says it is.
struct InputRecords {
  std::string Path;
  std::vector<ShardRecord> Records;
};

/// A share no input holds.
struct MissingShare {
  std::string Kind;
  unsigned K = 0;
  unsigned N = 0;
  /// The units the share held (translation units, tests, test files),
  /// sorted.
  std::vector<std::string> Units;
};

/// The shares of one kind of work ("index", "collect", "pytest").
struct KindShares {
  std::string Kind;
  unsigned N = 0;
  std::string PlanHash;
  std::string Commit;
  /// Share K -> the index of the input holding it (in the InputRecords
  /// given), for the shares present.
  std::map<unsigned, size_t> Holders;
  std::vector<MissingShare> Missing;
  /// Every unit of the plan, sorted.
  std::vector<std::string> Units;
};

/// How the inputs fit together.
struct ShareMatch {
  /// Sorted by kind.
  std::vector<KindShares> Kinds;
  /// The commit every share was done at.
  std::string Commit;
  /// Inputs given more than once (the same path): the later ones, ignored.
  std::set<size_t> Repeated;
};

/// Matches the inputs' shard records. Refused, with one line naming the
/// file and what to do: an input that is no shard; records of another
/// schema than \p Schema; shares of one kind planned differently (another
/// N or plan hash); shares done at different commits; two files holding
/// the same share. A share no input holds is no error: it is listed in
/// Missing.
llvm::Expected<ShareMatch> matchShares(const std::vector<InputRecords> &Inputs,
                                       int64_t Schema);

/// One input, open for reading.
struct Input {
  std::string Path;
  std::unique_ptr<Store> S;
  std::vector<ShardRecord> Records;
};

/// What mergeInto did.
struct MergeSummary {
  unsigned Shares = 0;       ///< inputs merged (repeats not counted)
  unsigned FileVersions = 0; ///< distinct file versions of the inputs
  unsigned TranslationUnits = 0;
  unsigned CoveredTests = 0; ///< tests whose coverage was copied
  unsigned Results = 0;      ///< results copied into the merged runs
  unsigned Runs = 0;         ///< runs added to OUT
  /// Tests of missing shares, added without coverage.
  unsigned UncoveredTests = 0;
  /// Tests the shares of a C++ collect found gone, retired in Out.
  unsigned RetiredTests = 0;
};

/// Copies into \p Out, in one transaction, what the shares of \p Match did:
/// the index (every file version, the translation units and one revision
/// that knows the files of all of them; the index shares' translation
/// units replace Out's, and those of no share are forgotten), and per kind
/// of collection one run with every share's results and, for the tests a
/// share ran, their coverage at the shards' commit, their info and the
/// files they read, and the Python runtime evidence. Out's history (older
/// runs, snapshots, models, observations) stays. The tests of a missing
/// collect share are added without coverage, so that selection runs them
/// as never covered; the tests the shares of a C++ collect retired as gone
/// are retired in Out. Out is left as it was on failure.
llvm::Expected<MergeSummary> mergeInto(Store &Out, std::vector<Input> &Inputs,
                                       const ShareMatch &Match, Progress &Prog);

} // namespace merge
} // namespace tia

#endif // TIA_STORE_MERGE_H
