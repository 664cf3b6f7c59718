//===- GitTest.cpp --------------------------------------------------------===//
//
// Each test builds a real repository in a temporary directory with the git
// command line, then reads it back through tia::git::Repository.
//
//===----------------------------------------------------------------------===//

#include "tia/Git/History.h"
#include "tia/Git/Repository.h"
#include "tia/Support/Hash.h"
#include "tia/Testing/Assertions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <dlfcn.h>
#include <git2.h>

extern char **environ;

using namespace tia;
using tia::testing::errorText;
using namespace tia::git;

namespace {

/// "1,2,3" for an assertion message and comparisons.
std::string join(const std::vector<unsigned> &Lines) {
  std::string Out;
  for (unsigned L : Lines)
    Out += (Out.empty() ? "" : ",") + std::to_string(L);
  return Out;
}

/// Numbered lines "l1\n" .. "lN\n".
std::string lines(unsigned N) {
  std::string Out;
  for (unsigned I = 1; I <= N; ++I)
    Out += "l" + std::to_string(I) + "\n";
  return Out;
}

class GitTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-git", Root));
    Dir = (Root + "/repo").str();
    ASSERT_FALSE(llvm::sys::fs::create_directory(Dir));
    auto Git = llvm::sys::findProgramByName("git");
    ASSERT_TRUE(bool(Git)) << "git is not on PATH";
    GitPath = *Git;
    // Only the settings given here count: no system, global or inherited
    // repository configuration.
    for (char **E = environ; *E; ++E)
      if (!llvm::StringRef(*E).starts_with("GIT_") &&
          !llvm::StringRef(*E).starts_with("HOME="))
        Env.push_back(*E);
    Env.push_back("GIT_CONFIG_NOSYSTEM=1");
    Env.push_back("GIT_CONFIG_GLOBAL=/dev/null");
    Env.push_back(("HOME=" + Root).str());
  }

  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  /// Runs `git -C Dir ARGS...` and returns its standard output without the
  /// final newline; a failure fails the test.
  std::string git(std::vector<std::string> Args) {
    std::vector<std::string> Full = {"git", "-C", Dir};
    for (const char *Setting :
         {"user.name=Tia Test", "user.email=tia@example.com",
          "init.defaultBranch=main", "commit.gpgsign=false"}) {
      Full.push_back("-c");
      Full.push_back(Setting);
    }
    Full.insert(Full.end(), Args.begin(), Args.end());
    std::vector<llvm::StringRef> Argv(Full.begin(), Full.end());
    std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
    llvm::SmallString<128> OutFile;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("tia-git", "out", OutFile));
    std::optional<llvm::StringRef> Redirects[] = {
        std::nullopt, llvm::StringRef(OutFile), std::nullopt};
    std::string Msg;
    int Rc = llvm::sys::ExecuteAndWait(GitPath, Argv, EnvRefs, Redirects,
                                       /*SecondsToWait=*/60, 0, &Msg);
    std::string Out;
    if (auto Buf = llvm::MemoryBuffer::getFile(OutFile))
      Out = (*Buf)->getBuffer().rtrim("\n").str();
    llvm::sys::fs::remove(OutFile);
    EXPECT_EQ(Rc, 0) << "git " << llvm::join(Args, " ") << " failed: " << Msg;
    return Out;
  }

  void write(llvm::StringRef Rel, llvm::StringRef Content) {
    std::string Path = (Dir + "/" + Rel).str();
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << Path << ": " << EC.message();
    OS << Content;
  }

  void remove(llvm::StringRef Rel) {
    ASSERT_FALSE(llvm::sys::fs::remove((Dir + "/" + Rel).str()));
  }

  void rename(llvm::StringRef From, llvm::StringRef To) {
    ASSERT_FALSE(llvm::sys::fs::rename((Dir + "/" + From).str(),
                                       (Dir + "/" + To).str()));
  }

  /// Stages everything, commits, and returns the new commit id.
  std::string commit(llvm::StringRef Message) {
    git({"add", "-A"});
    git({"commit", "-q", "--allow-empty", "-m", Message.str()});
    return git({"rev-parse", "HEAD"});
  }

  void init() { git({"init", "-q"}); }

  /// The repository at Dir; std::nullopt, with a failed test, when it
  /// cannot be opened.
  std::optional<Repository> open() {
    auto R = Repository::discover(Dir);
    if (!R) {
      ADD_FAILURE() << errorText(R.takeError());
      return std::nullopt;
    }
    return std::move(*R);
  }

  /// The diff between two commits, or a failed test.
  std::vector<FileChange> diff(const Repository &R, llvm::StringRef Base,
                               std::optional<llvm::StringRef> Head) {
    auto D = R.diff(Base, Head);
    if (!D) {
      ADD_FAILURE() << errorText(D.takeError());
      return {};
    }
    return std::move(*D);
  }

  /// Opens the repository at Dir and diffs it.
  std::vector<FileChange> diffAt(llvm::StringRef Base,
                                 std::optional<llvm::StringRef> Head) {
    std::optional<Repository> R = open();
    if (!R)
      return {};
    return diff(*R, Base, Head);
  }

  llvm::SmallString<128> Root;
  std::string Dir;
  std::string GitPath;
  std::vector<std::string> Env;
};

