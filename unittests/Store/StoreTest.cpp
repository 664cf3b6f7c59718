//===- StoreTest.cpp - tests of the SQLite store --------------------------===//

#include "tia/Store/Store.h"
#include "Database.h"
#include "Schema.h"
#include "tia/Support/Error.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <sqlite3.h>

using namespace tia;
using tia::testing::errorText;

namespace {

Element element(llvm::StringRef Key, unsigned Begin, unsigned End,
                std::vector<std::string> Names,
                llvm::StringRef Hash = "0123456789abcdef",
                ElementKind Kind = ElementKind::Function) {
  Element E;
  E.Key = Key.str();
  E.Kind = Kind;
  E.Display = Key.drop_front(4).str() + "()";
  E.File = "src/a.cpp";
  E.BeginLine = Begin;
  E.EndLine = End;
  E.Hash = Hash.str();
  E.Names = std::move(Names);
  return E;
}

FileIndex fileIndex(llvm::StringRef Path, llvm::StringRef Hash,
                    std::vector<Element> Elements, bool Complete = true) {
  FileIndex F;
  F.Path = Path.str();
  F.ContentHash = Hash.str();
  F.ResidualHash = "residual-" + Hash.str();
  F.Complete = Complete;
  for (Element &E : Elements)
    E.File = F.Path;
  F.Elements = std::move(Elements);
  return F;
}

/// One line per element: everything the store keeps of it.
std::vector<std::string> describe(const std::vector<Element> &Elements) {
  std::vector<std::string> Out;
  for (const Element &E : Elements) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    OS << E.BeginLine << "-" << E.EndLine << " " << kindName(E.Kind) << " "
       << E.Key << " '" << E.Display << "' " << E.File << " #" << E.Hash;
    for (const std::string &N : E.Names)
      OS << " =" << N;
    Out.push_back(OS.str());
  }
  return Out;
}

std::vector<std::string> keys(const std::vector<KeyInFile> &Keys) {
  std::vector<std::string> Out;
  for (const KeyInFile &K : Keys)
    Out.push_back(K.Key + "@" + K.File);
  return Out;
}

using tia::testing::openMemory;

using Strings = std::vector<std::string>;

//===----------------------------------------------------------------------===//
// File versions and elements
//===----------------------------------------------------------------------===//

TEST(StoreTest, FileIndexRoundTrip) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  EXPECT_EQ(S->schemaVersion(), Store::SchemaVersion);
  FileIndex F =
      fileIndex("src/a.cpp", "hash1",
                {element("cpp:_Z1gv", 10, 12, {"_Z1gv"}),
                 element("cpp:_ZN1S1fEv", 3, 8, {"_ZN1S1fEv", "S::f()"}, "aaaa",
                         ElementKind::Method),
                 element("cpp:lambda", 5, 6, {}, "bbbb", ElementKind::Lambda),
                 element("cpp:_Z1tIiEvv", 3, 8, {"_Z1tIlEvv", "_Z1tIiEvv"},
                         "cccc", ElementKind::FunctionTemplate)},
                /*Complete=*/false);
  ASSERT_OK(S->putFileIndex(F));

  ASSERT_VALUE(Has, S->hasFileVersion("src/a.cpp", "hash1"));
  EXPECT_TRUE(*Has);
  ASSERT_VALUE(HasOther, S->hasFileVersion("src/a.cpp", "hash2"));
  EXPECT_FALSE(*HasOther);

  ASSERT_VALUE(Got, S->getFileIndex("src/a.cpp", "hash1"));
  ASSERT_TRUE(Got->has_value());
  EXPECT_EQ((*Got)->Path, "src/a.cpp");
  EXPECT_EQ((*Got)->ContentHash, "hash1");
  EXPECT_EQ((*Got)->ResidualHash, "residual-hash1");
  EXPECT_FALSE((*Got)->Complete);
  normalize(F);
  EXPECT_EQ(describe((*Got)->Elements), describe(F.Elements));
  EXPECT_EQ(describe((*Got)->Elements),
            (Strings{"3-8 template cpp:_Z1tIiEvv '_Z1tIiEvv()' src/a.cpp #cccc "
                     "=_Z1tIiEvv =_Z1tIlEvv",
                     "3-8 method cpp:_ZN1S1fEv '_ZN1S1fEv()' src/a.cpp #aaaa "
                     "=S::f() =_ZN1S1fEv",
                     "5-6 lambda cpp:lambda 'lambda()' src/a.cpp #bbbb",
                     "10-12 function cpp:_Z1gv '_Z1gv()' src/a.cpp "
                     "#0123456789abcdef =_Z1gv"}));

  ASSERT_VALUE(Missing, S->getFileIndex("src/a.cpp", "hash2"));
  EXPECT_FALSE(Missing->has_value());
}

TEST(StoreTest, SameVersionMergesNamesAndKeepsElements) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putFileIndex(
      fileIndex("a.h", "h", {element("cpp:t", 1, 4, {"_Z1tIiEvv"}, "1111")})));
  // Another TU instantiated the template differently, and saw a function
  // the first TU's macros hid.
  ASSERT_OK(S->putFileIndex(
      fileIndex("a.h", "h",
                {element("cpp:t", 1, 5, {"_Z1tIlEvv", "_Z1tIiEvv"}, "2222"),
                 element("cpp:hidden", 7, 8, {"_Z6hiddenv"})})));
  ASSERT_VALUE(Got, S->getFileIndex("a.h", "h"));
  ASSERT_TRUE(Got->has_value());
  EXPECT_TRUE((*Got)->Complete);
  EXPECT_EQ(describe((*Got)->Elements),
            (Strings{"1-4 function cpp:t 't()' a.h #1111 =_Z1tIiEvv "
                     "=_Z1tIlEvv",
                     "7-8 function cpp:hidden 'hidden()' a.h "
                     "#0123456789abcdef =_Z6hiddenv"}));
}

