//===- tia/Store/Store.h - the SQLite store -------------------------------===//
//
// The one place tia keeps what it knows: indexed file versions and their
// elements, translation units and their compile commands, index revisions,
// tests and the element -> test coverage map. Only this library talks to
// SQLite. Every method that writes several rows does so in one transaction;
// callers group a whole command's writes with transaction().
//
//===----------------------------------------------------------------------===//

#ifndef TIA_STORE_STORE_H
#define TIA_STORE_STORE_H

#include "tia/Support/Model.h"
#include "tia/Support/Relocation.h"
#include "tia/Support/Shard.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tia {

class Database;
namespace store {
class CoverageIndex;
} // namespace store

/// A file path and the content hash (git blob id) of one of its versions.
using FileVersionRef = std::pair<std::string, std::string>;

/// A translation unit as the last index saw it.
struct StoredTranslationUnit {
  std::string Path; ///< repository-relative main file
  CompileCommand Command;
  std::vector<FileVersionRef> Dependencies; ///< sorted by path
  /// Seconds its last parse took; 0 when not measured (an index made
  /// before schema 11, or a unit stored without a parse).
  double ParseSeconds = 0;
};

/// What a shard database is (`--shard K/N`): share K of N of a plan, made
/// at a commit, as `tia merge` reads it. A database holds one record per
/// kind of work.
struct ShardRecord {
  std::string Kind; ///< "index", "collect" or "pytest"
  unsigned K = 1;
  unsigned N = 1;
  std::string PlanHash; ///< shard::ShardPlan::Hash
  std::string Commit;   ///< the commit the share was done at; may be empty
  std::string Plan;     ///< every unit with its share (shard::planText)
  int64_t RunId = 0;    ///< collect, pytest: the run the share recorded
  int64_t Schema = 0;   ///< the schema version it was written with
};

/// The record of share \p Spec of \p Plan, done at \p Commit (recording
/// run \p RunId), for the shard's database.
ShardRecord shardRecordOf(llvm::StringRef Kind, const shard::ShardPlan &Plan,
                          const shard::ShardSpec &Spec, llvm::StringRef Commit,
                          int64_t RunId = 0);

/// A test and where its coverage came from.
struct TestRecord {
  std::string Id; ///< "gtest:bin:Suite.Name", "ctest:name", ...
  std::string
      CoverageCommit; ///< commit the coverage was collected at; may be empty
  unsigned CoveredElements = 0;
};

/// One run of tests: a collect, an imported results file, a `tia run`.
struct RunRecord {
  int64_t Id = 0;
  std::string Commit;    ///< commit the tests ran at; may be empty
  int64_t StartedAt = 0; ///< seconds since the epoch
  /// What recorded it: "collect", "junit", "run", ...
  std::string Source;
};

/// One revision of the index: the commit it was made at and every file
/// version it knows.
struct RevisionRecord {
  std::string Commit;                ///< may be empty (indexed outside git)
  bool Dirty = false;                ///< the work tree had uncommitted changes
  std::vector<FileVersionRef> Files; ///< sorted by path
};

/// Coverage that selection uses as one map: the coverage every recorded
/// test had once coverage was last recorded at Commit. Recording coverage at
/// a new commit starts a snapshot that holds every test of the previous
/// one; the tests recorded at that commit replace theirs. So after a partial
/// update some tests' coverage comes from older commits.
struct CoverageSnapshot {
  int64_t Id = 0;        ///< grows with every snapshot
  std::string Commit;    ///< may be empty (coverage recorded outside git)
  int64_t CreatedAt = 0; ///< seconds since the epoch
  unsigned Tests = 0;    ///< the tests it holds
  /// The distinct commits its tests' coverage was collected at, sorted:
  /// only Commit after a full collection. Retired tests count in neither.
  std::vector<std::string> CoverageCommits;
};

/// What the recorded results say about one test.
struct TestStatistics {
  std::string Id;
  unsigned Results = 0;  ///< outcomes recorded, retries included
  unsigned Failures = 0; ///< of those, failures (isFailure)
  /// The latest outcome (newest run, last attempt), its run and commit.
  Outcome Last = Outcome::Passed;
  int64_t LastRun = 0;
  std::string LastCommit;
  /// Mean duration of the results that were not skipped; 0 when none.
  double MeanSeconds = 0;
  unsigned TimedResults = 0; ///< how many results MeanSeconds is over
};

