//===- Sarif.cpp - findings as SARIF 2.1.0 --------------------------------===//
//
// One run of tool "tia" with its rules and a result per finding (see
// Findings.cpp). Paths are relative to the base id SRCROOT, which
// originalUriBaseIds ties to the repository root, so that GitHub code
// scanning, reviewdog and other SARIF readers place them on the diff.
//
//===----------------------------------------------------------------------===//

#include "ReportInternal.h"
#include "llvm/ADT/StringExtras.h"

namespace tia {
namespace report {

namespace {

constexpr llvm::StringLiteral SchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
    "sarif-schema-2.1.0.json";
constexpr llvm::StringLiteral RootId = "SRCROOT";

/// \p Path as a URI reference: characters outside RFC 3986's unreserved
/// set and '/' percent-encoded.
std::string uriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C)) {
      Out += C;
      continue;
    }
    Out += '%';
    Out += llvm::hexdigit(C >> 4);
    Out += llvm::hexdigit(C & 15);
  }
  return Out;
}

void message(llvm::json::OStream &J, llvm::StringRef Text) {
  J.attributeObject("message", [&] { J.attribute("text", jsonText(Text)); });
}

void rules(llvm::json::OStream &J, const WriteOptions &O) {
  J.attributeArray("rules", [&] {
    for (auto [Rule, Level] :
         {std::pair(FindingRule::Untested, O.Levels.Untested),
          std::pair(FindingRule::SelectsAll, O.Levels.SelectsAll),
          std::pair(FindingRule::Covered, O.Levels.Covered)}) {
      const RuleInfo &R = ruleInfo(Rule);
      J.object([&] {
        J.attribute("id", R.Id);
        J.attribute("name", R.Name);
        J.attributeObject("shortDescription",
                          [&] { J.attribute("text", R.Short); });
        J.attributeObject("help", [&] { J.attribute("text", R.Help); });
        J.attributeObject("defaultConfiguration",
                          [&] { J.attribute("level", levelName(Level)); });
      });
    }
  });
}

void location(llvm::json::OStream &J, const Finding &F) {
  J.object([&] {
    J.attributeObject("physicalLocation", [&] {
      J.attributeObject("artifactLocation", [&] {
        J.attribute("uri", uriPath(F.File));
        J.attribute("uriBaseId", RootId);
      });
      J.attributeObject("region", [&] {
        J.attribute("startLine", static_cast<int64_t>(F.StartLine));
        J.attribute("endLine", static_cast<int64_t>(F.EndLine));
      });
    });
  });
}

/// One step of a call path: the function, where it is defined when the
/// index knows.
void step(llvm::json::OStream &J, const select::CallPath &Path, size_t I) {
  J.object([&] {
    J.attributeObject("location", [&] {
      if (I < Path.Files.size() && !Path.Files[I].empty() &&
          I < Path.Lines.size() && Path.Lines[I])
        J.attributeObject("physicalLocation", [&] {
          J.attributeObject("artifactLocation", [&] {
            J.attribute("uri", uriPath(Path.Files[I]));
            J.attribute("uriBaseId", RootId);
          });
          J.attributeObject("region", [&] {
            J.attribute("startLine", static_cast<int64_t>(Path.Lines[I]));
          });
        });
      message(J, Path.Displays[I]);
    });
  });
}

/// One code flow per call path, from the public entry point to the
/// changed function.
void codeFlows(llvm::json::OStream &J, const Finding &F) {
  J.attributeArray("codeFlows", [&] {
    for (const select::CallPath &Path : F.Paths)
      J.object([&] {
        message(J, "from the public entry point " + Path.Displays.front());
        J.attributeArray("threadFlows", [&] {
          J.object([&] {
            J.attributeArray("locations", [&] {
              for (size_t I = 0; I < Path.Displays.size(); ++I)
                step(J, Path, I);
            });
          });
        });
      });
  });
}

void result(llvm::json::OStream &J, const Finding &F) {
  J.object([&] {
    J.attribute("ruleId", ruleInfo(F.Rule).Id);
    J.attribute("ruleIndex", static_cast<int64_t>(F.Rule));
    J.attribute("level", levelName(F.Level));
    message(J, F.Message);
    J.attributeArray("locations", [&] { location(J, F); });
    J.attributeObject("partialFingerprints",
                      [&] { J.attribute("tiaFinding/v1", F.Fingerprint); });
    if (!F.Paths.empty())
      codeFlows(J, F);
  });
}

} // namespace

void writeSarif(const select::Plan &P, const WriteOptions &O,
                llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("$schema", SchemaUri);
    J.attribute("version", "2.1.0");
    J.attributeArray("runs", [&] {
      J.object([&] {
        J.attributeObject("tool", [&] {
          J.attributeObject("driver", [&] {
            J.attribute("name", "tia");
            J.attribute("version", toolVersion());
            rules(J, O);
          });
        });
        if (!O.Root.empty())
          J.attributeObject("originalUriBaseIds", [&] {
            J.attributeObject(RootId, [&] {
              J.attribute(
                  "uri", "file://" +
                             uriPath(llvm::StringRef(O.Root).rtrim('/')) + "/");
            });
          });
        J.attributeArray("results", [&] {
          for (const Finding &F : findings(P, O))
            result(J, F);
        });
      });
    });
  });
  OS << "\n";
}

} // namespace report
} // namespace tia
