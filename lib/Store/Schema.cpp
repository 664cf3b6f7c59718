//===- Schema.cpp - the store's tables, versions and migrations -----------===//

#include "Schema.h"
#include "CoverageMigrations.h"
#include "Database.h"
#include "tia/Support/Error.h"
#include <sqlite3.h>

namespace tia {
namespace schema {

namespace {

/// Version 1: everything.
///
/// A file version's elements hang off file_versions; an element's key is
/// interned in element_keys, which coverage shares, so that the large
/// coverage table holds two integers per row. Revisions list files by path
/// and content hash, not by file_versions row: a file a translation unit
/// read may have no stored index of its own.
llvm::Error createVersion1(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE file_versions(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  residual_hash TEXT NOT NULL,
  complete INTEGER NOT NULL,
  UNIQUE(path, content_hash));

CREATE TABLE element_keys(
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE);

CREATE TABLE elements(
  id INTEGER PRIMARY KEY,
  file_version_id INTEGER NOT NULL
    REFERENCES file_versions(id) ON DELETE CASCADE,
  key_id INTEGER NOT NULL REFERENCES element_keys(id),
  kind TEXT NOT NULL,
  display TEXT NOT NULL,
  begin_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  hash TEXT NOT NULL,
  compile_time INTEGER NOT NULL DEFAULT 0);
CREATE INDEX elements_by_file_version
  ON elements(file_version_id, begin_line, end_line);
CREATE INDEX elements_by_key ON elements(key_id);

CREATE TABLE element_names(
  element_id INTEGER NOT NULL REFERENCES elements(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  PRIMARY KEY(element_id, name)) WITHOUT ROWID;
CREATE INDEX element_names_by_name ON element_names(name);

CREATE TABLE translation_units(
  path TEXT NOT NULL PRIMARY KEY,
  file TEXT NOT NULL,
  directory TEXT NOT NULL,
  arguments TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE tu_dependencies(
  tu_path TEXT NOT NULL REFERENCES translation_units(path) ON DELETE CASCADE,
  file_path TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  PRIMARY KEY(tu_path, file_path)) WITHOUT ROWID;
CREATE INDEX tu_dependencies_by_file ON tu_dependencies(file_path);

CREATE TABLE revisions(
  id INTEGER PRIMARY KEY,
  commit_id TEXT NOT NULL,
  dirty INTEGER NOT NULL,
  created_at INTEGER NOT NULL);

CREATE TABLE revision_files(
  revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  PRIMARY KEY(revision_id, path)) WITHOUT ROWID;

CREATE TABLE tests(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  coverage_commit TEXT NOT NULL DEFAULT '');

CREATE TABLE coverage(
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
  key_id INTEGER NOT NULL REFERENCES element_keys(id),
  PRIMARY KEY(test_id, key_id)) WITHOUT ROWID;
CREATE INDEX coverage_by_key ON coverage(key_id, test_id);
)sql");
}

/// Version 2: what is known of tests besides coverage (where they are
/// defined, how to run them), the tests each file version defines, and
/// test outcomes per run. A test run may retry a test, so a result is keyed
/// by (run, test, attempt).
llvm::Error addTestInfoAndResults(Database &DB) {
  return DB.exec(R"sql(
ALTER TABLE tests ADD COLUMN source_file TEXT NOT NULL DEFAULT '';
ALTER TABLE tests ADD COLUMN source_line INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tests ADD COLUMN command TEXT;

CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  commit_id TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  source TEXT NOT NULL);

CREATE TABLE results(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  duration REAL NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY(run_id, test_id, attempt)) WITHOUT ROWID;
CREATE INDEX results_by_test ON results(test_id, run_id, attempt);

CREATE TABLE test_definitions(
  file_version_id INTEGER NOT NULL
    REFERENCES file_versions(id) ON DELETE CASCADE,
  framework TEXT NOT NULL,
  name TEXT NOT NULL,
  begin_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  PRIMARY KEY(file_version_id, framework, name)) WITHOUT ROWID;
)sql");
}

/// Version 3: the Python front end. Functions gain the first line of their
/// body (the lines above it run when the function is defined, not when it
/// is called); a Python file version records its module name, the settings
/// it was parsed with, why it did not parse, and the imports it makes (the
/// import graph that import-time coverage is attributed through).
llvm::Error addPython(Database &DB) {
  return DB.exec(R"sql(
ALTER TABLE elements ADD COLUMN body_line INTEGER NOT NULL DEFAULT 0;

CREATE TABLE python_files(
  file_version_id INTEGER NOT NULL PRIMARY KEY
    REFERENCES file_versions(id) ON DELETE CASCADE,
  module TEXT NOT NULL,
  settings TEXT NOT NULL,
  problem TEXT NOT NULL);

CREATE TABLE python_imports(
  file_version_id INTEGER NOT NULL
    REFERENCES file_versions(id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  module TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY(file_version_id, line, module, name)) WITHOUT ROWID;
)sql");
}

/// Version 4: elements that are not functions (variables, classes, enums,
/// aliases, declarations, macros, conditional regions), the reference
/// graph between elements and the #include directives of each file
/// version. File versions indexed before hold functions only and a residual
/// hash over everything else, which no longer compares with what the front
/// end produces: they are dropped, with the translation units and index
/// revisions, so that the next 'tia index' parses everything again. Tests,
/// coverage (keyed by element key) and results stay.
llvm::Error addReferencesAndIncludes(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE element_references(
  file_version_id INTEGER NOT NULL
    REFERENCES file_versions(id) ON DELETE CASCADE,
  from_key_id INTEGER NOT NULL REFERENCES element_keys(id),
  to_key_id INTEGER NOT NULL REFERENCES element_keys(id),
  kind TEXT NOT NULL,
  PRIMARY KEY(file_version_id, from_key_id, to_key_id, kind)) WITHOUT ROWID;
CREATE INDEX element_references_by_target
  ON element_references(to_key_id, file_version_id);

CREATE TABLE include_directives(
  file_version_id INTEGER NOT NULL
    REFERENCES file_versions(id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  spelling TEXT NOT NULL,
  file_name TEXT NOT NULL,
  angled INTEGER NOT NULL,
  resolved TEXT NOT NULL,
  PRIMARY KEY(file_version_id, line, spelling)) WITHOUT ROWID;
CREATE INDEX include_directives_by_name ON include_directives(file_name);

DELETE FROM file_versions;
DELETE FROM translation_units;
DELETE FROM revisions;
)sql");
}

/// Version 5: coverage snapshots. The coverage table keeps the latest
/// coverage of each test; a snapshot names, per test, the commit whose
/// coverage it holds, and coverage_history keeps the rows that later
/// coverage replaced while a snapshot still refers to them. Existing
/// coverage becomes one snapshot per commit it was collected at, each
/// holding every covered test with its own commit.
llvm::Error addCoverageSnapshots(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE coverage_snapshots(
  id INTEGER PRIMARY KEY,
  commit_id TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL);

CREATE TABLE snapshot_tests(
  snapshot_id INTEGER NOT NULL
    REFERENCES coverage_snapshots(id) ON DELETE CASCADE,
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
  coverage_commit TEXT NOT NULL,
  PRIMARY KEY(snapshot_id, test_id)) WITHOUT ROWID;
CREATE INDEX snapshot_tests_by_test ON snapshot_tests(test_id, coverage_commit);

CREATE TABLE coverage_history(
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
  commit_id TEXT NOT NULL,
  key_id INTEGER NOT NULL REFERENCES element_keys(id),
  PRIMARY KEY(test_id, commit_id, key_id)) WITHOUT ROWID;
CREATE INDEX coverage_history_by_key
  ON coverage_history(key_id, test_id, commit_id);

CREATE TEMP TABLE covered_tests AS
  SELECT id, coverage_commit FROM tests t
  WHERE coverage_commit != ''
     OR EXISTS (SELECT 1 FROM coverage c WHERE c.test_id = t.id);
INSERT INTO coverage_snapshots(commit_id, created_at)
  SELECT DISTINCT coverage_commit, CAST(strftime('%s', 'now') AS INTEGER)
  FROM covered_tests ORDER BY coverage_commit;
INSERT INTO snapshot_tests(snapshot_id, test_id, coverage_commit)
  SELECT s.id, c.id, c.coverage_commit
  FROM coverage_snapshots s, covered_tests c;
DROP TABLE covered_tests;
)sql");
}

/// Version 6: name-based static selection for Python (NameRTS). Each
/// Python file version gains the elements of the name graph and the names
/// its imports bind; the store keeps the critical names (those whose
/// definitions expand the most, followed only with runtime evidence) and
/// the runtime evidence `tia collect --pytest` records per test file:
/// which probed functions ran, which names were reached dynamically
/// (operators, getattr, inspect) and which modules importlib loaded.
/// Scope "*" is what ran outside any test (imports), shared by all.
llvm::Error addNameGraph(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE python_nodes(
  file_version_id INTEGER NOT NULL
    REFERENCES file_versions(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  node_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  class TEXT NOT NULL,
  element_key TEXT NOT NULL,
  begin_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  header_checksum TEXT NOT NULL,
  uses TEXT NOT NULL,
  decorators TEXT NOT NULL,
  flags TEXT NOT NULL,
  aliases TEXT NOT NULL,
  bases TEXT NOT NULL,
  PRIMARY KEY(file_version_id, ordinal)) WITHOUT ROWID;

CREATE TABLE python_bindings(
  file_version_id INTEGER NOT NULL
    REFERENCES file_versions(id) ON DELETE CASCADE,
  local TEXT NOT NULL,
  module TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY(file_version_id, local, module, name)) WITHOUT ROWID;

CREATE TABLE python_critical(
  name TEXT NOT NULL PRIMARY KEY,
  rank INTEGER NOT NULL,
  expansion INTEGER NOT NULL) WITHOUT ROWID;

CREATE TABLE python_evidence_runs(
  id INTEGER PRIMARY KEY,
  commit_id TEXT NOT NULL,
  isolated INTEGER NOT NULL,
  created_at INTEGER NOT NULL);

CREATE TABLE python_probed(
  run_id INTEGER NOT NULL
    REFERENCES python_evidence_runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  PRIMARY KEY(run_id, key)) WITHOUT ROWID;

CREATE TABLE python_evidence_files(
  test_file TEXT NOT NULL PRIMARY KEY,
  run_id INTEGER NOT NULL
    REFERENCES python_evidence_runs(id) ON DELETE CASCADE) WITHOUT ROWID;

CREATE TABLE python_accesses(
  run_id INTEGER NOT NULL
    REFERENCES python_evidence_runs(id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(run_id, scope, kind, value)) WITHOUT ROWID;
)sql");
}

/// Version 7: failure-prediction models. A model is the booster as
/// XGBoost's JSON text and tia's metadata (feature layout, training window,
/// validation figures) as JSON; format_version is tia's version of that
/// pair, so a model written by another tia is recognised and refused with a
/// message instead of being misread.
llvm::Error addModels(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE models(
  id INTEGER PRIMARY KEY,
  format_version INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  booster TEXT NOT NULL);
)sql");
}

/// Version 8: the current coverage as bitmaps. The (test_id, key_id) rows
/// of `coverage` (two B-trees of about 60 million entries for 40,000 tests
/// over 100,000 functions) become, per test, the JSON array of the key ids
/// it covers with their count (test_coverage), and per key, the tests that
/// cover it as a CRoaring bitmap (coverage_keys), which is what selection
/// reads. `coverage` becomes a view of test_coverage with the same columns,
/// so queries from a test to its keys (and coverage_history, which stays
/// rows) read as before. test_coverage_counts answers "how many keys" per
/// test without reading the lists (listing 40,000 tests otherwise reads
/// every list's first page).
llvm::Error addCoverageBitmaps(Database &DB) {
  if (llvm::Error E = DB.exec(R"sql(
CREATE TABLE test_coverage(
  test_id INTEGER PRIMARY KEY REFERENCES tests(id) ON DELETE CASCADE,
  covered INTEGER NOT NULL,
  keys TEXT NOT NULL);
INSERT INTO test_coverage(test_id, covered, keys)
  SELECT test_id, count(*), json_group_array(key_id)
  FROM (SELECT test_id, key_id FROM coverage ORDER BY test_id, key_id)
  GROUP BY test_id;
CREATE INDEX test_coverage_counts ON test_coverage(test_id, covered);

CREATE TABLE coverage_keys(
  key_id INTEGER PRIMARY KEY REFERENCES element_keys(id),
  tests BLOB NOT NULL);
)sql"))
    return E;
  if (llvm::Error E = store::buildCoverageBitmaps(DB))
    return E;
  return DB.exec(R"sql(
DROP TABLE coverage;
CREATE VIEW coverage(test_id, key_id) AS
  SELECT tc.test_id, j.value FROM test_coverage tc, json_each(tc.keys) j;
)sql");
}

/// Version 9: observed runs (`tia run --observe`). An observed run is a run
/// of the whole suite, its results in `results`; the record keeps the
/// selection tia would have made for it in each mode (tests, rules,
/// fallbacks, the budget's cut) and why each failing test was not
/// selected, as JSON whose shape lib/Observe owns and versions
/// (format_version), as lib/Predict does for models. The record goes with
/// its run.
llvm::Error addObservations(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE observations(
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  format_version INTEGER NOT NULL,
  record TEXT NOT NULL);
)sql");
}

/// Version 10: a relocatable database. The directories, files and
/// arguments of compile commands and the executables, working directories,
/// arguments and environments of test commands are stored relative to the
/// repository root and the build directory ("${root}", "${build}"; see
/// tia/Support/Relocation.h), resolved against the current checkout when
/// read. Absolute paths below the root the index was made in are rewritten;
/// the build directory of an old index is not known, so its paths become
/// relative to the root, and the next index records it.
llvm::Error relocatePaths(Database &DB) { return relocateStoredPaths(DB); }

/// Version 11: how long each translation unit took to parse, in seconds,
/// so that `tia index --shard K/N --balance-from DB` shares the units out
/// by what they cost instead of by their size. A unit indexed before has
/// 0, which balancing reads as "unknown" and estimates by size.
llvm::Error addParseTimes(Database &DB) {
  return DB.exec("ALTER TABLE translation_units ADD COLUMN parse_seconds REAL "
                 "NOT NULL DEFAULT 0;");
}

/// Version 12: the files each test read (`tia collect` traces them). A
/// path is interned in data_paths, as element keys are, so that a read is
/// two integers. test_file_records says which tests were traced, at which
/// commit, and whether the trace saw every read (a crash or an untraceable
/// process leaves it incomplete: the test counts as reading everything);
/// test_reads holds the files a test read (listed = 0) and the directories
/// it listed or walked (listed = 1).
llvm::Error addFileReads(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE data_paths(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE);

CREATE TABLE test_file_records(
  test_id INTEGER PRIMARY KEY REFERENCES tests(id) ON DELETE CASCADE,
  commit_id TEXT NOT NULL,
  complete INTEGER NOT NULL);

CREATE TABLE test_reads(
  test_id INTEGER NOT NULL
    REFERENCES test_file_records(test_id) ON DELETE CASCADE,
  path_id INTEGER NOT NULL REFERENCES data_paths(id),
  listed INTEGER NOT NULL,
  PRIMARY KEY(test_id, path_id, listed)) WITHOUT ROWID;
CREATE INDEX test_reads_by_path ON test_reads(path_id, listed, test_id);
)sql");
}

/// Version 13: the current coverage as compact id lists (IdList.h, about
/// 1.1 bytes per id where the JSON text took 6 and a bitmap 2). A test's
/// key list becomes a BLOB; an element key's tests move from one bitmap
/// to blocks of CoverageIndex.h's TestsPerBlock test ids, ordered by block
/// first, so that an import rewrites the block its new tests fall in, not
/// the key's whole list, and those rows lie together. The `coverage` view goes:
/// SQLite cannot unfold a BLOB, and `tia dump coverage` prints the same pairs.
llvm::Error compactCoverage(Database &DB) {
  if (llvm::Error E = DB.exec(R"sql(
CREATE TABLE test_coverage_lists(
  test_id INTEGER PRIMARY KEY REFERENCES tests(id) ON DELETE CASCADE,
  covered INTEGER NOT NULL,
  keys BLOB NOT NULL);

CREATE TABLE coverage_blocks(
  key_id INTEGER NOT NULL REFERENCES element_keys(id),
  block INTEGER NOT NULL,
  tests BLOB NOT NULL,
  PRIMARY KEY(block, key_id)) WITHOUT ROWID;
)sql"))
    return E;
  if (llvm::Error E = store::convertCoverageToIdLists(DB))
    return E;
  return DB.exec(R"sql(
DROP VIEW coverage;
DROP TABLE test_coverage;
DROP TABLE coverage_keys;
ALTER TABLE test_coverage_lists RENAME TO test_coverage;
CREATE INDEX test_coverage_counts ON test_coverage(test_id, covered);
)sql");
}

// A tia that knows version 1 can still read and write version 2: it ignores
// the new columns and tables. Version 3 holds element kinds (module, class,
// variable) that older tias reject; version 4 adds more (enum, alias, macro,
// conditional, declaration). From version 5 on, coverage writes must keep the
// snapshots, which older code does not. A version 5 tia can use version 6: a
// Python version it stores has no name graph, which tia parses again when it
// needs one. Versions 7 and 9 add a table that older tias ignore. Version
// 10's relative paths would be read as paths in the working directory.
// Version 11 adds a column that older tias neither read nor write (its
// default stands for "not measured").
// Version 12 adds tables older tias ignore: selection trusts a test's reads
// only when they were traced at the commit of its coverage, so reads an
// older tia left behind when it collected again are not believed.
// Version 13 moves the coverage into tables older tias do not know.
// Version 14 adds tables older tias ignore (they select, for a change to a
// crossed object, what they always did).
/// Version 14: the build objects each test crossed into (docs/Collection.md,
/// "Across languages and processes"): the extension modules and shared
/// libraries a pytest test's process loaded and the programs of the build
/// it ran, each with whether per-test coverage of it was recorded and, when
/// not, why. boundary_sources holds the source files each object is built
/// from ("*": not known, every C and C++ file): a change to one selects the
/// tests that crossed into the object without coverage.
llvm::Error addBoundaries(Database &DB) {
  return DB.exec(R"sql(
CREATE TABLE test_boundaries(
  test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
  object TEXT NOT NULL,
  program INTEGER NOT NULL,
  covered INTEGER NOT NULL,
  problem TEXT NOT NULL,
  PRIMARY KEY(test_id, object)) WITHOUT ROWID;
CREATE INDEX test_boundaries_by_object ON test_boundaries(object, covered);

CREATE TABLE boundary_sources(
  object TEXT NOT NULL,
  path TEXT NOT NULL,
  PRIMARY KEY(path, object)) WITHOUT ROWID;
)sql");
}

/// Version 15: test_reads rows with listed = 2, the directories a test's
/// runner listed to find its tests (a lit suite's folders; Collection.md).
/// The table is unchanged, but a version 14 tia reads those rows as files
/// the test read, never as listings, so for a new file in such a directory
/// it could select fewer tests than the change can affect. Older tias must
/// refuse the database instead.
llvm::Error addRunnerListings(Database &) { return llvm::Error::success(); }

const Migration TiaSteps[] = {
    {/*CompatibleVersion=*/1, createVersion1},
    {/*CompatibleVersion=*/1, addTestInfoAndResults},
    {/*CompatibleVersion=*/3, addPython},
    {/*CompatibleVersion=*/4, addReferencesAndIncludes},
    {/*CompatibleVersion=*/5, addCoverageSnapshots},
    {/*CompatibleVersion=*/5, addNameGraph},
    {/*CompatibleVersion=*/1, addModels},
    {/*CompatibleVersion=*/8, addCoverageBitmaps},
    {/*CompatibleVersion=*/1, addObservations},
    {/*CompatibleVersion=*/10, relocatePaths},
    {/*CompatibleVersion=*/1, addParseTimes},
    {/*CompatibleVersion=*/1, addFileReads},
    {/*CompatibleVersion=*/13, compactCoverage},
    {/*CompatibleVersion=*/1, addBoundaries},
    {/*CompatibleVersion=*/15, addRunnerListings},
};

/// Turns what SQLite says about a file it cannot read as a database (or a
/// meta table that is not ours) into the "not a tia database" error; other
/// failures, such as a locked file, stay as they are.
llvm::Error explainUnreadable(const Database &DB, llvm::Error E) {
  std::string Reason;
  llvm::Error Rest = llvm::handleErrors(
      std::move(E), [&](std::unique_ptr<SqliteError> SE) -> llvm::Error {
        int Code = SE->code();
        if (Code == SQLITE_NOTADB || Code == SQLITE_CORRUPT ||
            Code == SQLITE_ERROR) {
          Reason = SE->sqliteMessage().str();
          return llvm::Error::success();
        }
        return llvm::Error(std::move(SE));
      });
  if (Rest)
    return Rest;
  return notTiaDatabase(DB, Reason);
}

/// Versions are stored as integers, as every tia before wrote them.
llvm::Error writeMeta(Database &DB, llvm::StringRef Key, int64_t Value) {
  auto S =
      DB.statement("INSERT INTO meta(key, value) VALUES(?, ?) "
                   "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  if (!S)
    return S.takeError();
  S->bindText(0, Key);
  S->bindInt64(1, Value);
  return S->run();
}

/// The schema version, 0 when there is no meta table or no version in it.
llvm::Expected<int64_t> currentVersion(Database &DB) {
  auto HasMeta = DB.hasTable("meta");
  if (!HasMeta)
    return HasMeta.takeError();
  if (!*HasMeta)
    return 0;
  auto Value = readMeta(DB, "schema_version");
  if (!Value)
    return Value.takeError();
  int64_t Version = 0;
  if (*Value && llvm::StringRef(**Value).getAsInteger(10, Version))
    return notTiaDatabase(DB,
                          "schema_version '" + **Value + "' is not a number");
  return Version;
}

} // namespace

llvm::Expected<std::optional<std::string>> readMeta(Database &DB,
                                                    llvm::StringRef Key) {
  auto S = DB.statement("SELECT value FROM meta WHERE key = ?");
  if (!S)
    return S.takeError();
  S->bindText(0, Key);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return S->columnText(0);
}

llvm::Error deleteMeta(Database &DB, llvm::StringRef Key) {
  auto S = DB.statement("DELETE FROM meta WHERE key = ?");
  if (!S)
    return S.takeError();
  S->bindText(0, Key);
  return S->run();
}

llvm::Error writeMeta(Database &DB, llvm::StringRef Key,
                      llvm::StringRef Value) {
  auto S =
      DB.statement("INSERT INTO meta(key, value) VALUES(?, ?) "
                   "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  if (!S)
    return S.takeError();
  S->bindText(0, Key);
  S->bindText(1, Value);
  return S->run();
}

llvm::Error notTiaDatabase(const Database &DB, const llvm::Twine &Reason) {
  return makeErrorf("{0} is not a tia database: {1} (remove it or pass "
                    "another --db)",
                    DB.path(), Reason.str());
}

llvm::ArrayRef<Migration> migrations() { return TiaSteps; }

llvm::Expected<std::optional<Versions>> readVersions(Database &DB) {
  // The cheapest read that makes SQLite look at the file header and schema.
  auto Count = DB.statement("SELECT count(*) FROM sqlite_master");
  if (!Count)
    return explainUnreadable(DB, Count.takeError());
  auto Row = Count->step();
  if (!Row)
    return explainUnreadable(DB, Row.takeError());
  if (!*Row || Count->columnInt64(0) == 0)
    return std::nullopt;

  auto HasMeta = DB.hasTable("meta");
  if (!HasMeta)
    return explainUnreadable(DB, HasMeta.takeError());
  if (!*HasMeta)
    return notTiaDatabase(DB, "it has tables but no tia meta table");

  Versions V;
  const std::pair<llvm::StringRef, int64_t *> Fields[] = {
      {"schema_version", &V.Schema}, {"compatible_version", &V.Compatible}};
  for (auto [Key, Out] : Fields) {
    auto Value = readMeta(DB, Key);
    if (!Value)
      return explainUnreadable(DB, Value.takeError());
    if (!*Value)
      return notTiaDatabase(DB, "its meta table has no " + Key);
    if (llvm::StringRef(**Value).getAsInteger(10, *Out))
      return notTiaDatabase(DB, Key + " '" + **Value + "' is not a number");
  }
  return V;
}

llvm::Error migrate(Database &DB, llvm::ArrayRef<Migration> Steps) {
  while (true) {
    Transaction T(DB);
    if (llvm::Error E = T.begin())
      return E;
    // Read inside the transaction: another process may have migrated the
    // database while this one waited for the write lock.
    auto Version = currentVersion(DB);
    if (!Version)
      return Version.takeError();
    if (*Version < 0 || static_cast<size_t>(*Version) >= Steps.size())
      return T.commit();
    const Migration &Step = Steps[*Version];
    if (llvm::Error E = DB.exec("CREATE TABLE IF NOT EXISTS meta("
                                "key TEXT NOT NULL PRIMARY KEY, "
                                "value TEXT NOT NULL)"))
      return E;
    if (llvm::Error E = Step.Apply(DB))
      return makeErrorf("cannot upgrade database {0} from schema {1} to {2}: "
                        "{3}",
                        DB.path(), *Version, *Version + 1,
                        llvm::toString(std::move(E)));
    if (llvm::Error E = writeMeta(DB, "schema_version", *Version + 1))
      return E;
    // The oldest tia that can read the result is the newest any applied
    // step asks for: a later step that older tias could read does not make
    // an earlier one readable to them.
    auto Compatible = readMeta(DB, "compatible_version");
    if (!Compatible)
      return Compatible.takeError();
    int64_t Oldest = 0;
    if (*Compatible)
      llvm::StringRef(**Compatible).getAsInteger(10, Oldest);
    if (llvm::Error E =
            writeMeta(DB, "compatible_version",
                      std::max<int64_t>(Oldest, Step.CompatibleVersion)))
      return E;
    if (llvm::Error E = T.commit())
      return E;
  }
}

llvm::Error openSchema(Database &DB, llvm::ArrayRef<Migration> Steps) {
  auto V = readVersions(DB);
  if (!V)
    return V.takeError();
  int64_t Known = Steps.size();
  if (!*V) {
    if (DB.isReadOnly())
      return makeErrorf("no tia database at {0}: run 'tia index' first",
                        DB.path());
  } else {
    if ((*V)->Compatible > Known)
      return makeErrorf("{0} was made by a newer tia (schema {1}, this tia "
                        "knows up to {2}): upgrade tia or pass another --db",
                        DB.path(), (*V)->Schema, Known);
    if ((*V)->Schema < Known && DB.isReadOnly())
      return makeErrorf("{0} has an older schema ({1}): run any tia command "
                        "that writes, such as 'tia index', to upgrade it",
                        DB.path(), (*V)->Schema);
  }
  if (DB.isReadOnly())
    return llvm::Error::success();
  // 16 KiB pages for a new database (before its first table and the
  // write-ahead log): a test's coverage list is a few kilobytes, and
  // 4 KiB pages hold one or two of them with a quarter of each page empty.
  if (!*V)
    if (llvm::Error E = DB.exec("PRAGMA page_size = 16384"))
      return E;
  if (llvm::Error E = DB.enableWriteAheadLog())
    return E;
  if (*V && (*V)->Schema >= Known)
    return llvm::Error::success();
  return migrate(DB, Steps);
}

} // namespace schema
} // namespace tia
