#include "shapes/shapes.h"
#include "gtest/gtest.h"
#include <csignal>
#include <cstdlib>
#include <unistd.h>

// TROUBLE_CALM=1 turns the crash and the hang off.
static bool calm() { return std::getenv("TROUBLE_CALM") != nullptr; }

TEST(Trouble, Passes) { EXPECT_EQ(shapes::halved(2), 1); }

TEST(Trouble, Fails) { EXPECT_EQ(shapes::halved(2), 2); }

TEST(Trouble, Crashes) {
  shapes::prepare();
  if (!calm())
    std::raise(SIGSEGV);
}

TEST(Trouble, Hangs) {
  shapes::registeredCount();
  while (!calm())
    sleep(1);
}

TEST(Trouble, Skipped) { GTEST_SKIP() << "not today"; }

TEST(Trouble, DISABLED_Later) {}

TEST(Trouble, PassesAfter) { EXPECT_EQ(shapes::doubled(1), 2); }
