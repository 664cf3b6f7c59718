//===- CppTest.cpp - the Clang front end ----------------------------------===//

#include "tia/Cpp/FrontEnd.h"
#include "tia/Support/Hash.h"
#include "tia/Testing/Assertions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cstdlib>
#include <thread>

using namespace tia;
using tia::testing::errorText;

namespace {

bool contains(const std::vector<std::string> &List, llvm::StringRef Item) {
  return std::find(List.begin(), List.end(), Item) != List.end();
}

bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.starts_with(Prefix);
}

/// Every element of every file, one per line, for failure messages.
std::string dump(const TranslationUnitIndex &TU) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "errors=" << TU.ErrorCount << " first=" << TU.FirstError << "\n";
  for (const FileIndex &F : TU.Files) {
    OS << F.Path << (F.Complete ? "" : " (incomplete)") << "\n";
    for (const Element &E : F.Elements) {
      OS << "  " << E.BeginLine << "-" << E.EndLine << " " << kindName(E.Kind)
         << " " << E.Display << " [" << E.Key << "]\n";
      for (const std::string &N : E.Names)
        OS << "    = " << N << "\n";
    }
  }
  return Out;
}

class CppTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-cpp-test", D));
    Dir = std::string(D.str());
    Options.ProjectRoot = Dir;
  }

  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Rel) { return Dir + "/" + Rel.str(); }

  void write(llvm::StringRef Rel, llvm::StringRef Content) {
    std::string P = path(Rel);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC) << P << ": " << EC.message();
    OS << Content;
  }

  CompileCommand command(llvm::StringRef Rel) {
    CompileCommand C;
    C.File = path(Rel);
    C.Directory = Dir;
    C.Arguments = {"clang++", "-std=c++17", "-c", C.File};
    return C;
  }

  /// Indexes \p Rel; a failure to index fails the test.
  TranslationUnitIndex
  index(llvm::StringRef Rel,
        const llvm::StringMap<std::string> &Overlays = {}) {
    auto TU = cpp::indexTranslationUnit(command(Rel), Options, Overlays);
    if (!TU) {
      ADD_FAILURE() << errorText(TU.takeError());
      return TranslationUnitIndex();
    }
    return std::move(*TU);
  }

  /// Indexes \p Content as \p Rel and returns that file's index.
  FileIndex indexSource(llvm::StringRef Rel, llvm::StringRef Content) {
    write(Rel, Content);
    TranslationUnitIndex TU = index(Rel);
    EXPECT_EQ(TU.ErrorCount, 0u) << dump(TU);
    if (const FileIndex *F = file(TU, Rel))
      return *F;
    ADD_FAILURE() << "no index for " << Rel.str() << "\n" << dump(TU);
    return FileIndex();
  }

  static const FileIndex *file(const TranslationUnitIndex &TU,
                               llvm::StringRef Path) {
    for (const FileIndex &F : TU.Files)
      if (F.Path == Path)
        return &F;
    return nullptr;
  }

  /// The element displayed as \p Display (the definition rather than a
  /// declaration of the same function); fails the test when none is.
  static const Element &element(const FileIndex &F, llvm::StringRef Display) {
    const Element *Found = nullptr;
    for (const Element &E : F.Elements)
      if (E.Display == Display &&
          (!Found || Found->Kind == ElementKind::Declaration))
        Found = &E;
    if (Found)
      return *Found;
    ADD_FAILURE() << "no element " << Display.str() << " in " << F.Path;
    static const Element None;
    return None;
  }

  /// The first element whose display starts with \p Prefix.
  static const Element &elementStarting(const FileIndex &F,
                                        llvm::StringRef Prefix) {
    for (const Element &E : F.Elements)
      if (llvm::StringRef(E.Display).starts_with(Prefix))
        return E;
    ADD_FAILURE() << "no element starting with " << Prefix.str();
    static const Element None;
    return None;
  }

  std::string Dir;
  cpp::FrontEndOptions Options;
};

TEST_F(CppTest, OverloadsAreDistinctElements) {
  FileIndex F = indexSource("src/a.cpp", "int f(int a) { return a; }\n"
                                         "int f(double d) { return 2; }\n");
  ASSERT_EQ(F.Elements.size(), 2u);
  const Element &I = element(F, "f(int)");
  const Element &D = element(F, "f(double)");
  EXPECT_EQ(I.Key, "cpp:_Z1fi");
  EXPECT_EQ(D.Key, "cpp:_Z1fd");
  EXPECT_EQ(I.Kind, ElementKind::Function);
  EXPECT_EQ(I.BeginLine, 1u);
  EXPECT_EQ(D.BeginLine, 2u);
  EXPECT_EQ(I.File, "src/a.cpp");
  EXPECT_NE(I.Hash, D.Hash);
  EXPECT_EQ(I.Hash.size(), 16u);
}

TEST_F(CppTest, NamespacesAndMethodsAreQualified) {
  FileIndex F = indexSource("src/a.cpp", "namespace ns { namespace in {\n"
                                         "struct Class {\n"
                                         "  int f(int) const { return 1; }\n"
                                         "  static void s();\n"
                                         "};\n"
                                         "void Class::s() {}\n"
                                         "int g(const Class &c) { return 0; }\n"
                                         "} }\n");
  const Element &Fm = element(F, "ns::in::Class::f(int) const");
  EXPECT_EQ(Fm.Kind, ElementKind::Method);
  EXPECT_EQ(Fm.Key, "cpp:_ZNK2ns2in5Class1fEi");
  EXPECT_EQ(element(F, "ns::in::Class::s()").BeginLine, 6u);
  EXPECT_EQ(element(F, "ns::in::g(const ns::in::Class &)").Key,
            "cpp:_ZN2ns2in1gERKNS0_5ClassE");
}

