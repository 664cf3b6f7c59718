//===- PytestJobsTest.cpp - runJobs and the processes it starts -----------===//

#include "PytestInternal.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <thread>

using namespace tia::collect;

namespace {

PytestJob shellJob(const std::string &Script) {
  PytestJob J;
  J.Args = {"/bin/sh", "-c", Script};
  J.Out = "/dev/null";
  J.Err = "/dev/null";
  return J;
}

// A job that cannot start makes runJobs give up; a job it started in a
// process of its own must not run on after it (writing into a temporary
// folder the collect removes, or into the work tree).
TEST(PytestJobsTest, SpawnFailureStopsTheJobsRunning) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-jobs", Dir));
  std::string PidFile = (Dir + "/pid").str();
  // The first job runs on; the second ends once the first wrote its pid,
  // so that the third, which cannot start, comes while the first runs.
  std::vector<PytestJob> Jobs = {
      shellJob("echo $$ > " + PidFile + ".tmp && mv " + PidFile + ".tmp " +
               PidFile + " && exec sleep 30"),
      shellJob("until [ -f " + PidFile + " ]; do sleep 0.01; done"),
      PytestJob{{"/nonexistent/python"}, {}, "", "/dev/null", "/dev/null"}};
  std::string Messages;
  llvm::raw_string_ostream Err(Messages);
  JobsOptions O;
  O.Parallel = 2;
  llvm::Error E = runJobs(Jobs, std::string(Dir), O, Err);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("/nonexistent/python"),
            std::string::npos);

  auto Pid = llvm::MemoryBuffer::getFile(PidFile);
  ASSERT_TRUE(static_cast<bool>(Pid));
  pid_t First = std::stoi((*Pid)->getBuffer().trim().str());
  // Killed and waited for: no such process any more.
  bool Alive = ::kill(First, 0) == 0;
  EXPECT_FALSE(Alive);
  if (Alive)
    ::kill(First, SIGKILL);
  llvm::sys::fs::remove_directories(Dir);
}

/// A folder of its own for a test's job, removed at the end.
class PytestTimeoutTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-jobs", Dir));
    ASSERT_FALSE(llvm::sys::fs::make_absolute(Dir)); // jobs run inside it
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// A job whose shell \p Script plays pytest with tia's plugin: $LOG is
  /// the results log, "$1" the test a run again deselects.
  PytestJob fakePytest(const std::string &Script) {
    PytestJob J = shellJob("LOG=" + std::string(Dir) + "/log.jsonl; " + Script);
    J.ResultsLog = (Dir + "/log.jsonl").str();
    return J;
  }

  /// Runs \p J with a timeout of \p Seconds.
  void run(PytestJob &J, double Seconds) {
    std::vector<PytestJob> Jobs = {J};
    JobsOptions O;
    O.TimeoutSeconds = Seconds;
    std::string Messages;
    llvm::raw_string_ostream Err(Messages);
    ASSERT_FALSE(static_cast<bool>(runJobs(Jobs, std::string(Dir), O, Err)));
    J = std::move(Jobs[0]);
  }

  llvm::SmallString<128> Dir;
};

std::vector<std::string> resultIds(const PytestJob &J) {
  std::vector<std::string> Ids;
  for (const llvm::json::Object &R : J.Log.Results)
    Ids.push_back(R.getString("id").value_or("").str());
  return Ids;
}

// A test that runs past the timeout is killed, and its file runs again
// without it: the tests after it still run.
TEST_F(PytestTimeoutTest, AHungTestIsKilledAndTheFileRunsAgainWithoutIt) {
  PytestJob J = fakePytest(
      R"(if [ "$0 $1" = "--deselect t.py::hangs" ]; then )"
      R"(printf '{"start": "t.py::ok"}\n{"id": "t.py::ok"}\n' > $LOG; )"
      R"(exit 0; fi; )"
      R"(printf '{"start": "t.py::hangs"}\n' > $LOG; exec sleep 30)");
  run(J, 0.3);
  EXPECT_EQ(J.TimedOut, std::vector<std::string>{"t.py::hangs"});
  EXPECT_EQ(resultIds(J), std::vector<std::string>{"t.py::ok"});
  EXPECT_EQ(J.ReturnCode, 0);
  EXPECT_FALSE(J.Crashed);
  EXPECT_FALSE(J.Stalled);
}

