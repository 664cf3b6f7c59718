//===- PytestJobsTest.cpp - runJobs and the processes it starts -----------===//

#include "PytestInternal.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <cerrno>
#include <csignal>

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
  llvm::Error E = runJobs(Jobs, /*Parallel=*/2, std::string(Dir), 0,
                          /*Quiet=*/true, /*StopOnFailure=*/false, Err);
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

} // namespace
