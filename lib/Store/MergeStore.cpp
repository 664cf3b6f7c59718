//===- MergeStore.cpp - what tia merge reads and copies -------------------===//
//
// The few reads and copies `tia merge` needs beyond what the commands use
// every day. Everything else it moves through the everyday API, so that a
// merged database is written the way index and collect write one.
//
//===----------------------------------------------------------------------===//

#include "CoverageIndex.h"
#include "Database.h"
#include "Schema.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"

namespace tia {

llvm::Expected<std::vector<FileVersionRef>> Store::fileVersions() {
  auto S = DB->statement(
      "SELECT path, content_hash FROM file_versions ORDER BY path, "
      "content_hash");
  if (!S)
    return S.takeError();
  std::vector<FileVersionRef> Out;
  if (llvm::Error E = S->forEachRow(
          [&] { Out.emplace_back(S->columnText(0), S->columnText(1)); }))
    return E;
  return Out;
}

llvm::Expected<std::optional<RevisionRecord>> Store::currentRevision() {
  auto S = DB->statement("SELECT commit_id, dirty FROM revisions ORDER BY id "
                         "DESC LIMIT 1");
  if (!S)
    return S.takeError();
  auto Row = S->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  RevisionRecord R;
  R.Commit = S->columnText(0);
  R.Dirty = S->columnBool(1);
  auto Files = currentFiles();
  if (!Files)
    return Files.takeError();
  R.Files = std::move(*Files);
  return R;
}

llvm::Error Store::checkIntact() {
  auto S = DB->statement("PRAGMA quick_check(1)");
  if (!S)
    return makeErrorf("{0} is damaged: {1}", DB->path(),
                      llvm::toString(S.takeError()));
  auto Row = S->step();
  if (!Row)
    return makeErrorf("{0} is damaged: {1}", DB->path(),
                      llvm::toString(Row.takeError()));
  std::string Verdict = *Row ? S->columnText(0) : "no answer";
  if (Verdict != "ok")
    return makeErrorf("{0} is damaged: {1}", DB->path(), Verdict);
  return llvm::Error::success();
}

llvm::Error Store::limitPageCache(unsigned KiB) {
  return DB->exec(("PRAGMA cache_size = -" + llvm::Twine(KiB)).str());
}

llvm::Error Store::copyIndexSettings(Store &From) {
  // The meta keys index writes about its checkout (Locations.cpp,
  // GraphStore.cpp, PythonStore.cpp); values are copied as stored, so
  // relocatable paths stay relocatable.
  auto S = From.DB->statement(
      "SELECT key, value FROM meta WHERE key IN ('build_dir', "
      "'cpp_graph_version', 'pytest_settings') OR key LIKE "
      "'compiler\\_version %' ESCAPE '\\' ORDER BY key");
  if (!S)
    return S.takeError();
  return S->forEachRow([&]() -> llvm::Error {
    return schema::writeMeta(*DB, S->columnText(0), S->columnText(1));
  });
}

llvm::Expected<unsigned> Store::copyCoverage(Store &From,
                                             const std::set<std::string> &Tests,
                                             llvm::StringRef Commit) {
  // From's key ids, translated to this store's once each: a merge of
  // shards copies millions of links over the same few keys.
  std::vector<int64_t> Mapped;
  auto Translate = [&](int64_t FromId) -> llvm::Expected<int64_t> {
    if (FromId < 0)
      return makeErrorf("{0}: a negative element key id", From.DB->path());
    if (static_cast<size_t>(FromId) >= Mapped.size())
      Mapped.resize(FromId + 1, 0);
    if (Mapped[FromId])
      return Mapped[FromId];
    auto Name = From.DB->statement("SELECT key FROM element_keys WHERE id = ?");
    if (!Name)
      return Name.takeError();
    Name->bindInt64(0, FromId);
    auto Row = Name->step();
    if (!Row)
      return Row.takeError();
    if (!*Row)
      return makeErrorf("{0}: coverage names element key {1}, which it does "
                        "not hold: run 'tia coverage repair' on it",
                        From.DB->path(), FromId);
    auto Id = Coverage->keyId(*DB, Name->columnText(0));
    if (!Id)
      return Id.takeError();
    return Mapped[FromId] = *Id;
  };

  auto Rows = From.DB->statement(
      "SELECT t.name, c.keys FROM tests t JOIN test_coverage c ON "
      "c.test_id = t.id WHERE t.coverage_commit = ? ORDER BY t.name");
  if (!Rows)
    return Rows.takeError();
  Rows->bindText(0, Commit);
  unsigned Copied = 0;
  llvm::Error E = store::inTransaction(*DB, [&]() -> llvm::Error {
    return Rows->forEachRow([&]() -> llvm::Error {
      std::string Name = Rows->columnText(0);
      if (!Tests.count(Name))
        return llvm::Error::success();
      auto Ids = store::decodeKeyIds(Rows->columnBlob(1), "test " + Name);
      if (!Ids)
        return Ids.takeError();
      std::vector<int64_t> Keys;
      Keys.reserve(Ids->size());
      for (int64_t FromId : *Ids) {
        auto Id = Translate(FromId);
        if (!Id)
          return Id.takeError();
        Keys.push_back(*Id);
      }
      ++Copied;
      return putCoverageIds(Name, Commit, std::move(Keys));
    });
  });
  if (E)
    return E;
  return Copied;
}

} // namespace tia