TEST_F(GitTest, ModifiedFileHasExactLines) {
  init();
  write("a.txt", lines(10));
  std::string Base = commit("base");
  // Line 3 changes, a line is inserted after line 6 and line 9 is removed.
  write("a.txt", "l1\nl2\nX3\nl4\nl5\nl6\nNEW\nl7\nl8\nl10\n");
  std::string Head = commit("head");

  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  std::vector<FileChange> D = diff(*R, Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 1u);
  const FileChange &C = D[0];
  EXPECT_EQ(C.Status, ChangeStatus::Modified);
  EXPECT_EQ(C.OldPath, "a.txt");
  EXPECT_EQ(C.NewPath, "a.txt");
  EXPECT_EQ(C.OldBlob, gitBlobHash(lines(10)));
  EXPECT_EQ(C.NewBlob, git({"rev-parse", Head + ":a.txt"}));
  EXPECT_FALSE(C.Binary);
  ASSERT_EQ(C.Hunks.size(), 3u);

  // A changed line: @@ -3 +3 @@
  EXPECT_EQ(C.Hunks[0].OldStart, 3u);
  EXPECT_EQ(C.Hunks[0].OldCount, 1u);
  EXPECT_EQ(C.Hunks[0].NewStart, 3u);
  EXPECT_EQ(C.Hunks[0].NewCount, 1u);
  EXPECT_EQ(join(C.Hunks[0].DeletedLines), "3");
  EXPECT_EQ(join(C.Hunks[0].AddedLines), "3");

  // A pure insertion: @@ -6,0 +7 @@
  EXPECT_EQ(C.Hunks[1].OldStart, 6u);
  EXPECT_EQ(C.Hunks[1].OldCount, 0u);
  EXPECT_EQ(C.Hunks[1].NewStart, 7u);
  EXPECT_EQ(C.Hunks[1].NewCount, 1u);
  EXPECT_EQ(join(C.Hunks[1].DeletedLines), "");
  EXPECT_EQ(join(C.Hunks[1].AddedLines), "7");

  // A pure deletion: @@ -9 +9,0 @@
  EXPECT_EQ(C.Hunks[2].OldStart, 9u);
  EXPECT_EQ(C.Hunks[2].OldCount, 1u);
  EXPECT_EQ(C.Hunks[2].NewStart, 9u);
  EXPECT_EQ(C.Hunks[2].NewCount, 0u);
  EXPECT_EQ(join(C.Hunks[2].DeletedLines), "9");
  EXPECT_EQ(join(C.Hunks[2].AddedLines), "");
}

TEST_F(GitTest, TwoHunksWithZeroContext) {
  init();
  write("a.txt", lines(6));
  std::string Base = commit("base");
  // Lines 2 and 4 change; with one line of context they would share a hunk.
  write("a.txt", "l1\nB\nl3\nD\nE\nl5\nl6\n");
  std::string Head = commit("head");

  std::vector<FileChange> D = diffAt(Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 1u);
  ASSERT_EQ(D[0].Hunks.size(), 2u);
  EXPECT_EQ(join(D[0].Hunks[0].DeletedLines), "2");
  EXPECT_EQ(join(D[0].Hunks[0].AddedLines), "2");
  EXPECT_EQ(join(D[0].Hunks[1].DeletedLines), "4");
  EXPECT_EQ(join(D[0].Hunks[1].AddedLines), "4,5");
}

