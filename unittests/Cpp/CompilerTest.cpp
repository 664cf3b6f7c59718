//===- CompilerTest.cpp - a compiler told by its version ------------------===//

#include "tia/Cpp/FrontEnd.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

CompileCommand command(llvm::StringRef Compiler, llvm::StringRef Flag) {
  return CompileCommand{"/r/a.cpp", "/r/build", {Compiler.str(), Flag.str()}};
}

TEST(CompilerTest, SameCommandAsksAboutTheCompilerOnlyWhenItsPathDiffers) {
  unsigned Asked = 0;
  auto Same = [&](llvm::StringRef, llvm::StringRef) {
    ++Asked;
    return true;
  };
  EXPECT_TRUE(cpp::sameCompileCommand(command("c++", "-O2"),
                                      command("c++", "-O2"), Same));
  EXPECT_EQ(Asked, 0u);
  EXPECT_TRUE(cpp::sameCompileCommand(command("/usr/bin/c++", "-O2"),
                                      command("/opt/bin/c++", "-O2"), Same));
  EXPECT_EQ(Asked, 1u);
  // Other flags or another directory are another command, whatever the
  // compiler.
  EXPECT_FALSE(cpp::sameCompileCommand(command("/usr/bin/c++", "-O2"),
                                       command("/opt/bin/c++", "-O0"), Same));
  CompileCommand Elsewhere = command("c++", "-O2");
  Elsewhere.Directory = "/r/out";
  EXPECT_FALSE(cpp::sameCompileCommand(command("c++", "-O2"), Elsewhere, Same));
  auto Other = [](llvm::StringRef, llvm::StringRef) { return false; };
  EXPECT_FALSE(cpp::sameCompileCommand(command("/usr/bin/c++", "-O2"),
                                       command("/opt/bin/c++", "-O2"), Other));
}

TEST(CompilerTest, VersionIsTheFirstLineOfVersionOutput) {
  EXPECT_EQ(cpp::compilerVersion("/nonexistent/tia-no-compiler"), std::nullopt);
  // Any program that prints a version will do: tia needs git anyway.
  std::optional<std::string> V = cpp::compilerVersion("git");
  ASSERT_TRUE(V.has_value());
  EXPECT_TRUE(llvm::StringRef(*V).starts_with("git version ")) << *V;
  EXPECT_EQ(V->find('\n'), std::string::npos);
}

} // namespace
