//===- Lcov.cpp - lcov tracefile reader -----------------------------------===//

#include "tia/Coverage/Coverage.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace tia {
namespace coverage {

namespace {

/// Reads "N" as an unsigned count; lcov writes large counts and, from some
/// tools, negative ones for "unknown", which count as not run.
bool parseCount(llvm::StringRef S, uint64_t &Out) {
  S = S.trim();
  if (S.starts_with("-")) {
    long long V;
    if (S.getAsInteger(10, V))
      return false;
    Out = 0;
    return true;
  }
  return !S.getAsInteger(10, Out);
}

/// Reads an lcov tracefile record by record: per test (TN), per source
/// file (SF ... end_of_record), the functions (FN, FNDA; lcov 2.2's FNL,
/// FNA) and lines (DA) that ran.
class LcovReader {
public:
  /// The tests' coverage; fails naming the line of a malformed record.
  llvm::Expected<std::vector<TestCoverage>> read(llvm::StringRef Text,
                                                 llvm::StringRef FileName) {
    unsigned LineNo = 0;
    llvm::StringRef Rest = Text;
    while (!Rest.empty()) {
      llvm::StringRef Line;
      std::tie(Line, Rest) = Rest.split('\n');
      ++LineNo;
      Line = Line.trim();
      if (Line.empty())
        continue;
      std::string Why = readLine(Line);
      if (!Why.empty())
        return makeErrorf("malformed lcov {0}:{1}: {2}", FileName, LineNo, Why);
    }
    if (InRecord)
      return makeErrorf("malformed lcov {0}:{1}: missing end_of_record at "
                        "the end of the file",
                        FileName, LineNo);
    return std::move(Out);
  }

private:
  /// Reads one line; what is wrong with it, or "".
  std::string readLine(llvm::StringRef Line) {
    if (Line == "end_of_record") {
      if (!InRecord)
        return "end_of_record without SF";
      endRecord();
      return "";
    }
    auto [Tag, Value] = Line.split(':');
    if (Tag.size() == Line.size())
      return ("expected 'TAG:VALUE', got '" + Line.take_front(40) + "'").str();
    if (Tag == "TN") {
      if (InRecord)
        return "TN inside a record (missing end_of_record)";
      Test = Value.trim().str();
      return "";
    }
    if (Tag == "SF") {
      if (InRecord)
        return "SF inside a record (missing end_of_record)";
      if (Value.trim().empty())
        return "SF without a file name";
      File = Value.trim().str();
      InRecord = true;
      return "";
    }
    if (!InRecord)
      return (Tag + " outside a record (missing SF)").str();
    return readRecordLine(Tag, Value);
  }

  /// A line inside a source file's record.
  std::string readRecordLine(llvm::StringRef Tag, llvm::StringRef Value) {
    if (Tag == "FN")
      return readFunction(Value);
    if (Tag == "FNDA") {
      auto [CountText, Name] = Value.split(',');
      uint64_t Count;
      if (Name.empty() || !parseCount(CountText, Count))
        return "FNDA needs '<count>,<name>'";
      if (Count > 0)
        Ran.push_back(Name.trim().str());
      return "";
    }
    if (Tag == "FNL") {
      // lcov 2.2: FNL:<index>,<line>[,<end line>]
      auto [Index, Lines] = Value.split(',');
      unsigned First;
      if (Index.trim().empty() ||
          Lines.split(',').first.trim().getAsInteger(10, First))
        return "FNL needs '<index>,<line>'";
      FnIndexLines[Index.trim()] = First;
      return "";
    }
    if (Tag == "FNA")
      return readFunctionAlias(Value);
    if (Tag == "DA") {
      llvm::SmallVector<llvm::StringRef, 3> Parts;
      Value.split(Parts, ',');
      unsigned L;
      uint64_t Count;
      if (Parts.size() < 2 || Parts[0].trim().getAsInteger(10, L) ||
          !parseCount(Parts[1], Count))
        return "DA needs '<line>,<count>'";
      if (Count > 0)
        current().Lines.push_back({File, L});
      return "";
    }
    if (Tag == "FNF" || Tag == "FNH" || Tag == "LF" || Tag == "LH" ||
        Tag == "BRDA" || Tag == "BRF" || Tag == "BRH" || Tag == "VER" ||
        Tag == "MCDC")
      return "";
    return ("unknown record '" + Tag + "'").str();
  }

  /// lcov 1: FN:<line>,<name>; lcov 2: FN:<line>,<end line>,<name>.
  std::string readFunction(llvm::StringRef Value) {
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    Value.split(Parts, ',', 2);
    unsigned First;
    if (Parts.size() < 2 || Parts[0].trim().getAsInteger(10, First))
      return "FN needs '<line>,<name>'";
    unsigned End;
    llvm::StringRef Name =
        Parts.size() == 3 && !Parts[1].trim().getAsInteger(10, End)
            ? Parts[2]
            : Value.split(',').second;
    FnLines.try_emplace(Name.trim(), First);
    return "";
  }

  /// lcov 2.2: FNA:<index>,<count>,<name>
  std::string readFunctionAlias(llvm::StringRef Value) {
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    Value.split(Parts, ',', 2);
    uint64_t Count;
    if (Parts.size() != 3 || !parseCount(Parts[1], Count))
      return "FNA needs '<index>,<count>,<name>'";
    auto It = FnIndexLines.find(Parts[0].trim());
    if (It != FnIndexLines.end())
      FnLines.try_emplace(Parts[2].trim(), It->second);
    if (Count > 0)
      Ran.push_back(Parts[2].trim().str());
    return "";
  }

  TestCoverage &current() {
    auto It = ByTest.find(Test);
    if (It != ByTest.end())
      return Out[It->second];
    ByTest[Test] = Out.size();
    Out.push_back(TestCoverage{Test, {}, {}});
    return Out.back();
  }

  void endRecord() {
    TestCoverage &T = current();
    for (const std::string &Name : Ran) {
      auto It = FnLines.find(Name);
      T.Functions.push_back(
          {Name, File, It == FnLines.end() ? 0u : It->second});
    }
    FnLines.clear();
    FnIndexLines.clear();
    Ran.clear();
    InRecord = false;
  }

  std::vector<TestCoverage> Out;
  llvm::StringMap<size_t> ByTest;
  std::string Test;
  std::string File;
  bool InRecord = false;
  // Per record: function name -> first line, and the names that ran.
  llvm::StringMap<unsigned> FnLines;
  llvm::StringMap<unsigned> FnIndexLines; // lcov 2.2 FNL records
  llvm::SmallVector<std::string, 16> Ran;
};

} // namespace

llvm::Expected<std::vector<TestCoverage>> parseLcov(llvm::StringRef Text,
                                                    llvm::StringRef FileName) {
  return LcovReader().read(Text, FileName);
}

} // namespace coverage
} // namespace tia
