//===- MergeStore.cpp - what tia merge reads and copies -------------------===//
//
// The few reads and copies `tia merge` needs beyond what the commands use
// every day. Everything else it moves through the everyday API, so that a
// merged database is written the way index and collect write one.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "Schema.h"
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

llvm::Error Store::copyIndexSettings(Store &From) {
  // The meta keys index writes about its checkout (Locations.cpp,
  // GraphStore.cpp); values are copied as stored, so relocatable paths stay
  // relocatable.
  auto S = From.DB->statement(
      "SELECT key, value FROM meta WHERE key IN ('build_dir', "
      "'cpp_graph_version') OR key LIKE 'compiler\\_version %' ESCAPE '\\' "
      "ORDER BY key");
  if (!S)
    return S.takeError();
  return S->forEachRow([&]() -> llvm::Error {
    return schema::writeMeta(*DB, S->columnText(0), S->columnText(1));
  });
}

} // namespace tia
