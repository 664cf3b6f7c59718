#include "shapes/shapes.h"
#include "gtest/gtest.h"
#include <csignal>
#include <unistd.h>

TEST(Trouble, Passes) { EXPECT_EQ(shapes::halved(2), 1); }

TEST(Trouble, Fails) { EXPECT_EQ(shapes::halved(2), 2); }

TEST(Trouble, Crashes) {
  shapes::prepare();
  std::raise(SIGSEGV);
}

TEST(Trouble, Hangs) {
  shapes::registeredCount();
  for (;;)
    sleep(1);
}

TEST(Trouble, Skipped) { GTEST_SKIP() << "not today"; }

TEST(Trouble, DISABLED_Later) {}

TEST(Trouble, PassesAfter) { EXPECT_EQ(shapes::doubled(1), 2); }