/// A test whose outcome changed when nothing else did: between runs of the
/// same commit, or between attempts (retries) of one run.
struct FlakyTest {
  std::string TestId;
  /// Pairs of consecutive results of the test at the same commit (retries
  /// of one run and reruns of the commit; skipped results left out).
  unsigned Pairs = 0;
  /// Those pairs whose outcomes differ, one passed and one a failure.
  unsigned Flips = 0;
  /// Flips / Pairs: how often running the test again changed its outcome.
  double FlipRate = 0;
  /// The newest run holding a flip.
  int64_t LastFlipRun = 0;
};

/// A result together with the run that recorded it.
struct RunResult {
  int64_t RunId = 0;
  TestResult Result;
};

/// A failure-prediction model as the store keeps it. The store does not
/// read Metadata or Booster; lib/Predict does, and checks FormatVersion.
struct StoredModel {
  int64_t Id = 0;        ///< assigned by putModel
  int FormatVersion = 0; ///< tia's version of the Metadata/Booster pair
  int64_t CreatedAt = 0; ///< seconds since the epoch
  std::string Metadata;  ///< JSON text
  std::string Booster;   ///< the booster as XGBoost's JSON text
};

/// The record of an observed run (`tia run --observe`): the selection tia
/// would have made for it. The store does not read Record; lib/Observe
/// does, and checks FormatVersion.
struct StoredObservation {
  int64_t RunId = 0;     ///< the run of the whole suite it observed
  int FormatVersion = 0; ///< tia's version of Record
  std::string Record;    ///< JSON text
};

/// What queries of the current coverage met that the database should not
/// hold (docs/Reliability.md, "Damaged coverage").
struct CoverageDamage {
  /// Element keys whose tests (coverage_blocks) could not be read,
  /// sorted: their tests were read from the per-test key lists instead.
  std::vector<std::string> Keys;
  /// Tests whose key list could not be read either, sorted: counted as
  /// covering each of those keys.
  std::vector<std::string> UnreadableTests;

  bool empty() const { return Keys.empty() && UnreadableTests.empty(); }
};

/// What Store::repairCoverage did.
struct CoverageRepair {
  unsigned DamagedKeys = 0; ///< keys whose tests could not be read
  unsigned Keys = 0;        ///< keys whose tests were written again
  unsigned Tests = 0;       ///< tests whose key lists they were made from
  /// Tests whose key list could not be read, sorted: their coverage is
  /// gone, from the snapshots too (selection treats them as tests with no
  /// coverage recorded until they are collected again).
  std::vector<std::string> DroppedTests;
};

/// An element key together with the file it lives in.
struct KeyInFile {
  std::string Key;
  std::string File;
};

/// What one run of the Python tests observed that static selection cannot
/// see in the source (`tia collect --pytest` records it).
struct RuntimeEvidence {
  /// One observation.
  struct Access {
    /// The test file it happened in (repository-relative), or "*" for what
    /// ran outside any test (imports, collection), shared by all files.
    std::string Scope;
    /// "call": a probed function ran (Value is its element key); "name": a
    /// name was reached dynamically (an operator method ran, getattr,
    /// hasattr, setattr or inspect named it); "import": importlib imported
    /// module Value.
    std::string Kind;
    std::string Value;
  };
  int64_t Id = 0; ///< set when read back
  std::string Commit;
  /// True when every test file ran in a process of its own, so that what
  /// a file's scope lacks did not run for it.
  bool Isolated = true;
  /// The test files the run covers; their earlier evidence is replaced.
  std::vector<std::string> TestFiles;
  /// Keys of the functions the run probed, sorted.
  std::vector<std::string> Probed;
  /// Sorted by (Scope, Kind, Value).
  std::vector<Access> Accesses;
};

/// The files one test read while `tia collect` traced it
/// (docs/Collection.md, "Files tests read"). Paths are repository-relative;
/// "." is the repository root.
struct FileReads {
  std::string TestId;
  std::string Commit; ///< the commit the test ran at; may be empty
  /// False when the trace may have missed reads (the test crashed, a
  /// process of it could not be traced): selection counts the test as
  /// reading every file.
  bool Complete = true;
  std::vector<std::string> Files;       ///< files it read, sorted
  std::vector<std::string> Directories; ///< directories it listed, sorted
  /// Directories only its runner (lit) listed, to find its tests, sorted:
  /// a new test file there changes no other test.
  std::vector<std::string> RunnerDirectories;
};