TEST(StoreTest, CompleteIndexReplacesIncompleteOne) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putFileIndex(
      fileIndex("a.cpp", "h",
                {element("cpp:f", 1, 3, {"_Z1fv"}, "1111"),
                 element("cpp:recovered", 5, 9, {"_Z9recoveredv"})},
                /*Complete=*/false)));
  FileIndex Complete =
      fileIndex("a.cpp", "h",
                {element("cpp:f", 1, 4, {"_Z1fv", "f()"}, "2222"),
                 element("cpp:g", 6, 7, {"_Z1gv"})});
  Complete.ResidualHash = "new-residual";
  ASSERT_OK(S->putFileIndex(Complete));
  ASSERT_VALUE(Got, S->getFileIndex("a.cpp", "h"));
  ASSERT_TRUE(Got->has_value());
  EXPECT_TRUE((*Got)->Complete);
  EXPECT_EQ((*Got)->ResidualHash, "new-residual");
  EXPECT_EQ(describe((*Got)->Elements),
            (Strings{"1-4 function cpp:f 'f()' a.cpp #2222 =_Z1fv =f()",
                     "6-7 function cpp:g 'g()' a.cpp #0123456789abcdef "
                     "=_Z1gv"}));
}

TEST(StoreTest, IncompleteIndexDoesNotReplaceCompleteOne) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putFileIndex(
      fileIndex("a.cpp", "h", {element("cpp:f", 1, 3, {"_Z1fv"}, "1111")})));
  FileIndex Incomplete =
      fileIndex("a.cpp", "h",
                {element("cpp:f", 1, 9, {"_Z1fv", "_Z1fv.cold"}, "2222"),
                 element("cpp:recovered", 5, 9, {"_Z9recoveredv"})},
                /*Complete=*/false);
  Incomplete.ResidualHash = "broken";
  ASSERT_OK(S->putFileIndex(Incomplete));
  ASSERT_VALUE(Got, S->getFileIndex("a.cpp", "h"));
  ASSERT_TRUE(Got->has_value());
  EXPECT_TRUE((*Got)->Complete);
  EXPECT_EQ((*Got)->ResidualHash, "residual-h");
  EXPECT_EQ(describe((*Got)->Elements),
            (Strings{"1-3 function cpp:f 'f()' a.cpp #1111 =_Z1fv "
                     "=_Z1fv.cold"}));
}

//===----------------------------------------------------------------------===//
// Translation units
//===----------------------------------------------------------------------===//

StoredTranslationUnit tu(llvm::StringRef Path,
                         std::vector<FileVersionRef> Deps) {
  StoredTranslationUnit TU;
  TU.Path = Path.str();
  TU.Command.File = "/repo/" + Path.str();
  TU.Command.Directory = "/repo/build";
  TU.Command.Arguments = {"clang++", "-DMSG=\"a b\"", "", "-c",
                          TU.Command.File};
  TU.Dependencies = std::move(Deps);
  return TU;
}

std::vector<std::string>
describe(const std::vector<StoredTranslationUnit> &TUs) {
  std::vector<std::string> Out;
  for (const StoredTranslationUnit &TU : TUs) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    OS << TU.Path << " file=" << TU.Command.File
       << " dir=" << TU.Command.Directory << " args=";
    for (const std::string &A : TU.Command.Arguments)
      OS << "[" << A << "]";
    OS << " deps=";
    for (const FileVersionRef &D : TU.Dependencies)
      OS << D.first << ":" << D.second << ",";
    Out.push_back(OS.str());
  }
  return Out;
}

TEST(StoreTest, TranslationUnits) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putTranslationUnit(
      tu("src/b.cpp", {{"inc/common.h", "c1"}, {"src/b.cpp", "b1"}})));
  ASSERT_OK(S->putTranslationUnit(
      tu("src/a.cpp", {{"inc/common.h", "c1"}, {"src/a.cpp", "a1"}})));

  ASSERT_VALUE(All, S->translationUnits());
  EXPECT_EQ(describe(*All),
            (Strings{"src/a.cpp file=/repo/src/a.cpp dir=/repo/build "
                     "args=[clang++][-DMSG=\"a b\"][][-c][/repo/src/a.cpp] "
                     "deps=inc/common.h:c1,src/a.cpp:a1,",
                     "src/b.cpp file=/repo/src/b.cpp dir=/repo/build "
                     "args=[clang++][-DMSG=\"a b\"][][-c][/repo/src/b.cpp] "
                     "deps=inc/common.h:c1,src/b.cpp:b1,"}));

  ASSERT_VALUE(Common, S->translationUnitsReading("inc/common.h"));
  EXPECT_EQ(describe(*Common), describe(*All));
  ASSERT_VALUE(OnlyB, S->translationUnitsReading("src/b.cpp"));
  ASSERT_EQ(OnlyB->size(), 1u);
  EXPECT_EQ((*OnlyB)[0].Path, "src/b.cpp");
  ASSERT_VALUE(None, S->translationUnitsReading("inc/other.h"));
  EXPECT_TRUE(None->empty());

  // Replacing a TU replaces its dependencies.
  StoredTranslationUnit B = tu("src/b.cpp", {{"src/b.cpp", "b2"}});
  B.Command.Arguments = {"g++", "-c", "b.cpp"};
  ASSERT_OK(S->putTranslationUnit(B));
  ASSERT_VALUE(Common2, S->translationUnitsReading("inc/common.h"));
  ASSERT_EQ(Common2->size(), 1u);
  EXPECT_EQ((*Common2)[0].Path, "src/a.cpp");

  ASSERT_OK(S->removeTranslationUnit("src/a.cpp"));
  ASSERT_VALUE(Left, S->translationUnits());
  EXPECT_EQ(describe(*Left),
            (Strings{"src/b.cpp file=/repo/src/b.cpp dir=/repo/build "
                     "args=[g++][-c][b.cpp] deps=src/b.cpp:b2,"}));
  ASSERT_VALUE(Gone, S->translationUnitsReading("inc/common.h"));
  EXPECT_TRUE(Gone->empty());
}

//===----------------------------------------------------------------------===//
// Revisions
//===----------------------------------------------------------------------===//

