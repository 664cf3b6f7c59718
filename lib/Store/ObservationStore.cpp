//===- ObservationStore.cpp - the records of observed runs ----------------===//
//
// An observed run (`tia run --observe`) ran the whole suite; its record is
// the selection tia would have made, kept beside the run's results so that
// `tia observed` can tell the failures the selection caught from those it
// would have let escape.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"

namespace tia {

using store::inTransaction;

llvm::Error Store::putObservation(const StoredObservation &O) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto S = DB->statement(
        "INSERT INTO observations(run_id, format_version, record) "
        "VALUES(?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET "
        "format_version = excluded.format_version, record = excluded.record");
    if (!S)
      return S.takeError();
    S->bindInt64(0, O.RunId);
    S->bindInt64(1, O.FormatVersion);
    S->bindText(2, O.Record);
    return S->run();
  });
}

llvm::Expected<std::vector<StoredObservation>>
Store::observations(int64_t Since) {
  auto S = DB->statement(
      "SELECT o.run_id, o.format_version, o.record FROM observations o "
      "JOIN runs u ON u.id = o.run_id WHERE u.started_at >= ? "
      "ORDER BY o.run_id");
  if (!S)
    return S.takeError();
  S->bindInt64(0, Since);
  std::vector<StoredObservation> Out;
  if (llvm::Error E = S->forEachRow([&] {
        Out.push_back({S->columnInt64(0),
                       static_cast<int>(S->columnInt64(1)),
                       S->columnText(2)});
      }))
    return E;
  return Out;
}

} // namespace tia