TEST_F(GitTest, MissingNewlineAtEndIsNotALine) {
  init();
  write("grow.txt", "a\nb");
  write("shrink.txt", "a\nb\nc\n");
  std::string Base = commit("base");
  write("grow.txt", "a\nb\nc");
  write("shrink.txt", "a\nb\nc");
  std::string Head = commit("head");

  std::vector<FileChange> D = diffAt(Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 2u);
  // "b" without a newline becomes "b\n", then "c" follows.
  EXPECT_EQ(D[0].NewPath, "grow.txt");
  ASSERT_EQ(D[0].Hunks.size(), 1u);
  EXPECT_EQ(join(D[0].Hunks[0].DeletedLines), "2");
  EXPECT_EQ(join(D[0].Hunks[0].AddedLines), "2,3");
  EXPECT_EQ(D[0].Hunks[0].NewCount, 2u);
  // Only the last line loses its newline.
  EXPECT_EQ(D[1].NewPath, "shrink.txt");
  ASSERT_EQ(D[1].Hunks.size(), 1u);
  EXPECT_EQ(join(D[1].Hunks[0].DeletedLines), "3");
  EXPECT_EQ(join(D[1].Hunks[0].AddedLines), "3");
}

TEST_F(GitTest, AddedAndDeletedFiles) {
  init();
  write("old.txt", "x\ny\n");
  std::string Base = commit("base");
  remove("old.txt");
  write("dir/new.txt", "1\n2\n3\n");
  std::string Head = commit("head");

  std::vector<FileChange> D = diffAt(Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 2u);
  // Sorted by the path that exists: "dir/new.txt" < "old.txt".
  const FileChange &Added = D[0];
  EXPECT_EQ(Added.Status, ChangeStatus::Added);
  EXPECT_EQ(Added.OldPath, "");
  EXPECT_EQ(Added.NewPath, "dir/new.txt");
  EXPECT_EQ(Added.OldBlob, "");
  EXPECT_EQ(Added.NewBlob, gitBlobHash("1\n2\n3\n"));
  ASSERT_EQ(Added.Hunks.size(), 1u);
  EXPECT_EQ(join(Added.Hunks[0].AddedLines), "1,2,3");
  EXPECT_EQ(join(Added.Hunks[0].DeletedLines), "");

  const FileChange &Deleted = D[1];
  EXPECT_EQ(Deleted.Status, ChangeStatus::Deleted);
  EXPECT_EQ(Deleted.OldPath, "old.txt");
  EXPECT_EQ(Deleted.NewPath, "");
  EXPECT_EQ(Deleted.OldBlob, gitBlobHash("x\ny\n"));
  EXPECT_EQ(Deleted.NewBlob, "");
  ASSERT_EQ(Deleted.Hunks.size(), 1u);
  EXPECT_EQ(join(Deleted.Hunks[0].DeletedLines), "1,2");
  EXPECT_EQ(join(Deleted.Hunks[0].AddedLines), "");
}

TEST_F(GitTest, PureRenameHasNoHunks) {
  init();
  write("before.cpp", lines(20));
  std::string Base = commit("base");
  rename("before.cpp", "after.cpp");
  std::string Head = commit("head");

  std::vector<FileChange> D = diffAt(Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Status, ChangeStatus::Renamed);
  EXPECT_EQ(D[0].OldPath, "before.cpp");
  EXPECT_EQ(D[0].NewPath, "after.cpp");
  EXPECT_EQ(D[0].OldBlob, D[0].NewBlob);
  EXPECT_EQ(D[0].Similarity, 100u);
  EXPECT_TRUE(D[0].Hunks.empty());
}

TEST_F(GitTest, RenameWithModificationKeepsBothPathsAndLines) {
  init();
  write("before.cpp", lines(20));
  std::string Base = commit("base");
  remove("before.cpp");
  std::string Changed = lines(20);
  Changed.replace(Changed.find("l5\n"), 3, "five\n");
  write("sub/after.cpp", Changed);
  std::string Head = commit("head");

  std::vector<FileChange> D = diffAt(Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Status, ChangeStatus::Renamed);
  EXPECT_EQ(D[0].OldPath, "before.cpp");
  EXPECT_EQ(D[0].NewPath, "sub/after.cpp");
  EXPECT_EQ(D[0].OldBlob, gitBlobHash(lines(20)));
  EXPECT_EQ(D[0].NewBlob, gitBlobHash(Changed));
  EXPECT_GE(D[0].Similarity, 50u);
  EXPECT_LT(D[0].Similarity, 100u);
  ASSERT_EQ(D[0].Hunks.size(), 1u);
  EXPECT_EQ(join(D[0].Hunks[0].DeletedLines), "5");
  EXPECT_EQ(join(D[0].Hunks[0].AddedLines), "5");
}