TEST(StoreTest, Revisions) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(NoCommit, S->currentCommit());
  EXPECT_FALSE(NoCommit->has_value());
  ASSERT_VALUE(NoFiles, S->currentFiles());
  EXPECT_TRUE(NoFiles->empty());

  ASSERT_VALUE(First, S->addRevision("c1", false, {{"a.cpp", "a1"}}));
  ASSERT_VALUE(Second,
               S->addRevision("c2", true, {{"z.h", "z1"}, {"a.cpp", "a2"}}));
  EXPECT_LT(*First, *Second);
  ASSERT_VALUE(Commit, S->currentCommit());
  EXPECT_EQ(*Commit, std::optional<std::string>("c2"));
  ASSERT_VALUE(Files, S->currentFiles());
  EXPECT_EQ(*Files,
            (std::vector<FileVersionRef>{{"a.cpp", "a2"}, {"z.h", "z1"}}));

  // Outside git the commit is empty, and still an index.
  ASSERT_VALUE(Third, S->addRevision("", false, {}));
  ASSERT_VALUE(Empty, S->currentCommit());
  EXPECT_EQ(*Empty, std::optional<std::string>(""));
  ASSERT_VALUE(NoneNow, S->currentFiles());
  EXPECT_TRUE(NoneNow->empty());
}

TEST(StoreTest, NameAndLineLookupsUseOnlyTheLatestRevision) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  // Version 1 of a.cpp has f; version 2 renamed it to g, which still
  // carries f's old name through an alias; b.cpp has its own f.
  ASSERT_OK(S->putFileIndex(
      fileIndex("a.cpp", "v1", {element("cpp:f", 1, 5, {"_Z1fv"})})));
  ASSERT_OK(S->putFileIndex(
      fileIndex("a.cpp", "v2",
                {element("cpp:g", 1, 9, {"_Z1gv", "_Z1fv"}),
                 element("cpp:lambda", 3, 4, {"_ZZ1gvENK3$_0clEv"}, "1111",
                         ElementKind::Lambda)})));
  ASSERT_OK(S->putFileIndex(
      fileIndex("b.cpp", "b1", {element("cpp:b", 1, 2, {"_Z1fv"})})));

  ASSERT_VALUE(NoIndex, S->keysForName("_Z1fv"));
  EXPECT_TRUE(NoIndex->empty());

  ASSERT_OK(S->addRevision("c1", false, {{"a.cpp", "v1"}, {"b.cpp", "b1"}})
                .takeError());
  ASSERT_VALUE(Old, S->keysForName("_Z1fv"));
  EXPECT_EQ(keys(*Old), (Strings{"cpp:b@b.cpp", "cpp:f@a.cpp"}));
  ASSERT_VALUE(OldAt, S->elementsAt("a.cpp", 3));
  EXPECT_EQ(describe(*OldAt),
            (Strings{"1-5 function cpp:f 'f()' a.cpp #0123456789abcdef "
                     "=_Z1fv"}));

  ASSERT_OK(S->addRevision("c2", false, {{"a.cpp", "v2"}}).takeError());
  ASSERT_VALUE(New, S->keysForName("_Z1fv"));
  EXPECT_EQ(keys(*New), (Strings{"cpp:g@a.cpp"}));
  ASSERT_VALUE(Lambda, S->keysForName("_ZZ1gvENK3$_0clEv"));
  EXPECT_EQ(keys(*Lambda), (Strings{"cpp:lambda@a.cpp"}));

  ASSERT_VALUE(At3, S->elementsAt("a.cpp", 3));
  EXPECT_EQ(describe(*At3),
            (Strings{"3-4 lambda cpp:lambda 'lambda()' a.cpp #1111 "
                     "=_ZZ1gvENK3$_0clEv",
                     "1-9 function cpp:g 'g()' a.cpp #0123456789abcdef "
                     "=_Z1fv =_Z1gv"}));
  ASSERT_VALUE(At9, S->elementsAt("a.cpp", 9));
  EXPECT_EQ(At9->size(), 1u);
  ASSERT_VALUE(At10, S->elementsAt("a.cpp", 10));
  EXPECT_TRUE(At10->empty());
  ASSERT_VALUE(NotCurrent, S->elementsAt("b.cpp", 1));
  EXPECT_TRUE(NotCurrent->empty());
}

//===----------------------------------------------------------------------===//
// Tests and coverage
//===----------------------------------------------------------------------===//

TEST(StoreTest, CoverageIsReplacedPerTest) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->addTest("ctest:idle"));
  ASSERT_OK(S->addTest("ctest:idle"));
  ASSERT_OK(
      S->putCoverage("gtest:t:A.One", "c1", {"cpp:k2", "cpp:k1", "cpp:k2"}));
  ASSERT_OK(S->putCoverage("gtest:t:A.Two", "c1", {"cpp:k2"}));

  ASSERT_VALUE(K2, S->testsCovering("cpp:k2"));
  EXPECT_EQ(*K2, (Strings{"gtest:t:A.One", "gtest:t:A.Two"}));
  ASSERT_VALUE(Of, S->coverageOf("gtest:t:A.One"));
  EXPECT_EQ(*Of, (Strings{"cpp:k1", "cpp:k2"}));

  ASSERT_OK(S->putCoverage("gtest:t:A.One", "c2", {"cpp:k3"}));
  ASSERT_VALUE(K2Now, S->testsCovering("cpp:k2"));
  EXPECT_EQ(*K2Now, (Strings{"gtest:t:A.Two"}));
  ASSERT_VALUE(K3, S->testsCovering("cpp:k3"));
  EXPECT_EQ(*K3, (Strings{"gtest:t:A.One"}));
  ASSERT_VALUE(OfNow, S->coverageOf("gtest:t:A.One"));
  EXPECT_EQ(*OfNow, (Strings{"cpp:k3"}));
  ASSERT_VALUE(Unknown, S->testsCovering("cpp:nothing"));
  EXPECT_TRUE(Unknown->empty());

  ASSERT_VALUE(Tests, S->tests());
  Strings Described;
  for (const TestRecord &T : *Tests)
    Described.push_back(T.Id + " " + T.CoverageCommit + " " +
                        std::to_string(T.CoveredElements));
  EXPECT_EQ(Described, (Strings{"ctest:idle  0", "gtest:t:A.One c2 1",
                                "gtest:t:A.Two c1 1"}));
}

//===----------------------------------------------------------------------===//
// References and includes
//===----------------------------------------------------------------------===//

