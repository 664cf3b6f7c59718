//===- RecordJson.cpp - the record of an observed run as JSON -------------===//
//
// The store keeps the record as text; its shape is described in
// docs/Formats.md ("The record of an observed run") and versioned by
// RecordVersion, so that a newer record is refused rather than misread.
//
//===----------------------------------------------------------------------===//

#include "tia/Observe/Record.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <limits>

namespace tia {
namespace observe {

namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::OStream;

void stringArray(OStream &J, llvm::StringRef Key,
                 const std::vector<std::string> &Values) {
  J.attributeArray(Key, [&] {
    for (const std::string &V : Values)
      J.value(V);
  });
}

/// Seconds to the millisecond: more would be noise, and the shortest form
/// keeps goldens stable.
void seconds(OStream &J, llvm::StringRef Key, double Value) {
  J.attributeBegin(Key);
  J.rawValue(llvm::formatv("{0:f3}", Value).str());
  J.attributeEnd();
}

void modeJson(OStream &J, const ModeRecord &M) {
  J.object([&] {
    J.attribute("mode", M.Mode);
    if (!M.Error.empty()) {
      J.attribute("error", M.Error);
      return;
    }
    J.attribute("summary", M.Summary);
    J.attribute("selects_all", M.SelectsAll);
    J.attributeArray("fallbacks", [&] {
      for (const FallbackRecord &F : M.Fallbacks)
        J.object([&] {
          J.attribute("kind", F.Kind);
          J.attribute("file", F.File);
          J.attribute("detail", F.Detail);
          J.attribute("scope", F.Scope);
        });
    });
    J.attributeArray("selected", [&] {
      for (const SelectedRecord &S : M.Selected)
        J.object([&] {
          J.attribute("id", S.Id);
          stringArray(J, "reasons", S.Reasons);
        });
    });
    stringArray(J, "cut", M.Cut);
    J.attribute("max_tests", static_cast<int64_t>(M.MaxTests));
    seconds(J, "budget_seconds", M.BudgetSeconds);
    J.attribute("would_run", static_cast<int64_t>(M.WouldRun));
    seconds(J, "would_run_seconds", M.WouldRunSeconds);
    J.attribute("cut_run", static_cast<int64_t>(M.CutRun));
    seconds(J, "cut_seconds", M.CutSeconds);
  });
}

/// Reads the JSON of a record, remembering the first thing wrong.
class Reader {
public:
  std::string Problem;

  llvm::StringRef str(const Object &O, llvm::StringRef Key) {
    if (auto S = O.getString(Key))
      return *S;
    fail(Key);
    return "";
  }
  double num(const Object &O, llvm::StringRef Key) {
    if (auto N = O.getNumber(Key))
      return *N;
    fail(Key);
    return 0;
  }
  /// A count of tests: a whole number that fits an unsigned. Casting any
  /// other number (-1, 1e20, 1e400 which reads as infinity) to unsigned
  /// is undefined behaviour.
  unsigned count(const Object &O, llvm::StringRef Key) {
    double N = num(O, Key);
    if (N >= 0 && N <= std::numeric_limits<unsigned>::max() &&
        N == std::floor(N))
      return static_cast<unsigned>(N);
    wrong(Key, "a count");
    return 0;
  }
  /// Seconds as tia writes them: not negative, and short enough for
  /// recordJson to write back (it prints three decimals through LLVM's
  /// write_double, whose 32-byte buffer cuts 1e200 short to another number;
  /// infinity would print as "INF", which is no JSON).
  double seconds(const Object &O, llvm::StringRef Key) {
    constexpr double MaxSeconds = 1e9; // some 31 years
    double N = num(O, Key);
    if (N >= 0 && N <= MaxSeconds)
      return N;
    wrong(Key, "a number of seconds");
    return 0;
  }
  bool boolean(const Object &O, llvm::StringRef Key) {
    if (auto B = O.getBoolean(Key))
      return *B;
    fail(Key);
    return false;
  }
  const Array &array(const Object &O, llvm::StringRef Key) {
    static const Array Empty;
    if (const Array *A = O.getArray(Key))
      return *A;
    fail(Key);
    return Empty;
  }
  std::vector<std::string> strings(const Object &O, llvm::StringRef Key) {
    std::vector<std::string> Out;
    for (const llvm::json::Value &V : array(O, Key)) {
      if (auto S = V.getAsString())
        Out.push_back(S->str());
      else
        fail(Key);
    }
    return Out;
  }
  const Object &object(const llvm::json::Value &V, llvm::StringRef What) {
    static const Object Empty;
    if (const Object *O = V.getAsObject())
      return *O;
    fail(What);
    return Empty;
  }
  void fail(llvm::StringRef Key) {
    if (Problem.empty())
      Problem = ("'" + Key + "' is missing or of the wrong type").str();
  }
  void wrong(llvm::StringRef Key, llvm::StringRef What) {
    if (Problem.empty())
      Problem = ("'" + Key + "' is not " + What).str();
  }