TEST_F(GitTest, DissimilarFilesAreNotARename) {
  init();
  write("before.txt", lines(4));
  std::string Base = commit("base");
  remove("before.txt");
  write("after.txt", "completely\ndifferent\ncontent\nhere\n");
  std::string Head = commit("head");

  std::vector<FileChange> D = diffAt(Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(D[0].Status, ChangeStatus::Added);
  EXPECT_EQ(D[1].Status, ChangeStatus::Deleted);
}

TEST_F(GitTest, WorkTreeDiffSeesUnstagedStagedAndUntrackedFiles) {
  init();
  write(".gitignore", "*.log\n");
  write("a.txt", lines(5));
  write("b.txt", lines(3));
  std::string Base = commit("base");

  write("a.txt", "l1\nl2\nthree\nl4\nl5\n"); // unstaged
  write("b.txt", "l1\nl2\nl3\nl4\n");
  git({"add", "b.txt"});                    // staged
  write("new/dir/c.txt", "hello\nworld\n"); // untracked, in a new directory
  write("build.log", "ignored\n");          // ignored

  std::vector<FileChange> D = diffAt(Base, std::nullopt);
  ASSERT_EQ(D.size(), 3u);
  EXPECT_EQ(D[0].NewPath, "a.txt");
  EXPECT_EQ(D[0].Status, ChangeStatus::Modified);
  EXPECT_EQ(D[0].NewBlob, gitBlobHash("l1\nl2\nthree\nl4\nl5\n"));
  ASSERT_EQ(D[0].Hunks.size(), 1u);
  EXPECT_EQ(join(D[0].Hunks[0].DeletedLines), "3");
  EXPECT_EQ(join(D[0].Hunks[0].AddedLines), "3");

  EXPECT_EQ(D[1].NewPath, "b.txt");
  EXPECT_EQ(D[1].NewBlob, gitBlobHash("l1\nl2\nl3\nl4\n"));
  ASSERT_EQ(D[1].Hunks.size(), 1u);
  EXPECT_EQ(join(D[1].Hunks[0].AddedLines), "4");

  EXPECT_EQ(D[2].Status, ChangeStatus::Added);
  EXPECT_EQ(D[2].NewPath, "new/dir/c.txt");
  EXPECT_EQ(D[2].NewBlob, gitBlobHash("hello\nworld\n"));
  ASSERT_EQ(D[2].Hunks.size(), 1u);
  EXPECT_EQ(join(D[2].Hunks[0].AddedLines), "1,2");
}

TEST_F(GitTest, WorkTreeRenameOfAnUntrackedFile) {
  init();
  write("old.cpp", lines(12));
  std::string Base = commit("base");
  // Moved on disk only: the old path is missing and the new one untracked.
  rename("old.cpp", "moved.cpp");

  std::vector<FileChange> D = diffAt(Base, std::nullopt);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Status, ChangeStatus::Renamed);
  EXPECT_EQ(D[0].OldPath, "old.cpp");
  EXPECT_EQ(D[0].NewPath, "moved.cpp");
  EXPECT_EQ(D[0].OldBlob, D[0].NewBlob);
  EXPECT_EQ(D[0].NewBlob, gitBlobHash(lines(12)));
}

TEST_F(GitTest, BinaryFileIsFlaggedWithoutHunks) {
  init();
  write("data.bin", llvm::StringRef("a\0b\0c\n", 6));
  std::string Base = commit("base");
  write("data.bin", llvm::StringRef("a\0B\0c\n", 6));
  std::string Head = commit("head");

  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  std::vector<FileChange> D = diff(*R, Base, llvm::StringRef(Head));
  ASSERT_EQ(D.size(), 1u);
  EXPECT_TRUE(D[0].Binary);
  EXPECT_TRUE(D[0].Hunks.empty());
  EXPECT_EQ(D[0].NewBlob, gitBlobHash(llvm::StringRef("a\0B\0c\n", 6)));

  // The same file changed again in the work tree.
  write("data.bin", llvm::StringRef("\0\0\0", 3));
  D = diff(*R, Head, std::nullopt);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_TRUE(D[0].Binary);
  EXPECT_EQ(D[0].NewBlob, gitBlobHash(llvm::StringRef("\0\0\0", 3)));
}