TEST_F(CppTest, ConstructorAndDestructorCarryAllVariants) {
  FileIndex F = indexSource("src/a.cpp", "namespace ns {\n"
                                         "struct Class {\n"
                                         "  Class(int v);\n"
                                         "  virtual ~Class();\n"
                                         "  int V;\n"
                                         "};\n"
                                         "Class::Class(int v) : V(v) {}\n"
                                         "Class::~Class() {}\n"
                                         "}\n");
  const Element &C = element(F, "ns::Class::Class(int)");
  EXPECT_EQ(C.Kind, ElementKind::Constructor);
  EXPECT_EQ(C.Key, "cpp:_ZN2ns5ClassC1Ei");
  EXPECT_TRUE(contains(C.Names, "_ZN2ns5ClassC1Ei"));
  EXPECT_TRUE(contains(C.Names, "_ZN2ns5ClassC2Ei"));
  EXPECT_EQ(C.BeginLine, 7u);

  const Element &D = element(F, "ns::Class::~Class()");
  EXPECT_EQ(D.Kind, ElementKind::Destructor);
  EXPECT_EQ(D.Key, "cpp:_ZN2ns5ClassD1Ev");
  EXPECT_TRUE(contains(D.Names, "_ZN2ns5ClassD0Ev")); // virtual: deleting
  EXPECT_TRUE(contains(D.Names, "_ZN2ns5ClassD2Ev"));
  EXPECT_TRUE(std::is_sorted(D.Names.begin(), D.Names.end()));
}

TEST_F(CppTest, OperatorsAndConversions) {
  FileIndex F = indexSource(
      "src/a.cpp",
      "namespace ns {\n"
      "struct P { int X; explicit operator bool() const { return X; }\n"
      "  P &operator+=(const P &O) { X += O.X; return *this; } };\n"
      "bool operator==(const P &A, const P &B) { return A.X == B.X; }\n"
      "}\n");
  const Element &Eq =
      element(F, "ns::operator==(const ns::P &, const ns::P &)");
  EXPECT_EQ(Eq.Kind, ElementKind::Operator);
  EXPECT_EQ(Eq.Key, "cpp:_ZN2nseqERKNS_1PES2_");
  EXPECT_EQ(element(F, "ns::P::operator+=(const ns::P &)").Kind,
            ElementKind::Operator);
  const Element &B = element(F, "ns::P::operator bool() const");
  EXPECT_EQ(B.Kind, ElementKind::Conversion);
  EXPECT_EQ(B.Key, "cpp:_ZNK2ns1PcvbEv");
}

TEST_F(CppTest, LambdaIsItsOwnNestedElement) {
  FileIndex F =
      indexSource("src/a.cpp", "int run() {\n"
                               "  int base = 1;\n"
                               "  auto add = [base](int v) {\n"
                               "    return v + base;\n"
                               "  };\n"
                               "  auto twice = [](int v) { return 2 * v; };\n"
                               "  return add(2) + twice(1);\n"
                               "}\n");
  ASSERT_EQ(F.Elements.size(), 3u);
  const Element &Run = element(F, "run()");
  const Element &Add = element(F, "run()::(lambda at src/a.cpp:3:14)");
  const Element &Twice = element(F, "run()::(lambda at src/a.cpp:6:16)");
  EXPECT_EQ(Add.Kind, ElementKind::Lambda);
  EXPECT_EQ(Add.BeginLine, 3u);
  EXPECT_EQ(Add.EndLine, 5u);
  EXPECT_EQ(Run.BeginLine, 1u);
  EXPECT_EQ(Run.EndLine, 8u);
  EXPECT_EQ(Add.Key, Run.Key + "::lambda#1");
  EXPECT_EQ(Twice.Key, Run.Key + "::lambda#2");
  EXPECT_FALSE(Add.Names.empty());
}

TEST_F(CppTest, LambdasInTemplatesAndAtNamespaceScope) {
  FileIndex F = indexSource(
      "src/a.cpp", "template <typename T> T call(T t) {\n"
                   "  auto L = [t] { return t; };\n"
                   "  return L();\n"
                   "}\n"
                   "auto Global = [](int v) { return v; };\n"
                   "int outer() {\n"
                   "  auto G = [](auto v) { return [v] { return v; }(); };\n"
                   "  return G(1) + (int)G(2.0) + call(1) + Global(2);\n"
                   "}\n");
  ASSERT_EQ(F.Elements.size(), 7u); // the variable Global too
  const Element &Call = element(F, "call<T>(T)");
  const Element &InCall = elementStarting(F, "call<T>(T)::(lambda at ");
  EXPECT_EQ(InCall.Kind, ElementKind::FunctionTemplate);
  EXPECT_EQ(InCall.Key, Call.Key + "::lambda#1");
  EXPECT_TRUE(contains(InCall.Names, "_ZZ4callIiET_S0_ENKUlvE_clEv"));
  const Element &Global = element(F, "Global::(lambda at src/a.cpp:5:15)");
  EXPECT_EQ(Global.Kind, ElementKind::Lambda);
  EXPECT_TRUE(startsWith(Global.Key, "cpp:src/a.cpp:")) << Global.Key;
  const Element &Outer = element(F, "outer()");
  const Element &Generic = element(F, "outer()::(lambda at src/a.cpp:7:12)");
  EXPECT_EQ(Generic.Kind, ElementKind::FunctionTemplate); // a generic lambda
  EXPECT_EQ(Generic.Key, Outer.Key + "::lambda#1");
  EXPECT_EQ(Generic.Names.size(), 2u); // called with int and double
  const Element &Inner = elementStarting(
      F, "outer()::(lambda at src/a.cpp:7:12)::(lambda at src/a.cpp:7:32)");
  EXPECT_EQ(Inner.Key, Generic.Key + "::lambda#1");
}

