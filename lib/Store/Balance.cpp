//===- Balance.cpp - the costs a shard plan balances ----------------------===//

#include "tia/Store/Balance.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"

namespace tia {

namespace {

llvm::Expected<std::unique_ptr<Store>> openBalance(llvm::StringRef Path) {
  auto S = Store::open(Path, Store::Mode::ReadOnly);
  if (!S)
    return makeErrorf("--balance-from: {0}", llvm::toString(S.takeError()));
  return S;
}

} // namespace

llvm::Expected<std::map<std::string, double>>
recordedParseTimes(llvm::StringRef Path) {
  auto S = openBalance(Path);
  if (!S)
    return S.takeError();
  auto TUs = (*S)->translationUnits();
  if (!TUs)
    return TUs.takeError();
  std::map<std::string, double> Out;
  for (const StoredTranslationUnit &TU : *TUs)
    if (TU.ParseSeconds > 0) // 0: indexed before parse times were kept
      Out[TU.Path] = TU.ParseSeconds;
  return Out;
}

llvm::Expected<std::map<std::string, double>>
recordedDurations(llvm::StringRef Path) {
  auto S = openBalance(Path);
  if (!S)
    return S.takeError();
  auto Results = (*S)->latestResults();
  if (!Results)
    return Results.takeError();
  std::map<std::string, double> Out;
  for (const TestResult &R : *Results)
    Out[R.TestId] = R.Seconds;
  return Out;
}

} // namespace tia
