//===- IndexTest.cpp - indexing a project into the store ------------------===//

#include "tia/Index/Index.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace tia;
using tia::testing::errorText;

namespace {

/// A folder with two Python files, removed at the end.
class PythonProject : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-index-test", Dir));
    Root = std::string(Dir);
    write("shop.py", "def price(x):\n    return x * 2\n");
    write("test_shop.py", "import shop\n\ndef test_price():\n"
                          "    assert shop.price(2) == 4\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  void write(const std::string &Name, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream(Root + "/" + Name, EC) << Text;
    ASSERT_FALSE(EC);
  }

  index::IndexRequest request() const {
    index::IndexRequest R;
    R.Root = Root;
    R.PythonFiles = {"shop.py", "test_shop.py"};
    R.Tracked = R.PythonFiles;
    R.Commit = "0123456789abcdef0123456789abcdef01234567";
    R.Quiet = true;
    return R;
  }

  std::string Root;
};

TEST_F(PythonProject, IndexesThenSkipsWhatDidNotChange) {
  auto S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  std::string Err;
  llvm::raw_string_ostream ErrOS(Err);
  auto First = index::indexProject(*S, request(), ErrOS);
  ASSERT_TRUE(bool(First)) << errorText(First.takeError());
  EXPECT_EQ(First->Python.Parsed.size(), 2u);
  EXPECT_EQ(First->Python.Tests, 1u);

  write("shop.py", "def price(x):\n    return x * 3\n");
  auto Second = index::indexProject(*S, request(), ErrOS);
  ASSERT_TRUE(bool(Second)) << errorText(Second.takeError());
  EXPECT_EQ(Second->Python.Parsed.size(), 1u);
  EXPECT_EQ(Second->Python.Unchanged, 1u);
  EXPECT_EQ(index::summaryLine(*Second, /*HasCpp=*/false, 0.5),
            "indexed 2 Python files (1 parsed, 1 unchanged) in 0.5s: "
            "2 elements, 0 tests, 1 critical names");
  auto Files = S->currentFiles();
  ASSERT_TRUE(bool(Files)) << errorText(Files.takeError());
  EXPECT_EQ(Files->size(), 2u);
}

TEST_F(PythonProject, AFileThatDoesNotParseIsIncomplete) {
  write("shop.py", "def price(x:\n");
  auto S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  std::string Err;
  llvm::raw_string_ostream ErrOS(Err);
  auto Sum = index::indexProject(*S, request(), ErrOS);
  ASSERT_TRUE(bool(Sum)) << errorText(Sum.takeError());
  ASSERT_EQ(Sum->Python.Incomplete.size(), 1u);
  EXPECT_EQ(llvm::StringRef(Sum->Python.Incomplete[0]).split(':').first,
            "shop.py");
  EXPECT_NE(Err.find("shop.py"), std::string::npos);
  EXPECT_NE(Err.find("indexed as incomplete"), std::string::npos);
}

} // namespace