// nanobind is not packaged here: the test declares the part of its API it
// uses, in its namespace and with its method names.
constexpr llvm::StringLiteral NanobindApi =
    "namespace nanobind {\n"
    "template <typename... A> struct init {};\n"
    "struct module_ {\n"
    "  template <typename F> module_ &def(const char *, F &&) { return *this; "
    "}\n"
    "};\n"
    "template <typename T> struct class_ {\n"
    "  class_(module_ &, const char *) {}\n"
    "  template <typename F> class_ &def(const char *, F &&) { return *this; "
    "}\n"
    "  template <typename... A> class_ &def(init<A...>) { return *this; }\n"
    "  template <typename G> class_ &def_prop_ro(const char *, G &&) {\n"
    "    return *this;\n"
    "  }\n"
    "};\n"
    "} // namespace nanobind\n"
    "namespace nb = nanobind;\n";

TEST_F(CppTest, NanobindDefinitionsAreBindingsByTheirPythonNames) {
  write("src/nb.h", NanobindApi);
  FileIndex F = indexSource(
      "src/a.cpp", "#include \"nb.h\"\n"
                   "double area(double w, double h) { return w * h; }\n"
                   "struct Shape { Shape(double) {} double width() const; };\n"
                   "double Shape::width() const { return 1; }\n"
                   "void init(nb::module_ &m) {\n"
                   "  m.def(\"area\", &area);\n"
                   "  m.def(\"twice\", [](double v) { return area(v, 2); });\n"
                   "  nb::class_<Shape>(m, \"Shape\")\n"
                   "      .def(nb::init<double>())\n"
                   "      .def_prop_ro(\"width\", &Shape::width);\n"
                   "}\n");
  const Element &Area = element(F, "\"area\" (nanobind def in src/a.cpp)");
  EXPECT_EQ(Area.Kind, ElementKind::Binding);
  EXPECT_EQ(Area.Key, "cpp:src/a.cpp:binding:area");
  EXPECT_EQ(Area.BeginLine, 6u);
  const Element &Twice = element(F, "\"twice\" (nanobind def in src/a.cpp)");
  const Element &Ctor = element(F, "\"Shape\" (nanobind def in src/a.cpp)");
  EXPECT_EQ(Ctor.BeginLine, 9u);
  const Element &Width =
      element(F, "\"width\" (nanobind def_prop_ro in src/a.cpp)");
  auto Has = [&](llvm::StringRef From, llvm::StringRef To) {
    return llvm::is_contained(
        F.References, Reference{From.str(), To.str(), ReferenceKind::Call});
  };
  const Element &Init = element(F, "init(nanobind::module_ &)");
  const Element &Lambda =
      elementStarting(F, "init(nanobind::module_ &)::(lambda");
  EXPECT_TRUE(Has(Area.Key, "cpp:_Z4areadd"));
  EXPECT_TRUE(Has(Twice.Key, Lambda.Key));
  EXPECT_TRUE(Has(Lambda.Key, "cpp:_Z4areadd"));
  EXPECT_TRUE(Has(Width.Key, "cpp:_ZNK5Shape5widthEv"));
  // A constructor is bound under its class's Python name.
  EXPECT_EQ(Ctor.Key, "cpp:src/a.cpp:binding:Shape");
  // The function registering them reaches none of them: a test reaches
  // each through the name it uses.
  EXPECT_FALSE(Has(Init.Key, "cpp:_Z4areadd"));
  EXPECT_FALSE(Has(Init.Key, Lambda.Key));
  EXPECT_FALSE(Has(Init.Key, "cpp:_ZNK5Shape5widthEv"));
}

TEST_F(CppTest, MethodTableEntriesAreBindingsOfTheTable) {
  FileIndex F = indexSource(
      "src/m.cpp",
      "struct PyMethodDef { const char *name; void *meth; int flags;\n"
      "                     const char *doc; };\n"
      "static void *twice(void *, void *) { return nullptr; }\n"
      "static void *half(void *, void *) { return nullptr; }\n"
      "static PyMethodDef Methods[] = {\n"
      "    {\"twice\", (void *)twice, 1, \"\"},\n"
      "    {\"half\", (void *)half, 1, \"\"},\n"
      "    {nullptr, nullptr, 0, nullptr}};\n");
  const Element &Twice = element(F, "\"twice\" (PyMethodDef in src/m.cpp)");
  EXPECT_EQ(Twice.Kind, ElementKind::Binding);
  EXPECT_EQ(Twice.BeginLine, 6u);
  EXPECT_EQ(Twice.EndLine, 6u);
  const Element &Table = element(F, "Methods");
  const Element &TwiceFn = elementStarting(F, "twice(");
  auto Has = [&](llvm::StringRef From, llvm::StringRef To) {
    return llvm::is_contained(
        F.References, Reference{From.str(), To.str(), ReferenceKind::Call});
  };
  EXPECT_TRUE(Has(Twice.Key, TwiceFn.Key));
  EXPECT_FALSE(Has(Table.Key, TwiceFn.Key));
  // The sentinel binds nothing.
  EXPECT_EQ(llvm::count_if(F.Elements,
                           [](const Element &E) {
                             return E.Kind == ElementKind::Binding;
                           }),
            2);
}

