//===- tia/Testing/TempRepo.h - a real git repository for a test -*- C++ -*-=//
//
// Shared by the unit tests that need a repository: one made with the git
// command line in a temporary directory, with no system, global or
// inherited git configuration, removed when the test ends.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_TESTING_TEMPREPO_H
#define TIA_TESTING_TEMPREPO_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

extern char **environ;

namespace tia {
namespace testing {

/// A fixture holding a fresh repository at Dir (after init()).
class TempRepo : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-repo", Root));
    Dir = (Root + "/repo").str();
    ASSERT_FALSE(llvm::sys::fs::create_directory(Dir));
    auto Git = llvm::sys::findProgramByName("git");
    ASSERT_TRUE(bool(Git)) << "git is not on PATH";
    GitPath = *Git;
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
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("tia-repo", "out", OutFile));
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

  void init() { git({"init", "-q"}); }

  void write(llvm::StringRef Rel, llvm::StringRef Content) {
    std::string Path = (Dir + "/" + Rel).str();
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << Path << ": " << EC.message();
    OS << Content;
  }

  /// Stages everything, commits, and returns the new commit id.
  std::string commit(llvm::StringRef Message) {
    git({"add", "-A"});
    git({"commit", "-q", "--allow-empty", "-m", Message.str()});
    return git({"rev-parse", "HEAD"});
  }

  llvm::SmallString<128> Root;
  std::string Dir;
  std::string GitPath;
  std::vector<std::string> Env;
};

} // namespace testing
} // namespace tia

#endif // TIA_TESTING_TEMPREPO_H