TEST(StoreTest, ReferencesAndIncludesFollowTheLatestRevision) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  FileIndex A = fileIndex(
      "src/a.cpp", "h1",
      {element("cpp:f", 1, 3, {"f"}),
       element("cpp:g", 5, 6, {}, "0123456789abcdef", ElementKind::Variable)});
  A.References = {{"cpp:f", "cpp:T", ReferenceKind::Type},
                  {"cpp:f", "cpp:g", ReferenceKind::Variable},
                  {"cpp:file:src/a.cpp", "cpp:macro:M", ReferenceKind::Macro}};
  A.Includes = {{1, "lib/a.h", false, "src/lib/a.h"}, {2, "vector", true, ""}};
  ASSERT_OK(S->putFileIndex(A));
  ASSERT_VALUE(Back, S->getFileIndex("src/a.cpp", "h1"));
  ASSERT_TRUE(Back->has_value());
  EXPECT_EQ((*Back)->References.size(), 3u);
  ASSERT_EQ((*Back)->Includes.size(), 2u);
  EXPECT_EQ((*Back)->Includes[0].Resolved, "src/lib/a.h");
  EXPECT_TRUE((*Back)->Includes[1].Angled);

  // Not in a revision yet: nothing refers to anything.
  ASSERT_VALUE(None, S->referencesTo("cpp:T"));
  EXPECT_TRUE(None->empty());
  ASSERT_VALUE(Rev, S->addRevision("c1", false, {{"src/a.cpp", "h1"}}));
  (void)*Rev;
  ASSERT_VALUE(ToT, S->referencesTo("cpp:T"));
  ASSERT_EQ(ToT->size(), 1u);
  EXPECT_EQ((*ToT)[0].From, "cpp:f");
  EXPECT_EQ((*ToT)[0].File, "src/a.cpp");
  EXPECT_EQ((*ToT)[0].Kind, ReferenceKind::Type);
  EXPECT_EQ((*ToT)[0].FromKind, ElementKind::Function);
  EXPECT_EQ((*ToT)[0].FromDisplay, "f()");
  ASSERT_VALUE(ToM, S->referencesTo("cpp:macro:M"));
  ASSERT_EQ(ToM->size(), 1u);
  EXPECT_FALSE((*ToM)[0].FromKind.has_value()); // the file's residual

  ASSERT_VALUE(Named, S->includesNaming("a.h"));
  ASSERT_EQ(Named->size(), 1u);
  EXPECT_EQ((*Named)[0].File, "src/a.cpp");
  EXPECT_EQ((*Named)[0].Directive.Spelling, "lib/a.h");

  ASSERT_OK(S->putCoverage("ctest:t", "c1", {"cpp:f"}));
  ASSERT_VALUE(Covering, S->testsCoveringFile("src/a.cpp", "h1"));
  EXPECT_EQ(*Covering, (Strings{"ctest:t"}));

  // A newer revision without the file: its references are gone from view.
  ASSERT_VALUE(Rev2, S->addRevision("c2", false, {}));
  (void)*Rev2;
  ASSERT_VALUE(Gone, S->referencesTo("cpp:T"));
  EXPECT_TRUE(Gone->empty());
}

TEST(StoreTest, TestsCoveringAFileFollowTheSnapshot) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putFileIndex(
      fileIndex("src/a.cpp", "h1", {element("cpp:f", 1, 2, {})})));
  ASSERT_OK(S->putCoverage("ctest:t", "c1", {"cpp:f"}));
  ASSERT_OK(S->putCoverage("ctest:u", "c1", {}));
  // At c2, t no longer covers the file and u does.
  ASSERT_OK(S->putCoverage("ctest:t", "c2", {}));
  ASSERT_OK(S->putCoverage("ctest:u", "c2", {"cpp:f"}));
  ASSERT_VALUE(Snaps, S->coverageSnapshots());
  ASSERT_EQ(Snaps->size(), 2u);
  int64_t C2 = (*Snaps)[0].Id, C1 = (*Snaps)[1].Id;
  ASSERT_VALUE(Latest, S->testsCoveringFile("src/a.cpp", "h1"));
  EXPECT_EQ(*Latest, (Strings{"ctest:u"}));
  ASSERT_VALUE(AtC2, S->testsCoveringFile("src/a.cpp", "h1", C2));
  EXPECT_EQ(*AtC2, (Strings{"ctest:u"}));
  ASSERT_VALUE(AtC1, S->testsCoveringFile("src/a.cpp", "h1", C1));
  EXPECT_EQ(*AtC1, (Strings{"ctest:t"}));
  ASSERT_VALUE(Other, S->testsCoveringFile("src/a.cpp", "h2", C1));
  EXPECT_TRUE(Other->empty());
}

TEST(StoreTest, AnotherTranslationUnitAddsReferences) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  FileIndex One = fileIndex("src/a.h", "h", {element("cpp:f", 1, 2, {})});
  One.References = {{"cpp:f", "cpp:macro:A", ReferenceKind::Macro}};
  FileIndex Two = One;
  Two.References = {{"cpp:f", "cpp:macro:B", ReferenceKind::Macro}};
  ASSERT_OK(S->putFileIndex(One));
  ASSERT_OK(S->putFileIndex(Two));
  ASSERT_VALUE(Back, S->getFileIndex("src/a.h", "h"));
  EXPECT_EQ((*Back)->References.size(), 2u);
}

//===----------------------------------------------------------------------===//
// Transactions
//===----------------------------------------------------------------------===//

TEST(StoreTest, FailedTransactionWritesNothing) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  llvm::Error E = S->transaction([&]() -> llvm::Error {
    if (llvm::Error E = S->putFileIndex(
            fileIndex("a.cpp", "h", {element("cpp:f", 1, 2, {"_Z1fv"})})))
      return E;
    if (llvm::Error E = S->putTranslationUnit(tu("a.cpp", {{"a.cpp", "h"}})))
      return E;
    if (llvm::Error E = S->putCoverage("ctest:t", "c1", {"cpp:f"}))
      return E;
    auto Rev = S->addRevision("c1", false, {{"a.cpp", "h"}});
    if (!Rev)
      return Rev.takeError();
    return makeError("interrupted");
  });
  EXPECT_EQ(errorText(std::move(E)), "interrupted");

  ASSERT_VALUE(Has, S->hasFileVersion("a.cpp", "h"));
  EXPECT_FALSE(*Has);
  ASSERT_VALUE(TUs, S->translationUnits());
  EXPECT_TRUE(TUs->empty());
  ASSERT_VALUE(Tests, S->tests());
  EXPECT_TRUE(Tests->empty());
  ASSERT_VALUE(Commit, S->currentCommit());
  EXPECT_FALSE(Commit->has_value());

  // The store is usable afterwards.
  ASSERT_OK(S->addTest("ctest:t"));
  ASSERT_VALUE(After, S->tests());
  EXPECT_EQ(After->size(), 1u);
}