TEST_F(CppTest, KeysAreUniqueWithinATranslationUnit) {
  write("src/a.h", "static int helper() { return 1; }\n"
                   "inline int shared() { return helper(); }\n");
  FileIndex F = indexSource(
      "src/a.cpp", "#include \"a.h\"\n"
                   "static int helper(int) { return 2; }\n"
                   "namespace { int helper(double) { return 3; } }\n"
                   "struct S { S() {} S(int) {} ~S() {}\n"
                   "  int operator()(int) { return [] { return 1; }(); }\n"
                   "  operator int() const { return 0; } };\n"
                   "template <class T> T id(T t) { return t; }\n"
                   "template <> int id<int>(int t) { return t + 1; }\n"
                   "int use() { return id(1) + id('c') + shared(); }\n");
  TranslationUnitIndex TU = index("src/a.cpp");
  std::vector<std::string> Keys;
  for (const FileIndex &File : TU.Files)
    for (const Element &E : File.Elements)
      Keys.push_back(E.Key);
  ASSERT_EQ(Keys.size(), 14u) << dump(TU); // the class S too
  std::sort(Keys.begin(), Keys.end());
  EXPECT_EQ(std::unique(Keys.begin(), Keys.end()), Keys.end()) << dump(TU);
  EXPECT_EQ(element(*file(TU, "src/a.h"), "helper()").Key,
            "cpp:src/a.h:_ZL6helperv");
  EXPECT_EQ(element(F, "id<int>(int)").Kind, ElementKind::Function);
}

TEST_F(CppTest, UnknownCompilerFlagsOnlyWarn) {
  write("src/a.cpp", "int f() { return 1; }\n");
  CompileCommand C = command("src/a.cpp");
  C.Arguments = {"g++",       "-fno-such-clang-flag",
                 "-O2",       "-o",
                 "a.o",       "-c",
                 "src/a.cpp", "-MD",
                 "-MF",       "a.d"};
  auto TU = cpp::indexTranslationUnit(C, Options);
  ASSERT_TRUE(bool(TU)) << errorText(TU.takeError());
  EXPECT_EQ(TU->ErrorCount, 0u) << TU->FirstError;
  EXPECT_EQ(TU->WarningCount, 1u);
  ASSERT_EQ(TU->Files.size(), 1u);
  EXPECT_TRUE(TU->Files[0].Complete);
  EXPECT_EQ(TU->Files[0].Path, "src/a.cpp");
}

TEST_F(CppTest, FunctionTemplateIsOneElementWithInstantiationNames) {
  FileIndex F = indexSource("src/a.cpp",
                            "namespace ns {\n"
                            "template <typename T>\n"
                            "T max(T a, T b) {\n"
                            "  return a < b ? b : a;\n"
                            "}\n"
                            "}\n"
                            "int use() {\n"
                            "  return ns::max(1, 2) + (int)ns::max(1.0, 2.0);\n"
                            "}\n");
  ASSERT_EQ(F.Elements.size(), 2u) << F.Elements.size();
  const Element &T = element(F, "ns::max<T>(T, T)");
  EXPECT_EQ(T.Kind, ElementKind::FunctionTemplate);
  EXPECT_EQ(T.BeginLine, 2u);
  EXPECT_EQ(T.EndLine, 5u);
  EXPECT_TRUE(startsWith(T.Key, "cpp:c:@N@ns@FT@")) << T.Key;
  EXPECT_TRUE(contains(T.Names, "_ZN2ns3maxIiEET_S1_S1_"));
  EXPECT_TRUE(contains(T.Names, "_ZN2ns3maxIdEET_S1_S1_"));
}

TEST_F(CppTest, MembersOfClassTemplatesAreTemplates) {
  FileIndex F = indexSource(
      "src/a.cpp", "template <typename T> struct Box {\n"
                   "  T V;\n"
                   "  T get() const;\n"
                   "  void set(T v) { V = v; }\n"
                   "};\n"
                   "template <typename T>\n"
                   "T Box<T>::get() const { return V; }\n"
                   "int use() { Box<int> B; B.set(1); return B.get(); }\n");
  const Element &Get = element(F, "Box<T>::get() const");
  EXPECT_EQ(Get.Kind, ElementKind::FunctionTemplate);
  EXPECT_EQ(Get.BeginLine, 6u);
  EXPECT_EQ(Get.EndLine, 7u);
  EXPECT_TRUE(contains(Get.Names, "_ZNK3BoxIiE3getEv"));
  const Element &Set = element(F, "Box<T>::set(T)");
  EXPECT_EQ(Set.Kind, ElementKind::FunctionTemplate);
  EXPECT_TRUE(contains(Set.Names, "_ZN3BoxIiE3setEi"));
  EXPECT_NE(Get.Key, Set.Key);
}

TEST_F(CppTest, InternalFunctionsKeyIncludesFile) {
  FileIndex F =
      indexSource("src/a.cpp", "static int helper() { return 1; }\n"
                               "namespace { int hidden() { return 2; } }\n"
                               "int open() { return helper() + hidden(); }\n");
  EXPECT_EQ(element(F, "helper()").Key, "cpp:src/a.cpp:_ZL6helperv");
  EXPECT_TRUE(contains(element(F, "helper()").Names, "_ZL6helperv"));
  EXPECT_EQ(element(F, "(anonymous namespace)::hidden()").Key,
            "cpp:src/a.cpp:_ZN12_GLOBAL__N_16hiddenEv");
  EXPECT_EQ(element(F, "open()").Key, "cpp:_Z4openv");
}

TEST_F(CppTest, MacroGeneratedFunctionSpansTheInvocation) {
  FileIndex F = indexSource("src/a.cpp", "#define GETTER(name) \\\n"
                                         "  int get_##name() {   \\\n"
                                         "    return name;       \\\n"
                                         "  }\n"
                                         "int x = 1;\n"
                                         "GETTER(x)\n");
  const Element &G = element(F, "get_x()");
  EXPECT_EQ(G.BeginLine, 6u);
  EXPECT_EQ(G.EndLine, 6u);
  EXPECT_EQ(G.Key, "cpp:_Z5get_xv");
}

