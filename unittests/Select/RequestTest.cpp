//===- RequestTest.cpp - a selection as a command asks it -----------------===//

#include "tia/Select/Request.h"
#include "tia/Select/Static.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;
using tia::testing::errorText;

namespace {

TEST(RequestTest, AllIsAskedByTheFlagFirst) {
  EXPECT_EQ(allRequestedBy(true, std::string("1")), "--all");
  EXPECT_EQ(allRequestedBy(true, std::nullopt), "--all");
}

TEST(RequestTest, AllIsAskedByTiaAll) {
  EXPECT_EQ(allRequestedBy(false, std::string("1")), "TIA_ALL=1");
  EXPECT_EQ(allRequestedBy(false, std::string(" yes ")), "TIA_ALL=yes");
}

TEST(RequestTest, TiaAllOffOrUnset) {
  EXPECT_EQ(allRequestedBy(false, std::nullopt), "");
  for (const char *Off : {"", " ", "0", "false", "FALSE", "no", "No"})
    EXPECT_EQ(allRequestedBy(false, std::string(Off)), "") << Off;
}

TEST(RequestTest, NoBaseFails) {
  config::Workspace W;
  EXPECT_EQ(errorText(planRequest(std::move(W), Request())),
            "no base revision: pass --base REV (for example --base "
            "origin/main) or set select.base in .tia.yaml");
}

TEST(ModeListTest, ModesInTheirOrder) {
  ASSERT_VALUE(Modes, parseModeList("static, coverage", "--modes"));
  EXPECT_EQ(*Modes, (std::vector<SelectionMode>{SelectionMode::Static,
                                                SelectionMode::Coverage}));
}

TEST(ModeListTest, UnknownMode) {
  EXPECT_EQ(errorText(parseModeList("static,dynamic ", "--modes")),
            "--modes takes static, coverage and combined, comma-separated, "
            "not 'dynamic'");
  EXPECT_EQ(errorText(parseModeList("", "--modes")),
            "--modes takes static, coverage and combined, comma-separated, "
            "not ''");
}

TEST(ModeListTest, ModeTwice) {
  EXPECT_EQ(errorText(parseModeList("combined,static,combined", "--modes")),
            "--modes names 'combined' twice");
}

} // namespace