TEST(StoreTest, NestedFailureRollsBackTheOuterTransaction) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  llvm::Error E = S->transaction([&]() -> llvm::Error {
    if (llvm::Error E = S->addTest("ctest:outer"))
      return E;
    llvm::Error Inner = S->transaction([&]() -> llvm::Error {
      if (llvm::Error E = S->addTest("ctest:inner"))
        return E;
      return makeError("inner failed");
    });
    EXPECT_EQ(errorText(std::move(Inner)), "inner failed");
    return llvm::Error::success();
  });
  EXPECT_EQ(errorText(std::move(E)),
            "cannot commit a transaction in database :memory:: a nested "
            "transaction failed, so nothing was written");
  ASSERT_VALUE(Tests, S->tests());
  EXPECT_TRUE(Tests->empty());

  ASSERT_OK(S->transaction([&]() -> llvm::Error {
    if (llvm::Error E = S->addTest("ctest:a"))
      return E;
    return S->transaction([&] { return S->addTest("ctest:b"); });
  }));
  ASSERT_VALUE(Both, S->tests());
  EXPECT_EQ(Both->size(), 2u);
}

//===----------------------------------------------------------------------===//
// Files on disk
//===----------------------------------------------------------------------===//

class StoreFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::error_code EC =
        llvm::sys::fs::createUniqueDirectory("tia-store-test", Dir);
    ASSERT_FALSE(EC) << EC.message();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }

  static std::string contents(llvm::StringRef Path) {
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf) {
      ADD_FAILURE() << "cannot read " << Path.str() << ": "
                    << Buf.getError().message();
      return std::string();
    }
    return (*Buf)->getBuffer().str();
  }

  static void write(llvm::StringRef Path, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << EC.message();
    OS << Text;
  }

  /// Runs \p SQL on \p Path with plain sqlite3, as another program would.
  static void rawExec(llvm::StringRef Path, const char *SQL) {
    sqlite3 *DB = nullptr;
    ASSERT_EQ(sqlite3_open(Path.str().c_str(), &DB), SQLITE_OK);
    char *Message = nullptr;
    int RC = sqlite3_exec(DB, SQL, nullptr, nullptr, &Message);
    std::string Text = Message ? Message : "";
    sqlite3_free(Message);
    sqlite3_close(DB);
    ASSERT_EQ(RC, SQLITE_OK) << Text;
  }

  static std::string rawJournalMode(llvm::StringRef Path) {
    sqlite3 *DB = nullptr;
    std::string Mode;
    if (sqlite3_open(Path.str().c_str(), &DB) == SQLITE_OK) {
      sqlite3_stmt *S = nullptr;
      if (sqlite3_prepare_v2(DB, "PRAGMA journal_mode", -1, &S, nullptr) ==
              SQLITE_OK &&
          sqlite3_step(S) == SQLITE_ROW)
        Mode = reinterpret_cast<const char *>(sqlite3_column_text(S, 0));
      sqlite3_finalize(S);
    }
    sqlite3_close(DB);
    return Mode;
  }

  /// Creates a tia database at \p Path holding one test.
  static void createDatabase(llvm::StringRef Path) {
    auto S = Store::open(Path, Store::Mode::ReadWrite);
    ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
    ASSERT_OK((*S)->addTest("ctest:t"));
  }

  /// Expects both modes to refuse \p Path with \p Message and leave it as
  /// it was.
  static void expectRefused(llvm::StringRef Path, llvm::StringRef Message) {
    std::string Before = contents(Path);
    for (Store::Mode M : {Store::Mode::ReadWrite, Store::Mode::ReadOnly}) {
      EXPECT_EQ(errorText(Store::open(Path, M)), Message.str());
      EXPECT_EQ(contents(Path), Before);
    }
  }

  llvm::SmallString<128> Dir;
};

TEST_F(StoreFileTest, ReopenKeepsData) {
  std::string DB = path("nested/dir/tia.db");
  {
    auto S = Store::open(DB, Store::Mode::ReadWrite);
    ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
    ASSERT_OK((*S)->putFileIndex(
        fileIndex("a.cpp", "h", {element("cpp:f", 1, 2, {"_Z1fv"})})));
    ASSERT_OK((*S)->addRevision("c1", false, {{"a.cpp", "h"}}).takeError());
    ASSERT_OK((*S)->putCoverage("ctest:t", "c1", {"cpp:f"}));
  }
  EXPECT_EQ(rawJournalMode(DB), "wal");
  for (Store::Mode M : {Store::Mode::ReadOnly, Store::Mode::ReadWrite}) {
    auto S = Store::open(DB, M);
    ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
    EXPECT_EQ((*S)->schemaVersion(), Store::SchemaVersion);
    ASSERT_VALUE(Keys, (*S)->keysForName("_Z1fv"));
    EXPECT_EQ(keys(*Keys), (Strings{"cpp:f@a.cpp"}));
    ASSERT_VALUE(Tests, (*S)->testsCovering("cpp:f"));
    EXPECT_EQ(*Tests, (Strings{"ctest:t"}));
  }
}

TEST_F(StoreFileTest, ReadOnlyStoreRefusesWrites) {
  std::string DB = path("tia.db");
  createDatabase(DB);
  std::string Before = contents(DB);
  auto S = Store::open(DB, Store::Mode::ReadOnly);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  std::string Message = errorText((*S)->putCoverage("ctest:u", "c", {"k"}));
  EXPECT_NE(Message.find("readonly database"), std::string::npos) << Message;
  EXPECT_NE(Message.find(DB), std::string::npos) << Message;
  EXPECT_EQ(contents(DB), Before);
}

