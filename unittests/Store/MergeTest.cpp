//===- MergeTest.cpp - shard databases into one ---------------------------===//

#include "tia/Store/Merge.h"
#include "Database.h"
#include "Schema.h"
#include "tia/Support/Progress.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::merge;
using tia::testing::errorText;

namespace {

using Strings = std::vector<std::string>;

/// The record of share \p K of \p Units split round-robin into \p N.
ShardRecord record(llvm::StringRef Kind, unsigned K, unsigned N,
                   const Strings &Units, llvm::StringRef Commit = "c1",
                   int64_t RunId = 0) {
  std::vector<shard::WorkUnit> Work;
  for (const std::string &U : Units)
    Work.push_back({U, 1});
  shard::ShardPlan Plan = shard::partition(Work, N);
  return shardRecordOf(Kind, Plan, {K, N}, Commit, RunId);
}

ShardRecord stamped(ShardRecord R) {
  R.Schema = Store::SchemaVersion;
  return R;
}

std::vector<InputRecords> shards(llvm::StringRef Kind, unsigned N,
                                 const Strings &Units,
                                 std::vector<unsigned> Ks) {
  std::vector<InputRecords> In;
  for (unsigned K : Ks)
    In.push_back({"s" + std::to_string(K) + ".db",
                  {stamped(record(Kind, K, N, Units))}});
  return In;
}

const Strings Tests = {"ctest:a", "ctest:b", "ctest:c", "ctest:d"};

TEST(MergeTest, AllSharesMatchWithNoneMissing) {
  ASSERT_VALUE(M, matchShares(shards("collect", 3, Tests, {2, 1, 3}),
                              Store::SchemaVersion));
  ASSERT_EQ(M->Kinds.size(), 1u);
  const KindShares &KS = M->Kinds[0];
  EXPECT_EQ(KS.Kind, "collect");
  EXPECT_EQ(KS.N, 3u);
  EXPECT_TRUE(KS.Missing.empty());
  EXPECT_EQ(KS.Holders.at(1), 1u); // s1.db was given second
  EXPECT_EQ(KS.Units, Tests);
  EXPECT_EQ(M->Commit, "c1");
}

TEST(MergeTest, AMissingShareIsNamedWithItsUnits) {
  ASSERT_VALUE(
      M, matchShares(shards("collect", 2, Tests, {2}), Store::SchemaVersion));
  ASSERT_EQ(M->Kinds[0].Missing.size(), 1u);
  const MissingShare &S = M->Kinds[0].Missing[0];
  EXPECT_EQ(S.K, 1u);
  EXPECT_EQ(S.N, 2u);
  EXPECT_EQ(S.Units.size(), 2u);
  for (const std::string &U : S.Units)
    EXPECT_TRUE(llvm::is_contained(Tests, U)) << U;
}

TEST(MergeTest, AFileGivenTwiceCountsOnce) {
  auto In = shards("index", 2, {"a.cpp", "b.cpp"}, {1, 2});
  In.push_back(In[0]);
  ASSERT_VALUE(M, matchShares(In, Store::SchemaVersion));
  EXPECT_EQ(M->Repeated, std::set<size_t>{2});
  EXPECT_TRUE(M->Kinds[0].Missing.empty());
}

TEST(MergeTest, RefusesADatabaseThatIsNoShard) {
  std::vector<InputRecords> In = {{"whole.db", {}}};
  EXPECT_EQ(errorText(matchShares(In, Store::SchemaVersion)).substr(0, 40),
            "whole.db is no shard: it holds no record");
}

TEST(MergeTest, RefusesCoverageCollectedOnAShareOfTheIndex) {
  const Strings Units = {"a.cpp", "b.cpp"};
  for (llvm::StringRef Kind : {"collect", "pytest"}) {
    std::vector<InputRecords> In = {{"one-phase.db",
                                     {stamped(record(Kind, 1, 2, Tests)),
                                      stamped(record("index", 1, 2, Units))}}};
    std::string Text = errorText(matchShares(In, Store::SchemaVersion));
    EXPECT_NE(Text.find("one-phase.db holds coverage collected on share 1/2 "
                        "of the index"),
              std::string::npos)
        << Text;
  }
  // A whole index (one share of one) lost nothing.
  std::vector<InputRecords> Whole = {{"whole.db",
                                      {stamped(record("collect", 1, 2, Tests)),
                                       stamped(record("index", 1, 1, Units))}}};
  EXPECT_TRUE(bool(matchShares(Whole, Store::SchemaVersion)));
}

TEST(MergeTest, RefusesSharesOfAnotherCommit) {
  auto In = shards("collect", 2, Tests, {1});
  In.push_back({"late.db", {stamped(record("collect", 2, 2, Tests, "c2"))}});
  std::string Text = errorText(matchShares(In, Store::SchemaVersion));
  EXPECT_NE(Text.find("late.db holds shard 2/2 of collect done at commit c2, "
                      "but s1.db was done at c1"),
            std::string::npos)
      << Text;
}

TEST(MergeTest, RefusesSharesPlannedDifferently) {
  auto In = shards("collect", 2, Tests, {1});
  In.push_back({"other.db", {stamped(record("collect", 2, 3, Tests))}});
  std::string Text = errorText(matchShares(In, Store::SchemaVersion));
  EXPECT_NE(Text.find("other.db holds shard 2/3 of collect"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("the same --shard N"), std::string::npos);
}

TEST(MergeTest, RefusesTwoFilesHoldingOneShare) {
  auto In = shards("collect", 2, Tests, {1});
  In.push_back({"again.db", In[0].Records});
  EXPECT_EQ(errorText(matchShares(In, Store::SchemaVersion)),
            "s1.db and again.db both hold shard 1/2 of collect: keep one of "
            "them");
}

TEST(MergeTest, RefusesAnotherSchema) {
  auto In = shards("collect", 1, Tests, {1});
  In[0].Records[0].Schema = Store::SchemaVersion + 1;
  EXPECT_NE(errorText(matchShares(In, Store::SchemaVersion))
                .find("s1.db was written by another tia"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Shard records as other jobs' databases hold them
//===----------------------------------------------------------------------===//

/// Reads the shard records of a database whose "shard collect" meta row
/// was set to a value outside tia, as a damaged or hand-made one may be.
class ShardRowTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-merge-test", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// The error reading the records back, "(no error)" when they read.
  std::string readWith(llvm::StringRef Value) {
    std::string Path = (Dir + "/shard.db").str();
    if (auto S = Store::open(Path, Store::Mode::ReadWrite); !S)
      return llvm::toString(S.takeError());
    {
      auto Raw = Database::open(Path, Database::OpenMode::ReadWrite);
      if (!Raw)
        return llvm::toString(Raw.takeError());
      if (llvm::Error E = schema::writeMeta(**Raw, "shard collect", Value))
        return llvm::toString(std::move(E));
    }
    auto S = Store::open(Path, Store::Mode::ReadOnly);
    if (!S)
      return llvm::toString(S.takeError());
    return errorText((*S)->shardRecords());
  }

  llvm::SmallString<128> Dir;
};

const char NotARecord[] =
    "meta 'shard collect' is not a shard record tia can read";

/// llvm::json::parse recurses once per level: a million levels overflowed
/// the stack (AddressSanitizer: stack-overflow).
TEST_F(ShardRowTest, DeepNestingIsRefused) {
  EXPECT_EQ(readWith(std::string(1000000, '[')), NotARecord);
}

/// n = 2^32 + 1 was narrowed to a share of 1, and the record read as 1/1.
TEST_F(ShardRowTest, ShareCountBeyondUnsignedIsRefused) {
  EXPECT_EQ(readWith(R"({"kind":"collect","k":1,"n":4294967297,"plan":""})"),
            NotARecord);
}

/// merge lists the units of every share: n = 4294967295 ran it out of
/// memory. A record holds at most MaxShares shares.
TEST_F(ShardRowTest, MoreSharesThanTiaPlansAreRefused) {
  EXPECT_EQ(readWith(R"({"kind":"collect","k":1,"n":10001,"plan":""})"),
            NotARecord);
  EXPECT_EQ(readWith(R"({"kind":"collect","k":1,"n":10000,"plan":""})"),
            "(no error)");
}

//===----------------------------------------------------------------------===//
// mergeInto on in-memory stores
//===----------------------------------------------------------------------===//

using tia::testing::openMemory;

TestResult passed(llvm::StringRef Id) {
  TestResult R;
  R.TestId = Id.str();
  return R;
}

/// A collect shard: share K of Tests run at c1, each test covering
/// "cpp:<its name>"; it also carries old coverage of every test at c0 (a
/// copy of an earlier database).
Input collectShard(unsigned K, unsigned N) {
  Input In;
  In.Path = "s" + std::to_string(K) + ".db";
  In.S = openMemory();
  for (const std::string &T : Tests)
    EXPECT_EQ(errorText(In.S->putCoverage(T, "c0", {"cpp:old"})), "");
  ShardRecord R = record("collect", K, N, Tests);
  auto Plan = shard::parsePlanText(R.Plan, N);
  EXPECT_TRUE(static_cast<bool>(Plan));
  auto Run = In.S->addRun("c1", "collect", 100 + K);
  EXPECT_TRUE(static_cast<bool>(Run));
  std::vector<TestResult> Results;
  for (const std::string &T : Plan->unitsOf(K)) {
    Results.push_back(passed(T));
    EXPECT_EQ(errorText(In.S->putCoverage(T, "c1", {"cpp:" + T})), "");
  }
  EXPECT_EQ(errorText(In.S->putResults(*Run, Results)), "");
  R.RunId = *Run;
  EXPECT_EQ(errorText(In.S->putShardRecord(R)), "");
  auto Records = In.S->shardRecords();
  EXPECT_TRUE(static_cast<bool>(Records));
  In.Records = *Records;
  return In;
}

ShareMatch matchOf(const std::vector<Input> &Inputs) {
  std::vector<InputRecords> Records;
  for (const Input &In : Inputs)
    Records.push_back({In.Path, In.Records});
  auto M = matchShares(Records, Store::SchemaVersion);
  EXPECT_TRUE(static_cast<bool>(M));
  return M ? *M : ShareMatch();
}

Strings coverageText(Store &S) {
  Strings Out;
  auto All = S.tests();
  EXPECT_TRUE(static_cast<bool>(All));
  for (const TestRecord &T : *All) {
    auto Keys = S.coverageOf(T.Id);
    EXPECT_TRUE(static_cast<bool>(Keys));
    Out.push_back(T.Id + "@" + T.CoverageCommit + ":" + llvm::join(*Keys, ","));
  }
  return Out;
}

TEST(MergeTest, TakesEachTestFromTheShareThatRanIt) {
  std::vector<Input> Inputs;
  Inputs.push_back(collectShard(2, 2));
  Inputs.push_back(collectShard(1, 2));
  auto Out = openMemory();
  ASSERT_TRUE(Out);
  std::string Null;
  llvm::raw_string_ostream OS(Null);
  Progress Prog("merging", 2, OS, /*Quiet=*/true);
  ASSERT_VALUE(Sum, mergeInto(*Out, Inputs, matchOf(Inputs), Prog));
  EXPECT_EQ(Sum->CoveredTests, 4u);
  EXPECT_EQ(Sum->Runs, 1u);
  EXPECT_EQ(coverageText(*Out),
            (Strings{"ctest:a@c1:cpp:ctest:a", "ctest:b@c1:cpp:ctest:b",
                     "ctest:c@c1:cpp:ctest:c", "ctest:d@c1:cpp:ctest:d"}));
  ASSERT_VALUE(Runs, Out->runs());
  ASSERT_EQ(Runs->size(), 1u);
  EXPECT_EQ((*Runs)[0].StartedAt, 101); // the earliest share's start
  ASSERT_VALUE(Results, Out->resultsOfRun((*Runs)[0].Id));
  EXPECT_EQ(Results->size(), 4u);
  ASSERT_VALUE(Records, Out->shardRecords());
  EXPECT_TRUE(Records->empty()); // the merged database is no shard
}

TEST(MergeTest, TestsOfAMissingShareStayKnownWithoutNewCoverage) {
  std::vector<Input> Inputs;
  Inputs.push_back(collectShard(1, 2));
  ShareMatch M = matchOf(Inputs);
  auto Out = openMemory();
  ASSERT_TRUE(Out);
  std::string Null;
  llvm::raw_string_ostream OS(Null);
  Progress Prog("merging", 1, OS, /*Quiet=*/true);
  ASSERT_VALUE(Sum, mergeInto(*Out, Inputs, M, Prog));
  EXPECT_EQ(Sum->UncoveredTests, 2u);
  ASSERT_VALUE(All, Out->tests());
  EXPECT_EQ(All->size(), 4u);
  unsigned WithoutCoverage = 0;
  for (const TestRecord &T : *All)
    WithoutCoverage += T.CoverageCommit.empty();
  EXPECT_EQ(WithoutCoverage, 2u); // never the carried c0 coverage
}

TEST(MergeTest, KeepsTheHistoryOfOut) {
  auto Out = openMemory();
  ASSERT_TRUE(Out);
  ASSERT_VALUE(Old, Out->addRun("c0", "collect", 50));
  ASSERT_OK(Out->putResults(*Old, {passed("ctest:a")}));
  std::vector<Input> Inputs;
  Inputs.push_back(collectShard(1, 1));
  std::string Null;
  llvm::raw_string_ostream OS(Null);
  Progress Prog("merging", 1, OS, /*Quiet=*/true);
  ASSERT_VALUE(Sum, mergeInto(*Out, Inputs, matchOf(Inputs), Prog));
  ASSERT_VALUE(Runs, Out->runs());
  ASSERT_EQ(Runs->size(), 2u);
  EXPECT_EQ((*Runs)[0].Commit, "c0");
  EXPECT_EQ((*Runs)[1].Commit, "c1");
}

} // namespace
