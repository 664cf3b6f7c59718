//===- PredictInternal.h - history, features and causes ---------*- C++ -*-===//
//
// Private to lib/Predict. The history a model learns from is replayed in
// chronological order through a HistoryState: for each tested commit the
// features of its (commit, test) rows are taken from the state as it was
// before the commit, and only then are the commit's changes and outcomes
// absorbed, so no row sees its own future. Ranking a new change replays the
// same history and takes the features of one more commit.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_PREDICT_PREDICTINTERNAL_H
#define TIA_LIB_PREDICT_PREDICTINTERNAL_H

#include "Booster.h"
#include "tia/Config/Config.h"
#include "tia/Git/History.h"
#include "tia/Predict/Predict.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>

namespace tia {
namespace predict {

constexpr int64_t Day = 86400;

using Clock = std::chrono::steady_clock;
inline double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}
constexpr float Missing = std::numeric_limits<float>::quiet_NaN();

//===----------------------------------------------------------------------===//
// Feature layout
//===----------------------------------------------------------------------===//

/// Features of one changed file, as T-TS defines them.
enum FileFeature : unsigned {
  FStatus,    ///< git's change type, 1 added .. 6 type-changed
  FAdded,     ///< lines added
  FDeleted,   ///< lines deleted
  FAuthors,   ///< distinct authors of the file before the change
  FChanges3,  ///< changes of the file in the 3 days before
  FChanges14, ///< ... 14 days
  FChanges56, ///< ... 56 days
  FileFeatures
};

/// Per cross file (one of the three changed files nearest to the test's
/// file): its directory distance to the test file, its extension class, and
/// its FileFeatures.
constexpr unsigned CrossSlots = 3;
constexpr unsigned CrossWidth = 2 + FileFeatures;

/// The columns before the bag of files.
enum Column : unsigned {
  // The commit.
  CFiles,
  CAdded,
  CDeleted,
  CUnknownFiles, ///< changed files without a slot of their own
  CUnknownAdded,
  CUnknownDeleted,
  // The test.
  CFailRate7,
  CFailRate14,
  CFailRate28,
  CFailRateAll,
  CRuns28,
  CFailedLast,
  CDuration,
  // The test and the changed files: how often the test failed before when
  // one of them (or its directory) changed.
  CCofailFileRate,
  CCofailDirRate,
  CCofailFileCount,
  CCross,
  // What tia knows besides history.
  CCoveredModified = CCross + CrossSlots * CrossWidth,
  CSelected,
  FixedColumns
};

/// Every column's name: the fixed ones, then "file[PATH].FEATURE" for each
/// path of \p Vocabulary.
std::vector<std::string>
featureNames(const std::vector<std::string> &Vocabulary);

/// Extension classes of the cross files.
unsigned extensionClass(llvm::StringRef Path);

//===----------------------------------------------------------------------===//
// Changes and their possible failure causes
//===----------------------------------------------------------------------===//

/// One changed file with its features as of the change.
struct ChangedFile {
  std::string Path;
  std::array<float, FileFeatures> Values;
};

/// The files of one change that can cause a failure, with their features.
struct ChangeFeatures {
  std::vector<ChangedFile> Files; ///< sorted by path
  /// Per test, modified elements it covers; std::nullopt when no changed
  /// file had both versions indexed.
  std::optional<llvm::StringMap<unsigned>> Covered;
};

/// Decides which changed files can cause a failure: documentation (by
/// predict.docs) and comment- or layout-only edits cannot. C++ files are
/// compared by token hash (the stored index's element and residual hashes
/// when both versions are indexed, else Clang's raw lexer over the blobs);
/// Python files by their lines without comments and blank lines.
class CauseFilter {
public:
  CauseFilter(const git::Repository &Repo, Store &S,
              const config::PredictConfig &Config)
      : Repo(Repo), S(S), Config(Config) {}
  /// Why \p F cannot cause a failure; std::nullopt when it can.
  llvm::Expected<std::optional<std::string>> whyIgnored(const git::FileStat &F);
  /// The modified elements of \p Files (indexed versions only) and the
  /// tests covering them.
  llvm::Expected<std::optional<llvm::StringMap<unsigned>>>
  coveredModified(const std::vector<git::FileStat> &Files);

private:
  llvm::Expected<std::string> content(const git::FileStat &F, bool New);
  const git::Repository &Repo;
  Store &S;
  const config::PredictConfig &Config;
  std::map<std::pair<std::string, std::string>, std::optional<std::string>>
      Memo;
};

/// Merges the files of consecutive commits into one change per path: lines
/// add up, the status is the last one, a file added then modified stays
/// added.
std::vector<git::FileStat>
mergeChanges(const std::vector<const git::CommitInfo *> &Commits);

//===----------------------------------------------------------------------===//
// History replay
//===----------------------------------------------------------------------===//

/// A test's outcome at one tested commit.
struct Observation {
  std::string Test;
  bool Failed = false;
  double Seconds = 0;
};

/// One (commit, test) row before the bag of files is laid out.
struct Row {
  std::array<float, FixedColumns> Fixed;
  unsigned Change = 0; ///< index into the replay's changes
  float Label = 0;
  unsigned Commit = 0; ///< chronological index of the tested commit
  std::string Test;
};

class HistoryState {
public:
  /// \p TestFiles: each test's source file (may be missing).
  explicit HistoryState(llvm::StringMap<std::string> TestFiles)
      : TestFiles(std::move(TestFiles)) {}