/// A build object a test crossed into: an extension module or shared
/// library its process loaded, or a program of the build it ran
/// (docs/Collection.md, "Across languages and processes").
struct Boundary {
  std::string Object; ///< repository-relative when inside it, else absolute
  bool Program = false;
  /// Per-test coverage of the object was recorded: the coverage map holds
  /// what the test ran in it.
  bool Covered = false;
  /// Why not, when not covered ("not built for coverage").
  std::string Problem;
};

/// The boundaries one test crossed, as `tia collect --pytest` saw them.
struct TestBoundaries {
  std::string TestId;
  std::vector<Boundary> Objects; ///< sorted by Object
};

/// A test selected because it crossed into an object without coverage.
struct BoundaryReader {
  std::string TestId;
  std::string Object;
  bool Program = false;
  std::string Problem;
};

/// A reference into an element, as the latest index saw it.
struct ReferenceFrom {
  /// Key of the referencing element; "cpp:file:PATH" for the code of a file
  /// outside every element.
  std::string From;
  std::string File; ///< the file that holds the reference
  ReferenceKind Kind = ReferenceKind::Type;
  /// The referencing element's kind; std::nullopt when From is no element.
  std::optional<ElementKind> FromKind;
  std::string FromDisplay; ///< empty when From is no element of File
  bool FromCompileTime = false;
};

/// One reference of the latest revision's files (the C++ reference graph).
struct GraphEdge {
  std::string From, To;
  ReferenceKind Kind = ReferenceKind::Call;
  std::string File; ///< the file that holds the reference
};

/// One element of the latest revision's files, as the reference graph
/// needs it.
struct GraphElement {
  std::string Key;
  ElementKind Kind = ElementKind::Function;
  std::string Display;
  std::string File;
  unsigned BeginLine = 0, EndLine = 0;
};

/// An #include directive of a file of the latest index.
struct IncludeIn {
  std::string File; ///< the file with the directive
  IncludeDirective Directive;
};

class Store {
public:
  enum class Mode {
    ReadOnly, ///< fails when the file does not exist
    ReadWrite ///< creates the file (and its parent directories) if missing
  };

  /// Schema version this tia writes, and the oldest version it can read.
  static constexpr int SchemaVersion = 15;

  /// Coverage snapshots kept: recording coverage at a new commit drops the
  /// oldest beyond this many, with the coverage only they referred to.
  static constexpr unsigned KeptSnapshots = 10;

  /// Opens the database at \p Path (":memory:" for an in-memory one),
  /// migrating an older schema step by step in ReadWrite mode. Errors, each
  /// leaving the file as it was:
  ///  - "cannot open database PATH: REASON"
  ///  - "no tia database at PATH: run 'tia index' first" (ReadOnly, missing)
  ///  - "PATH is not a tia database: REASON (remove it or pass another --db)"
  ///  - "PATH was made by a newer tia (schema N, this tia knows up to M):
  ///     upgrade tia or pass another --db"
  static llvm::Expected<std::unique_ptr<Store>> open(llvm::StringRef Path,
                                                     Mode M);
  ~Store();

  /// The database file (":memory:" for a store in memory), for messages.
  llvm::StringRef path() const;

  /// The schema version of the open database.
  int schemaVersion() const;

  // --- Where stored paths are anchored (Locations.cpp) ---