TEST_F(CppTest, HeaderElementsAreReportedInTheHeader) {
  write("src/util.h", "#pragma once\n"
                      "#include \"empty.h\"\n"
                      "inline int twice(int a) {\n"
                      "  return a * 2;\n"
                      "}\n");
  write("src/empty.h", "#pragma once\nstruct Empty;\n");
  write("src/a.cpp", "#include \"util.h\"\nint f() { return twice(2); }\n");
  TranslationUnitIndex TU = index("src/a.cpp");
  ASSERT_EQ(TU.Files.size(), 3u) << dump(TU);
  const FileIndex *H = file(TU, "src/util.h");
  ASSERT_TRUE(H) << dump(TU);
  ASSERT_EQ(H->Elements.size(), 1u);
  EXPECT_EQ(H->Elements[0].Display, "twice(int)");
  EXPECT_EQ(H->Elements[0].File, "src/util.h");
  EXPECT_EQ(H->Elements[0].BeginLine, 3u);
  EXPECT_EQ(H->Elements[0].EndLine, 5u);
  const FileIndex *E = file(TU, "src/empty.h");
  ASSERT_TRUE(E);
  EXPECT_TRUE(E->Elements.empty());
  EXPECT_EQ(E->ContentHash, gitBlobHash("#pragma once\nstruct Empty;\n"));
  EXPECT_EQ(element(*file(TU, "src/a.cpp"), "f()").File, "src/a.cpp");

  ASSERT_EQ(TU.Dependencies.size(), 3u);
  EXPECT_EQ(TU.Dependencies[0].first, "src/a.cpp");
  EXPECT_EQ(TU.Dependencies[1].first, "src/empty.h");
  EXPECT_EQ(TU.Dependencies[2].first, "src/util.h");
  EXPECT_EQ(TU.Dependencies[2].second, H->ContentHash);
}

TEST_F(CppTest, ExcludedDirectoriesAreNotProjectFiles) {
  write("build/gen.h", "inline int generated() { return 1; }\n");
  write("src/a.cpp",
        "#include \"../build/gen.h\"\nint f() { return generated(); }\n");
  Options.ExcludedDirs = {path("build")};
  TranslationUnitIndex TU = index("src/a.cpp");
  EXPECT_EQ(TU.Files.size(), 1u) << dump(TU);
  EXPECT_FALSE(file(TU, "build/gen.h"));
}

TEST_F(CppTest, StandardHeadersParseWithTheResourceDir) {
  write("src/a.cpp", "#include <cstddef>\n#include <vector>\n"
                     "std::size_t count(const std::vector<int> &v) {\n"
                     "  return v.size();\n"
                     "}\n");
  TranslationUnitIndex TU = index("src/a.cpp");
  EXPECT_EQ(TU.ErrorCount, 0u) << TU.FirstError;
  ASSERT_EQ(TU.Files.size(), 1u) << dump(TU); // system headers are not ours
  EXPECT_TRUE(TU.Files[0].Complete);
  EXPECT_EQ(element(TU.Files[0], "count(const std::vector<int> &)").Key,
            "cpp:_Z5countRKSt6vectorIiSaIiEE");
}

TEST_F(CppTest, SyntaxErrorsKeepWhatWasParsed) {
  write("src/a.cpp", "int good() { return 1; }\n"
                     "int bad( { return 2 }\n");
  TranslationUnitIndex TU = index("src/a.cpp");
  EXPECT_GT(TU.ErrorCount, 0u);
  EXPECT_TRUE(startsWith(TU.FirstError, "src/a.cpp:2:")) << TU.FirstError;
  ASSERT_EQ(TU.Files.size(), 1u);
  EXPECT_FALSE(TU.Files[0].Complete);
  EXPECT_EQ(element(TU.Files[0], "good()").BeginLine, 1u);
}

TEST_F(CppTest, LayoutAndCommentsDoNotChangeHashes) {
  const char *Base = "int g = 1;\n"
                     "int f(int a) {\n"
                     "  return a + g;\n"
                     "}\n";
  FileIndex A = indexSource("src/a.cpp", Base);
  FileIndex Comment = indexSource("src/a.cpp", "int g = 1; // the global\n"
                                               "/* doc */ int f(int a) {\n"
                                               "  return a /* plus */ + g;\n"
                                               "}\n");
  FileIndex Space = indexSource("src/a.cpp", "int g  =  1;\n\n"
                                             "int f(int a)\n"
                                             "{\n"
                                             "    return a+g;\n"
                                             "}\n");
  FileIndex Token = indexSource("src/a.cpp", "int g = 1;\n"
                                             "int f(int a) {\n"
                                             "  return a - g;\n"
                                             "}\n");
  ASSERT_EQ(A.Elements.size(), 2u); // g and f
  ASSERT_EQ(Comment.Elements.size(), 2u);
  ASSERT_EQ(Space.Elements.size(), 2u);
  ASSERT_EQ(Token.Elements.size(), 2u);
  EXPECT_NE(A.ContentHash, Comment.ContentHash);
  for (const char *Name : {"g", "f(int)"}) {
    EXPECT_EQ(element(A, Name).Hash, element(Comment, Name).Hash) << Name;
    EXPECT_EQ(element(A, Name).Hash, element(Space, Name).Hash) << Name;
  }
  EXPECT_EQ(A.ResidualHash, Comment.ResidualHash);
  EXPECT_EQ(A.ResidualHash, Space.ResidualHash);
  EXPECT_EQ(element(Space, "f(int)").BeginLine, 3u);
  EXPECT_NE(element(A, "f(int)").Hash, element(Token, "f(int)").Hash);
  EXPECT_EQ(element(A, "g").Hash, element(Token, "g").Hash);
  EXPECT_EQ(A.ResidualHash, Token.ResidualHash);
  EXPECT_EQ(element(A, "f(int)").Key, element(Token, "f(int)").Key);
}

