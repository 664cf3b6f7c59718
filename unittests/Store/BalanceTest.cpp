//===- BalanceTest.cpp - the costs a shard plan balances ------------------===//

#include "tia/Store/Balance.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;
using tia::testing::errorText;

namespace {

TEST(BalanceTest, AMissingDatabaseNamesTheOption) {
  EXPECT_TRUE(llvm::StringRef(errorText(recordedDurations("/no/such/tia.db")))
                  .starts_with("--balance-from: "));
  EXPECT_TRUE(llvm::StringRef(errorText(recordedParseTimes("/no/such/tia.db")))
                  .starts_with("--balance-from: "));
}

} // namespace