  ModeRecord mode(const Object &O) {
    ModeRecord M;
    M.Mode = str(O, "mode").str();
    if (auto E = O.getString("error")) {
      M.Error = E->str();
      return M;
    }
    M.Summary = str(O, "summary").str();
    M.SelectsAll = boolean(O, "selects_all");
    for (const llvm::json::Value &V : array(O, "fallbacks")) {
      const Object &F = object(V, "fallbacks");
      M.Fallbacks.push_back({str(F, "kind").str(), str(F, "file").str(),
                             str(F, "detail").str(), str(F, "scope").str()});
    }
    for (const llvm::json::Value &V : array(O, "selected")) {
      const Object &S = object(V, "selected");
      M.Selected.push_back({str(S, "id").str(), strings(S, "reasons")});
    }
    M.Cut = strings(O, "cut");
    M.MaxTests = count(O, "max_tests");
    M.BudgetSeconds = seconds(O, "budget_seconds");
    M.WouldRun = count(O, "would_run");
    M.WouldRunSeconds = seconds(O, "would_run_seconds");
    M.CutRun = count(O, "cut_run");
    M.CutSeconds = seconds(O, "cut_seconds");
    return M;
  }

  FailureRecord failure(const Object &O) {
    FailureRecord F;
    F.Id = str(O, "id").str();
    if (const Object *Fates = O.getObject("fates")) {
      for (const auto &[Mode, V] : *Fates) {
        std::optional<Fate> Parsed;
        if (auto S = V.getAsString())
          Parsed = parseFate(*S);
        if (Parsed)
          F.Fates[Mode.str()] = *Parsed;
        else
          fail("fates");
      }
    } else {
      fail("fates");
    }
    F.Why = strings(O, "why");
    return F;
  }
};

} // namespace

std::string recordJson(const Record &R) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OStream J(OS);
  J.object([&] {
    J.attribute("version", RecordVersion);
    J.attribute("mode", R.Mode);
    J.attribute("runner", R.Runner);
    J.attribute("exclusion", R.Exclusion);
    J.attribute("base", R.Base);
    J.attribute("head", R.Head);
    stringArray(J, "changed_files", R.ChangedFiles);
    J.attribute("tests", static_cast<int64_t>(R.Tests));
    seconds(J, "seconds", R.Seconds);
    J.attributeArray("modes", [&] {
      for (const ModeRecord &M : R.Modes)
        modeJson(J, M);
    });
    J.attributeArray("failures", [&] {
      for (const FailureRecord &F : R.Failures)
        J.object([&] {
          J.attribute("id", F.Id);
          J.attributeObject("fates", [&] {
            for (const auto &[Mode, Fate] : F.Fates)
              J.attribute(Mode, fateName(Fate));
          });
          stringArray(J, "why", F.Why);
        });
    });
  });
  OS.flush();
  return Text;
}

llvm::Expected<Record> parseRecord(llvm::StringRef Json, int FormatVersion) {
  if (FormatVersion != RecordVersion)
    return makeErrorf("its record has version {0}, this tia reads version "
                      "{1}: use the tia that observed it",
                      FormatVersion, RecordVersion);
  auto V = parseJson(Json);
  if (!V)
    return makeErrorf("its record is not JSON: {0}",
                      llvm::toString(V.takeError()));
  Reader In;
  const Object &O = In.object(*V, "record");
  Record R;
  R.Mode = In.str(O, "mode").str();
  R.Runner = In.str(O, "runner").str();
  R.Exclusion = In.boolean(O, "exclusion");
  R.Base = In.str(O, "base").str();
  R.Head = In.str(O, "head").str();
  R.ChangedFiles = In.strings(O, "changed_files");
  R.Tests = In.count(O, "tests");
  R.Seconds = In.seconds(O, "seconds");
  for (const llvm::json::Value &M : In.array(O, "modes"))
    R.Modes.push_back(In.mode(In.object(M, "modes")));
  for (const llvm::json::Value &F : In.array(O, "failures"))
    R.Failures.push_back(In.failure(In.object(F, "failures")));
  if (!In.Problem.empty())
    return makeErrorf("its record is damaged: {0}", In.Problem);
  return R;
}

} // namespace observe
} // namespace tia
