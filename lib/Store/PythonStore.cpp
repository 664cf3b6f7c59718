//===- PythonStore.cpp - what the Python front end records ----------------===//
//
// The part of the Store about Python files: module names, the settings a
// version was parsed with, and the import graph.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "Schema.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include "tia/Support/Json.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

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
  auto Node = DB.statement(
      "INSERT INTO python_nodes(file_version_id, ordinal, node_id, kind, "
      "name, class, element_key, begin_line, end_line, checksum, "
      "header_checksum, uses, decorators, flags, aliases, bases) "
      "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!Node)
    return Node.takeError();
  for (size_t I = 0; I < Info->Nodes.size(); ++I) {
    const NameNode &N = Info->Nodes[I];
    Node->reset();
    Node->bindInt64(0, FileVersionId);
    Node->bindInt64(1, static_cast<int64_t>(I));
    Node->bindText(2, N.Id);
    Node->bindText(3, N.Kind);
    Node->bindText(4, N.Name);
    Node->bindText(5, N.Class);
    Node->bindText(6, N.Key);
    Node->bindInt64(7, N.BeginLine);
    Node->bindInt64(8, N.EndLine);
    Node->bindText(9, N.Checksum);
    Node->bindText(10, N.HeaderChecksum);
    Node->bindText(11, N.Uses);
    Node->bindText(12, llvm::join(N.Decorators, " "));
    Node->bindText(13, llvm::join(N.Flags, " "));
    Node->bindText(14, llvm::join(N.Aliases, " "));
    Node->bindText(15, llvm::join(N.Bases, " "));
    if (llvm::Error E = Node->run())
      return E;
  }
  auto Binding = DB.statement("INSERT INTO python_bindings(file_version_id, "
                              "local, module, name) VALUES(?, ?, ?, ?) "
                              "ON CONFLICT DO NOTHING");
  if (!Binding)
    return Binding.takeError();
  for (const NameBinding &B : Info->Bindings) {
    Binding->reset();
    Binding->bindInt64(0, FileVersionId);
    Binding->bindText(1, B.Local);
    Binding->bindText(2, B.Module);
    Binding->bindText(3, B.Name);
    if (llvm::Error E = Binding->run())
      return E;
  }
  return llvm::Error::success();
}

namespace {

std::vector<std::string> words(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

} // namespace

llvm::Error readNameGraph(Database &DB, int64_t FileVersionId,
                          PythonFileInfo &Info) {
  auto Nodes = DB.statement(
      "SELECT node_id, kind, name, class, element_key, begin_line, end_line, "
      "checksum, header_checksum, uses, decorators, flags, aliases, bases "
      "FROM python_nodes "
      "WHERE file_version_id = ? ORDER BY ordinal");
  if (!Nodes)
    return Nodes.takeError();
  Nodes->bindInt64(0, FileVersionId);
  if (llvm::Error E = Nodes->forEachRow([&] {
        NameNode N;
        N.Id = Nodes->columnText(0);
        N.Kind = Nodes->columnText(1);
        N.Name = Nodes->columnText(2);
        N.Class = Nodes->columnText(3);
        N.Key = Nodes->columnText(4);
        N.BeginLine = static_cast<unsigned>(Nodes->columnInt64(5));
        N.EndLine = static_cast<unsigned>(Nodes->columnInt64(6));
        N.Checksum = Nodes->columnText(7);
        N.HeaderChecksum = Nodes->columnText(8);
        N.Uses = Nodes->columnText(9);
        N.Decorators = words(Nodes->columnText(10));
        N.Flags = words(Nodes->columnText(11));
        N.Aliases = words(Nodes->columnText(12));
        N.Bases = words(Nodes->columnText(13));
        Info.Nodes.push_back(std::move(N));
      }))
    return E;
  auto Bindings = DB.statement("SELECT local, module, name FROM "
                               "python_bindings WHERE file_version_id = ? "
                               "ORDER BY local, module, name");
  if (!Bindings)
    return Bindings.takeError();
  Bindings->bindInt64(0, FileVersionId);
  return Bindings->forEachRow([&] {
    Info.Bindings.push_back({Bindings->columnText(0), Bindings->columnText(1),
                             Bindings->columnText(2)});
  });
}

} // namespace store

llvm::Expected<std::optional<std::string>>
Store::rememberedPytestSettings(llvm::StringRef Key) {
  auto Value = schema::readMeta(*DB, "pytest_settings");
  if (!Value)
    return Value.takeError();
  if (!*Value)
    return std::nullopt;
  // Written by rememberPytestSettings; anything else is no memo.
  auto V = parseJson(**Value);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getString("key") != Key)
    return std::nullopt;
  if (std::optional<llvm::StringRef> Answer = O->getString("answer"))
    return Answer->str();
  return std::nullopt;
}

llvm::Error Store::rememberPytestSettings(llvm::StringRef Key,
                                          llvm::StringRef Answer) {
  std::string Value;
  llvm::raw_string_ostream OS(Value);
  OS << llvm::json::Value(
      llvm::json::Object{{"key", Key.str()}, {"answer", Answer.str()}});
  return schema::writeMeta(*DB, "pytest_settings", OS.str());
}

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

llvm::Expected<std::optional<FileIndex>>
Store::getPythonGraph(llvm::StringRef Path, llvm::StringRef ContentHash) {
  auto S = DB->statement("SELECT fv.id, fv.complete, p.module, p.settings, "
                         "p.problem FROM file_versions fv "
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
  int64_t Id = S->columnInt64(0);
  FileIndex F;
  F.Path = Path.str();
  F.ContentHash = ContentHash.str();
  F.Complete = S->columnBool(1);
  PythonFileInfo Info;
  Info.Module = S->columnText(2);
  Info.Settings = S->columnText(3);
  Info.Problem = S->columnText(4);

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
  auto Imports = DB->statement("SELECT line, module, name FROM python_imports "
                               "WHERE file_version_id = ? "
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
  return std::optional<FileIndex>(std::move(F));
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
