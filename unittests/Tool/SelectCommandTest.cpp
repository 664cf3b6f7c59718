//===- SelectCommandTest.cpp - tia select through runSelect ---------------===//
//
// The whole select command, driven through tool::runSelect with string
// streams, on a real repository and a database file holding an index and
// the coverage of two tests.
//
//===----------------------------------------------------------------------===//

#include "tia/Store/Store.h"
#include "tia/Support/Hash.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/TempRepo.h"
#include "tia/Tool/Commands.h"

using namespace tia;

namespace {

class SelectCommandTest : public tia::testing::TempRepo {
protected:
  void SetUp() override {
    TempRepo::SetUp();
    init();
    write("lib.py", "def f():\n    return 1\n");
    Base = commit("base");
    Db = (Root + "/tia.db").str();
    auto S = Store::open(Db, Store::Mode::ReadWrite);
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    auto Rev = (*S)->addRevision(
        Base, false, {{"lib.py", gitBlobHash("def f():\n    return 1\n")}});
    ASSERT_TRUE(bool(Rev)) << llvm::toString(Rev.takeError());
    for (const char *Id :
         {"pytest:test_lib.py::test_a", "pytest:test_lib.py::test_b"})
      ASSERT_OK((*S)->putCoverage(Id, Base, {"py:lib:f"}));
  }

  /// Runs `tia select --base BASE --head HEAD --format ids --mode coverage`
  /// in the repository; returns its exit code, with its output in Out and
  /// Err.
  int select(llvm::StringRef Head) {
    tool::GlobalOptions G;
    G.Db = Db;
    G.WorkingDir = Dir;
    tool::SelectCommandOptions O;
    O.Base = Base;
    O.Head = Head.str();
    O.Format = report::Format::Ids;
    O.Mode = select::SelectionMode::Coverage;
    llvm::raw_string_ostream OutS(Out), ErrS(Err);
    auto RC = tool::runSelect(G, O, OutS, ErrS);
    EXPECT_TRUE(bool(RC)) << llvm::toString(RC.takeError());
    return RC ? *RC : -1;
  }

  std::string Base, Db, Out, Err;
};

TEST_F(SelectCommandTest, AnUnknownFilePrintsEveryTest) {
  write("settings.cfg", "level = 2\n");
  EXPECT_EQ(select(commit("settings")), 0);
  EXPECT_EQ(Out, "pytest:test_lib.py::test_a\npytest:test_lib.py::test_b\n");
  EXPECT_NE(Err.find("settings.cfg"), std::string::npos) << Err;
}

TEST_F(SelectCommandTest, CoverageDataPrintsNoTest) {
  write("run.gcda", "counters\n");
  EXPECT_EQ(select(commit("coverage data")), 0);
  EXPECT_EQ(Out, "");
  EXPECT_NE(Err.find("0 of 2"), std::string::npos) << Err;
}

} // namespace
