//===- FindingFormats.cpp - findings for GitLab and GitHub Actions --------===//
//
// The findings of Findings.cpp in the two forms CI systems read besides
// SARIF: GitLab's Code Quality report (an artifact the merge request widget
// shows on the diff) and GitHub Actions' workflow commands (annotations the
// run and the pull request's files view show).
//
//===----------------------------------------------------------------------===//

#include "ReportInternal.h"

namespace tia {
namespace report {

namespace {

/// GitHub shows this many annotations of each level per step.
constexpr unsigned AnnotationsPerLevel = 10;

llvm::StringRef codeQualitySeverity(FindingLevel L) {
  switch (L) {
  case FindingLevel::Note:
    return "info";
  case FindingLevel::Warning:
    return "minor";
  case FindingLevel::Error:
    return "major";
  }
  return "minor";
}

llvm::StringRef githubCommand(FindingLevel L) {
  return L == FindingLevel::Note ? "notice" : levelName(L);
}

/// Workflow-command data: '%', CR and LF escaped as the runner reads them.
std::string commandData(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    default:
      Out += C;
    }
  return Out;
}

/// A workflow-command property: the data escapes, and ':' and ','.
std::string commandProperty(llvm::StringRef Text) {
  std::string Out;
  for (char C : commandData(Text))
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  return Out;
}

} // namespace

void writeCodeQuality(const select::Plan &P, const WriteOptions &O,
                      llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 2);
  J.array([&] {
    for (const Finding &F : findings(P, O))
      J.object([&] {
        J.attribute("description", jsonText(F.Message));
        J.attribute("check_name", ruleInfo(F.Rule).Name);
        J.attribute("fingerprint", F.Fingerprint);
        J.attribute("severity", codeQualitySeverity(F.Level));
        J.attributeObject("location", [&] {
          J.attribute("path", jsonText(F.File));
          J.attributeObject("lines", [&] {
            J.attribute("begin", static_cast<int64_t>(F.StartLine));
            J.attribute("end", static_cast<int64_t>(F.EndLine));
          });
        });
      });
  });
  OS << "\n";
}

void writeGithubAnnotations(const select::Plan &P, const WriteOptions &O,
                            llvm::raw_ostream &OS) {
  unsigned Shown[3] = {0, 0, 0}, LeftOut = 0;
  for (const Finding &F : findings(P, O)) {
    unsigned &N = Shown[static_cast<size_t>(F.Level)];
    if (N == AnnotationsPerLevel) {
      ++LeftOut;
      continue;
    }
    ++N;
    OS << "::" << githubCommand(F.Level) << " file=" << commandProperty(F.File)
       << ",line=" << F.StartLine << ",endLine=" << F.EndLine
       << ",title=" << commandProperty(F.Title)
       << "::" << commandData(F.Message) << "\n";
  }
  if (LeftOut)
    OS << "tia: " << plural(LeftOut, "finding", "findings")
       << " not annotated: GitHub shows " << AnnotationsPerLevel
       << " annotations of each level per step (--format sarif has them "
          "all)\n";
}

} // namespace report
} // namespace tia
