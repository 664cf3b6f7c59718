//===- CoveragePyData.cpp - reading coverage.py's data file ---------------===//

#include "tia/Store/CoveragePyData.h"
#include "Database.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include <map>

namespace tia {

namespace {

/// Reads every row of \p SQL with \p Body.
llvm::Error eachRow(Database &DB, llvm::StringRef SQL,
                    llvm::function_ref<void(const Statement &)> Body) {
  auto S = DB.statement(SQL);
  if (!S)
    return S.takeError();
  return S->forEachRow([&] { Body(*S); });
}

/// The reason SQLite (or anything else) gave in \p E.
std::string reasonOf(llvm::Error E) {
  std::string Reason;
  llvm::handleAllErrors(
      std::move(E),
      [&](const SqliteError &SE) { Reason = SE.sqliteMessage().str(); },
      [&](const llvm::ErrorInfoBase &EI) { Reason = EI.message(); });
  return Reason;
}

/// Reads one coverage.py data file (schema 7): its header, its files and
/// contexts, and the lines (or arcs) each context ran in each file.
class CoverageFileReader {
public:
  CoverageFileReader(llvm::StringRef Path, Database &DB) : Path(Path), DB(DB) {}

  llvm::Expected<CoveragePyData> read() {
    if (llvm::Error E = readHeader())
      return E;
    if (llvm::Error E = readNames())
      return E;
    if (llvm::Error E = readRows())
      return E;
    return std::move(Out);
  }

private:
  llvm::Error notCoverage(const llvm::Twine &Why) {
    return makeErrorf("{0} is not a coverage.py data file: {1}", Path,
                      Why.str());
  }

  llvm::Error requireTable(llvm::StringRef Table) {
    auto Has = DB.hasTable(Table);
    if (!Has)
      return notCoverage(reasonOf(Has.takeError()));
    if (!*Has)
      return notCoverage("it has no " + Table + " table");
    return llvm::Error::success();
  }

  /// The tables, the schema version and the meta keys tia reads.
  llvm::Error readHeader() {
    for (llvm::StringRef Table : {"coverage_schema", "meta", "file", "context"})
      if (llvm::Error E = requireTable(Table))
        return E;
    if (llvm::Error E = eachRow(
            DB, "SELECT version FROM coverage_schema",
            [&](const Statement &S) { Out.SchemaVersion = S.columnInt64(0); }))
      return notCoverage(reasonOf(std::move(E)));
    if (Out.SchemaVersion != 7)
      return makeErrorf("{0} was written by an unsupported coverage.py "
                        "(schema {1}; tia reads schema 7, coverage.py 5.0 to "
                        "7.x)",
                        Path, Out.SchemaVersion);
    if (llvm::Error E = eachRow(DB, "SELECT key, value FROM meta ORDER BY key",
                                [&](const Statement &S) {
                                  std::string Key = S.columnText(0);
                                  if (Key == "version")
                                    Out.CoverageVersion = S.columnText(1);
                                  else if (Key == "has_arcs")
                                    Out.HasArcs = S.columnText(1) == "1" ||
                                                  S.columnText(1) == "True";
                                }))
      return notCoverage(reasonOf(std::move(E)));
    return llvm::Error::success();
  }

  /// The files and contexts, by their ids.
  llvm::Error readNames() {
    if (llvm::Error E = eachRow(DB, "SELECT id, path FROM file ORDER BY id",
                                [&](const Statement &S) {
                                  FileIndex[S.columnInt64(0)] =
                                      Out.Files.size();
                                  Out.Files.push_back(S.columnText(1));
                                }))
      return notCoverage(reasonOf(std::move(E)));
    if (llvm::Error E =
            eachRow(DB, "SELECT id, context FROM context ORDER BY id",
                    [&](const Statement &S) {
                      ContextIndex[S.columnInt64(0)] = Out.Contexts.size();
                      Out.Contexts.push_back(S.columnText(1));
                    }))
      return notCoverage(reasonOf(std::move(E)));
    return llvm::Error::success();
  }

  /// The arcs (branch coverage) or line bits of every file and context.
  llvm::Error readRows() {
    llvm::StringRef Table = Out.HasArcs ? "arc" : "line_bits";
    if (llvm::Error E = requireTable(Table))
      return E;
    llvm::Error E =
        Out.HasArcs
            ? eachRow(DB,
                      "SELECT file_id, context_id, fromno, tono FROM arc "
                      "ORDER BY file_id, context_id, fromno, tono",
                      [&](const Statement &S) {
                        CoveragePyData::Arc A;
                        if (locate(S, A.File, A.Context)) {
                          A.From = S.columnInt64(2);
                          A.To = S.columnInt64(3);
                          Out.Arcs.push_back(A);
                        }
                      })
            : eachRow(DB,
                      "SELECT file_id, context_id, numbits FROM line_bits "
                      "ORDER BY file_id, context_id",
                      [&](const Statement &S) {
                        CoveragePyData::LineBits L;
                        if (locate(S, L.File, L.Context)) {
                          L.Numbits = S.columnBlob(2);
                          Out.Lines.push_back(std::move(L));
                        }
                      });
    if (E)
      return notCoverage(reasonOf(std::move(E)));
    if (Unknown)
      return notCoverage("a row of " + Table +
                         " names a file or context it does not list");
    return llvm::Error::success();
  }

  /// The file and context of row \p S (its first two columns); false, and
  /// noted, when it names one the file does not list.
  bool locate(const Statement &S, size_t &File, size_t &Context) {
    auto F = FileIndex.find(S.columnInt64(0));
    auto C = ContextIndex.find(S.columnInt64(1));
    if (F == FileIndex.end() || C == ContextIndex.end()) {
      Unknown = true;
      return false;
    }
    File = F->second;
    Context = C->second;
    return true;
  }

  llvm::StringRef Path;
  Database &DB;
  CoveragePyData Out;
  std::map<int64_t, size_t> FileIndex, ContextIndex;
  bool Unknown = false;
};

} // namespace

llvm::Expected<CoveragePyData> readCoveragePyData(llvm::StringRef Path) {
  if (!llvm::sys::fs::exists(Path))
    return makeErrorf("cannot read coverage file {0}: no such file", Path);
  if (llvm::sys::fs::is_directory(Path))
    return makeErrorf("cannot read coverage file {0}: it is a directory", Path);
  auto DB = Database::open(Path, Database::OpenMode::ReadOnly);
  if (!DB)
    return makeErrorf("cannot read coverage file {0}: {1}", Path,
                      llvm::toString(DB.takeError()));
  return CoverageFileReader(Path, **DB).read();
}

} // namespace tia
