//===- Progress.cpp -------------------------------------------------------===//

#include "tia/Support/Progress.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"

namespace tia {

Progress::Progress(llvm::StringRef Verb, unsigned Total, llvm::raw_ostream &OS,
                   bool Quiet)
    : Verb(Verb.str()), Total(Total), OS(OS), Quiet(Quiet),
      Terminal(OS.is_displayed()), Start(std::chrono::steady_clock::now()) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

void Progress::step(llvm::StringRef What) {
  std::lock_guard<std::mutex> Lock(M);
  ++Done;
  if (Quiet || Total == 0)
    return;
  double Secs = elapsed();
  double Eta = Done ? Secs / Done * (Total - Done) : 0;
  if (Terminal) {
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
    OS << "[" << Done << "/" << Total << "] " << Verb
       << llvm::format(" (%.1fs, ETA %.0fs)\n", Secs, Eta);
  }
}

void Progress::finish() {
  std::lock_guard<std::mutex> Lock(M);
  if (!Quiet && Terminal && Total > 0) {
    OS << "\r\x1b[K";
    OS.flush();
  }
}

} // namespace tia
