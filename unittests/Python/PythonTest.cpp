//===- PythonTest.cpp - the Python front end ------------------------------===//

#include "Interpreter.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Testing/Assertions.h"
#include <set>

using namespace tia;
using namespace tia::python;
using tia::testing::errorText;

namespace {

const Element *find(const FileIndex &F, llvm::StringRef Key) {
  for (const Element &E : F.Elements)
    if (E.Key == Key)
      return &E;
  return nullptr;
}

TEST(ModuleNameTest, PackagesAndRoots) {
  std::set<std::string, std::less<>> Files = {
      "src/shop/__init__.py", "src/shop/sub/__init__.py", "pkg/__init__.py"};
  auto IsFile = [&](llvm::StringRef P) { return Files.count(P) != 0; };
  EXPECT_EQ(moduleName("src/shop/cart.py", IsFile), "shop.cart");
  EXPECT_EQ(moduleName("src/shop/sub/deep.py", IsFile), "shop.sub.deep");
  EXPECT_EQ(moduleName("src/shop/__init__.py", IsFile), "shop");
  EXPECT_EQ(moduleName("tests/test_a.py", IsFile), "test_a");
  EXPECT_EQ(moduleName("setup.py", IsFile), "setup");
  EXPECT_EQ(moduleName("pkg/mod.py", IsFile), "pkg.mod");
}

TEST(IndexFileTest, ElementsKeysAndHashes) {
  const char *Source = "import os\n"
                       "LIMIT = 3\n"
                       "\n"
                       "@decorate\n"
                       "def f(x):\n"
                       "    \"\"\"Doc.\"\"\"\n"
                       "    return x  # comment\n";
  ASSERT_VALUE(F, indexFile("pkg/mod.py", "pkg.mod", Source, {}));
  EXPECT_TRUE(F->Complete);
  ASSERT_TRUE(F->Python);
  EXPECT_EQ(F->Python->Module, "pkg.mod");
  const Element *Fn = find(*F, "py:pkg.mod:f");
  ASSERT_TRUE(Fn);
  EXPECT_EQ(Fn->Kind, ElementKind::Function);
  EXPECT_EQ(Fn->BeginLine, 4u); // the decorator
  EXPECT_EQ(Fn->EndLine, 7u);
  EXPECT_EQ(Fn->BodyLine, 6u);
  EXPECT_EQ(Fn->Hash.size(), 16u);
  ASSERT_TRUE(find(*F, "py:pkg.mod:LIMIT"));
  ASSERT_TRUE(find(*F, "py:pkg.mod:<module>"));
  ASSERT_EQ(F->Python->Imports.size(), 1u);
  EXPECT_EQ(F->Python->Imports[0].Module, "os");

  // Comments and layout do not count; the docstring does, unless off.
  const char *Reformatted = "import os\n"
                            "LIMIT = 3\n"
                            "@decorate\n"
                            "def f( x ):\n"
                            "    '''Doc.'''\n"
                            "    return x\n";
  ASSERT_VALUE(G, indexFile("pkg/mod.py", "pkg.mod", Reformatted, {}));
  EXPECT_EQ(find(*G, "py:pkg.mod:f")->Hash, Fn->Hash);
  std::string NewDoc = std::string(Source);
  NewDoc.replace(NewDoc.find("Doc."), 4, "Other.");
  ASSERT_VALUE(H, indexFile("pkg/mod.py", "pkg.mod", NewDoc, {}));
  EXPECT_NE(find(*H, "py:pkg.mod:f")->Hash, Fn->Hash);
  FrontEndOptions NoDocs;
  NoDocs.Docstrings = false;
  ASSERT_VALUE(A, indexFile("pkg/mod.py", "pkg.mod", Source, NoDocs));
  ASSERT_VALUE(B, indexFile("pkg/mod.py", "pkg.mod", NewDoc, NoDocs));
  EXPECT_EQ(find(*A, "py:pkg.mod:f")->Hash, find(*B, "py:pkg.mod:f")->Hash);
}

TEST(IndexFileTest, ProblemsAreIncompleteFiles) {
  ASSERT_VALUE(Syntax, indexFile("a.py", "a", "def f(:\n", {}));
  EXPECT_FALSE(Syntax->Complete);
  EXPECT_TRUE(Syntax->Elements.empty());
  EXPECT_NE(Syntax->Python->Problem.find("line 1"), std::string::npos);

  ASSERT_VALUE(Bytes, indexFile("b.py", "b", "x = '\xff'\n", {}));
  EXPECT_FALSE(Bytes->Complete);
  EXPECT_NE(Bytes->Python->Problem.find("UTF-8"), std::string::npos);

  FrontEndOptions Small;
  Small.MaxFileSize = 4;
  ASSERT_VALUE(Big, indexFile("c.py", "c", "x = 12345\n", Small));
  EXPECT_FALSE(Big->Complete);
  EXPECT_NE(Big->Python->Problem.find("max-file-size"), std::string::npos);
}

TEST(IndexFileTest, SourceThatWouldExitOrPrintIsOnlyParsed) {
  ASSERT_VALUE(
      F, indexFile("s.py", "s", "import sys\nprint('hi')\nsys.exit(3)\n", {}));
  EXPECT_TRUE(F->Complete);
}

TEST(DecodeAnswerTest, TheSameIndexAsTheInterpreterGives) {
  llvm::StringRef Source = "def f():\n    return 1\n";
  ASSERT_VALUE(Direct, indexFile("m.py", "m", Source, {}));
  std::string Answer =
      R"({"complete": true, "problem": "", "elements": [)"
      R"({"key": "py:m:f", "kind": "function", "display": "m.f", "begin": 1,)"
      R"( "end": 2, "body": 2, "hash": "h", "names": ["m.f"]}],)"
      R"( "tests": [], "imports": []})";
  ASSERT_VALUE(Decoded, decodeIndexAnswer(Answer, "m.py", "m", Source, {}));
  EXPECT_EQ(Decoded->ContentHash, Direct->ContentHash);
  EXPECT_EQ(Decoded->Python->Settings, Direct->Python->Settings);
  ASSERT_NE(find(*Decoded, "py:m:f"), nullptr);
  EXPECT_EQ(find(*Decoded, "py:m:f")->EndLine, 2u);
}

TEST(DecodeAnswerTest, BadAnswersAreErrors) {
  EXPECT_NE(errorText(decodeIndexAnswer("{", "a.py", "a", "", {}).takeError())
                .find("malformed JSON for a.py"),
            std::string::npos);
  EXPECT_NE(errorText(decodeIndexAnswer("[1]", "a.py", "a", "", {}).takeError())
                .find("no object for a.py"),
            std::string::npos);
  EXPECT_EQ(errorText(decodeIndexAnswer(R"({"error": "x.py:3: E: boom\nmore"})",
                                        "a.py", "a", "", {})
                          .takeError()),
            "python extractor failed on a.py: x.py:3: E: boom");
  // Members of the wrong type are skipped, not trusted.
  ASSERT_VALUE(F, decodeIndexAnswer(R"({"elements": [1, {"begin": "x"}],)"
                                    R"( "tests": {}, "imports": [null]})",
                                    "a.py", "a", "", {}));
  EXPECT_FALSE(F->Complete);
  EXPECT_EQ(F->Elements.size(), 1u);
}

TEST(InterpreterTest, ExceptionsAndExitsBecomeErrors) {
  auto Exit = callExtractor("exit_for_tests", {{CallArg::Text, "3"}});
  EXPECT_NE(errorText(Exit.takeError()).find("SystemExit"), std::string::npos);
  auto Missing = callExtractor("no_such_function", {});
  EXPECT_NE(errorText(Missing.takeError()).find("AttributeError"),
            std::string::npos);
  // The interpreter is still usable afterwards.
  ASSERT_VALUE(V, embeddedVersion());
  EXPECT_EQ(llvm::StringRef(*V).substr(0, 5), "3.11.");
}

TEST(PytestSettingsTest, FirstFileWithASection) {
  std::map<std::string, std::string> Files = {
      {"tox.ini", "[tox]\nenvlist = py311\n"},
      {"setup.cfg", "[tool:pytest]\npython_files = check_*.py\n"
                    "testpaths = checks\n"}};
  auto Read = [&](llvm::StringRef Name) -> std::optional<std::string> {
    auto It = Files.find(Name.str());
    if (It == Files.end())
      return std::nullopt;
    return It->second;
  };
  ASSERT_VALUE(S, loadPytestSettings(Read));
  EXPECT_EQ(S->ConfigFile, "setup.cfg");
  EXPECT_EQ(S->PythonFiles, std::vector<std::string>{"check_*.py"});
  EXPECT_EQ(S->TestPaths, std::vector<std::string>{"checks"});
  EXPECT_EQ(S->PythonClasses, std::vector<std::string>{"Test"});

  // A file without pytest's section is not read: a pyproject.toml that
  // is not valid TOML does not matter then, and tox.ini decides.
  Files = {{"pyproject.toml", "[tool.black\n"},
           {"tox.ini", "[pytest]\ntestpaths = t\n"}};
  ASSERT_VALUE(Tox, loadPytestSettings(Read));
  EXPECT_EQ(Tox->ConfigFile, "tox.ini");
  EXPECT_EQ(Tox->TestPaths, std::vector<std::string>{"t"});
  // With the section, it is read and its error reported.
  Files = {{"pyproject.toml", "[tool.pytest.ini_options\n"}};
  EXPECT_NE(errorText(loadPytestSettings(Read)).find("pyproject.toml"),
            std::string::npos);

  Files = {{"pytest.ini", "not an ini file\n"}};
  EXPECT_NE(errorText(loadPytestSettings(Read)).find("pytest.ini"),
            std::string::npos);
}

TEST(PytestSettingsTest, RememberedReadings) {
  std::string Ini = "[pytest]\npython_files = check_*.py\n";
  auto Read = [&](llvm::StringRef Name) -> std::optional<std::string> {
    if (Name == "pytest.ini")
      return Ini;
    return std::nullopt;
  };
  std::map<std::string, std::string> Memo;
  PytestSettingsMemo M;
  M.Find = [&](llvm::StringRef Key) -> std::optional<std::string> {
    auto It = Memo.find(Key.str());
    if (It == Memo.end())
      return std::nullopt;
    return It->second;
  };
  M.Remember = [&](llvm::StringRef Key, llvm::StringRef Answer) {
    Memo[Key.str()] = Answer.str();
  };
  ASSERT_VALUE(Read1, loadPytestSettings(Read, M));
  EXPECT_EQ(Read1->PythonFiles, std::vector<std::string>{"check_*.py"});
  ASSERT_EQ(Memo.size(), 1u);
  // The key holds the file's text.
  std::string Key = Memo.begin()->first;
  EXPECT_NE(Key.find("check_*.py"), std::string::npos);

  // A remembered reading stands for the same files (this one, written
  // here, was never the extractor's)...
  Memo[Key] = R"({"file": "pytest.ini", "python_files": ["memo_*.py"]})";
  ASSERT_VALUE(Remembered, loadPytestSettings(Read, M));
  EXPECT_EQ(Remembered->PythonFiles, std::vector<std::string>{"memo_*.py"});
  // ...and not for others: the file changed, it is read again.
  Ini = "[pytest]\npython_files = probe_*.py\n";
  ASSERT_VALUE(Changed, loadPytestSettings(Read, M));
  EXPECT_EQ(Changed->PythonFiles, std::vector<std::string>{"probe_*.py"});
  EXPECT_EQ(Memo.size(), 2u);

  // A remembered reading that is not one is read again.
  for (auto &[K, Answer] : Memo)
    Answer = "not json";
  ASSERT_VALUE(Reread, loadPytestSettings(Read, M));
  EXPECT_EQ(Reread->PythonFiles, std::vector<std::string>{"probe_*.py"});

  // An error is not remembered: it is read, and reported, each time.
  Memo.clear();
  Ini = "not an ini file\n";
  EXPECT_NE(errorText(loadPytestSettings(Read, M)).find("pytest.ini"),
            std::string::npos);
  EXPECT_TRUE(Memo.empty());
}

} // namespace