TEST_F(CppTest, GlobalChangeChangesOnlyTheVariable) {
  FileIndex A = indexSource("src/a.cpp", "int g = 1;\nint f() { return g; }\n");
  FileIndex B = indexSource("src/a.cpp", "int g = 2;\nint f() { return g; }\n");
  ASSERT_EQ(A.Elements.size(), 2u);
  ASSERT_EQ(B.Elements.size(), 2u);
  EXPECT_EQ(element(A, "f()").Hash, element(B, "f()").Hash);
  EXPECT_NE(element(A, "g").Hash, element(B, "g").Hash);
  EXPECT_EQ(element(A, "g").Kind, ElementKind::Variable);
  EXPECT_EQ(A.ResidualHash, B.ResidualHash);
  // f reads g: the reference graph says so.
  EXPECT_TRUE(llvm::is_contained(
      A.References, Reference{"cpp:_Z1fv", "cpp:g", ReferenceKind::Variable}));
}

TEST_F(CppTest, ElementsBeyondFunctions) {
  FileIndex F =
      indexSource("src/a.cpp", "#define SCALE 2\n"
                               "#define TWICE(x) ((x) * SCALE)\n"
                               "enum Color { Red, Green };\n"
                               "using Len = int;\n"
                               "struct P {\n"
                               "  Len x = 0;\n"
                               "  static const int N = 3;\n"
                               "  int get() const;\n"
                               "  virtual ~P() {}\n"
                               "};\n"
                               "int P::get() const { return TWICE(x) + Red; }\n"
                               "#ifdef NEVER\n"
                               "int never() { return 0; }\n"
                               "#endif\n");
  EXPECT_EQ(element(F, "#define SCALE").Key, "cpp:macro:SCALE");
  EXPECT_EQ(element(F, "#define TWICE(x)").Kind, ElementKind::Macro);
  EXPECT_EQ(element(F, "Color").Kind, ElementKind::Enum);
  EXPECT_EQ(element(F, "Len").Kind, ElementKind::Alias);
  const Element &P = element(F, "P");
  EXPECT_EQ(P.Kind, ElementKind::Class);
  EXPECT_EQ(P.Key, "cpp:c:@S@P");
  EXPECT_EQ(P.BeginLine, 5u);
  EXPECT_EQ(P.EndLine, 10u);
  EXPECT_EQ(element(F, "P::N").Kind, ElementKind::Variable);
  const Element &Region = element(F, "#ifdef NEVER");
  EXPECT_EQ(Region.Kind, ElementKind::Conditional);
  EXPECT_EQ(Region.BeginLine, 12u);
  EXPECT_EQ(Region.EndLine, 14u);
  auto Has = [&](llvm::StringRef From, llvm::StringRef To, ReferenceKind K) {
    return llvm::is_contained(F.References, Reference{From.str(), To.str(), K});
  };
  std::string Get = "cpp:_ZNK1P3getEv";
  EXPECT_TRUE(Has(Get, "cpp:macro:TWICE", ReferenceKind::Macro));
  // SCALE is expanded inside TWICE's expansion: charged to the same place.
  EXPECT_TRUE(Has(Get, "cpp:macro:SCALE", ReferenceKind::Macro));
  EXPECT_TRUE(Has(Get, "cpp:c:@E@Color", ReferenceKind::Type));
  EXPECT_TRUE(Has(Get, "cpp:c:@S@P", ReferenceKind::Type));
  EXPECT_TRUE(Has(P.Key, element(F, "Len").Key, ReferenceKind::Type));
  EXPECT_TRUE(Has(Get, "cpp:decl:_ZNK1P3getEv", ReferenceKind::Declares));
  EXPECT_TRUE(Has(Region.Key, "cpp:macro:NEVER", ReferenceKind::Macro));
}

TEST_F(CppTest, ClassHashIgnoresBodiesAndPlainMethodDeclarations) {
  const char *Base = "struct S {\n"
                     "  int v = 0;\n"
                     "  int f() const { return v; }\n"
                     "  S() {}\n"
                     "};\n";
  FileIndex A = indexSource("src/a.cpp", Base);
  FileIndex Body =
      indexSource("src/a.cpp", "struct S {\n"
                               "  int v = 0;\n"
                               "  int f() const { return v + 1; }\n"
                               "  S() { v = 2; }\n"
                               "};\n");
  FileIndex Method = indexSource("src/a.cpp", "struct S {\n"
                                              "  int v = 0;\n"
                                              "  int f() const { return v; }\n"
                                              "  int g() const;\n"
                                              "  S() {}\n"
                                              "};\n");
  FileIndex Virtual = indexSource("src/a.cpp", "struct S {\n"
                                               "  int v = 0;\n"
                                               "  int f() const { return v; }\n"
                                               "  virtual int g() const;\n"
                                               "  S() {}\n"
                                               "};\n");
  FileIndex Ctor = indexSource("src/a.cpp", "struct S {\n"
                                            "  int v = 0;\n"
                                            "  int f() const { return v; }\n"
                                            "  S(int) {}\n"
                                            "};\n");
  EXPECT_EQ(element(A, "S").Hash, element(Body, "S").Hash);
  EXPECT_EQ(element(A, "S").Hash, element(Method, "S").Hash);
  EXPECT_EQ(A.ResidualHash, Method.ResidualHash);
  EXPECT_NE(element(A, "S").Hash, element(Virtual, "S").Hash);
  EXPECT_NE(element(A, "S").Hash, element(Ctor, "S").Hash);
}

