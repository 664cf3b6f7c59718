//===- FileReadsTest.cpp - what of a trace the store keeps ----------------===//

#include "FileReadsInternal.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::collect;

namespace {

using Strings = std::vector<std::string>;

TrackedTree tree() {
  return trackedTree("/repo",
                     {"data/a.txt", "data/sub/b.txt", "src/m.py", "top.json"});
}

TEST(FileReadsTest, KeepsTrackedFilesInsideTheRepository) {
  RawReads Raw;
  Raw.Read = {"/repo/data/a.txt",         "/repo/data/../top.json",
              "/repo/data/untracked.txt", "/elsewhere/data/a.txt",
              "/repository/data/a.txt",   "/repo/src/m.py"};
  FileReads R = keepTracked("pytest:t", "c1", Raw, tree());
  EXPECT_EQ(R.TestId, "pytest:t");
  EXPECT_EQ(R.Commit, "c1");
  EXPECT_TRUE(R.Complete);
  // Python sources are the coverage's; the others are outside or untracked.
  EXPECT_EQ(R.Files, (Strings{"data/a.txt", "top.json"}));
}

TEST(FileReadsTest, KeepsThePythonSourcesOfTestsNoCoverageFollows) {
  RawReads Raw;
  Raw.Read = {"/repo/src/m.py"};
  // A script a lit or ctest test runs has no coverage: its read selects.
  EXPECT_EQ(keepTracked("lit:s::t.test", "c1", Raw, tree()).Files,
            Strings{"src/m.py"});
  EXPECT_EQ(keepTracked("ctest:script", "c1", Raw, tree()).Files,
            Strings{"src/m.py"});
  EXPECT_EQ(keepTracked("pytest:t", "c1", Raw, tree()).Files, Strings{});
  // A warm cache is all an import opens: it reads its source.
  Raw.Read = {"/repo/src/__pycache__/m.cpython-311.opt-1.pyc"};
  EXPECT_EQ(keepTracked("ctest:script", "c1", Raw, tree()).Files,
            Strings{"src/m.py"});
  Raw.Read = {"/repo/src/m.pyc", "/repo/top.pyc"};
  EXPECT_EQ(keepTracked("ctest:script", "c1", Raw, tree()).Files,
            Strings{"src/m.py"});
  EXPECT_EQ(keepTracked("pytest:t", "c1", Raw, tree()).Files, Strings{});
}

TEST(FileReadsTest, KeepsFoldersHoldingATrackedFile) {
  RawReads Raw;
  Raw.Listed = {"/repo", "/repo/data/sub", "/repo/empty", "/repo/dat", "/tmp"};
  FileReads R = keepTracked("pytest:t", "c1", Raw, tree());
  EXPECT_EQ(R.Directories, (Strings{".", "data/sub"}));
}

TEST(FileReadsTest, KeepsTheRunnersListingsApart) {
  RawReads Raw;
  Raw.addTrace("p 10\n"
               "L /repo/data\n"
               "L /repo/data/sub\n"
               "l /repo/data/sub\n"
               "L /repo\n"
               "l /repo\n");
  FileReads R = keepTracked("lit:s::t.test", "c1", Raw, tree());
  // A folder another process listed too is an ordinary listing.
  EXPECT_EQ(R.Directories, (Strings{".", "data/sub"}));
  EXPECT_EQ(R.RunnerDirectories, Strings{"data"});
}

TEST(FileReadsTest, RecordsAddUpAndStayIncompleteOnceIncomplete) {
  RawReads Raw;
  Raw.add(llvm::json::Object{{"read", llvm::json::Array{"/repo/data/a.txt"}},
                             {"listed", llvm::json::Array{"/repo/data"}},
                             {"incomplete", false}});
  Raw.add(llvm::json::Object{{"read", llvm::json::Array{"/repo/top.json"}},
                             {"incomplete", true}});
  Raw.add(llvm::json::Object{{"incomplete", false}});
  EXPECT_TRUE(Raw.Incomplete);
  FileReads R = keepTracked("pytest:t", "c1", Raw, tree());
  EXPECT_FALSE(R.Complete);
  EXPECT_EQ(R.Files, (Strings{"data/a.txt", "top.json"}));
  EXPECT_EQ(R.Directories, Strings{"data"});
}

TEST(FileReadsTest, TraceCountsProcessesAndReadsInOrder) {
  RawReads Raw;
  unsigned Processes = Raw.addTrace("p 10\n"
                                    "r /repo/data/a.txt\n"
                                    "w /repo/data/made.txt\n"
                                    "r /repo/data/made.txt\n"
                                    "l /repo/data\n"
                                    "p 11\n"
                                    "r /repo/data/50%25 off.txt\n"
                                    "r /repo/data/cut sh");
  EXPECT_EQ(Processes, 2u);
  // Made before it was read: the test's own. A line cut short by a crash
  // is left out: its path may be cut too.
  EXPECT_EQ(Raw.Read, (std::set<std::string>{"/repo/data/a.txt",
                                             "/repo/data/50% off.txt"}));
  EXPECT_EQ(Raw.Listed, std::set<std::string>{"/repo/data"});
  EXPECT_FALSE(Raw.Incomplete);
}

TEST(FileReadsTest, TraceSaysWhichProcessesEndedNormally) {
  RawReads Raw;
  Raw.addTrace("p 10\np 11\ne 11\n");
  EXPECT_FALSE(Raw.allEnded()); // 10 was killed, crashed or left by _exit
  Raw.addTrace("e 10\ne 12\n"); // 12, a fork that exited, never announced
  EXPECT_TRUE(Raw.allEnded());
  EXPECT_FALSE(Raw.Incomplete);
}

TEST(FileReadsTest, AProgramHandedToAnotherTracerLeavesTheReadsIncomplete) {
  RawReads Raw;
  Raw.addTrace("p 10\ni handed to another tracer\ne 10\n");
  EXPECT_TRUE(Raw.Incomplete);
}

TEST(FileReadsTest, AWriteAfterAReadKeepsTheRead) {
  RawReads Raw;
  Raw.addTrace("r /repo/data/a.txt\nw /repo/data/a.txt\nr /repo/data/a.txt\n");
  EXPECT_EQ(Raw.Read, std::set<std::string>{"/repo/data/a.txt"});
  EXPECT_EQ(Raw.addTrace(""), 0u);
}

TEST(FileReadsTest, TracerVariablesKeepTheTestsPreload) {
  EXPECT_EQ(tracerVariables("/t/libtia-reads.so", "/t/b1/reads",
                            {"LD_PRELOAD=/lib/libfake.so", "A=1",
                             "ASAN_OPTIONS=detect_leaks=0"}),
            (Strings{"LD_PRELOAD=/t/libtia-reads.so:/lib/libfake.so",
                     "TIA_READS_FILE=/t/b1/reads",
                     "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0"}));
  // No reads file yet: the process names it after it started (a child of
  // the pytest fork server). The test's environment names both variables,
  // empty, so that tia's own (a collect of tia's tests) does not count.
  EXPECT_EQ(tracerVariables("/t/libtia-reads.so", "",
                            {"A=1", "LD_PRELOAD=", "ASAN_OPTIONS="}),
            (Strings{"LD_PRELOAD=/t/libtia-reads.so",
                     "ASAN_OPTIONS=verify_asan_link_order=0"}));
}

TEST(FileReadsTest, TracerVariablesLeaveOutOtherCopiesOfTheTracer) {
  // A tia collect inside a test of another: its tests load its tracer
  // alone, and the outer tracer leaves them to it.
  EXPECT_EQ(
      tracerVariables("/t/libtia-reads.so", "/t/b1/reads",
                      {"LD_PRELOAD=/outer/libtia-reads.so:/lib/libfake.so",
                       "ASAN_OPTIONS=verify_asan_link_order=0"}),
      (Strings{"LD_PRELOAD=/t/libtia-reads.so:/lib/libfake.so",
               "TIA_READS_FILE=/t/b1/reads",
               "ASAN_OPTIONS=verify_asan_link_order=0"}));
  // Only a file of that name is the tracer.
  EXPECT_EQ(
      tracerVariables("/t/libtia-reads.so", "",
                      {"LD_PRELOAD=/lib/libtia-reads.so.1", "ASAN_OPTIONS="}),
      (Strings{"LD_PRELOAD=/t/libtia-reads.so:/lib/libtia-reads.so.1",
               "ASAN_OPTIONS=verify_asan_link_order=0"}));
}

} // namespace