  /// Sets the repository root and build directory that the paths in
  /// compile commands and test commands are stored relative to and resolved
  /// against (docs/Formats.md, "Paths"): what this store writes is written
  /// relative to them, what it reads is read as if made in them. Until it
  /// is called, paths are stored and read as they are.
  void setPathBases(PathBases B);
  const PathBases &pathBases() const;
  /// Records the build directory of the current bases as the one the
  /// database was indexed with (relative to the root when it lies inside
  /// it); nothing without one.
  llvm::Error recordBuildDir();
  /// The build directory recorded by recordBuildDir(), resolved against the
  /// current root; std::nullopt when none was recorded.
  llvm::Expected<std::optional<std::string>> recordedBuildDir();
  /// Records that the index holds every translation unit of the
  /// compilation database whose text is \p Text (its relocatable form's
  /// hash, so that another checkout of the same build matches).
  llvm::Error recordCompileDatabase(llvm::StringRef Text);
  /// Whether \p Text is the compilation database recordCompileDatabase()
  /// saw; false when none was recorded.
  llvm::Expected<bool> isRecordedCompileDatabase(llvm::StringRef Text);
  /// What an index share records instead: its share of the compilation
  /// database \p Text was indexed. The share alone does not hold the whole
  /// build; a merge of every share does (Merge.cpp).
  llvm::Error recordShareOfCompileDatabase(llvm::StringRef Text);
  /// Forgets that record: this database no longer holds a whole share.
  llvm::Error forgetShareOfCompileDatabase();
  /// The fingerprint recordShareOfCompileDatabase() wrote, if any.
  llvm::Expected<std::optional<std::string>> shareOfCompileDatabase();
  /// Sets (or, with std::nullopt, forgets) the fingerprint of the
  /// compilation database the index holds whole.
  llvm::Error
  setCompileDatabaseFingerprint(const std::optional<std::string> &Fingerprint);
  /// Records \p Version as what compiler \p Program (a compile command's
  /// first argument) said it is when indexed, so that a checkout where the
  /// same compiler lies elsewhere can tell it is the same.
  llvm::Error putCompilerVersion(llvm::StringRef Program,
                                 llvm::StringRef Version);
  /// The version recorded for \p Program; std::nullopt when none was.
  llvm::Expected<std::optional<std::string>>
  compilerVersion(llvm::StringRef Program);

  /// Runs \p Body in one transaction: committed when it succeeds, rolled
  /// back (and its error returned) when it fails. Nested calls join the
  /// outer transaction.
  llvm::Error transaction(llvm::function_ref<llvm::Error()> Body);

  // --- File versions and elements ---

  /// True when the elements of (\p Path, \p ContentHash) are stored.
  llvm::Expected<bool> hasFileVersion(llvm::StringRef Path,
                                      llvm::StringRef ContentHash);

  /// Stores one file version's index. When the version is already stored:
  /// element names are merged (a template seen instantiated in another TU
  /// gains names); a complete index replaces an incomplete one, and a
  /// Python index made with other settings (FileIndex::Python->Settings)
  /// replaces the stored one; otherwise the stored elements stay.
  llvm::Error putFileIndex(const FileIndex &F);

  /// The stored index of (\p Path, \p ContentHash), std::nullopt if absent.
  llvm::Expected<std::optional<FileIndex>>
  getFileIndex(llvm::StringRef Path, llvm::StringRef ContentHash);

  /// The Python extractor's reading of pytest's configuration files that
  /// `tia index` remembered (meta pytest_settings), when it was made from
  /// \p Key (python::PytestSettingsMemo); none otherwise.
  llvm::Expected<std::optional<std::string>>
  rememberedPytestSettings(llvm::StringRef Key);
  /// Remembers \p Answer, the reading of pytest's settings from \p Key, in
  /// place of the one before.
  llvm::Error rememberPytestSettings(llvm::StringRef Key,
                                     llvm::StringRef Answer);

  /// The settings fingerprint a Python version of (\p Path, \p ContentHash)
  /// was stored with; std::nullopt when no Python index of it is stored.
  llvm::Expected<std::optional<std::string>>
  pythonSettings(llvm::StringRef Path, llvm::StringRef ContentHash);

  /// What name-based selection needs of a stored Python version of
  /// (\p Path, \p ContentHash): its completeness, tests and Python info
  /// (imports, name nodes and bindings), without its elements;
  /// std::nullopt when no Python index of it is stored.
  llvm::Expected<std::optional<FileIndex>>
  getPythonGraph(llvm::StringRef Path, llvm::StringRef ContentHash);

  /// The module name of every Python file of the latest revision, as
  /// (path, module), sorted by path.
  llvm::Expected<std::vector<std::pair<std::string, std::string>>>
  currentPythonModules();

  /// Every import of the Python files of the latest revision, with the
  /// path of the importing file; sorted by (path, line, module, name).
  llvm::Expected<std::vector<std::pair<std::string, ImportRecord>>>
  currentImports();

  // --- Translation units ---