TEST_F(StoreFileTest, ReadOnlyMissingFile) {
  std::string DB = path("missing/tia.db");
  EXPECT_EQ(errorText(Store::open(DB, Store::Mode::ReadOnly)),
            "no tia database at " + DB + ": run 'tia index' first");
  EXPECT_FALSE(llvm::sys::fs::exists(DB));
  EXPECT_FALSE(llvm::sys::fs::exists(path("missing")));
}

TEST_F(StoreFileTest, NewerSchemaIsRefused) {
  std::string DB = path("tia.db");
  createDatabase(DB);
  rawExec(DB, "UPDATE meta SET value = '99' "
              "WHERE key IN ('schema_version', 'compatible_version')");
  expectRefused(DB, DB +
                        " was made by a newer tia (schema 99, this tia "
                        "knows up to " +
                        std::to_string(Store::SchemaVersion) +
                        "): upgrade tia or pass another --db");
}

TEST_F(StoreFileTest, NewerButCompatibleSchemaIsUsed) {
  std::string DB = path("tia.db");
  createDatabase(DB);
  std::string Newer = std::to_string(Store::SchemaVersion + 1);
  std::string Update =
      "UPDATE meta SET value = '" + Newer + "' WHERE key = 'schema_version'";
  rawExec(DB, Update.c_str());
  for (Store::Mode M : {Store::Mode::ReadWrite, Store::Mode::ReadOnly}) {
    auto S = Store::open(DB, M);
    ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
    EXPECT_EQ((*S)->schemaVersion(), Store::SchemaVersion + 1);
    ASSERT_VALUE(Tests, (*S)->tests());
    EXPECT_EQ(Tests->size(), 1u);
  }
}

TEST_F(StoreFileTest, OlderSchemaIsNotMigratedReadOnly) {
  std::string DB = path("tia.db");
  createDatabase(DB);
  rawExec(DB, "UPDATE meta SET value = '0' "
              "WHERE key IN ('schema_version', 'compatible_version')");
  std::string Before = contents(DB);
  EXPECT_EQ(errorText(Store::open(DB, Store::Mode::ReadOnly)),
            DB + " has an older schema (0): run any tia command that writes, "
                 "such as 'tia index', to upgrade it");
  EXPECT_EQ(contents(DB), Before);
}

TEST_F(StoreFileTest, TextFileIsRefused) {
  std::string DB = path("text.db");
  write(DB, "not a database\n");
  expectRefused(DB, DB + " is not a tia database: file is not a database "
                         "(remove it or pass another --db)");
  for (const char *Suffix : {"-wal", "-shm", "-journal"})
    EXPECT_FALSE(llvm::sys::fs::exists(DB + Suffix)) << Suffix;
}

TEST_F(StoreFileTest, CorruptFileIsRefused) {
  std::string DB = path("tia.db");
  createDatabase(DB);
  // Keep the SQLite header, garble the schema page behind it.
  std::string Bytes = contents(DB);
  ASSERT_GT(Bytes.size(), 200u);
  for (size_t I = 100; I < Bytes.size(); ++I)
    Bytes[I] = static_cast<char>(0xa5);
  write(DB, Bytes);
  std::string Before = contents(DB);
  for (Store::Mode M : {Store::Mode::ReadWrite, Store::Mode::ReadOnly}) {
    std::string Message = errorText(Store::open(DB, M));
    EXPECT_EQ(Message.rfind(DB + " is not a tia database: ", 0), 0u) << Message;
    EXPECT_NE(Message.find("(remove it or pass another --db)"),
              std::string::npos)
        << Message;
    EXPECT_EQ(contents(DB), Before);
  }
}

TEST_F(StoreFileTest, OtherSqliteDatabaseIsRefused) {
  std::string DB = path("other.db");
  rawExec(DB, "CREATE TABLE photos(id INTEGER PRIMARY KEY, name TEXT)");
  expectRefused(DB, DB + " is not a tia database: it has tables but no tia "
                         "meta table (remove it or pass another --db)");
}

TEST_F(StoreFileTest, EmptyFileIsInitialisedOnlyForWriting) {
  std::string DB = path("empty.db");
  write(DB, "");
  EXPECT_EQ(errorText(Store::open(DB, Store::Mode::ReadOnly)),
            "no tia database at " + DB + ": run 'tia index' first");
  EXPECT_EQ(contents(DB), "");
  auto S = Store::open(DB, Store::Mode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ((*S)->schemaVersion(), Store::SchemaVersion);
}

//===----------------------------------------------------------------------===//
// Schema migrations
//===----------------------------------------------------------------------===//

std::unique_ptr<Database> openRawMemory() {
  auto DB = Database::open(":memory:", Database::OpenMode::ReadWrite);
  if (!DB) {
    ADD_FAILURE() << llvm::toString(DB.takeError());
    return nullptr;
  }
  return std::move(*DB);
}

std::string versionsOf(Database &DB) {
  auto V = schema::readVersions(DB);
  if (!V)
    return llvm::toString(V.takeError());
  if (!*V)
    return "none";
  return std::to_string((*V)->Schema) + "/" + std::to_string((*V)->Compatible);
}

llvm::Error addNotes(Database &DB) {
  return DB.exec("CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)");
}

llvm::Error failHalfway(Database &DB) {
  if (llvm::Error E = DB.exec("CREATE TABLE half(id INTEGER PRIMARY KEY)"))
    return E;
  return makeError("boom");
}

/// "N/C" for schema version N and compatible version C.
std::string versions(int64_t Schema, int64_t Compatible) {
  return std::to_string(Schema) + "/" + std::to_string(Compatible);
}

const int64_t Known = Store::SchemaVersion;
/// The compatible version the current steps leave (the newest any asks).
int64_t knownCompatible() {
  int64_t Out = 0;
  for (const schema::Migration &M : schema::migrations())
    Out = std::max<int64_t>(Out, M.CompatibleVersion);
  return Out;
}

TEST(SchemaTest, MigratesStepByStep) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  EXPECT_EQ(versionsOf(*DB), "none");
  ASSERT_OK(schema::migrate(*DB, schema::migrations()));
  EXPECT_EQ(versionsOf(*DB), versions(Known, knownCompatible()));
  ASSERT_VALUE(NoNotes, DB->hasTable("notes"));
  EXPECT_FALSE(*NoNotes);

  std::vector<schema::Migration> Steps(schema::migrations().begin(),
                                       schema::migrations().end());
  Steps.push_back({/*CompatibleVersion=*/1, addNotes});
  ASSERT_OK(schema::migrate(*DB, Steps));
  EXPECT_EQ(versionsOf(*DB), versions(Known + 1, knownCompatible()));
  ASSERT_VALUE(Notes, DB->hasTable("notes"));
  EXPECT_TRUE(*Notes);
  // Already there: nothing to do, and no step runs twice.
  ASSERT_OK(schema::migrate(*DB, Steps));
  EXPECT_EQ(versionsOf(*DB), versions(Known + 1, knownCompatible()));
}

