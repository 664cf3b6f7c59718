//===- PythonStore.cpp - what the Python front end records ----------------===//
//
// The part of the Store about Python files: module names, the settings a
// version was parsed with, and the import graph.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"

namespace tia {
namespace store {

/// Stores what the Python front end recorded of a file version besides its
/// elements (nothing for other files).
llvm::Error insertPythonInfo(Database &DB, int64_t FileVersionId,
                             const std::optional<PythonFileInfo> &Info) {
  if (!Info)
    return llvm::Error::success();
  auto File = DB.statement("INSERT INTO python_files(file_version_id, "
                           "module, settings, problem) VALUES(?, ?, ?, ?)");
  if (!File)
    return File.takeError();
  File->bindInt64(0, FileVersionId);
  File->bindText(1, Info->Module);
  File->bindText(2, Info->Settings);
  File->bindText(3, Info->Problem);
  if (llvm::Error E = File->run())
    return E;
  auto Import = DB.statement("INSERT INTO python_imports(file_version_id, "
                             "line, module, name) VALUES(?, ?, ?, ?) "
                             "ON CONFLICT DO NOTHING");
  if (!Import)
    return Import.takeError();
  for (const ImportRecord &I : Info->Imports) {
    Import->reset();
    Import->bindInt64(0, FileVersionId);
    Import->bindInt64(1, I.Line);
    Import->bindText(2, I.Module);
    Import->bindText(3, I.Name);
    if (llvm::Error E = Import->run())
      return E;
  }
  return llvm::Error::success();
}

} // namespace store

llvm::Expected<std::optional<std::string>>
Store::pythonSettings(llvm::StringRef Path, llvm::StringRef ContentHash) {
  auto S = DB->statement("SELECT p.settings FROM file_versions fv "
                         "JOIN python_files p ON p.file_version_id = fv.id "
                         "WHERE fv.path = ? AND fv.content_hash = ?");
  if (!S)
    return S.takeError();
  S->bindText(0, Path);
  S->bindText(1, ContentHash);
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return S->columnText(0);
}

llvm::Expected<std::vector<std::pair<std::string, std::string>>>
Store::currentPythonModules() {
  auto S =
      DB->statement("SELECT rf.path, p.module FROM revision_files rf "
                    "JOIN file_versions fv ON fv.path = rf.path "
                    "AND fv.content_hash = rf.content_hash "
                    "JOIN python_files p ON p.file_version_id = fv.id "
                    "WHERE rf.revision_id = (SELECT max(id) FROM revisions) "
                    "ORDER BY rf.path");
  if (!S)
    return S.takeError();
  std::vector<std::pair<std::string, std::string>> Out;
  if (llvm::Error E = S->forEachRow(
          [&] { Out.emplace_back(S->columnText(0), S->columnText(1)); }))
    return E;
  return Out;
}

llvm::Expected<std::vector<std::pair<std::string, ImportRecord>>>
Store::currentImports() {
  auto S = DB->statement(
      "SELECT rf.path, i.line, i.module, i.name FROM revision_files rf "
      "JOIN file_versions fv ON fv.path = rf.path "
      "AND fv.content_hash = rf.content_hash "
      "JOIN python_imports i ON i.file_version_id = fv.id "
      "WHERE rf.revision_id = (SELECT max(id) FROM revisions) "
      "ORDER BY rf.path, i.line, i.module, i.name");
  if (!S)
    return S.takeError();
  std::vector<std::pair<std::string, ImportRecord>> Out;
  if (llvm::Error E = S->forEachRow([&] {
        Out.push_back({S->columnText(0),
                       {S->columnText(2), S->columnText(3),
                        static_cast<unsigned>(S->columnInt64(1))}});
      }))
    return E;
  return Out;
}

} // namespace tia