  /// Records (replacing) how translation unit \p Path is compiled and which
  /// file versions it read.
  llvm::Error putTranslationUnit(const StoredTranslationUnit &TU);
  /// Forgets translation unit \p Path (it left the compilation database).
  llvm::Error removeTranslationUnit(llvm::StringRef Path);
  /// All translation units, sorted by path.
  llvm::Expected<std::vector<StoredTranslationUnit>> translationUnits();
  /// The translation units whose dependencies include \p Path, sorted.
  llvm::Expected<std::vector<StoredTranslationUnit>>
  translationUnitsReading(llvm::StringRef Path);

  // --- Index revisions ---

  /// Records that an index ran at \p Commit (empty outside git; \p Dirty
  /// when the work tree differed from it) and saw exactly \p Files.
  llvm::Expected<int64_t> addRevision(llvm::StringRef Commit, bool Dirty,
                                      const std::vector<FileVersionRef> &Files);
  /// The files of the latest revision, sorted by path; empty if none.
  llvm::Expected<std::vector<FileVersionRef>> currentFiles();
  /// The commit of the latest revision (std::nullopt when never indexed).
  llvm::Expected<std::optional<std::string>> currentCommit();

  /// Keys (with their files) of the elements in the latest revision's
  /// files that carry \p Name among their names, sorted by key.
  llvm::Expected<std::vector<KeyInFile>> keysForName(llvm::StringRef Name);
  /// The elements of the latest revision's version of \p Path that contain
  /// \p Line, innermost (shortest range) first.
  llvm::Expected<std::vector<Element>> elementsAt(llvm::StringRef Path,
                                                  unsigned Line);

  // --- References and includes (ReferenceStore.cpp) ---

  /// The references to element key \p Key from the latest revision's
  /// files, sorted by (from, file, kind).
  llvm::Expected<std::vector<ReferenceFrom>> referencesTo(llvm::StringRef Key);
  /// The #include directives of the latest revision's files whose spelling
  /// ends in the file name \p FileName ("a.h" for "lib/a.h"), sorted by
  /// (file, line).
  llvm::Expected<std::vector<IncludeIn>>
  includesNaming(llvm::StringRef FileName);
  /// Every reference of the latest revision's files, sorted by (file,
  /// from, to, kind).
  llvm::Expected<std::vector<GraphEdge>> currentReferences();
  /// Every element of the latest revision's files, sorted by (file, begin
  /// line, key).
  llvm::Expected<std::vector<GraphElement>> currentElements();
  /// The version of the C++ front end's reference graph the stored C++
  /// file versions were made with (meta key cpp_graph_version); 0 when
  /// never recorded (made before the graph had virtual, destructor,
  /// lambda and system-instantiation edges).
  llvm::Expected<int64_t> cppGraphVersion();
  llvm::Error setCppGraphVersion(int64_t Version);
  /// Forgets every stored C++ file version and translation unit, so that
  /// the next index parses them all again; tests, coverage, results and
  /// Python versions stay.
  llvm::Error forgetCppIndexes();
  /// The tests whose coverage includes an element of the file version
  /// (\p Path, \p ContentHash), sorted.
  llvm::Expected<std::vector<std::string>>
  testsCoveringFile(llvm::StringRef Path, llvm::StringRef ContentHash);

  // --- What tia merge copies (MergeStore.cpp) ---

  /// Every file version the database holds, of any revision, sorted.
  llvm::Expected<std::vector<FileVersionRef>> fileVersions();
  /// The latest revision of the index; std::nullopt before the first.
  llvm::Expected<std::optional<RevisionRecord>> currentRevision();
  /// Checks the file's structure (SQLite's quick_check), which opening
  /// does not read through: fails with "PATH is damaged: WHAT".
  llvm::Error checkIntact();
  /// Copies from \p From what its index recorded of the checkout it was
  /// made in: the build directory, the compilers' versions, the C++
  /// reference graph's version and the reading of pytest's settings, as
  /// stored (relocatable).
  llvm::Error copyIndexSettings(Store &From);
  /// Limits the pages SQLite keeps in memory to \p KiB (64 MiB by default,
  /// for imports): a database read once, such as a merge's input, needs
  /// few.
  llvm::Error limitPageCache(unsigned KiB);
  /// Copies from \p From the coverage of those of \p Tests whose coverage
  /// was collected at \p Commit, as putCoverage would write it, without
  /// going through the keys' names test by test; returns how many.
  llvm::Expected<unsigned> copyCoverage(Store &From,
                                        const std::set<std::string> &Tests,
                                        llvm::StringRef Commit);