// A job that keeps starting and ending tests is not killed, however long
// it runs in all.
TEST_F(PytestTimeoutTest, TestsThatEndInTimeAreNotKilled) {
  PytestJob J =
      fakePytest(R"(for i in 1 2 3 4 5 6; do printf '{"start": "t.py::t%s"}\n)"
                 R"({"id": "t.py::t%s"}\n' $i $i >> $LOG; sleep 0.15; done)");
  run(J, 0.5);
  EXPECT_TRUE(J.TimedOut.empty());
  EXPECT_EQ(resultIds(J).size(), 6u);
  EXPECT_FALSE(J.Crashed);
}

// Killed with no test running (importing, collecting): nothing to
// deselect, so the job ends, stalled.
TEST_F(PytestTimeoutTest, AJobStuckOutsideTestsIsStalled) {
  PytestJob J = fakePytest("exec sleep 30");
  run(J, 0.3);
  EXPECT_TRUE(J.TimedOut.empty());
  EXPECT_TRUE(J.Stalled);
  EXPECT_TRUE(J.Crashed);
}

// A test that hangs again although deselected (an id --deselect does not
// match) ends the job instead of running it forever.
TEST_F(PytestTimeoutTest, ATestThatHangsAgainEndsTheJob) {
  PytestJob J = fakePytest(
      R"(printf '{"start": "t.py::hangs"}\n' > $LOG; exec sleep 30)");
  run(J, 0.3);
  EXPECT_EQ(J.TimedOut, std::vector<std::string>{"t.py::hangs"});
  EXPECT_TRUE(J.Stalled);
}

/// Whether \p Pid ended (gone, or a zombie) within two seconds.
bool endsSoon(pid_t Pid) {
  for (int I = 0; I < 200; ++I) {
    auto Stat = llvm::MemoryBuffer::getFileAsStream(
        "/proc/" + std::to_string(Pid) + "/stat");
    if (!Stat ||
        (*Stat)->getBuffer().rsplit(')').second.ltrim().starts_with("Z"))
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The timeout kills what the hung test started too: a test waiting for a
// hung child would otherwise leave that child running after the collect.
TEST_F(PytestTimeoutTest, TheKilledTestsChildrenGoWithIt) {
  std::string ChildPid = (Dir + "/child").str();
  PytestJob J =
      fakePytest(R"(printf '{"start": "t.py::waits"}\n' > $LOG; sleep 30 & )"
                 R"(echo $! > )" +
                 ChildPid + R"(; wait)");
  run(J, 0.5);
  auto Pid = llvm::MemoryBuffer::getFile(ChildPid);
  ASSERT_TRUE(static_cast<bool>(Pid));
  pid_t Child = std::stoi((*Pid)->getBuffer().trim().str());
  bool Ended = endsSoon(Child);
  EXPECT_TRUE(Ended);
  if (!Ended)
    ::kill(Child, SIGKILL);
}

// A fork server whose imports never end is given up after its time: the
// job runs in a process of its own instead of waiting for it forever.
TEST_F(PytestTimeoutTest, AServerThatNeverGetsReadyTakesNoJob) {
  std::string Python = (Dir + "/python").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream Script(Python, EC);
    ASSERT_FALSE(EC);
    Script << "#!/bin/sh\nexec sleep 30\n";
  }
  llvm::sys::fs::setPermissions(Python, llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_all);
  PytestServer Server(Python, {}, std::string(Dir), (Dir + "/server.log").str(),
                      /*ReadyMillis=*/200);
  PytestJob J;
  J.Args = {Python, "-m", "pytest"};
  ASSERT_TRUE(Server.accepts(J));
  auto Start = std::chrono::steady_clock::now();
  EXPECT_FALSE(Server.start(J));
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(10));
  EXPECT_TRUE(Server.dead());
}

} // namespace
