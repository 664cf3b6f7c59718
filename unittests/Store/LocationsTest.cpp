//===- LocationsTest.cpp - paths stored relative to the checkout ----------===//

#include "Database.h"
#include "Schema.h"
#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

const PathBases Here{"/a/repo", "/a/repo/build"};
const PathBases There{"/b/clone", "/b/clone/out"};

using tia::testing::openMemory;

StoredTranslationUnit unitHere() {
  StoredTranslationUnit TU;
  TU.Path = "src/a.cpp";
  TU.Command.File = "/a/repo/src/a.cpp";
  TU.Command.Directory = "/a/repo/build/src";
  TU.Command.Arguments = {"/usr/bin/c++", "-I/a/repo/include",
                          "-isystem",     "/opt/sdk/include",
                          "-c",           "/a/repo/src/a.cpp"};
  TU.Dependencies = {{"src/a.cpp", "a1"}};
  return TU;
}

TEST(LocationsTest, CompileCommandsReadAsIfMadeInTheCurrentCheckout) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  S->setPathBases(Here);
  ASSERT_OK(S->putTranslationUnit(unitHere()));
  ASSERT_VALUE(Same, S->translationUnits());
  ASSERT_EQ(Same->size(), 1u);
  EXPECT_EQ((*Same)[0].Command.Directory, "/a/repo/build/src");
  EXPECT_EQ((*Same)[0].Command.Arguments, unitHere().Command.Arguments);

  S->setPathBases(There);
  ASSERT_VALUE(Moved, S->translationUnitsReading("src/a.cpp"));
  ASSERT_EQ(Moved->size(), 1u);
  const CompileCommand &C = (*Moved)[0].Command;
  EXPECT_EQ(C.File, "/b/clone/src/a.cpp");
  EXPECT_EQ(C.Directory, "/b/clone/out/src");
  EXPECT_EQ(C.Arguments, (std::vector<std::string>{
                             "/usr/bin/c++", "-I/b/clone/include", "-isystem",
                             "/opt/sdk/include", "-c", "/b/clone/src/a.cpp"}));
}

TEST(LocationsTest, TestCommandsReadAsIfMadeInTheCurrentCheckout) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  S->setPathBases(Here);
  TestInfo T;
  T.Id = "gtest:a_test:A.B";
  T.File = "tests/a_test.cpp";
  T.Command = TestCommand{"/a/repo/build/tests/a_test",
                          "/a/repo/build/tests",
                          {"--gtest_filter=A.B", "--data=/a/repo/data"},
                          {"DATA=/a/repo/data", "PATH=/usr/bin"},
                          10};
  ASSERT_OK(S->putTestInfo(T));
  S->setPathBases(There);
  ASSERT_VALUE(Moved, S->testInfo(T.Id));
  ASSERT_TRUE(Moved->has_value());
  ASSERT_TRUE((*Moved)->Command.has_value());
  const TestCommand &C = *(*Moved)->Command;
  EXPECT_EQ(C.Executable, "/b/clone/out/tests/a_test");
  EXPECT_EQ(C.WorkingDir, "/b/clone/out/tests");
  EXPECT_EQ(C.Arguments, (std::vector<std::string>{"--gtest_filter=A.B",
                                                   "--data=/b/clone/data"}));
  EXPECT_EQ(C.Environment,
            (std::vector<std::string>{"DATA=/b/clone/data", "PATH=/usr/bin"}));
}

TEST(LocationsTest, TheIndexedBuildDirectoryIsRecordedRelativeToTheRoot) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  S->setPathBases({"/a/repo", ""});
  ASSERT_VALUE(None, S->recordedBuildDir());
  EXPECT_FALSE(None->has_value());
  S->setPathBases(Here);
  ASSERT_OK(S->recordBuildDir());
  S->setPathBases({"/b/clone", ""});
  ASSERT_VALUE(Moved, S->recordedBuildDir());
  EXPECT_EQ(Moved->value_or(""), "/b/clone/build");
  // A build directory outside the root stays where it was.
  S->setPathBases({"/a/repo", "/tmp/b"});
  ASSERT_OK(S->recordBuildDir());
  S->setPathBases({"/b/clone", ""});
  ASSERT_VALUE(Outside, S->recordedBuildDir());
  EXPECT_EQ(Outside->value_or(""), "/tmp/b");
}