TEST_F(GitTest, SymbolicLinksAreBlobsOfTheirTarget) {
  init();
  write("a.txt", "a\n");
  write("b.txt", "b\n");
  std::string Base = commit("base");
  remove("b.txt");
  ASSERT_FALSE(llvm::sys::fs::create_link("a.txt", Dir + "/b.txt"));
  ASSERT_FALSE(llvm::sys::fs::create_link("a.txt", Dir + "/link.txt"));

  std::vector<FileChange> D = diffAt(Base, std::nullopt);
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(D[0].NewPath, "b.txt");
  EXPECT_EQ(D[0].Status, ChangeStatus::TypeChanged);
  EXPECT_EQ(D[0].NewBlob, gitBlobHash("a.txt"));
  EXPECT_EQ(D[1].NewPath, "link.txt");
  EXPECT_EQ(D[1].Status, ChangeStatus::Added);
  EXPECT_EQ(D[1].NewBlob, gitBlobHash("a.txt"));
}

TEST_F(GitTest, UnknownRevisionNamesWhatToRun) {
  init();
  write("a.txt", "a\n");
  commit("base");
  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  auto C = R->resolveCommit("no-such-branch");
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(errorText(C.takeError()),
            "unknown revision 'no-such-branch': check the name with 'git "
            "rev-parse no-such-branch'");

  auto D = R->diff("HEAD~5", std::nullopt);
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(errorText(D.takeError()),
            "unknown revision 'HEAD~5': check the name with 'git rev-parse "
            "HEAD~5'");
}

TEST_F(GitTest, ResolvesNamesToCommits) {
  init();
  write("a.txt", "a\n");
  std::string First = commit("first");
  git({"tag", "-a", "v1", "-m", "annotated"});
  write("a.txt", "b\n");
  std::string Second = commit("second");

  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  for (auto [Rev, Want] : std::vector<std::pair<std::string, std::string>>{
           {"HEAD", Second},
           {"main", Second},
           {"HEAD~1", First},
           {"v1", First},
           {First.substr(0, 10), First}}) {
    auto C = R->resolveCommit(Rev);
    ASSERT_TRUE(bool(C)) << Rev << ": " << errorText(C.takeError());
    EXPECT_EQ(*C, Want) << Rev;
  }
}

TEST_F(GitTest, NotARepository) {
  auto R = Repository::discover(Dir);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(errorText(R.takeError()), "not a git repository: " + Dir +
                                          " (run tia inside a git work tree)");
}

