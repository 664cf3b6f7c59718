//===- RelocationTest.cpp - stored paths that survive a move --------------===//

#include "tia/Support/Relocation.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

const PathBases Here{"/a/repo", "/a/repo/build"};
const PathBases There{"/b/clone", "/b/clone/out"};

TEST(RelocationTest, PathsBecomeRelativeToTheBuildDirOrTheRoot) {
  EXPECT_EQ(relocatable("/a/repo/build/src", Here), "${build}/src");
  EXPECT_EQ(relocatable("/a/repo/build", Here), "${build}");
  EXPECT_EQ(relocatable("/a/repo/src/a.cpp", Here), "${root}/src/a.cpp");
  EXPECT_EQ(relocatable("/a/repo", Here), "${root}");
  EXPECT_EQ(relocatable("/usr/bin/c++", Here), "/usr/bin/c++");
  EXPECT_EQ(relocatable("CMakeFiles/a.o", Here), "CMakeFiles/a.o");
}

TEST(RelocationTest, PathsInsideOptions) {
  EXPECT_EQ(relocatable("-I/a/repo/include", Here), "-I${root}/include");
  EXPECT_EQ(relocatable("-isystem/a/repo/build/gen", Here),
            "-isystem${build}/gen");
  EXPECT_EQ(relocatable("--sysroot=/a/repo/sdk", Here),
            "--sysroot=${root}/sdk");
  EXPECT_EQ(relocatable("-Wl,-rpath,/a/repo/build/lib:/a/repo/lib", Here),
            "-Wl,-rpath,${build}/lib:${root}/lib");
  EXPECT_EQ(relocatable("-fdebug-prefix-map=/a/repo=.", Here),
            "-fdebug-prefix-map=${root}=.");
  EXPECT_EQ(relocatable("-DDATA=\"/a/repo/data\"", Here),
            "-DDATA=\"${root}/data\"");
}

TEST(RelocationTest, PathsInsideOptionsOfAWholeCommandLine) {
  // A compile command's text, or a JSON array of its arguments, is many
  // words: an option spelling starts its word, not the text.
  EXPECT_EQ(relocatable("c++ -I/a/repo/include -isystem/a/repo/build/gen "
                        "-o a.o -c /a/repo/a.cpp",
                        Here),
            "c++ -I${root}/include -isystem${build}/gen -o a.o -c "
            "${root}/a.cpp");
  EXPECT_EQ(
      relocatable(R"(["c++", "-I/a/repo/include", "@/a/repo/build/a.rsp"])",
                  Here),
      R"(["c++", "-I${root}/include", "@${build}/a.rsp"])");
  EXPECT_EQ(relocatable("c++ @/a/repo/build/a.rsp", Here),
            "c++ @${build}/a.rsp");
  // A word with a '/' before the path is some other path's tail.
  EXPECT_EQ(relocatable("c++ -I./x/a/repo", Here), "c++ -I./x/a/repo");
}

TEST(RelocationTest, OnlyWholeDirectoriesMatch) {
  EXPECT_EQ(relocatable("/a/repo2/x", Here), "/a/repo2/x");
  EXPECT_EQ(relocatable("/a/repo/builder/x", Here), "${root}/builder/x");
  // Inside another absolute path the root is no directory of its own.
  EXPECT_EQ(relocatable("/x/a/repo/y", Here), "/x/a/repo/y");
  EXPECT_EQ(relocatable("-I/x/a/repo", Here), "-I/x/a/repo");
}

TEST(RelocationTest, BuildDirOutsideTheRoot) {
  PathBases B{"/a/repo", "/tmp/b"};
  EXPECT_EQ(relocatable("/tmp/b/tests/t", B), "${build}/tests/t");
  EXPECT_EQ(resolved("${build}/tests/t", There), "/b/clone/out/tests/t");
  // A root inside the build directory: the root is the more specific.
  PathBases Inside{"/w/build/src", "/w/build"};
  EXPECT_EQ(relocatable("/w/build/src/a.cpp", Inside), "${root}/a.cpp");
  EXPECT_EQ(relocatable("/w/build/a.o", Inside), "${build}/a.o");
  // A build in the root (an in-source build): sources stay sources, so
  // that a clone building in out/ finds them.
  PathBases InSource{"/a/repo", "/a/repo"};
  EXPECT_EQ(relocatable("/a/repo/src/a.cpp", InSource), "${root}/src/a.cpp");
  EXPECT_EQ(resolved(relocatable("/a/repo/src/a.cpp", InSource), There),
            "/b/clone/src/a.cpp");
}

TEST(RelocationTest, ResolvesAgainstAnotherCheckout) {
  for (llvm::StringRef Text :
       {"/a/repo/build/src", "-I/a/repo/include", "/usr/include",
        "-Wl,-rpath,/a/repo/build/lib:/a/repo/lib", "plain", ""}) {
    std::string Stored = relocatable(Text, Here);
    EXPECT_EQ(resolved(Stored, Here), Text);
    EXPECT_EQ(resolved(Stored, There),
              resolved(relocatable(resolved(Stored, There), There), There));
  }
  EXPECT_EQ(resolved(relocatable("-I/a/repo/include", Here), There),
            "-I/b/clone/include");
  EXPECT_EQ(resolved(relocatable("/a/repo/build/src", Here), There),
            "/b/clone/out/src");
}

TEST(RelocationTest, ReadingWithoutBasesAndWritingBackChangesNothing) {
  for (llvm::StringRef Text : {"${build}/t", "-I${root}/include", "$ORIGIN"}) {
    EXPECT_EQ(relocatable(resolved(Text, PathBases{}), PathBases{}), Text);
    EXPECT_EQ(relocatable(Text, Here), Text);
  }
}

TEST(RelocationTest, UnknownBasesStay) {
  EXPECT_EQ(relocatable("/a/repo/x", PathBases{}), "/a/repo/x");
  EXPECT_EQ(resolved("${build}/x", PathBases{"/b/clone", ""}), "${build}/x");
  EXPECT_EQ(resolved("${root}/x", PathBases{}), "${root}/x");
  // "/" as a base would swallow every absolute path.
  EXPECT_EQ(relocatable("/usr/x", PathBases{"/", ""}), "/usr/x");
}

} // namespace