TEST_F(CppTest, InactiveCodeBelongsToItsRegion) {
  FileIndex A = indexSource("src/a.h.cpp", "#ifndef G\n#define G\n"
                                           "#ifdef OFF\nint x(int);\n#endif\n"
                                           "int f() { return 1; }\n#endif\n");
  FileIndex B = indexSource("src/a.h.cpp", "#ifndef G\n#define G\n"
                                           "#ifdef OFF\nint x(long);\n#endif\n"
                                           "int f() { return 1; }\n#endif\n");
  EXPECT_NE(element(A, "#ifdef OFF").Hash, element(B, "#ifdef OFF").Hash);
  EXPECT_EQ(element(A, "#ifndef G").Hash, element(B, "#ifndef G").Hash);
  EXPECT_EQ(A.ResidualHash, B.ResidualHash);
}

TEST_F(CppTest, DynamicInitializersCarryTheUnitInitializerName) {
  FileIndex F = indexSource("src/init.cpp", "int make();\n"
                                            "int Dynamic = make();\n"
                                            "int Constant = 3;\n");
  EXPECT_TRUE(contains(element(F, "Dynamic").Names, "_GLOBAL__sub_I_init.cpp"));
  EXPECT_TRUE(element(F, "Constant").Names.empty());
  EXPECT_TRUE(
      llvm::is_contained(F.References, Reference{"cpp:Dynamic", "cpp:_Z4makev",
                                                 ReferenceKind::Call}));
}

TEST(IdentifierLinesTest, TokensNotCommentsOrStrings) {
  EXPECT_EQ(cpp::identifierLines("int twice(int);\n"
                                 "// twice\n"
                                 "const char *s = \"twice\";\n"
                                 "int y = twice(2) + twice2;\n",
                                 "twice"),
            (std::vector<unsigned>{1, 4}));
}

TEST_F(CppTest, NamespaceBracketsAreNotResidual) {
  const char *Base = "namespace n {\nint f() { return 1; }\n}\n";
  FileIndex A = indexSource("src/a.cpp", Base);
  FileIndex Added = indexSource(
      "src/a.cpp", std::string(Base) +
                       "namespace n {\nint g() { return 2; }\n}\n"
                       "namespace {\nint h() { return 3; }\n}\n"
                       "namespace n::m {\nint i() { return 4; }\n}\n"
                       "extern \"C\" {\nint j() { return 5; }\n}\n");
  FileIndex Global = indexSource(
      "src/a.cpp", std::string(Base) + "namespace n {\nint v = 1;\n}\n");
  ASSERT_EQ(Added.Elements.size(), 5u);
  EXPECT_EQ(A.ResidualHash, Added.ResidualHash);
  // A global in a namespace is an element of its own, ';' included.
  EXPECT_EQ(A.ResidualHash, Global.ResidualHash);
  EXPECT_EQ(element(Global, "n::v").Kind, ElementKind::Variable);
  FileIndex Using =
      indexSource("src/a.cpp", std::string(Base) +
                                   "namespace n {\nusing namespace std;\n}\n");
  EXPECT_NE(A.ResidualHash, Using.ResidualHash);
}

TEST_F(CppTest, AttributesBelongToTheElement) {
  FileIndex A = indexSource("src/a.cpp", "int g;\n"
                                         "[[nodiscard]]\n"
                                         "int f() { return 1; }\n"
                                         "__attribute__((noinline))\n"
                                         "int h() { return 2; }\n");
  FileIndex B = indexSource("src/a.cpp", "int g;\n"
                                         "[[nodiscard, deprecated]]\n"
                                         "int f() { return 1; }\n"
                                         "__attribute__((noinline))\n"
                                         "int h() { return 2; }\n");
  // Dropping both attributes leaves nothing behind outside the elements:
  // their brackets were part of them.
  FileIndex C = indexSource("src/a.cpp", "int g;\n"
                                         "int f() { return 1; }\n"
                                         "int h() { return 2; }\n");
  EXPECT_EQ(element(A, "f()").BeginLine, 2u);
  EXPECT_EQ(element(A, "f()").EndLine, 3u);
  EXPECT_EQ(element(A, "h()").BeginLine, 4u);
  EXPECT_NE(element(A, "f()").Hash, element(B, "f()").Hash);
  EXPECT_EQ(element(A, "h()").Hash, element(B, "h()").Hash);
  EXPECT_EQ(A.ResidualHash, B.ResidualHash);
  EXPECT_NE(element(A, "h()").Hash, element(C, "h()").Hash);
  EXPECT_EQ(A.ResidualHash, C.ResidualHash);
}

TEST_F(CppTest, OverlaysReplaceWhatIsOnDisk) {
  write("src/a.cpp", "int onDisk() { return 1; }\n");
  std::string Overlay =
      "int a() { return 1; }\nint inOverlay() { return 2; }\n";
  llvm::StringMap<std::string> Overlays;
  Overlays[path("src/a.cpp")] = Overlay;
  TranslationUnitIndex TU = index("src/a.cpp", Overlays);
  ASSERT_EQ(TU.Files.size(), 1u) << dump(TU);
  EXPECT_EQ(TU.Files[0].ContentHash, gitBlobHash(Overlay));
  EXPECT_EQ(element(TU.Files[0], "inOverlay()").BeginLine, 2u);
  EXPECT_EQ(TU.Files[0].Elements.size(), 2u);
}

TEST_F(CppTest, MissingMainFileFails) {
  auto TU = cpp::indexTranslationUnit(command("src/none.cpp"), Options);
  ASSERT_FALSE(TU);
  EXPECT_EQ(
      errorText(TU.takeError()),
      "cannot read " + path("src/none.cpp") + ": " +
          std::make_error_code(std::errc::no_such_file_or_directory).message());
}