  // --- Shards (ShardStore.cpp) ---

  /// Records \p R (replacing the record of its kind); Schema is set to
  /// this tia's.
  llvm::Error putShardRecord(const ShardRecord &R);
  /// The shard records, sorted by kind; empty for a database that is no
  /// shard. Fails on a record that does not read back.
  llvm::Expected<std::vector<ShardRecord>> shardRecords();
  /// Forgets every shard record: the database is no longer a shard.
  llvm::Error clearShardRecords();
  /// Forgets the shard record of kind \p Kind, if any: that work was since
  /// done whole.
  llvm::Error forgetShardRecord(llvm::StringRef Kind);
  /// The record of the index share this database holds (`tia index --shard
  /// K/N` with N > 1, not merged yet); std::nullopt for a whole index.
  llvm::Expected<std::optional<ShardRecord>> indexShare();

  // --- Tests and coverage ---

  /// Adds test \p Id if unknown.
  llvm::Error addTest(llvm::StringRef Id);
  /// Replaces the coverage of test \p Id (adding the test if unknown) with
  /// \p Keys, remembering it was collected at \p Commit, and records it in
  /// the snapshot of \p Commit (see CoverageSnapshot), which is started if
  /// new.
  llvm::Error putCoverage(llvm::StringRef Id, llvm::StringRef Commit,
                          const std::vector<std::string> &Keys);
  /// All tests, sorted by id.
  llvm::Expected<std::vector<TestRecord>> tests();
  /// tests() without a copy: the list stays as read while the holder keeps
  /// it, whatever the store does meanwhile. A selection reads the tests in
  /// several steps; at 40,000 tests each copy costs milliseconds.
  llvm::Expected<std::shared_ptr<const std::vector<TestRecord>>> sharedTests();
  /// The tests whose coverage includes \p Key, sorted.
  llvm::Expected<std::vector<std::string>> testsCovering(llvm::StringRef Key);
  /// The element keys test \p Id covers, sorted.
  llvm::Expected<std::vector<std::string>> coverageOf(llvm::StringRef Id);
  /// The damaged coverage the queries since the store was opened met and
  /// read around; empty for a sound database.
  llvm::Expected<CoverageDamage> coverageDamage();
  /// Makes the tests of each key again from the per-test key lists,
  /// which are the source of truth, in one transaction; a key list that is
  /// not readable is dropped with its test's coverage. Memory stays
  /// bounded (SQLite sorts on disk).
  llvm::Expected<CoverageRepair> repairCoverage();

  // --- Files tests read (FileReadStore.cpp) ---

  /// Replaces the recorded reads of test \p R.TestId (adding the test if
  /// unknown) with \p R.
  llvm::Error putFileReads(const FileReads &R);
  /// Every test's recorded reads, sorted by test id.
  llvm::Expected<std::vector<FileReads>> fileReads();
  /// The tests whose complete record, taken at the commit of their
  /// coverage, holds file \p Path (\p Listed: holds directory \p Path),
  /// sorted.
  llvm::Expected<std::vector<std::string>> testsReading(llvm::StringRef Path,
                                                        bool Listed);
  /// The tests whose trusted record holds directory \p Path as listed by
  /// their runner to find its tests (FileReads::RunnerDirectories), sorted.
  llvm::Expected<std::vector<std::string>>
  testsFindingTestsIn(llvm::StringRef Path);
  /// The tests whose reads selection cannot trust, sorted: those never
  /// traced, traced incompletely, or traced at another commit than their
  /// coverage (a later collect or import that did not trace them).
  llvm::Expected<std::vector<std::string>> testsWithoutTrustedReads();
  /// True when at least one test has a trusted record.
  llvm::Expected<bool> hasTrustedReads();

  // --- Build objects tests crossed into (BoundaryStore.cpp) ---