TEST_F(GitTest, BareRepositoryIsRefused) {
  git({"init", "-q", "--bare"});
  auto R = Repository::discover(Dir);
  ASSERT_FALSE(bool(R));
  std::string Msg = errorText(R.takeError());
  EXPECT_NE(Msg.find("bare git repository"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find(Dir), std::string::npos) << Msg;
}

TEST_F(GitTest, DiscoversFromASubdirectory) {
  init();
  write("src/deep/a.txt", "a\n");
  commit("base");
  auto R = Repository::discover(Dir + "/src/deep");
  ASSERT_TRUE(bool(R)) << errorText(R.takeError());
  llvm::SmallString<128> Real;
  ASSERT_FALSE(llvm::sys::fs::real_path(Dir, Real));
  EXPECT_EQ(R->workdir(), Real.str());
  EXPECT_TRUE(llvm::sys::path::is_absolute(R->workdir()));
  EXPECT_FALSE(llvm::StringRef(R->workdir()).ends_with("/"));
}

TEST_F(GitTest, ReadFileAtAnOlderCommit) {
  init();
  write("a.txt", "version one\n");
  std::string First = commit("first");
  write("a.txt", "version two\n");
  write("b.txt", "only later\n");
  commit("second");

  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  auto Old = R->readFile(First, "a.txt");
  ASSERT_TRUE(bool(Old)) << errorText(Old.takeError());
  EXPECT_EQ(*Old, "version one\n");
  auto Now = R->readFile("HEAD", "a.txt");
  ASSERT_TRUE(bool(Now)) << errorText(Now.takeError());
  EXPECT_EQ(*Now, "version two\n");

  auto Missing = R->readFile(First, "b.txt");
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(errorText(Missing.takeError()),
            "b.txt does not exist at " + First.substr(0, 12));

  auto Blob = R->readBlob(gitBlobHash("version two\n"));
  ASSERT_TRUE(bool(Blob)) << errorText(Blob.takeError());
  EXPECT_EQ(*Blob, "version two\n");
  auto NoBlob = R->readBlob(gitBlobHash("never committed\n"));
  EXPECT_FALSE(bool(NoBlob));
  llvm::consumeError(NoBlob.takeError()); // only its failure matters here
}

TEST_F(GitTest, MergeBaseOfTwoBranches) {
  init();
  write("a.txt", "a\n");
  std::string Fork = commit("fork point");
  git({"checkout", "-q", "-b", "feature"});
  write("f.txt", "feature\n");
  std::string Feature = commit("on feature");
  git({"checkout", "-q", "main"});
  write("m.txt", "main\n");
  std::string Main = commit("on main");

  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  auto Base = R->mergeBase(Main, Feature);
  ASSERT_TRUE(bool(Base)) << errorText(Base.takeError());
  EXPECT_EQ(*Base, Fork);
  EXPECT_NE(*Base, Main);
}

TEST_F(GitTest, HistoryQueries) {
  init();
  write("a.txt", "a\n");
  std::string First = commit("first");
  write("a.txt", "b\n");
  std::string Second = commit("second [full-suite]\n\nbody");
  git({"checkout", "-q", "-b", "side", First});
  write("s.txt", "s\n");
  std::string Side = commit("side");

  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  auto Check = [&](llvm::StringRef A, llvm::StringRef D, bool Want) {
    auto Is = R->isAncestor(A, D);
    ASSERT_TRUE(bool(Is)) << errorText(Is.takeError());
    EXPECT_EQ(*Is, Want) << A.str() << " ancestor of " << D.str();
  };
  Check(First, Second, true);
  Check(Second, Second, true);
  Check(Second, First, false);
  Check(Second, Side, false);

  EXPECT_TRUE(R->hasCommit(Second));
  EXPECT_FALSE(R->hasCommit("0123456789012345678901234567890123456789"));

  auto Message = R->commitMessage(Second);
  ASSERT_TRUE(bool(Message)) << errorText(Message.takeError());
  EXPECT_EQ(*Message, "second [full-suite]\n\nbody\n");

  auto Time = R->commitTime(First);
  ASSERT_TRUE(bool(Time)) << errorText(Time.takeError());
  EXPECT_GT(*Time, 0);

  auto Count = R->countCommits(First, Second);
  ASSERT_TRUE(bool(Count)) << errorText(Count.takeError());
  EXPECT_EQ(*Count, 1u);
  auto None = R->countCommits(Second, First);
  ASSERT_TRUE(bool(None)) << errorText(None.takeError());
  EXPECT_EQ(*None, 0u);
  auto FromSide = R->countCommits(Side, Second);
  ASSERT_TRUE(bool(FromSide)) << errorText(FromSide.takeError());
  EXPECT_EQ(*FromSide, 1u);
}

TEST_F(GitTest, HeadCommitOnAnUnbornBranch) {
  init();
  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  auto Unborn = R->headCommit();
  ASSERT_TRUE(bool(Unborn)) << errorText(Unborn.takeError());
  EXPECT_EQ(*Unborn, std::nullopt);

  write("a.txt", "a\n");
  std::string First = commit("first");
  auto Head = R->headCommit();
  ASSERT_TRUE(bool(Head)) << errorText(Head.takeError());
  EXPECT_EQ(*Head, std::optional<std::string>(First));
}

TEST_F(GitTest, IsDirty) {
  init();
  write(".gitignore", "*.log\n");
  write("a.txt", "a\n");
  commit("base");
  std::optional<Repository> R = open();
  ASSERT_TRUE(R);
  auto Dirty = [&] {
    auto D = R->isDirty();
    if (!D) {
      ADD_FAILURE() << errorText(D.takeError());
      return false;
    }
    return *D;
  };

  EXPECT_FALSE(Dirty());
  write("run.log", "ignored\n");
  EXPECT_FALSE(Dirty());
  write("new.txt", "untracked\n");
  EXPECT_TRUE(Dirty());
  remove("new.txt");
  EXPECT_FALSE(Dirty());
  write("a.txt", "changed\n");
  EXPECT_TRUE(Dirty());
  git({"add", "a.txt"});
  EXPECT_TRUE(Dirty());
}

TEST(StatusNameTest, EveryStatusHasItsName) {
  EXPECT_EQ(statusName(ChangeStatus::Added), "added");
  EXPECT_EQ(statusName(ChangeStatus::Deleted), "deleted");
  EXPECT_EQ(statusName(ChangeStatus::Modified), "modified");
  EXPECT_EQ(statusName(ChangeStatus::Renamed), "renamed");
  EXPECT_EQ(statusName(ChangeStatus::Copied), "copied");
  EXPECT_EQ(statusName(ChangeStatus::TypeChanged), "type-changed");
}

TEST(SplitRangeTest, TwoDotsSplitARangeInTwo) {
  auto R = splitRange("HEAD~5..HEAD");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->first, "HEAD~5");
  EXPECT_EQ(R->second, "HEAD");
  for (const char *Bad : {"HEAD", "..HEAD", "HEAD..", "A...B", ""})
    EXPECT_FALSE(splitRange(Bad)) << Bad;
}

} // namespace