  /// The features of \p Files (possible causes) as of \p Time.
  std::vector<ChangedFile>
  fileFeatures(const std::vector<git::FileStat> &Changed, int64_t Time) const;
  /// The fixed columns of (\p Change, \p Test) as of \p Time; \p Ev
  /// overrides the coverage evidence.
  std::array<float, FixedColumns> row(const ChangeFeatures &Change,
                                      llvm::StringRef Test, int64_t Time,
                                      const Evidence *Ev) const;

  /// Adds \p C's file changes to the files' history.
  void absorbCommit(const git::CommitInfo &C);
  /// Adds the outcomes of a tested commit at \p Time whose possible causes
  /// were \p Causes.
  void absorbOutcomes(int64_t Time, const std::vector<Observation> &Obs,
                      const std::vector<ChangedFile> &Causes);

  /// The newest time absorbed.
  int64_t lastTime() const { return LastTime; }

private:
  struct FileHistory {
    std::vector<int64_t> Times;
    llvm::StringSet<> Authors;
  };
  struct TestHistory {
    std::vector<int64_t> Times;
    std::vector<unsigned> CumFails; ///< failures among the first I+1
    std::vector<double> CumSeconds; ///< seconds of the first I+1
    llvm::StringMap<unsigned> FailedWithFile, FailedWithDir;
  };
  llvm::StringMap<std::string> TestFiles;
  llvm::StringMap<FileHistory> Files;
  llvm::StringMap<TestHistory> Tests;
  llvm::StringMap<unsigned> FileTested, DirTested; ///< tested commits changing
  int64_t LastTime = 0;
};

/// Lays out \p Rows with the bag of files of \p Vocabulary (path -> slot).
SparseRows layOut(const std::vector<Row> &Rows,
                  const std::vector<ChangeFeatures> &Changes,
                  const llvm::StringMap<unsigned> &Vocabulary);

/// The heuristic order of rows: previously failing, then modified elements
/// covered, then failure rate, then duration (shortest first), then \p Ids.
std::vector<size_t> heuristicOrder(const std::vector<Row> &Rows);

/// The history replayed up to a revision.
struct Replay {
  std::unique_ptr<HistoryState> State;
  /// With rows: one per tested commit that has rows, and its rows in
  /// chronological order.
  std::vector<ChangeFeatures> Changes;
  std::vector<Row> Rows;
  unsigned Runs = 0;           ///< runs at commits of the history
  unsigned TestedCommits = 0;  ///< commits with runs
  unsigned IgnoredCommits = 0; ///< tested, but documentation/comments only
  unsigned FlakyRowsDropped = 0;
};

/// Replays the first-parent history of \p Head with the runs started at or
/// after \p Since. With \p EmitRows, makes the rows of every tested commit
/// with a possible cause, leaving out the tests of \p Flaky and the
/// (commit, test) pairs whose outcome flipped. Progress goes to \p Err
/// unless \p Quiet.
llvm::Expected<Replay> replay(const git::Repository &Repo, Store &S,
                              CauseFilter &Filter, llvm::StringRef Head,
                              int64_t Since, bool EmitRows,
                              const llvm::StringSet<> &Flaky,
                              llvm::raw_ostream &Err, bool Quiet);

//===----------------------------------------------------------------------===//
// The model's metadata
//===----------------------------------------------------------------------===//

struct ModelMeta {
  int64_t Since = 0;
  std::vector<std::string> Vocabulary;
  BoostParams Params;
  ModelSummary Summary;
};

std::string encodeMeta(const ModelMeta &M);
/// Fails with "the stored model's metadata is malformed: ..." .
llvm::Expected<ModelMeta> decodeMeta(llvm::StringRef Json);

/// The directory of \p Path ("" at the root).
llvm::StringRef parentDir(llvm::StringRef Path);
/// Steps from \p A's directory to \p B's through their common ancestor.
unsigned directoryDistance(llvm::StringRef A, llvm::StringRef B);

} // namespace predict
} // namespace tia

#endif // TIA_LIB_PREDICT_PREDICTINTERNAL_H