  /// Replaces the boundaries recorded for test \p B.TestId (adding the test
  /// if unknown) with \p B.
  llvm::Error putBoundaries(const TestBoundaries &B);
  /// Replaces the source files object \p Object is built from
  /// (repository-relative; "*" for every C and C++ file), which select
  /// reads for tests without coverage of it, and explain for those with.
  llvm::Error putBoundarySources(llvm::StringRef Object,
                                 const std::vector<std::string> &Sources);
  /// Every test's boundaries, sorted by test id and object.
  llvm::Expected<std::vector<TestBoundaries>> boundaries();
  /// The source files of \p Object as recorded, sorted.
  llvm::Expected<std::vector<std::string>>
  boundarySources(llvm::StringRef Object);
  /// The object test \p TestId crossed into with coverage that is built
  /// from \p Path (programs first, then by path); std::nullopt when none.
  llvm::Expected<std::optional<Boundary>>
  coveredBoundaryOf(llvm::StringRef TestId, llvm::StringRef Path);
  /// The tests that crossed, without coverage, into an object built from
  /// \p Path (or from files not known), sorted by test and object.
  llvm::Expected<std::vector<BoundaryReader>>
  testsBehindBoundary(llvm::StringRef Path);

  // --- Coverage snapshots ---

  /// Every kept snapshot, newest (greatest id) first.
  llvm::Expected<std::vector<CoverageSnapshot>> coverageSnapshots();
  /// The tests whose coverage in snapshot \p Snapshot includes \p Key,
  /// sorted.
  llvm::Expected<std::vector<std::string>> testsCovering(llvm::StringRef Key,
                                                         int64_t Snapshot);
  /// The tests whose coverage in snapshot \p Snapshot includes an element
  /// of the file version (\p Path, \p ContentHash), sorted.
  llvm::Expected<std::vector<std::string>>
  testsCoveringFile(llvm::StringRef Path, llvm::StringRef ContentHash,
                    int64_t Snapshot);
  /// The element keys test \p Id covers in snapshot \p Snapshot, sorted;
  /// empty when the snapshot does not hold the test.
  llvm::Expected<std::vector<std::string>> coverageOf(llvm::StringRef Id,
                                                      int64_t Snapshot);
  /// The tests snapshot \p Snapshot holds, each with the commit its
  /// coverage there was collected at and how many elements it covers;
  /// sorted by id. Retired tests are not among them.
  llvm::Expected<std::vector<TestRecord>> snapshotTests(int64_t Snapshot);
  /// Records that tests \p Ids are gone at \p Commit: its snapshot (and
  /// the later ones, until a test's coverage is recorded again) holds them
  /// as retired, with no coverage and no coverage commit, so they neither
  /// select nor hold the diff base back (docs/Safety.md, "Coverage
  /// snapshots"). Unknown ids and an empty commit are ignored.
  llvm::Error retireTests(llvm::StringRef Commit,
                          const std::vector<std::string> &Ids);
  /// The tests snapshot \p Snapshot holds as retired, sorted.
  llvm::Expected<std::vector<std::string>> retiredTests(int64_t Snapshot);

  /// What the recorded results say about every test that has one, sorted
  /// by id.
  llvm::Expected<std::vector<TestStatistics>> testStatistics();

  // --- What is known of tests besides coverage ---

  /// Records (replacing) where test \p T.Id is defined and how to run it,
  /// adding the test if unknown. Its coverage and results stay.
  llvm::Error putTestInfo(const TestInfo &T);
  /// The stored info of test \p Id; std::nullopt for an unknown test. A test
  /// known only from coverage or results has an empty File and no Command.
  llvm::Expected<std::optional<TestInfo>> testInfo(llvm::StringRef Id);
  /// The info of every test, sorted by id.
  llvm::Expected<std::vector<TestInfo>> testInfos();
  /// The tests defined in the latest revision's files, with the path of the
  /// file defining each; sorted by (path, line, framework, name).
  llvm::Expected<std::vector<std::pair<std::string, TestDefinition>>>
  currentTestDefinitions();
  /// Forgets test \p Id with its coverage and results (it no longer exists).
  llvm::Error removeTest(llvm::StringRef Id);

  // --- Runs and results ---