TEST_F(GitTest, CommitRangeOldestFirstWithAndWithoutFirstParent) {
  init();
  write("a.txt", "a\n");
  std::string Base = commit("base");
  git({"checkout", "-q", "-b", "side"});
  write("b.txt", "b\n");
  std::string Side = commit("side");
  git({"checkout", "-q", "main"});
  write("a.txt", "a2\n");
  std::string Main = commit("main");
  git({"merge", "-q", "--no-ff", "-m", "merge", "side"});
  std::string Merge = git({"rev-parse", "HEAD"});
  std::optional<Repository> R = open();
  ASSERT_TRUE(R);

  auto All = commitRange(*R, Base, "HEAD", /*FirstParent=*/false);
  ASSERT_TRUE(bool(All)) << errorText(All.takeError());
  ASSERT_EQ(All->size(), 3u);
  EXPECT_EQ(All->back().Id, Merge);
  EXPECT_EQ(All->back().Parents, (std::vector<std::string>{Main, Side}));
  EXPECT_EQ(All->back().Summary, "merge");
  // The merge's files are its change against the first parent.
  ASSERT_EQ(All->back().Files.size(), 1u);
  EXPECT_EQ(All->back().Files[0].NewPath, "b.txt");

  auto First = commitRange(*R, Base, "HEAD", /*FirstParent=*/true);
  ASSERT_TRUE(bool(First)) << errorText(First.takeError());
  ASSERT_EQ(First->size(), 2u);
  EXPECT_EQ((*First)[0].Id, Main);
  EXPECT_EQ((*First)[1].Id, Merge);

  auto Empty = commitRange(*R, "HEAD", Base, false);
  ASSERT_TRUE(bool(Empty)) << errorText(Empty.takeError());
  EXPECT_TRUE(Empty->empty());

  auto Unknown = commitRange(*R, "nosuch", "HEAD", false);
  ASSERT_FALSE(bool(Unknown));
  EXPECT_NE(errorText(Unknown.takeError()).find("unknown revision 'nosuch'"),
            std::string::npos);
}

namespace {

// lib/Git/LocalOnly.cpp: libgit2's mbedTLS certificate loader is tia's,
// which loads nothing, so a certificate file that does not exist is no
// error. With libgit2's own loader bound instead (the interposer lost from
// the link, or --wrap from a static link), loading it fails.
TEST_F(GitTest, LibgitLoadsNoCertificates) {
  init();
  commit("first");
  ASSERT_TRUE(open());
  // A static libgit2 comes with Debian's mbedTLS archive; a shared one may
  // be built without it.
  if (!TIA_STATIC_LIBGIT2 && !dlsym(RTLD_DEFAULT, "mbedtls_ssl_init"))
    GTEST_SKIP() << "libgit2 is not built with mbedTLS here";
  EXPECT_EQ(git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS,
                             (Dir + "/no-such-bundle.crt").c_str(), nullptr),
            0);
}

} // namespace
