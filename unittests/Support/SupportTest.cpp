//===- SupportTest.cpp ----------------------------------------------------===//

#include "tia/Support/Hash.h"
#include "tia/Support/Model.h"
#include "tia/Support/Plural.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

TEST(HashTest, GitBlobHashMatchesGit) {
  // `printf 'hello\n' | git hash-object --stdin`
  EXPECT_EQ(gitBlobHash("hello\n"), "ce013625030ba8dba906f756967f9e9ca394464a");
  // `git hash-object /dev/null`
  EXPECT_EQ(gitBlobHash(""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
}

TEST(HashTest, TokenOrderAndBoundariesMatter) {
  TokenHasher A, B, C;
  A.add("a");
  A.add("b");
  B.add("b");
  B.add("a");
  C.add("ab");
  EXPECT_NE(A.hex(), B.hex());
  EXPECT_NE(A.hex(), C.hex());
  EXPECT_EQ(A.hex().size(), 16u);
  EXPECT_EQ(TokenHasher().hex(), "0000000000000000");
}

TEST(HashTest, ExecutableDigestNamesThisBuild) {
  std::string D = executableDigest();
  ASSERT_EQ(D.size(), 16u);
  EXPECT_EQ(D.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(executableDigest(), D);
}

TEST(ModelTest, KindNamesRoundTrip) {
  for (ElementKind K :
       {ElementKind::Function, ElementKind::Method, ElementKind::Constructor,
        ElementKind::Destructor, ElementKind::Operator, ElementKind::Conversion,
        ElementKind::Lambda, ElementKind::FunctionTemplate})
    EXPECT_EQ(parseKind(kindName(K)), K);
  EXPECT_EQ(parseKind("nonsense"), std::nullopt);
}

TEST(ModelTest, NormalizeSortsElementsAndNames) {
  FileIndex F;
  Element A, B;
  A.Key = "a";
  A.BeginLine = 10;
  A.Names = {"z", "y", "z"};
  B.Key = "b";
  B.BeginLine = 2;
  F.Elements = {A, B};
  normalize(F);
  EXPECT_EQ(F.Elements[0].Key, "b");
  EXPECT_EQ(F.Elements[1].Names, (std::vector<std::string>{"y", "z"}));
}

TEST(PluralTest, OnlyOneIsSingular) {
  EXPECT_STREQ(pluralS(1), "");
  EXPECT_STREQ(pluralS(size_t(1)), "");
  EXPECT_STREQ(pluralS(0), "s");
  EXPECT_STREQ(pluralS(2u), "s");
  EXPECT_STREQ(pluralS(-1), "s");
}

} // namespace
