//===- PythonStoreTest.cpp - what the store keeps of Python files ---------===//

#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

FileIndex pythonFile(llvm::StringRef Module, llvm::StringRef Settings) {
  FileIndex F;
  F.Path = "src/pkg/mod.py";
  F.ContentHash = "1111111111111111111111111111111111111111";
  F.ResidualHash = "0000000000000000";
  Element E;
  E.Key = "py:" + Module.str() + ":f";
  E.Kind = ElementKind::Function;
  E.Display = Module.str() + ".f";
  E.File = F.Path;
  E.BeginLine = 3;
  E.EndLine = 5;
  E.BodyLine = 4;
  E.Hash = "00000000000000aa";
  E.Names = {E.Display};
  F.Elements.push_back(E);
  Element M;
  M.Key = "py:" + Module.str() + ":<module>";
  M.Kind = ElementKind::Module;
  M.Display = Module.str();
  M.File = F.Path;
  M.BeginLine = 1;
  M.EndLine = 5;
  M.Hash = "00000000000000bb";
  F.Elements.push_back(M);
  PythonFileInfo Info;
  Info.Module = Module.str();
  Info.Settings = Settings.str();
  Info.Imports = {{"os", "", 1}, {"pkg", "util", 2}};
  F.Python = Info;
  normalize(F);
  return F;
}

TEST(PythonStoreTest, InfoRoundTripsAndOtherSettingsReplace) {
  ASSERT_VALUE(S, Store::open(":memory:", Store::Mode::ReadWrite));
  Store &St = **S;
  FileIndex F = pythonFile("pkg.mod", "s1");
  ASSERT_OK(St.putFileIndex(F));
  ASSERT_OK(St.addRevision("c", false, {{F.Path, F.ContentHash}}).takeError());

  ASSERT_VALUE(Got, St.getFileIndex(F.Path, F.ContentHash));
  ASSERT_TRUE(*Got && (*Got)->Python);
  EXPECT_EQ((*Got)->Python->Module, "pkg.mod");
  ASSERT_EQ((*Got)->Python->Imports.size(), 2u);
  EXPECT_EQ((*Got)->Python->Imports[1].Name, "util");
  EXPECT_EQ((*Got)->Elements[0].Kind, ElementKind::Module);
  EXPECT_EQ((*Got)->Elements[1].BodyLine, 4u);

  ASSERT_VALUE(Settings, St.pythonSettings(F.Path, F.ContentHash));
  EXPECT_EQ(*Settings, std::optional<std::string>("s1"));
  ASSERT_VALUE(Modules, St.currentPythonModules());
  ASSERT_EQ(Modules->size(), 1u);
  EXPECT_EQ((*Modules)[0].second, "pkg.mod");
  ASSERT_VALUE(Imports, St.currentImports());
  EXPECT_EQ(Imports->size(), 2u);

  // The same content under another layout: the new index replaces the old.
  FileIndex Moved = pythonFile("mod", "s2");
  ASSERT_OK(St.putFileIndex(Moved));
  ASSERT_VALUE(Again, St.getFileIndex(F.Path, F.ContentHash));
  EXPECT_EQ((*Again)->Python->Module, "mod");
  EXPECT_EQ((*Again)->Elements.size(), 2u);
  EXPECT_EQ((*Again)->Elements[1].Key, "py:mod:f");
}

} // namespace