TEST_F(CppTest, ParallelCallsAreIndependent) {
  write("src/a.cpp", "#include <vector>\nint a() { return 1; }\n");
  write("src/b.cpp", "#include <string>\nint b() { return 2; }\n");
  TranslationUnitIndex A, B;
  std::thread TA([&] { A = index("src/a.cpp"); });
  std::thread TB([&] { B = index("src/b.cpp"); });
  TA.join();
  TB.join();
  EXPECT_EQ(A.ErrorCount, 0u) << A.FirstError;
  EXPECT_EQ(B.ErrorCount, 0u) << B.FirstError;
  ASSERT_EQ(A.Files.size(), 1u);
  ASSERT_EQ(B.Files.size(), 1u);
  EXPECT_EQ(A.Files[0].Elements[0].Display, "a()");
  EXPECT_EQ(B.Files[0].Elements[0].Display, "b()");
}

TEST_F(CppTest, CompilationDatabaseMissing) {
  auto DB = cpp::loadCompilationDatabase(Dir);
  ASSERT_FALSE(DB);
  EXPECT_EQ(errorText(DB.takeError()),
            "no compile_commands.json in " + Dir +
                ": configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON or pass "
                "-p BUILD_DIR");
}

TEST_F(CppTest, CompilationDatabaseMalformed) {
  write("compile_commands.json", "[{\"directory\": \".\", \"file\": ");
  auto DB = cpp::loadCompilationDatabase(Dir);
  ASSERT_FALSE(DB);
  std::string Message = errorText(DB.takeError());
  EXPECT_TRUE(
      startsWith(Message, "malformed " + Dir + "/compile_commands.json: "))
      << Message;
  EXPECT_GT(Message.size(),
            ("malformed " + Dir + "/compile_commands.json: ").size());
  EXPECT_EQ(Message.find('\n'), std::string::npos);
}

TEST_F(CppTest, CompilationDatabaseSortedAbsoluteFirstWins) {
  write("compile_commands.json",
        "[{\"directory\": \"" + Dir +
            "\", \"file\": \"src/b.cpp\", "
            "\"arguments\": [\"clang++\", \"-c\", \"src/b.cpp\"]},\n"
            " {\"directory\": \"" +
            Dir +
            "\", \"file\": \"src/a.cpp\", "
            "\"command\": \"clang++ -DFIRST -c src/a.cpp\"},\n"
            " {\"directory\": \"" +
            Dir + "\", \"file\": \"" + Dir +
            "/src/a.cpp\", "
            "\"command\": \"clang++ -DSECOND -c src/a.cpp\"}]\n");
  auto DB = cpp::loadCompilationDatabase(Dir);
  ASSERT_TRUE(bool(DB)) << errorText(DB.takeError());
  ASSERT_EQ(DB->size(), 2u);
  EXPECT_EQ((*DB)[0].File, path("src/a.cpp"));
  EXPECT_EQ((*DB)[0].Directory, Dir);
  EXPECT_TRUE(contains((*DB)[0].Arguments, "-DFIRST"));
  EXPECT_EQ((*DB)[0].Arguments[0], "clang++");
  EXPECT_EQ((*DB)[1].File, path("src/b.cpp"));
}

TEST(TokenHashTest, OnlyTokensCount) {
  std::string H = cpp::tokenHash("int f() { return 1; }");
  EXPECT_EQ(H.size(), 16u);
  EXPECT_EQ(H, cpp::tokenHash("int  f ( )\n{\n  return 1; // one\n}\n"));
  EXPECT_EQ(H, cpp::tokenHash("/* c */ int f() { return /* x */ 1; }"));
  EXPECT_NE(H, cpp::tokenHash("int f() { return 2; }"));
  EXPECT_NE(cpp::tokenHash("a b"), cpp::tokenHash("ab"));
  EXPECT_EQ(cpp::tokenHash(""), "0000000000000000");
  EXPECT_EQ(cpp::tokenHash("// only a comment\n"), "0000000000000000");
  // A line splice inside a token is layout too.
  EXPECT_EQ(cpp::tokenHash("int abc;"), cpp::tokenHash("int ab\\\nc;"));
}

TEST(TokenHashTest, DirectiveLinesCount) {
  // Where a directive ends changes what it means.
  EXPECT_NE(cpp::tokenHash("#define A 1\nint x;\n"),
            cpp::tokenHash("#define A 1 int x;\n"));
  EXPECT_EQ(cpp::tokenHash("#define A 1\nint x;\n"),
            cpp::tokenHash("#define A  1 // one\n\nint   x;\n"));
  EXPECT_EQ(cpp::tokenHash("#define A(x) \\\n  (x)\nint y;\n"),
            cpp::tokenHash("#define A(x) (x)\nint y;\n"));
}

TEST(ResourceDirTest, EnvironmentWins) {
  const char *Old = std::getenv("TIA_RESOURCE_DIR");
  std::string Saved = Old ? Old : "";
  setenv("TIA_RESOURCE_DIR", "/opt/clang/resource", 1);
  EXPECT_EQ(cpp::defaultResourceDir(), "/opt/clang/resource");
  setenv("TIA_RESOURCE_DIR", "", 1);
  std::string Configured = cpp::defaultResourceDir();
  EXPECT_FALSE(Configured.empty());
  EXPECT_NE(Configured, "/opt/clang/resource");
  if (Old)
    setenv("TIA_RESOURCE_DIR", Saved.c_str(), 1);
  else
    unsetenv("TIA_RESOURCE_DIR");
}

} // namespace