TEST(SchemaTest, RunnerListingsAreLeftToTiasThatKnowThem) {
  // test_reads.listed = 2 (a runner's listings) came with schema 15; a
  // schema 14 tia would read those rows as files read and select fewer.
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  ASSERT_OK(schema::migrate(*DB, schema::migrations()));
  ASSERT_VALUE(V, schema::readVersions(*DB));
  ASSERT_TRUE(*V);
  EXPECT_GE((*V)->Compatible, 15);
}

TEST(SchemaTest, FailingStepLeavesThePreviousVersion) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  ASSERT_OK(schema::migrate(*DB, schema::migrations()));
  std::vector<schema::Migration> Steps(schema::migrations().begin(),
                                       schema::migrations().end());
  Steps.push_back({/*CompatibleVersion=*/2, failHalfway});
  EXPECT_EQ(errorText(schema::migrate(*DB, Steps)),
            "cannot upgrade database :memory: from schema " +
                std::to_string(Known) + " to " + std::to_string(Known + 1) +
                ": boom");
  EXPECT_EQ(versionsOf(*DB), versions(Known, knownCompatible()));
  ASSERT_VALUE(Half, DB->hasTable("half"));
  EXPECT_FALSE(*Half);
  ASSERT_VALUE(Tests, DB->hasTable("tests"));
  EXPECT_TRUE(*Tests);
}

TEST(SchemaTest, FreshDatabaseRunsEveryStep) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  std::vector<schema::Migration> Steps(schema::migrations().begin(),
                                       schema::migrations().end());
  Steps.push_back({/*CompatibleVersion=*/Known + 1, addNotes});
  ASSERT_OK(schema::migrate(*DB, Steps));
  EXPECT_EQ(versionsOf(*DB), versions(Known + 1, Known + 1));
  // A tia that only knows the versions before must now refuse it.
  EXPECT_EQ(errorText(schema::openSchema(*DB, schema::migrations())),
            ":memory: was made by a newer tia (schema " +
                std::to_string(Known + 1) + ", this tia knows up to " +
                std::to_string(Known) + "): upgrade tia or pass another --db");
}

TEST(SchemaTest, Version1DatabaseKeepsItsDataThroughTheUpgrade) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  ASSERT_OK(schema::migrate(*DB, schema::migrations().take_front(1)));
  EXPECT_EQ(versionsOf(*DB), "1/1");
  ASSERT_OK(DB->exec("INSERT INTO tests(name, coverage_commit) "
                     "VALUES('ctest:old', 'c1')"));
  ASSERT_OK(schema::migrate(*DB, schema::migrations()));
  EXPECT_EQ(versionsOf(*DB), versions(Known, knownCompatible()));
  ASSERT_VALUE(S, DB->statement("SELECT name, coverage_commit, source_file, "
                                "command IS NULL FROM tests"));
  ASSERT_VALUE(Row, S->step());
  ASSERT_TRUE(*Row);
  EXPECT_EQ(S->columnText(0), "ctest:old");
  EXPECT_EQ(S->columnText(1), "c1");
  EXPECT_EQ(S->columnText(2), "");
  EXPECT_TRUE(S->columnBool(3));
}

TEST(SchemaTest, Version5DatabaseGainsTheNameGraphAndStaysReadable) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  ASSERT_OK(schema::migrate(*DB, schema::migrations().take_front(5)));
  EXPECT_EQ(versionsOf(*DB), "5/5");
  ASSERT_VALUE(Before, DB->hasTable("python_nodes"));
  EXPECT_FALSE(*Before);
  ASSERT_OK(schema::migrate(*DB, schema::migrations().take_front(6)));
  EXPECT_EQ(versionsOf(*DB), "6/5");
  for (const char *Table : {"python_nodes", "python_bindings",
                            "python_critical", "python_evidence_runs"}) {
    ASSERT_VALUE(Has, DB->hasTable(Table));
    EXPECT_TRUE(*Has) << Table;
  }
  // A tia that knows schema 5 may still use it: a Python version it stores
  // has no name graph, which is parsed again when static selection needs it.
  auto V = schema::readVersions(*DB);
  ASSERT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError());
  ASSERT_TRUE(V->has_value());
  EXPECT_LE((**V).Compatible, 5);
}

TEST(SchemaTest, Version10TranslationUnitsGainAnUnmeasuredParseTime) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  ASSERT_OK(schema::migrate(*DB, schema::migrations().take_front(10)));
  EXPECT_EQ(versionsOf(*DB), "10/10");
  ASSERT_OK(DB->exec("INSERT INTO translation_units(path, file, directory, "
                     "arguments) VALUES('a.cpp', 'a.cpp', '.', '[]')"));
  ASSERT_OK(schema::migrate(*DB, schema::migrations().take_front(11)));
  // A tia that knows schema 10 still reads and writes it: the column has a
  // default and nothing it reads changes.
  EXPECT_EQ(versionsOf(*DB), "11/10");
  ASSERT_VALUE(S, DB->statement("SELECT path, parse_seconds "
                                "FROM translation_units"));
  ASSERT_VALUE(Row, S->step());
  ASSERT_TRUE(*Row);
  EXPECT_EQ(S->columnText(0), "a.cpp");
  EXPECT_EQ(S->columnDouble(1), 0.0);
}

TEST(StoreTest, TranslationUnitKeepsItsParseTime) {
  auto S = openMemory();
  StoredTranslationUnit TU;
  TU.Path = "a.cpp";
  TU.Command.File = "a.cpp";
  TU.Command.Directory = ".";
  TU.Command.Arguments = {"clang++", "-c", "a.cpp"};
  TU.Dependencies = {{"a.cpp", "h1"}};
  TU.ParseSeconds = 1.25;
  ASSERT_OK(S->putTranslationUnit(TU));
  ASSERT_VALUE(TUs, S->translationUnits());
  ASSERT_EQ(TUs->size(), 1u);
  EXPECT_EQ(TUs->front().ParseSeconds, 1.25);
}

