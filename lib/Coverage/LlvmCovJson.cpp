//===- LlvmCovJson.cpp - llvm-cov export JSON reader ----------------------===//

#include "tia/Coverage/Coverage.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "llvm/Support/JSON.h"

namespace tia {
namespace coverage {

llvm::Expected<TestCoverage> parseLlvmCovJson(llvm::StringRef Text,
                                              llvm::StringRef FileName) {
  auto Fail = [&](const llvm::Twine &Why) {
    return makeErrorf("malformed llvm-cov JSON {0}: {1}", FileName, Why.str());
  };
  llvm::Expected<llvm::json::Value> Root = parseJson(Text);
  if (!Root)
    return Fail(llvm::toString(Root.takeError()));
  const llvm::json::Object *Top = Root->getAsObject();
  if (!Top)
    return Fail("the top level is not an object");
  std::optional<llvm::StringRef> Type = Top->getString("type");
  if (!Type || !Type->starts_with("llvm.coverage.json.export"))
    return Fail("not an 'llvm-cov export' report (no \"type\": "
                "\"llvm.coverage.json.export\")");
  const llvm::json::Array *Data = Top->getArray("data");
  if (!Data)
    return Fail("no \"data\" array");

  TestCoverage Out;
  for (const llvm::json::Value &Export : *Data) {
    const llvm::json::Object *E = Export.getAsObject();
    if (!E)
      return Fail("an entry of \"data\" is not an object");
    const llvm::json::Array *Functions = E->getArray("functions");
    if (!Functions)
      return Fail("no \"functions\" array (export without -skip-functions)");
    for (const llvm::json::Value &FV : *Functions) {
      const llvm::json::Object *F = FV.getAsObject();
      if (!F)
        return Fail("a function is not an object");
      std::optional<llvm::StringRef> Name = F->getString("name");
      std::optional<int64_t> Count = F->getInteger("count");
      if (!Name || !Count)
        return Fail("a function without \"name\" or \"count\"");
      if (*Count <= 0)
        continue;
      FunctionHit Hit;
      // Local symbols are reported as "<file>:<mangled>"; mangled names and
      // C identifiers never contain ':'.
      size_t Colon = Name->rfind(':');
      Hit.Name =
          (Colon == llvm::StringRef::npos ? *Name : Name->substr(Colon + 1))
              .str();
      if (Colon != llvm::StringRef::npos)
        Hit.LocalPrefix = Name->substr(0, Colon).str();
      if (const llvm::json::Array *Files = F->getArray("filenames"))
        if (!Files->empty())
          if (std::optional<llvm::StringRef> File = (*Files)[0].getAsString())
            Hit.File = File->str();
      if (const llvm::json::Array *Regions = F->getArray("regions"))
        if (!Regions->empty())
          if (const llvm::json::Array *R = (*Regions)[0].getAsArray())
            if (!R->empty())
              if (std::optional<int64_t> L = (*R)[0].getAsInteger())
                Hit.Line = static_cast<unsigned>(*L);
      Out.Functions.push_back(std::move(Hit));
    }
  }
  return Out;
}

} // namespace coverage
} // namespace tia
