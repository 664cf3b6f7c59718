//===- Progress.cpp -------------------------------------------------------===//

#include "tia/Support/Progress.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include <vector>

namespace tia {

namespace {

/// How many running units a heartbeat line names.
constexpr size_t HeartbeatNames = 3;

} // namespace

double Progress::heartbeatSeconds() {
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("TIA_HEARTBEAT_SECONDS")) {
    double Seconds = 0;
    if (!llvm::StringRef(*Env).getAsDouble(Seconds) && Seconds > 0)
      return Seconds;
  }
  return 30;
}

Progress::Progress(llvm::StringRef Verb, unsigned Total, llvm::raw_ostream &OS,
                   bool Quiet)
    : Verb(Verb.str()), Total(Total), OS(OS), Quiet(Quiet),
      Terminal(OS.is_displayed()), Start(Clock::now()), LastLine(Start) {}

void Progress::startHeartbeat() {
  // A terminal shows the line of the latest unit all along; a log needs
  // the heartbeat to tell a long test from a hung collect.
  std::lock_guard<std::mutex> Lock(M);
  if (!Quiet && !Terminal && Total > 0 && !Stopping && !Heartbeat.joinable())
    Heartbeat = std::thread([this] { beat(); });
}

Progress::~Progress() { finish(); }

double Progress::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

void Progress::started(llvm::StringRef What) {
  std::lock_guard<std::mutex> Lock(M);
  Running.emplace(What.str(), Clock::now());
}

void Progress::ended(llvm::StringRef What) {
  std::lock_guard<std::mutex> Lock(M);
  Running.erase(What.str());
}

void Progress::printLine(llvm::StringRef Tail) {
  double Secs = elapsed();
  OS << "[" << Done << "/" << Total << "] " << Verb;
  // Before the first unit ends there is nothing to estimate from.
  if (Done)
    OS << llvm::format(" (%.1fs, ETA %.0fs)", Secs,
                       Secs / Done * (Total - Done));
  else
    OS << llvm::format(" (%.1fs)", Secs);
  OS << Tail << "\n";
  OS.flush();
  LastLine = Clock::now();
}

void Progress::step(llvm::StringRef What) {
  std::lock_guard<std::mutex> Lock(M);
  ++Done;
  Running.erase(What.str());
  if (Quiet || Total == 0)
    return;
  if (Terminal) {
    double Secs = elapsed();
    double Eta = Done ? Secs / Done * (Total - Done) : 0;
    std::string Line = ("[" + llvm::Twine(Done) + "/" + llvm::Twine(Total) +
                        "] " + Verb + " " + What)
                           .str();
    if (Line.size() > 70)
      Line = Line.substr(0, 67) + "...";
    OS << "\r\x1b[K" << Line << llvm::format(" (ETA %.0fs)", Eta);
    OS.flush();
    return;
  }
  // Without a terminal, a line at each quarter (and at the end).
  if (Done * 4 >= NextQuarter * Total) {
    while (Done * 4 >= NextQuarter * Total && NextQuarter <= 4)
      ++NextQuarter;
    printLine("");
  }
}

void Progress::beat() {
  std::chrono::duration<double> Interval(heartbeatSeconds());
  std::unique_lock<std::mutex> Lock(M);
  while (!Stopping) {
    Clock::time_point Due =
        LastLine + std::chrono::duration_cast<Clock::duration>(Interval);
    if (Clock::now() < Due) {
      Wake.wait_until(Lock, Due);
      continue;
    }
    std::vector<std::pair<Clock::time_point, llvm::StringRef>> Longest;
    for (const auto &[What, Since] : Running)
      Longest.emplace_back(Since, What);
    llvm::sort(Longest);
    std::string Tail;
    Clock::time_point Now = Clock::now();
    for (size_t I = 0; I < Longest.size() && I < HeartbeatNames; ++I)
      Tail += (I ? ", " : ": still running ") + Longest[I].second.str() +
              llvm::formatv(
                  " ({0:f0}s)",
                  std::chrono::duration<double>(Now - Longest[I].first).count())
                  .str();
    if (Longest.size() > HeartbeatNames)
      Tail += llvm::formatv(" and {0} more", Longest.size() - HeartbeatNames);
    printLine(Tail);
  }
}

void Progress::finish() {
  {
    std::lock_guard<std::mutex> Lock(M);
    bool First = !Stopping;
    Stopping = true;
    if (First && !Quiet && Terminal && Total > 0) {
      OS << "\r\x1b[K";
      OS.flush();
    }
  }
  Wake.notify_all();
  if (Heartbeat.joinable())
    Heartbeat.join();
}

} // namespace tia
