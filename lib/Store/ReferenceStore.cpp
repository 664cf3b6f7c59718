//===- ReferenceStore.cpp - the reference graph and the include directives ===//
//
// The part of the Store API about how elements depend on each other: the
// references of each file version's elements (element_references, keyed
// by the interned element keys that coverage shares) and its #include
// directives; and the queries selection asks of them.
//
//===----------------------------------------------------------------------===//

#include "CoverageIndex.h"
#include "Database.h"
#include "Schema.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include "llvm/Support/Path.h"

namespace tia {

using store::keyId;

namespace {

/// The last component of an include's spelling: "a.h" for "lib/a.h".
llvm::StringRef fileNameOf(llvm::StringRef Spelling) {
  return llvm::sys::path::filename(Spelling, llvm::sys::path::Style::posix);
}

/// The condition that keeps a file_versions row "fv" to the latest
/// revision.
constexpr llvm::StringLiteral InLatestRevision =
    "JOIN revision_files rf ON rf.path = fv.path "
    "AND rf.content_hash = fv.content_hash "
    "AND rf.revision_id = (SELECT max(id) FROM revisions) ";

} // namespace

namespace store {

llvm::Error insertReferencesAndIncludes(Database &DB, int64_t FileVersionId,
                                        const FileIndex &F) {
  if (!F.References.empty()) {
    auto S = DB.statement("INSERT INTO element_references(file_version_id, "
                          "from_key_id, to_key_id, kind) VALUES(?, ?, ?, ?) "
                          "ON CONFLICT DO NOTHING");
    if (!S)
      return S.takeError();
    for (const Reference &R : F.References) {
      auto From = keyId(DB, R.From);
      if (!From)
        return From.takeError();
      auto To = keyId(DB, R.To);
      if (!To)
        return To.takeError();
      S->reset();
      S->bindInt64(0, FileVersionId);
      S->bindInt64(1, *From);
      S->bindInt64(2, *To);
      S->bindText(3, referenceKindName(R.Kind));
      if (llvm::Error E = S->run())
        return E;
    }
  }
  if (F.Includes.empty())
    return llvm::Error::success();
  auto S = DB.statement("INSERT INTO include_directives(file_version_id, "
                        "line, spelling, file_name, angled, resolved) "
                        "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
  if (!S)
    return S.takeError();
  for (const IncludeDirective &I : F.Includes) {
    S->reset();
    S->bindInt64(0, FileVersionId);
    S->bindInt64(1, I.Line);
    S->bindText(2, I.Spelling);
    S->bindText(3, fileNameOf(I.Spelling));
    S->bindBool(4, I.Angled);
    S->bindText(5, I.Resolved);
    if (llvm::Error E = S->run())
      return E;
  }
  return llvm::Error::success();
}

llvm::Error readReferencesAndIncludes(Database &DB, int64_t FileVersionId,
                                      FileIndex &F) {
  auto Refs = DB.statement("SELECT fk.key, tk.key, r.kind "
                           "FROM element_references r "
                           "JOIN element_keys fk ON fk.id = r.from_key_id "
                           "JOIN element_keys tk ON tk.id = r.to_key_id "
                           "WHERE r.file_version_id = ? "
                           "ORDER BY fk.key, tk.key, r.kind");
  if (!Refs)
    return Refs.takeError();
  Refs->bindInt64(0, FileVersionId);
  if (llvm::Error E = Refs->forEachRow([&]() -> llvm::Error {
        std::string Kind = Refs->columnText(2);
        std::optional<ReferenceKind> K = parseReferenceKind(Kind);
        if (!K)
          return schema::notTiaDatabase(DB, "a reference of " + F.Path +
                                                " has the unknown kind '" +
                                                Kind + "'");
        F.References.push_back({Refs->columnText(0), Refs->columnText(1), *K});
        return llvm::Error::success();
      }))
    return E;

  auto Incs = DB.statement("SELECT line, spelling, angled, resolved "
                           "FROM include_directives "
                           "WHERE file_version_id = ? ORDER BY line, spelling");
  if (!Incs)
    return Incs.takeError();
  Incs->bindInt64(0, FileVersionId);
  return Incs->forEachRow([&] {
    IncludeDirective I;
    I.Line = static_cast<unsigned>(Incs->columnInt64(0));
    I.Spelling = Incs->columnText(1);
    I.Angled = Incs->columnBool(2);
    I.Resolved = Incs->columnText(3);
    F.Includes.push_back(std::move(I));
  });
}

} // namespace store

llvm::Expected<std::vector<ReferenceFrom>>
Store::referencesTo(llvm::StringRef Key) {
  auto S = DB->statement(
      ("SELECT DISTINCT fk.key, fv.path, r.kind, e.kind, e.compile_time, "
       "e.display "
       "FROM element_keys tk "
       "JOIN element_references r ON r.to_key_id = tk.id "
       "JOIN file_versions fv ON fv.id = r.file_version_id " +
       InLatestRevision +
       "JOIN element_keys fk ON fk.id = r.from_key_id "
       "LEFT JOIN elements e ON e.file_version_id = r.file_version_id "
       "AND e.key_id = r.from_key_id "
       "WHERE tk.key = ? ORDER BY fk.key, fv.path, r.kind")
          .str());
  if (!S)
    return S.takeError();
  S->bindText(0, Key);
  std::vector<ReferenceFrom> Out;
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        ReferenceFrom R;
        R.From = S->columnText(0);
        R.File = S->columnText(1);
        std::string Kind = S->columnText(2);
        std::optional<ReferenceKind> K = parseReferenceKind(Kind);
        if (!K)
          return schema::notTiaDatabase(*DB, "a reference to " + Key +
                                                 " has the unknown kind '" +
                                                 Kind + "'");
        R.Kind = *K;
        if (!S->columnIsNull(3)) {
          std::string FromKind = S->columnText(3);
          R.FromKind = parseKind(FromKind);
          if (!R.FromKind)
            return schema::notTiaDatabase(*DB, "element " + R.From +
                                                   " has the unknown kind '" +
                                                   FromKind + "'");
          R.FromCompileTime = S->columnBool(4);
          R.FromDisplay = S->columnText(5);
        }
        Out.push_back(std::move(R));
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<IncludeIn>>
Store::includesNaming(llvm::StringRef FileName) {
  auto S = DB->statement(
      ("SELECT fv.path, i.line, i.spelling, i.angled, i.resolved "
       "FROM include_directives i "
       "JOIN file_versions fv ON fv.id = i.file_version_id " +
       InLatestRevision + "WHERE i.file_name = ? ORDER BY fv.path, i.line")
          .str());
  if (!S)
    return S.takeError();
  S->bindText(0, FileName);
  std::vector<IncludeIn> Out;
  if (llvm::Error E = S->forEachRow([&] {
        IncludeIn I;
        I.File = S->columnText(0);
        I.Directive.Line = static_cast<unsigned>(S->columnInt64(1));
        I.Directive.Spelling = S->columnText(2);
        I.Directive.Angled = S->columnBool(3);
        I.Directive.Resolved = S->columnText(4);
        Out.push_back(std::move(I));
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<std::string>>
Store::testsCoveringFile(llvm::StringRef Path, llvm::StringRef ContentHash) {
  auto Ids = Coverage->testsCoveringFile(*DB, Path, ContentHash);
  if (!Ids)
    return Ids.takeError();
  return store::testNames(*DB, *Ids);
}

} // namespace tia
