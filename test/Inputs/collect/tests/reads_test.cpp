#include "gtest/gtest.h"
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <string>

// Cases that read the data files of the fixture (READS_DATA, its data
// folder) in the ways tia traces: a stream, a child process, a directory
// walk; one reads nothing, and one crashes when told to (READS_CRASH=1).
static std::string data(const std::string &Name) {
  return std::string(READS_DATA) + "/" + Name;
}

TEST(Reads, Golden) {
  std::ifstream In(data("golden.txt"));
  std::string Word;
  In >> Word;
  EXPECT_EQ(Word, "golden");
}

TEST(Reads, Child) {
  EXPECT_EQ(std::system(("grep -q other " + data("other.txt")).c_str()), 0);
}

TEST(Reads, Walk) {
  DIR *D = opendir(data("corpus").c_str());
  ASSERT_NE(D, nullptr);
  int Files = 0;
  while (dirent *E = readdir(D))
    Files += E->d_name[0] != '.';
  closedir(D);
  EXPECT_EQ(Files, 2);
}

TEST(Reads, Nothing) { EXPECT_EQ(std::string("no") + "thing", "nothing"); }

TEST(Reads, Crashes) {
  if (std::getenv("READS_CRASH"))
    std::abort();
}
