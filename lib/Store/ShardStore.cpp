//===- ShardStore.cpp - what a shard database is --------------------------===//
//
// A shard record is one meta row per kind of work ("shard index",
// "shard collect", "shard pytest") whose value is JSON: the meta table
// takes it without a schema change, and a database that is no shard has
// none.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "Schema.h"
#include "tia/Store/Merge.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "llvm/Support/JSON.h"

namespace tia {

namespace {

const char *const KeyPrefix = "shard ";

std::string encode(const ShardRecord &R) {
  llvm::json::Object O{{"kind", R.Kind},     {"k", R.K},
                       {"n", R.N},           {"plan_hash", R.PlanHash},
                       {"commit", R.Commit}, {"plan", R.Plan},
                       {"run", R.RunId},     {"schema", R.Schema}};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(O));
  return Out;
}

} // namespace

llvm::Expected<ShardRecord> merge::parseShardRecord(llvm::StringRef Key,
                                                    llvm::StringRef Text) {
  auto Bad = [&] {
    return makeErrorf("meta '{0}' is not a shard record tia can read", Key);
  };
  // The rows come from databases other jobs made: a hand-made one may nest
  // deep enough to overflow llvm::json::parse's recursion.
  auto V = parseJson(Text);
  if (!V) {
    llvm::consumeError(V.takeError()); // Told as a bad record below.
    return Bad();
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O)
    return Bad();
  // K and N are checked before they are narrowed to unsigned: n = 2^32 + 1
  // is no share of 1, and N bounds what merge allocates per share.
  std::optional<int64_t> K = O->getInteger("k"), N = O->getInteger("n");
  if (!K || !N || *K < 1 || *K > *N || *N > merge::MaxShares)
    return Bad();
  ShardRecord R;
  R.Kind = O->getString("kind").value_or("").str();
  R.K = static_cast<unsigned>(*K);
  R.N = static_cast<unsigned>(*N);
  R.PlanHash = O->getString("plan_hash").value_or("").str();
  R.Commit = O->getString("commit").value_or("").str();
  R.Plan = O->getString("plan").value_or("").str();
  R.RunId = O->getInteger("run").value_or(0);
  R.Schema = O->getInteger("schema").value_or(0);
  if (R.Kind.empty())
    return Bad();
  return R;
}

ShardRecord shardRecordOf(llvm::StringRef Kind, const shard::ShardPlan &Plan,
                          const shard::ShardSpec &Spec, llvm::StringRef Commit,
                          int64_t RunId) {
  ShardRecord R;
  R.Kind = Kind.str();
  R.K = Spec.K;
  R.N = Spec.N;
  R.PlanHash = Plan.Hash;
  R.Commit = Commit.str();
  R.Plan = shard::planText(Plan);
  R.RunId = RunId;
  return R;
}

llvm::Error Store::putShardRecord(const ShardRecord &R) {
  ShardRecord Stamped = R;
  Stamped.Schema = SchemaVersion;
  return schema::writeMeta(*DB, KeyPrefix + R.Kind, encode(Stamped));
}

llvm::Expected<std::vector<ShardRecord>> Store::shardRecords() {
  auto S = DB->statement("SELECT key, value FROM meta WHERE key >= ? AND "
                         "key < ? ORDER BY key");
  if (!S)
    return S.takeError();
  S->bindText(0, "shard ");
  S->bindText(1, "shard!"); // '!' follows ' ': every "shard ..." key
  std::vector<ShardRecord> Out;
  if (llvm::Error E = S->forEachRow([&]() -> llvm::Error {
        auto R = merge::parseShardRecord(S->columnText(0), S->columnText(1));
        if (!R)
          return R.takeError();
        Out.push_back(std::move(*R));
        return llvm::Error::success();
      }))
    return E;
  return Out;
}

llvm::Expected<std::optional<ShardRecord>> Store::indexShare() {
  auto Records = shardRecords();
  if (!Records)
    return Records.takeError();
  for (ShardRecord &R : *Records)
    if (R.Kind == "index" && R.N > 1)
      return std::move(R);
  return std::nullopt;
}

llvm::Error Store::forgetShardRecord(llvm::StringRef Kind) {
  return schema::deleteMeta(*DB, (KeyPrefix + Kind).str());
}

llvm::Error Store::clearShardRecords() {
  auto S = DB->statement("DELETE FROM meta WHERE key >= ? AND key < ?");
  if (!S)
    return S.takeError();
  S->bindText(0, "shard ");
  S->bindText(1, "shard!");
  return S->run();
}

} // namespace tia
