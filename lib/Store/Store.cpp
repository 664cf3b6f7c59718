//===- Store.cpp - the SQLite store ---------------------------------------===//
//
// The Store API on top of the Database wrapper and the schema of Schema.cpp.
// Multi-row writes run in a Transaction, which joins the caller's one when
// the caller grouped its writes with Store::transaction().
//
//===----------------------------------------------------------------------===//

#include "tia/Store/Store.h"
#include "CoverageIndex.h"
#include "Database.h"
#include "Schema.h"
#include "StoreInternal.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cassert>
#include <ctime>
#include <map>

namespace tia {

using store::insertPythonInfo;
using store::inTransaction;
using store::keyId;
using store::queryOptionalInt;

namespace {

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

/// Reads the columns "e.id, k.key, e.kind, e.display, e.begin_line,
/// e.end_line, e.hash, e.compile_time, e.body_line" of the current row of
/// \p S into \p E.
llvm::Error readElement(const Database &DB, const Statement &S,
                        llvm::StringRef Path, Element &E) {
  E.Key = S.columnText(1);
  std::string Kind = S.columnText(2);
  std::optional<ElementKind> K = parseKind(Kind);
  if (!K)
    return schema::notTiaDatabase(DB, "element " + E.Key + " of " + Path +
                                          " has the unknown kind '" + Kind +
                                          "'");
  E.Kind = *K;
  E.Display = S.columnText(3);
  E.File = Path.str();
  E.BeginLine = static_cast<unsigned>(S.columnInt64(4));
  E.EndLine = static_cast<unsigned>(S.columnInt64(5));
  E.Hash = S.columnText(6);
  E.CompileTime = S.columnBool(7);
  E.BodyLine = static_cast<unsigned>(S.columnInt64(8));
  return llvm::Error::success();
}

llvm::Error insertNames(Database &DB, int64_t ElementId,
                        const std::vector<std::string> &Names) {
  if (Names.empty())
    return llvm::Error::success();
  auto S = DB.statement("INSERT INTO element_names(element_id, name) "
                        "VALUES(?, ?) ON CONFLICT DO NOTHING");
  if (!S)
    return S.takeError();
  for (const std::string &Name : Names) {
    S->reset();
    S->bindInt64(0, ElementId);
    S->bindText(1, Name);
    if (llvm::Error E = S->run())
      return E;
  }
  return llvm::Error::success();
}

llvm::Error insertElement(Database &DB, int64_t FileVersionId, const Element &E,
                          const std::vector<std::string> &Names) {
  auto Key = keyId(DB, E.Key);
  if (!Key)
    return Key.takeError();
  auto S = DB.statement("INSERT INTO elements(file_version_id, key_id, kind, "
                        "display, begin_line, end_line, hash, compile_time, "
                        "body_line) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!S)
    return S.takeError();
  S->bindInt64(0, FileVersionId);
  S->bindInt64(1, *Key);
  S->bindText(2, kindName(E.Kind));
  S->bindText(3, E.Display);
  S->bindInt64(4, E.BeginLine);
  S->bindInt64(5, E.EndLine);
  S->bindText(6, E.Hash);
  S->bindBool(7, E.CompileTime);
  S->bindInt64(8, E.BodyLine);
  if (llvm::Error Err = S->run())
    return Err;
  return insertNames(DB, DB.lastInsertRowId(), Names);
}

/// Adds the test definitions of a file version; ones already stored stay.
llvm::Error insertTestDefinitions(Database &DB, int64_t FileVersionId,
                                  const std::vector<TestDefinition> &Tests) {
  if (Tests.empty())
    return llvm::Error::success();
  auto S = DB.statement("INSERT INTO test_definitions(file_version_id, "
                        "framework, name, begin_line, end_line) "
                        "VALUES(?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
  if (!S)
    return S.takeError();
  for (const TestDefinition &T : Tests) {
    S->reset();
    S->bindInt64(0, FileVersionId);
    S->bindText(1, T.Framework);
    S->bindText(2, T.Name);
    S->bindInt64(3, T.BeginLine);
    S->bindInt64(4, T.EndLine);
    if (llvm::Error E = S->run())
      return E;
  }
  return llvm::Error::success();
}

/// Adds what a file version holds besides its elements (test definitions,
/// references, includes); rows already stored stay.
llvm::Error insertContents(Database &DB, int64_t FileVersionId,
                           const FileIndex &F) {
  if (llvm::Error E = insertTestDefinitions(DB, FileVersionId, F.Tests))
    return E;
  return store::insertReferencesAndIncludes(DB, FileVersionId, F);
}

/// The names of \p Element, sorted.
llvm::Expected<std::vector<std::string>> namesOf(Database &DB,
                                                 int64_t ElementId) {
  auto S = DB.statement("SELECT name FROM element_names WHERE element_id = ? "
                        "ORDER BY name");
  if (!S)
    return S.takeError();
  S->bindInt64(0, ElementId);
  std::vector<std::string> Names;
  if (llvm::Error E = S->forEachRow([&] { Names.push_back(S->columnText(0)); }))
    return E;
  return Names;
}

struct StoredVersion {
  int64_t Id;
  bool Complete;
};

llvm::Expected<std::optional<StoredVersion>>
findFileVersion(Database &DB, llvm::StringRef Path,
                llvm::StringRef ContentHash) {
  auto S = DB.statement("SELECT id, complete FROM file_versions "
                        "WHERE path = ? AND content_hash = ?");
  if (!S)
    return S.takeError();
  S->bindText(0, Path);
  S->bindText(1, ContentHash);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return StoredVersion{S->columnInt64(0), S->columnBool(1)};
}

/// A stored file version's elements by key: their ids and names.
struct StoredElements {
  std::map<std::string, std::vector<int64_t>> Ids;
  std::map<std::string, std::vector<std::string>> Names;
};

llvm::Expected<StoredElements> storedElements(Database &DB,
                                              int64_t FileVersionId) {
  StoredElements Out;
  auto Ids = DB.statement("SELECT e.id, k.key FROM elements e "
                          "JOIN element_keys k ON k.id = e.key_id "
                          "WHERE e.file_version_id = ? ORDER BY e.id");
  if (!Ids)
    return Ids.takeError();
  Ids->bindInt64(0, FileVersionId);
  if (llvm::Error E = Ids->forEachRow(
          [&] { Out.Ids[Ids->columnText(1)].push_back(Ids->columnInt64(0)); }))
    return E;
  auto Names = DB.statement("SELECT k.key, n.name FROM elements e "
                            "JOIN element_keys k ON k.id = e.key_id "
                            "JOIN element_names n ON n.element_id = e.id "
                            "WHERE e.file_version_id = ? "
                            "ORDER BY k.key, n.name");
  if (!Names)
    return Names.takeError();
  Names->bindInt64(0, FileVersionId);
  if (llvm::Error E = Names->forEachRow([&] {
        Out.Names[Names->columnText(0)].push_back(Names->columnText(1));
      }))
    return E;
  return Out;
}

/// \p A and \p B merged, sorted and unique.
std::vector<std::string> unite(std::vector<std::string> A,
                               const std::vector<std::string> &B) {
  A.insert(A.end(), B.begin(), B.end());
  std::sort(A.begin(), A.end());
  A.erase(std::unique(A.begin(), A.end()), A.end());
  return A;
}

//===----------------------------------------------------------------------===//
// Translation units
//===----------------------------------------------------------------------===//

std::string encodeArguments(const std::vector<std::string> &Args,
                            const PathBases &B) {
  llvm::json::Array A;
  for (const std::string &Given : Args) {
    std::string Arg = relocatable(Given, B);
    A.push_back(llvm::json::isUTF8(Arg) ? Arg : llvm::json::fixUTF8(Arg));
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(A));
  return OS.str();
}

llvm::Error decodeArguments(const Database &DB, llvm::StringRef TU,
                            llvm::StringRef Text, const PathBases &B,
                            std::vector<std::string> &Args) {
  auto Bad = [&](const llvm::Twine &Why) {
    return schema::notTiaDatabase(DB, "the compile command of " + TU +
                                          " is malformed: " + Why);
  };
  auto V = llvm::json::parse(Text);
  if (!V)
    return Bad(llvm::toString(V.takeError()));
  const llvm::json::Array *A = V->getAsArray();
  if (!A)
    return Bad("not an array");
  for (const llvm::json::Value &Arg : *A) {
    std::optional<llvm::StringRef> S = Arg.getAsString();
    if (!S)
      return Bad("an argument is not a string");
    Args.push_back(resolved(*S, B));
  }
  return llvm::Error::success();
}

/// Reads the columns "path, file, directory, arguments" of \p S's row,
/// resolving its paths against \p B.
llvm::Expected<StoredTranslationUnit> readTranslationUnit(const Database &DB,
                                                          const Statement &S,
                                                          const PathBases &B) {
  StoredTranslationUnit TU;
  TU.Path = S.columnText(0);
  TU.Command.File = resolved(S.columnText(1), B);
  TU.Command.Directory = resolved(S.columnText(2), B);
  if (llvm::Error E = decodeArguments(DB, TU.Path, S.columnText(3), B,
                                      TU.Command.Arguments))
    return E;
  TU.ParseSeconds = S.columnDouble(4);
  return TU;
}

llvm::Error readDependencies(Database &DB, StoredTranslationUnit &TU) {
  auto S = DB.statement("SELECT file_path, content_hash FROM tu_dependencies "
                        "WHERE tu_path = ? ORDER BY file_path");
  if (!S)
    return S.takeError();
  S->bindText(0, TU.Path);
  return S->forEachRow([&] {
    TU.Dependencies.emplace_back(S->columnText(0), S->columnText(1));
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

Store::Store(std::unique_ptr<Database> DB)
    : DB(std::move(DB)), Coverage(std::make_unique<store::CoverageIndex>()) {
  // The coverage blocks a transaction changed are written once, at its
  // end. A rollback takes back rows the change counters still count, so the
  // test lists read inside the transaction are forgotten with it.
  this->DB->setTransactionHooks([this] { return Coverage->flush(*this->DB); },
                                [this] {
                                  Coverage->discard();
                                  TestsRead.Stamp.reset();
                                  InfosRead.Stamp.reset();
                                });
}

Store::~Store() = default;

llvm::StringRef Store::path() const { return DB->path(); }

llvm::Expected<std::unique_ptr<Store>> Store::open(llvm::StringRef Path,
                                                   Mode M) {
  assert(static_cast<int>(schema::migrations().size()) == SchemaVersion &&
         "Store::SchemaVersion and the migration list disagree");
  if (Path != ":memory:") {
    if (M == Mode::ReadOnly) {
      if (!llvm::sys::fs::exists(Path))
        return makeErrorf("no tia database at {0}: run 'tia index' first",
                          Path);
    } else {
      llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
      if (!Parent.empty())
        if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
          return makeErrorf("cannot open database {0}: cannot create "
                            "directory {1}: {2}",
                            Path, Parent, EC.message());
    }
  }
  auto DB =
      Database::open(Path, M == Mode::ReadOnly ? Database::OpenMode::ReadOnly
                                               : Database::OpenMode::ReadWrite);
  if (!DB)
    return DB.takeError();
  if (llvm::Error E = schema::openSchema(**DB, schema::migrations()))
    return E;
  // A 64 MiB page cache (SQLite's default is 2 MiB): coverage imports write
  // to key-ordered indexes at random places. Set once the file is known to
  // be a database, since the pragma reads it.
  if (llvm::Error E = (*DB)->exec("PRAGMA cache_size = -65536"))
    return E;
  return std::unique_ptr<Store>(new Store(std::move(*DB)));
}

int Store::schemaVersion() const {
  auto V = schema::readVersions(*DB);
  if (!V) {
    // open() read the same versions successfully; failing now means the
    // connection itself broke, which the next store call reports.
    llvm::consumeError(V.takeError());
    return 0;
  }
  return *V ? static_cast<int>((*V)->Schema) : 0;
}

llvm::Error Store::transaction(llvm::function_ref<llvm::Error()> Body) {
  return inTransaction(*DB, Body);
}

//===----------------------------------------------------------------------===//
// File versions and elements
//===----------------------------------------------------------------------===//

llvm::Expected<bool> Store::hasFileVersion(llvm::StringRef Path,
                                           llvm::StringRef ContentHash) {
  auto Found = findFileVersion(*DB, Path, ContentHash);
  if (!Found)
    return Found.takeError();
  return Found->has_value();
}

llvm::Error Store::putFileIndex(const FileIndex &F) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Found = findFileVersion(*DB, F.Path, F.ContentHash);
    if (!Found)
      return Found.takeError();

    if (!*Found) {
      auto S = DB->statement("INSERT INTO file_versions(path, content_hash, "
                             "residual_hash, complete) VALUES(?, ?, ?, ?)");
      if (!S)
        return S.takeError();
      S->bindText(0, F.Path);
      S->bindText(1, F.ContentHash);
      S->bindText(2, F.ResidualHash);
      S->bindBool(3, F.Complete);
      if (llvm::Error E = S->run())
        return E;
      int64_t Id = DB->lastInsertRowId();
      for (const Element &E : F.Elements)
        if (llvm::Error Err = insertElement(*DB, Id, E, E.Names))
          return Err;
      if (llvm::Error E = insertContents(*DB, Id, F))
        return E;
      return insertPythonInfo(*DB, Id, F.Python);
    }

    int64_t Id = (*Found)->Id;
    auto Stored = storedElements(*DB, Id);
    if (!Stored)
      return Stored.takeError();
    bool Resettled = false;
    if (F.Python) {
      auto Settings = pythonSettings(F.Path, F.ContentHash);
      if (!Settings)
        return Settings.takeError();
      Resettled = *Settings != F.Python->Settings;
    }

    if ((!(*Found)->Complete && F.Complete) || Resettled) {
      // The complete index replaces the incomplete one, and a Python index
      // made with other settings (module name, docstrings, pytest options)
      // replaces the stored one; names the earlier parse saw for the same
      // keys stay, since more names only let more coverage find its
      // element.
      for (llvm::StringRef Table :
           {"elements", "test_definitions", "python_files", "python_imports",
            "element_references", "include_directives", "python_nodes",
            "python_bindings"}) {
        auto Delete = DB->statement(
            ("DELETE FROM " + Table + " WHERE file_version_id = ?").str());
        if (!Delete)
          return Delete.takeError();
        Delete->bindInt64(0, Id);
        if (llvm::Error E = Delete->run())
          return E;
      }
      auto Update = DB->statement("UPDATE file_versions SET residual_hash = "
                                  "?, complete = ? WHERE id = ?");
      if (!Update)
        return Update.takeError();
      Update->bindText(0, F.ResidualHash);
      Update->bindBool(1, F.Complete);
      Update->bindInt64(2, Id);
      if (llvm::Error E = Update->run())
        return E;
      for (const Element &E : F.Elements) {
        auto Old = Stored->Names.find(E.Key);
        std::vector<std::string> Names =
            Old == Stored->Names.end() ? E.Names : unite(E.Names, Old->second);
        if (llvm::Error Err = insertElement(*DB, Id, E, Names))
          return Err;
      }
      if (llvm::Error E = insertContents(*DB, Id, F))
        return E;
      return insertPythonInfo(*DB, Id, F.Python);
    }

    // The stored elements stay and gain the new names. Elements with new
    // keys (the same header seen with other macros) are added, unless this
    // index is incomplete and the stored one is not: error recovery may
    // have produced them.
    bool MayAdd = F.Complete || !(*Found)->Complete;
    for (const Element &E : F.Elements) {
      auto Ids = Stored->Ids.find(E.Key);
      if (Ids == Stored->Ids.end()) {
        if (MayAdd)
          if (llvm::Error Err = insertElement(*DB, Id, E, E.Names))
            return Err;
        continue;
      }
      for (int64_t ElementId : Ids->second)
        if (llvm::Error Err = insertNames(*DB, ElementId, E.Names))
          return Err;
    }
    return MayAdd ? insertContents(*DB, Id, F) : llvm::Error::success();
  });
}

llvm::Expected<std::optional<FileIndex>>
Store::getFileIndex(llvm::StringRef Path, llvm::StringRef ContentHash) {
  auto Version = DB->statement("SELECT id, residual_hash, complete "
                               "FROM file_versions "
                               "WHERE path = ? AND content_hash = ?");
  if (!Version)
    return Version.takeError();
  Version->bindText(0, Path);
  Version->bindText(1, ContentHash);
  auto Row = Version->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  int64_t Id = Version->columnInt64(0);
  FileIndex F;
  F.Path = Path.str();
  F.ContentHash = ContentHash.str();
  F.ResidualHash = Version->columnText(1);
  F.Complete = Version->columnBool(2);

  auto Elements = DB->statement(
      "SELECT e.id, k.key, e.kind, e.display, e.begin_line, e.end_line, "
      "e.hash, e.compile_time, e.body_line FROM elements e "
      "JOIN element_keys k ON k.id = e.key_id WHERE e.file_version_id = ? "
      "ORDER BY e.begin_line, e.end_line, k.key, e.id");
  if (!Elements)
    return Elements.takeError();
  Elements->bindInt64(0, Id);
  llvm::DenseMap<int64_t, size_t> IndexOf;
  if (llvm::Error Failed = Elements->forEachRow([&]() -> llvm::Error {
        Element E;
        if (llvm::Error Err = readElement(*DB, *Elements, Path, E))
          return Err;
        IndexOf[Elements->columnInt64(0)] = F.Elements.size();
        F.Elements.push_back(std::move(E));
        return llvm::Error::success();
      }))
    return Failed;

  auto Names = DB->statement("SELECT n.element_id, n.name FROM elements e "
                             "JOIN element_names n ON n.element_id = e.id "
                             "WHERE e.file_version_id = ? "
                             "ORDER BY n.element_id, n.name");
  if (!Names)
    return Names.takeError();
  Names->bindInt64(0, Id);
  if (llvm::Error E = Names->forEachRow([&] {
        auto It = IndexOf.find(Names->columnInt64(0));
        if (It != IndexOf.end())
          F.Elements[It->second].Names.push_back(Names->columnText(1));
      }))
    return E;

  auto Tests = DB->statement("SELECT framework, name, begin_line, end_line "
                             "FROM test_definitions WHERE file_version_id = ? "
                             "ORDER BY begin_line, framework, name");
  if (!Tests)
    return Tests.takeError();
  Tests->bindInt64(0, Id);
  if (llvm::Error E = Tests->forEachRow([&] {
        F.Tests.push_back({Tests->columnText(0), Tests->columnText(1),
                           static_cast<unsigned>(Tests->columnInt64(2)),
                           static_cast<unsigned>(Tests->columnInt64(3))});
      }))
    return E;

  auto Python = DB->statement("SELECT module, settings, problem FROM "
                              "python_files WHERE file_version_id = ?");
  if (!Python)
    return Python.takeError();
  Python->bindInt64(0, Id);
  auto HasPython = Python->step();
  if (!HasPython)
    return HasPython.takeError();
  if (*HasPython) {
    PythonFileInfo Info;
    Info.Module = Python->columnText(0);
    Info.Settings = Python->columnText(1);
    Info.Problem = Python->columnText(2);
    auto Imports = DB->statement("SELECT line, module, name FROM "
                                 "python_imports WHERE file_version_id = ? "
                                 "ORDER BY line, module, name");
    if (!Imports)
      return Imports.takeError();
    Imports->bindInt64(0, Id);
    if (llvm::Error E = Imports->forEachRow([&] {
          Info.Imports.push_back(
              {Imports->columnText(1), Imports->columnText(2),
               static_cast<unsigned>(Imports->columnInt64(0))});
        }))
      return E;
    if (llvm::Error E = store::readNameGraph(*DB, Id, Info))
      return E;
    F.Python = std::move(Info);
  }
  if (llvm::Error E = store::readReferencesAndIncludes(*DB, Id, F))
    return E;
  normalize(F);
  return F;
}

//===----------------------------------------------------------------------===//
// Translation units
//===----------------------------------------------------------------------===//

llvm::Error Store::putTranslationUnit(const StoredTranslationUnit &TU) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Put = DB->statement(
        "INSERT INTO translation_units(path, file, directory, arguments, "
        "parse_seconds) VALUES(?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET "
        "file = excluded.file, directory = excluded.directory, "
        "arguments = excluded.arguments, "
        "parse_seconds = excluded.parse_seconds");
    if (!Put)
      return Put.takeError();
    Put->bindText(0, TU.Path);
    Put->bindText(1, relocatableText(TU.Command.File));
    Put->bindText(2, relocatableText(TU.Command.Directory));
    Put->bindText(3, encodeArguments(TU.Command.Arguments, Bases));
    Put->bindDouble(4, TU.ParseSeconds);
    if (llvm::Error E = Put->run())
      return E;

    auto Clear = DB->statement("DELETE FROM tu_dependencies WHERE tu_path = ?");
    if (!Clear)
      return Clear.takeError();
    Clear->bindText(0, TU.Path);
    if (llvm::Error E = Clear->run())
      return E;

    auto Add = DB->statement(
        "INSERT INTO tu_dependencies(tu_path, file_path, content_hash) "
        "VALUES(?, ?, ?) ON CONFLICT(tu_path, file_path) DO UPDATE SET "
        "content_hash = excluded.content_hash");
    if (!Add)
      return Add.takeError();
    for (const FileVersionRef &D : TU.Dependencies) {
      Add->reset();
      Add->bindText(0, TU.Path);
      Add->bindText(1, D.first);
      Add->bindText(2, D.second);
      if (llvm::Error E = Add->run())
        return E;
    }
    return llvm::Error::success();
  });
}

llvm::Error Store::removeTranslationUnit(llvm::StringRef Path) {
  auto S = DB->statement("DELETE FROM translation_units WHERE path = ?");
  if (!S)
    return S.takeError();
  S->bindText(0, Path);
  return S->run();
}

llvm::Expected<std::vector<StoredTranslationUnit>> Store::translationUnits() {
  std::vector<StoredTranslationUnit> TUs;
  std::map<std::string, size_t> IndexOf;
  auto Units = DB->statement("SELECT path, file, directory, arguments, "
                             "parse_seconds FROM translation_units "
                             "ORDER BY path");
  if (!Units)
    return Units.takeError();
  if (llvm::Error E = Units->forEachRow([&]() -> llvm::Error {
        auto TU = readTranslationUnit(*DB, *Units, Bases);
        if (!TU)
          return TU.takeError();
        IndexOf[TU->Path] = TUs.size();
        TUs.push_back(std::move(*TU));
        return llvm::Error::success();
      }))
    return E;

  auto Deps = DB->statement("SELECT tu_path, file_path, content_hash "
                            "FROM tu_dependencies "
                            "ORDER BY tu_path, file_path");
  if (!Deps)
    return Deps.takeError();
  if (llvm::Error E = Deps->forEachRow([&] {
        auto It = IndexOf.find(Deps->columnText(0));
        if (It != IndexOf.end())
          TUs[It->second].Dependencies.emplace_back(Deps->columnText(1),
                                                    Deps->columnText(2));
      }))
    return E;
  return TUs;
}

llvm::Expected<std::vector<StoredTranslationUnit>>
Store::translationUnitsReading(llvm::StringRef Path) {
  std::vector<StoredTranslationUnit> TUs;
  auto Units = DB->statement(
      "SELECT t.path, t.file, t.directory, t.arguments, t.parse_seconds "
      "FROM translation_units t WHERE t.path IN "
      "(SELECT d.tu_path FROM tu_dependencies d WHERE d.file_path = ?) "
      "ORDER BY t.path");
  if (!Units)
    return Units.takeError();
  Units->bindText(0, Path);
  if (llvm::Error E = Units->forEachRow([&]() -> llvm::Error {
        auto TU = readTranslationUnit(*DB, *Units, Bases);
        if (!TU)
          return TU.takeError();
        TUs.push_back(std::move(*TU));
        return llvm::Error::success();
      }))
    return E;
  for (StoredTranslationUnit &TU : TUs)
    if (llvm::Error E = readDependencies(*DB, TU))
      return E;
  return TUs;
}

//===----------------------------------------------------------------------===//
// Index revisions
//===----------------------------------------------------------------------===//

llvm::Expected<int64_t>
Store::addRevision(llvm::StringRef Commit, bool Dirty,
                   const std::vector<FileVersionRef> &Files) {
  int64_t Id = 0;
  llvm::Error E = inTransaction(*DB, [&]() -> llvm::Error {
    auto Add = DB->statement("INSERT INTO revisions(commit_id, dirty, "
                             "created_at) VALUES(?, ?, ?)");
    if (!Add)
      return Add.takeError();
    Add->bindText(0, Commit);
    Add->bindBool(1, Dirty);
    Add->bindInt64(2, static_cast<int64_t>(std::time(nullptr)));
    if (llvm::Error E = Add->run())
      return E;
    Id = DB->lastInsertRowId();

    auto File = DB->statement("INSERT INTO revision_files(revision_id, path, "
                              "content_hash) VALUES(?, ?, ?)");
    if (!File)
      return File.takeError();
    for (const FileVersionRef &F : Files) {
      File->reset();
      File->bindInt64(0, Id);
      File->bindText(1, F.first);
      File->bindText(2, F.second);
      if (llvm::Error E = File->run())
        return E;
    }
    return llvm::Error::success();
  });
  if (E)
    return E;
  return Id;
}

llvm::Expected<std::vector<FileVersionRef>> Store::currentFiles() {
  auto S = DB->statement("SELECT path, content_hash FROM revision_files "
                         "WHERE revision_id = (SELECT max(id) FROM revisions) "
                         "ORDER BY path");
  if (!S)
    return S.takeError();
  std::vector<FileVersionRef> Files;
  if (llvm::Error E = S->forEachRow(
          [&] { Files.emplace_back(S->columnText(0), S->columnText(1)); }))
    return E;
  return Files;
}

llvm::Expected<std::optional<std::string>> Store::currentCommit() {
  auto S =
      DB->statement("SELECT commit_id FROM revisions ORDER BY id DESC LIMIT 1");
  if (!S)
    return S.takeError();
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return S->columnText(0);
}

llvm::Expected<std::vector<KeyInFile>>
Store::keysForName(llvm::StringRef Name) {
  auto S = DB->statement(
      "SELECT DISTINCT k.key, fv.path FROM element_names n "
      "JOIN elements e ON e.id = n.element_id "
      "JOIN file_versions fv ON fv.id = e.file_version_id "
      "JOIN revision_files rf ON rf.path = fv.path "
      "AND rf.content_hash = fv.content_hash "
      "JOIN element_keys k ON k.id = e.key_id "
      "WHERE n.name = ? AND rf.revision_id = (SELECT max(id) FROM revisions) "
      "ORDER BY k.key, fv.path");
  if (!S)
    return S.takeError();
  S->bindText(0, Name);
  std::vector<KeyInFile> Keys;
  if (llvm::Error E = S->forEachRow([&] {
        Keys.push_back({S->columnText(0), S->columnText(1)});
      }))
    return E;
  return Keys;
}

llvm::Expected<std::vector<Element>> Store::elementsAt(llvm::StringRef Path,
                                                       unsigned Line) {
  auto S = DB->statement(
      "SELECT e.id, k.key, e.kind, e.display, e.begin_line, e.end_line, "
      "e.hash, e.compile_time, e.body_line FROM revision_files rf "
      "JOIN file_versions fv ON fv.path = rf.path "
      "AND fv.content_hash = rf.content_hash "
      "JOIN elements e ON e.file_version_id = fv.id "
      "JOIN element_keys k ON k.id = e.key_id "
      "WHERE rf.revision_id = (SELECT max(id) FROM revisions) "
      "AND rf.path = ? AND e.begin_line <= ? AND e.end_line >= ? "
      "ORDER BY e.end_line - e.begin_line, e.begin_line, k.key, e.id");
  if (!S)
    return S.takeError();
  S->bindText(0, Path);
  S->bindInt64(1, Line);
  S->bindInt64(2, Line);
  std::vector<Element> Elements;
  std::vector<int64_t> Ids;
  if (llvm::Error Failed = S->forEachRow([&]() -> llvm::Error {
        Element E;
        if (llvm::Error Err = readElement(*DB, *S, Path, E))
          return Err;
        Ids.push_back(S->columnInt64(0));
        Elements.push_back(std::move(E));
        return llvm::Error::success();
      }))
    return Failed;
  for (size_t I = 0; I < Elements.size(); ++I) {
    auto Names = namesOf(*DB, Ids[I]);
    if (!Names)
      return Names.takeError();
    Elements[I].Names = std::move(*Names);
  }
  return Elements;
}

} // namespace tia
