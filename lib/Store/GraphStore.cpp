//===- GraphStore.cpp - the whole reference graph of the latest revision --===//
//
// The part of the Store API that C++ static selection reads at once: every
// reference and element of the latest revision (the graph is walked in
// memory), and the version of the front end that made the C++ file
// versions, kept in the meta table: a graph made by an older front end
// lacks edges, so 'tia index' parses such versions again.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "Schema.h"
#include "tia/Store/Store.h"

namespace tia {

namespace {

constexpr llvm::StringLiteral InLatestRevision =
    "JOIN revision_files rf ON rf.path = fv.path "
    "AND rf.content_hash = fv.content_hash "
    "AND rf.revision_id = (SELECT max(id) FROM revisions) ";

} // namespace

llvm::Expected<std::vector<GraphEdge>> Store::currentReferences() {
  auto S =
      DB->statement(("SELECT fv.path, fk.key, tk.key, r.kind "
                     "FROM element_references r "
                     "JOIN file_versions fv ON fv.id = r.file_version_id " +
                     InLatestRevision +
                     "JOIN element_keys fk ON fk.id = r.from_key_id "
                     "JOIN element_keys tk ON tk.id = r.to_key_id "
                     "ORDER BY fv.path, fk.key, tk.key, r.kind")
                        .str());
  if (!S)
    return S.takeError();
  std::vector<GraphEdge> Out;
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        GraphEdge G;
        G.File = S->columnText(0);
        G.From = S->columnText(1);
        G.To = S->columnText(2);
        std::string Kind = S->columnText(3);
        std::optional<ReferenceKind> K = parseReferenceKind(Kind);
        if (!K)
          return schema::notTiaDatabase(*DB, "a reference of " + G.File +
                                                 " has the unknown kind '" +
                                                 Kind + "'");
        G.Kind = *K;
        Out.push_back(std::move(G));
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<GraphElement>> Store::currentElements() {
  auto S =
      DB->statement(("SELECT fv.path, k.key, e.kind, e.display, "
                     "e.begin_line, e.end_line "
                     "FROM elements e "
                     "JOIN file_versions fv ON fv.id = e.file_version_id " +
                     InLatestRevision +
                     "JOIN element_keys k ON k.id = e.key_id "
                     "ORDER BY fv.path, e.begin_line, k.key")
                        .str());
  if (!S)
    return S.takeError();
  std::vector<GraphElement> Out;
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        GraphElement G;
        G.File = S->columnText(0);
        G.Key = S->columnText(1);
        std::string Kind = S->columnText(2);
        std::optional<ElementKind> K = parseKind(Kind);
        if (!K)
          return schema::notTiaDatabase(
              *DB, "element " + G.Key + " has the unknown kind '" + Kind + "'");
        G.Kind = *K;
        G.Display = S->columnText(3);
        G.BeginLine = static_cast<unsigned>(S->columnInt64(4));
        G.EndLine = static_cast<unsigned>(S->columnInt64(5));
        Out.push_back(std::move(G));
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

llvm::Expected<int64_t> Store::cppGraphVersion() {
  auto Value = schema::readMeta(*DB, "cpp_graph_version");
  if (!Value)
    return Value.takeError();
  int64_t V = 0;
  if (!*Value || llvm::StringRef(**Value).getAsInteger(10, V))
    return 0;
  return V;
}

llvm::Error Store::setCppGraphVersion(int64_t Version) {
  return schema::writeMeta(*DB, "cpp_graph_version", std::to_string(Version));
}

llvm::Error Store::forgetCppIndexes() {
  return DB->exec("DELETE FROM file_versions WHERE path NOT LIKE '%.py' "
                  "AND path NOT LIKE '%.pyi';"
                  "DELETE FROM translation_units;");
}

} // namespace tia
