//===- ObservationStoreTest.cpp - the records of observed runs ------------===//

#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;
using tia::testing::errorText;

namespace {

using tia::testing::openMemory;

std::vector<std::string> describe(const std::vector<StoredObservation> &All) {
  std::vector<std::string> Out;
  for (const StoredObservation &O : All)
    Out.push_back(std::to_string(O.RunId) + " v" +
                  std::to_string(O.FormatVersion) + " " + O.Record);
  return Out;
}

using Strings = std::vector<std::string>;

TEST(ObservationStoreTest, RecordsGoWithTheirRunsOldestFirst) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(Early, S->addRun("c1", "observe", 100));
  ASSERT_VALUE(Plain, S->addRun("c1", "run", 150));
  ASSERT_VALUE(Late, S->addRun("c2", "observe", 200));
  ASSERT_OK(S->putObservation({*Late, 1, "{\"late\":1}"}));
  ASSERT_OK(S->putObservation({*Early, 1, "{\"early\":1}"}));
  ASSERT_VALUE(All, S->observations());
  EXPECT_EQ(describe(*All),
            Strings({std::to_string(*Early) + " v1 {\"early\":1}",
                     std::to_string(*Late) + " v1 {\"late\":1}"}));
  (void)Plain;
  ASSERT_VALUE(Since, S->observations(150));
  EXPECT_EQ(describe(*Since),
            Strings({std::to_string(*Late) + " v1 {\"late\":1}"}));
}

TEST(ObservationStoreTest, PuttingAgainReplacesTheRecord) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(Run, S->addRun("c1", "observe", 100));
  ASSERT_OK(S->putObservation({*Run, 1, "{}"}));
  ASSERT_OK(S->putObservation({*Run, 2, "{\"again\":true}"}));
  ASSERT_VALUE(All, S->observations());
  EXPECT_EQ(describe(*All),
            Strings({std::to_string(*Run) + " v2 {\"again\":true}"}));
}

TEST(ObservationStoreTest, ARecordNeedsItsRun) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  EXPECT_NE(errorText(S->putObservation({42, 1, "{}"})), "");
  ASSERT_VALUE(All, S->observations());
  EXPECT_TRUE(All->empty());
}

} // namespace