  /// Records a run of tests at \p Commit, started at \p StartedAt (seconds
  /// since the epoch; 0: now), recorded by \p Source ("collect", "junit",
  /// "run"). Returns its id; ids grow with every run.
  llvm::Expected<int64_t> addRun(llvm::StringRef Commit, llvm::StringRef Source,
                                 int64_t StartedAt = 0);
  /// Adds \p Results to run \p RunId (a test and attempt already recorded
  /// in that run is replaced), adding unknown tests.
  llvm::Error putResults(int64_t RunId, const std::vector<TestResult> &Results);
  /// Every run, oldest first.
  llvm::Expected<std::vector<RunRecord>> runs();
  /// When the newest run started (0 when there is none).
  llvm::Expected<int64_t> newestRunTime();
  /// The results of run \p RunId, sorted by test id and attempt.
  llvm::Expected<std::vector<TestResult>> resultsOfRun(int64_t RunId);
  /// The latest result of every test that has one: from its newest run, the
  /// last attempt. Sorted by test id.
  llvm::Expected<std::vector<TestResult>> latestResults();
  /// Every result of test \p Id with the id of its run, oldest first.
  llvm::Expected<std::vector<std::pair<int64_t, TestResult>>>
  resultHistory(llvm::StringRef Id);

  // --- Name-based static selection (Python) ---

  /// Replaces the critical names: (name, aggregated expansion), most
  /// expanding first.
  llvm::Error
  putCriticalNames(const std::vector<std::pair<std::string, uint64_t>> &Names);
  /// The critical names, most expanding first; empty when never computed.
  llvm::Expected<std::vector<std::pair<std::string, uint64_t>>> criticalNames();
  /// Stores \p E as the evidence of its test files, replacing what earlier
  /// runs recorded for them; runs no test file refers to any more are
  /// dropped.
  llvm::Error putRuntimeEvidence(const RuntimeEvidence &E);
  /// Every run still holding the evidence of some test file (TestFiles:
  /// those), oldest first.
  llvm::Expected<std::vector<RuntimeEvidence>> runtimeEvidence();

  /// Every result of every run started at or after \p Since (seconds since
  /// the epoch; 0: all), sorted by run id, test id and attempt.
  llvm::Expected<std::vector<RunResult>> allResults(int64_t Since = 0);

  /// The tests that flipped (see FlakyTest) in runs started at or after
  /// \p Since (0: all), sorted by test id; a test without a flip is not
  /// listed. Results of runs without a commit pair only within their run.
  /// This is the query the selection policy uses to keep flaky failures out
  /// of "previously failing" (docs/Prediction.md).
  llvm::Expected<std::vector<FlakyTest>> flakyTests(int64_t Since = 0);

  // --- Observed runs (ObservationStore.cpp) ---

  /// Stores the record of run \p O.RunId, replacing the one it had. Fails
  /// for a run that does not exist.
  llvm::Error putObservation(const StoredObservation &O);
  /// The records of the runs started at or after \p Since (seconds since
  /// the epoch; 0: all), oldest run first.
  llvm::Expected<std::vector<StoredObservation>>
  observations(int64_t Since = 0);

  // --- Failure-prediction models ---

  /// Stores \p M as the newest model (its Id is ignored) and returns its id.
  llvm::Expected<int64_t> putModel(const StoredModel &M);
  /// The newest model; std::nullopt when none was stored.
  llvm::Expected<std::optional<StoredModel>> latestModel();
  /// Forgets every model but the newest \p Keep.
  llvm::Error pruneModels(unsigned Keep);

private:
  explicit Store(std::unique_ptr<Database> DB);
  /// putCoverage with the keys as ids of element_keys; call in a
  /// transaction.
  llvm::Error putCoverageIds(llvm::StringRef Id, llvm::StringRef Commit,
                             std::vector<int64_t> KeyIds);
  std::string relocatableText(llvm::StringRef Text) const;
  std::string resolvedText(llvm::StringRef Text) const;

  std::unique_ptr<Database> DB;
  PathBases Bases;
  /// The open transaction's changes to the coverage index.
  std::unique_ptr<store::CoverageIndex> Coverage;
  /// tests() and testInfos() as last read, with Database::changeStamp() at
  /// that time (and, for the infos, the path bases they were resolved
  /// with): one selection asks for them several times, and at 40,000 tests
  /// a read costs a tenth of a second.
  template <typename T> struct CachedRead {
    std::optional<std::pair<int64_t, int64_t>> Stamp;
    T Value;
  };
  CachedRead<std::shared_ptr<const std::vector<TestRecord>>> TestsRead;
  CachedRead<std::vector<TestInfo>> InfosRead;
};

} // namespace tia

#endif // TIA_STORE_STORE_H
