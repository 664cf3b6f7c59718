//===- CoverageTest.cpp - coverage report readers -------------------------===//

#include "tia/Coverage/Coverage.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::coverage;

namespace {

TEST(CoveragePyTest, Numbits) {
  // coverage.py's numbits: bit N of byte B is line B * 8 + N.
  EXPECT_EQ(numbitsToLines(llvm::StringRef("\x0a\x00\x01", 3)),
            (std::vector<unsigned>{1, 3, 16}));
  EXPECT_TRUE(numbitsToLines("").empty());
}

TEST(CoveragePyTest, ContextsToNodeIds) {
  EXPECT_EQ(nodeIdOfContext("tests/test_a.py::T::test_x|run"),
            "tests/test_a.py::T::test_x");
  EXPECT_EQ(nodeIdOfContext("tests/test_a.py::test_x[a|b]|setup"),
            "tests/test_a.py::test_x[a|b]");
  EXPECT_EQ(nodeIdOfContext(""), "");
  EXPECT_EQ(nodeIdOfContext("test_a.test_x"), "");
}

TEST(LcovTest, SectionsPerTest) {
  const char *Text = "TN:t1\nSF:/r/a.cpp\nFN:3,_Z1fv\nFN:7,_Z1gv\n"
                     "FNDA:2,_Z1fv\nFNDA:0,_Z1gv\nDA:3,2\nDA:7,0\n"
                     "LF:2\nLH:1\nend_of_record\n"
                     "TN:t2\nSF:/r/a.cpp\nFN:7,9,_Z1gv\nFNDA:1,_Z1gv\n"
                     "end_of_record\n";
  auto R = parseLcov(Text, "x.info");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->size(), 2u);
  EXPECT_EQ((*R)[0].TestId, "t1");
  ASSERT_EQ((*R)[0].Functions.size(), 1u);
  EXPECT_EQ((*R)[0].Functions[0].Name, "_Z1fv");
  EXPECT_EQ((*R)[0].Functions[0].Line, 3u);
  ASSERT_EQ((*R)[0].Lines.size(), 1u);
  EXPECT_EQ((*R)[0].Lines[0].Line, 3u);
  // lcov 2's FN:<line>,<end>,<name>.
  ASSERT_EQ((*R)[1].Functions.size(), 1u);
  EXPECT_EQ((*R)[1].Functions[0].Name, "_Z1gv");
  EXPECT_EQ((*R)[1].Functions[0].Line, 7u);
}

TEST(LcovTest, Lcov22FunctionRecords) {
  auto R = parseLcov("TN:t\nSF:a.cpp\nFNL:0,4,6\nFNA:0,3,_Z1fv\nFNL:1,8\n"
                     "FNA:1,0,_Z1gv\nend_of_record\n",
                     "x.info");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ((*R)[0].Functions.size(), 1u);
  EXPECT_EQ((*R)[0].Functions[0].Name, "_Z1fv");
  EXPECT_EQ((*R)[0].Functions[0].Line, 4u);
}

TEST(LcovTest, MalformedNamesFileAndLine) {
  auto R = parseLcov("SF:a.cpp\nDA:x,1\nend_of_record\n", "bad.info");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "malformed lcov bad.info:2: DA needs '<line>,<count>'");
  auto M = parseLcov("SF:a.cpp\nDA:1,1\n", "cut.info");
  ASSERT_FALSE(bool(M));
  EXPECT_EQ(llvm::toString(M.takeError()),
            "malformed lcov cut.info:2: missing end_of_record at the end of "
            "the file");
  auto U = parseLcov("hello\n", "u.info");
  ASSERT_FALSE(bool(U));
  EXPECT_NE(llvm::toString(U.takeError()).find("u.info:1"), std::string::npos);
}

TEST(LlvmCovJsonTest, FunctionsThatRan) {
  const char *Text =
      R"({"type": "llvm.coverage.json.export", "version": "2.0.1",
    "data": [{"files": [], "functions": [
      {"name": "_Z1fv", "count": 3, "filenames": ["/r/a.cpp"],
       "regions": [[4, 1, 6, 2, 3, 0, 0, 0]]},
      {"name": "a.cpp:_ZL6helperv", "count": 1, "filenames": ["/r/a.cpp"],
       "regions": [[9, 1, 9, 20, 1, 0, 0, 0]]},
      {"name": "_Z1gv", "count": 0, "filenames": ["/r/a.cpp"], "regions": []}
    ]}]})";
  auto R = parseLlvmCovJson(Text, "t.json");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Functions.size(), 2u);
  EXPECT_EQ(R->Functions[0].Name, "_Z1fv");
  EXPECT_EQ(R->Functions[0].File, "/r/a.cpp");
  EXPECT_EQ(R->Functions[0].Line, 4u);
  EXPECT_EQ(R->Functions[1].Name, "_ZL6helperv");
  EXPECT_EQ(R->Functions[1].LocalPrefix, "a.cpp");
}

TEST(LlvmCovJsonTest, Malformed) {
  auto R = parseLlvmCovJson("{", "t.json");
  ASSERT_FALSE(bool(R));
  EXPECT_NE(
      llvm::toString(R.takeError()).find("malformed llvm-cov JSON t.json: "),
      std::string::npos);
  auto T = parseLlvmCovJson(R"({"data": []})", "t.json");
  ASSERT_FALSE(bool(T));
  EXPECT_NE(
      llvm::toString(T.takeError()).find("not an 'llvm-cov export' report"),
      std::string::npos);
}

} // namespace