TEST(LocationsTest, UpgradeRewritesPathsRelativeToTheIndexedRoot) {
  auto Raw = Database::open(":memory:", Database::OpenMode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
  Database &DB = **Raw;
  ASSERT_OK(schema::migrate(DB, schema::migrations().take_front(9)));
  ASSERT_OK(DB.exec(R"sql(
INSERT INTO translation_units(path, file, directory, arguments) VALUES
  ('src/a.cpp', '/a/repo/src/a.cpp', '/a/repo/build',
   '["c++","-I/a/repo/include","-c","/a/repo/src/a.cpp"]');
INSERT INTO tests(name, command) VALUES
  ('gtest:t:A.B', '{"executable":"/a/repo/build/t","directory":"/a/repo/build",
    "arguments":[],"environment":[],"timeout":0}'),
  ('ctest:none', NULL);
)sql"));
  ASSERT_OK(schema::migrate(DB, schema::migrations()));

  ASSERT_VALUE(Units, DB.statement("SELECT file, directory, arguments FROM "
                                   "translation_units"));
  ASSERT_VALUE(Row, Units->step());
  ASSERT_TRUE(*Row);
  EXPECT_EQ(Units->columnText(0), "${root}/src/a.cpp");
  EXPECT_EQ(Units->columnText(1), "${root}/build");
  EXPECT_EQ(Units->columnText(2),
            "[\"c++\",\"-I${root}/include\",\"-c\",\"${root}/src/a.cpp\"]");
  ASSERT_VALUE(Tests, DB.statement("SELECT command FROM tests WHERE name = "
                                   "'gtest:t:A.B'"));
  ASSERT_VALUE(TestRow, Tests->step());
  ASSERT_TRUE(*TestRow);
  EXPECT_NE(Tests->columnText(0).find("\"executable\":\"${root}/build/t\""),
            std::string::npos)
      << Tests->columnText(0);
}

/// A compilation database as CMake writes one in checkout \p Root, built
/// in \p Build, whose command reads response file flags.rsp holding
/// \p Flags; the response file is written.
std::string cmakeDatabaseIn(llvm::StringRef Root, llvm::StringRef Build,
                            llvm::StringRef Flags) {
  EXPECT_FALSE(llvm::sys::fs::create_directories(Build));
  std::error_code EC;
  llvm::raw_fd_ostream(Build.str() + "/flags.rsp", EC) << Flags;
  EXPECT_FALSE(EC);
  return llvm::formatv(R"([{"directory": "{1}", "command": "/usr/bin/c++ )"
                       R"(-I{0}/include -isystem {1}/gen @flags.rsp -o )"
                       R"(a.o -c {0}/src/a.cpp", "file": "{0}/src/a.cpp"}])",
                       Root, Build)
      .str();
}

TEST(LocationsTest, ACompilationDatabaseIsRecognisedInAnotherCheckout) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-locations", Dir));
  PathBases A{(Dir + "/a/repo").str(), (Dir + "/a/repo/build").str()};
  PathBases B{(Dir + "/b/clone").str(), (Dir + "/b/clone/out").str()};
  auto S = openMemory();
  ASSERT_TRUE(S);
  S->setPathBases(A);
  ASSERT_OK(S->recordCompileDatabase(
      cmakeDatabaseIn(A.Root, A.BuildDir, "-I" + A.Root + "/more -O2")));
  S->setPathBases(B);
  std::string Clone =
      cmakeDatabaseIn(B.Root, B.BuildDir, "-I" + B.Root + "/more -O2");
  ASSERT_VALUE(Same, S->isRecordedCompileDatabase(Clone));
  EXPECT_TRUE(*Same);
  // A compiler installed elsewhere compiles the same files.
  std::string OtherCompiler = Clone;
  OtherCompiler.replace(OtherCompiler.find("/usr/bin/c++"), 12,
                        "/opt/llvm/bin/clang++");
  ASSERT_VALUE(Moved, S->isRecordedCompileDatabase(OtherCompiler));
  EXPECT_TRUE(*Moved);
  // The response file is part of the command.
  cmakeDatabaseIn(B.Root, B.BuildDir, "-I" + B.Root + "/more -DWIN32");
  ASSERT_VALUE(Other, S->isRecordedCompileDatabase(Clone));
  EXPECT_FALSE(*Other);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
