#include "gtest/gtest.h"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

// Cases that share one fixed folder, as many real suites share a test
// directory: each makes it, writes, waits a little, reads back and removes
// it. One after another they pass; two at once collide. SHARED_DIR names
// the folder (default: tia-shared-dir in the working directory).
static void useSharedDir(const std::string &Name) {
  const char *Env = std::getenv("SHARED_DIR");
  std::string Dir = Env ? Env : "tia-shared-dir";
  ASSERT_EQ(mkdir(Dir.c_str(), 0700), 0) << Dir << " exists: another case uses it";
  std::string File = Dir + "/data";
  std::ofstream(File) << Name;
  usleep(250000);
  std::string Got;
  std::ifstream(File) >> Got;
  EXPECT_EQ(Got, Name);
  std::remove(File.c_str());
  EXPECT_EQ(rmdir(Dir.c_str()), 0);
}

TEST(SharedDir, A) { useSharedDir("a"); }
TEST(SharedDir, B) { useSharedDir("b"); }
TEST(SharedDir, C) { useSharedDir("c"); }
TEST(SharedDir, D) { useSharedDir("d"); }
TEST(SharedDir, E) { useSharedDir("e"); }
TEST(SharedDir, F) { useSharedDir("f"); }