TEST(SchemaTest, Version11DatabaseGainsFileReadsAndStaysReadable) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  ASSERT_OK(schema::migrate(*DB, schema::migrations().take_front(11)));
  EXPECT_EQ(versionsOf(*DB), "11/10");
  ASSERT_OK(DB->exec("INSERT INTO tests(name, coverage_commit) "
                     "VALUES('ctest:old', 'c1')"));
  ASSERT_OK(schema::migrate(*DB, schema::migrations().take_front(12)));
  // Older tias ignore the new tables.
  EXPECT_EQ(versionsOf(*DB), "12/10");
  for (const char *Table : {"data_paths", "test_file_records", "test_reads"}) {
    ASSERT_VALUE(Has, DB->hasTable(Table));
    EXPECT_TRUE(*Has) << Table;
  }
  ASSERT_VALUE(S, DB->statement("SELECT count(*) FROM tests t WHERE NOT "
                                "EXISTS (SELECT 1 FROM test_file_records r "
                                "WHERE r.test_id = t.id)"));
  ASSERT_VALUE(Row, S->step());
  ASSERT_TRUE(*Row);
  // The old test is kept, with no record of its reads.
  EXPECT_EQ(S->columnInt64(0), 1);
}

TEST(StoreTest, RemembersOnePytestSettingsReading) {
  auto S = openMemory();
  ASSERT_VALUE(None, S->rememberedPytestSettings("k1"));
  EXPECT_FALSE(None->has_value());
  ASSERT_OK(S->rememberPytestSettings("k1", R"({"file": "pytest.ini"})"));
  ASSERT_VALUE(Got, S->rememberedPytestSettings("k1"));
  EXPECT_EQ(Got->value_or(""), R"({"file": "pytest.ini"})");
  // The reading of other files is none, and a new reading replaces it.
  ASSERT_VALUE(Other, S->rememberedPytestSettings("k2"));
  EXPECT_FALSE(Other->has_value());
  ASSERT_OK(S->rememberPytestSettings("k2", "{}"));
  ASSERT_VALUE(Replaced, S->rememberedPytestSettings("k1"));
  EXPECT_FALSE(Replaced->has_value());
}

TEST(StoreTest, ShardRecordsRoundTripAndClear) {
  auto S = openMemory();
  ASSERT_VALUE(None, S->shardRecords());
  EXPECT_TRUE(None->empty());
  ShardRecord R;
  R.Kind = "index";
  R.K = 2;
  R.N = 3;
  R.PlanHash = "abc";
  R.Commit = "c1";
  R.Plan = "1\ta.cpp\n2\tb.cpp\n";
  ASSERT_OK(S->putShardRecord(R));
  R.Kind = "collect";
  R.RunId = 7;
  ASSERT_OK(S->putShardRecord(R));
  ASSERT_VALUE(Got, S->shardRecords());
  ASSERT_EQ(Got->size(), 2u);
  EXPECT_EQ((*Got)[0].Kind, "collect");
  EXPECT_EQ((*Got)[0].RunId, 7);
  EXPECT_EQ((*Got)[1].Kind, "index");
  EXPECT_EQ((*Got)[1].K, 2u);
  EXPECT_EQ((*Got)[1].N, 3u);
  EXPECT_EQ((*Got)[1].Plan, "1\ta.cpp\n2\tb.cpp\n");
  EXPECT_EQ((*Got)[1].Schema, Store::SchemaVersion);
  ASSERT_OK(S->clearShardRecords());
  ASSERT_VALUE(Cleared, S->shardRecords());
  EXPECT_TRUE(Cleared->empty());
}

//===----------------------------------------------------------------------===//
// The SQLite wrapper
//===----------------------------------------------------------------------===//

TEST(DatabaseTest, StatementsBindStepAndReportErrors) {
  auto DB = openRawMemory();
  ASSERT_TRUE(DB);
  ASSERT_OK(DB->exec("CREATE TABLE t(id INTEGER PRIMARY KEY, "
                     "name TEXT NOT NULL UNIQUE)"));
  {
    ASSERT_VALUE(Insert, DB->statement("INSERT INTO t(name) VALUES(?)"));
    Insert->bindText(0, llvm::StringRef());
    ASSERT_OK(Insert->run());
    Insert->reset();
    Insert->bindText(0, "x");
    ASSERT_OK(Insert->run());
    Insert->reset();
    Insert->bindText(0, "x");
    EXPECT_EQ(errorText(Insert->run()),
              "cannot run 'INSERT INTO t(name) VALUES(?)' in database "
              ":memory:: UNIQUE constraint failed: t.name");
  }
  {
    // A bind failure surfaces at step().
    ASSERT_VALUE(Bad, DB->statement("SELECT name FROM t WHERE id = ?"));
    Bad->bindInt64(1, 1);
    EXPECT_EQ(errorText(Bad->step()),
              "cannot run 'SELECT name FROM t WHERE id = ?' in database "
              ":memory:: parameter 1: column index out of range");
  }
  // The same SQL while the cached statement is still running.
  ASSERT_VALUE(Outer, DB->statement("SELECT name FROM t ORDER BY name"));
  std::vector<std::string> Pairs;
  while (true) {
    ASSERT_VALUE(Row, Outer->step());
    if (!*Row)
      break;
    ASSERT_VALUE(Inner, DB->statement("SELECT name FROM t ORDER BY name"));
    while (true) {
      ASSERT_VALUE(InnerRow, Inner->step());
      if (!*InnerRow)
        break;
      Pairs.push_back("[" + Outer->columnText(0) + "," + Inner->columnText(0) +
                      "]");
    }
  }
  EXPECT_EQ(Pairs, (Strings{"[,]", "[,x]", "[x,]", "[x,x]"}));
  EXPECT_EQ(errorText(DB->statement("SELECT missing FROM t").takeError()),
            "cannot prepare 'SELECT missing FROM t' in database :memory:: "
            "no such column: missing");
}

} // namespace
