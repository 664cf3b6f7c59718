//===- Mutants.cpp - small semantic changes and their report --------------===//

#include "tia/Eval/Mutants.h"
#include "tia/Eval/SelectionReplay.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

namespace tia {
namespace eval {

llvm::StringRef operatorName(MutationOperator Op) {
  switch (Op) {
  case MutationOperator::NegateCondition:
    return "negate-condition";
  case MutationOperator::SwapOperator:
    return "swap-operator";
  case MutationOperator::ChangeConstant:
    return "change-constant";
  case MutationOperator::RemoveStatement:
    return "remove-statement";
  }
  return "unknown";
}

namespace {

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

std::optional<std::string> negate(llvm::StringRef Line, bool Python) {
  if (Python) {
    llvm::Regex Re("^([ \t]*)(if|elif|while)[ \t]+(.*):[ \t]*$");
    llvm::SmallVector<llvm::StringRef, 4> M;
    if (!Re.match(Line, &M))
      return std::nullopt;
    return (M[1] + M[2] + " not (" + M[3] + "):").str();
  }
  for (llvm::StringRef Word : {"if", "while"}) {
    size_t At = 0;
    while ((At = Line.find(Word, At)) != llvm::StringRef::npos) {
      size_t End = At + Word.size();
      bool Starts = At == 0 || !isIdentChar(Line[At - 1]);
      size_t Open = Line.find_first_not_of(" \t", End);
      if (!Starts || End >= Line.size() || isIdentChar(Line[End]) ||
          Open == llvm::StringRef::npos || Line[Open] != '(') {
        At = End;
        continue;
      }
      int Depth = 0;
      for (size_t I = Open; I < Line.size(); ++I) {
        if (Line[I] == '(')
          ++Depth;
        else if (Line[I] == ')' && --Depth == 0)
          return (Line.take_front(Open + 1) + "!(" + Line.slice(Open + 1, I) +
                  ")" + Line.drop_front(I))
              .str();
      }
      return std::nullopt; // the condition goes on past this line
    }
  }
  return std::nullopt;
}

std::optional<std::string> swapOperator(llvm::StringRef Line, bool Python) {
  static const std::pair<const char *, const char *> Swaps[] = {
      {" <= ", " > "},  {" >= ", " < "},  {" == ", " != "}, {" != ", " == "},
      {" && ", " || "}, {" || ", " && "}, {" < ", " >= "},  {" > ", " <= "},
      {" + ", " - "},   {" - ", " + "},   {" * ", " / "},   {" / ", " * "},
  };
  static const std::pair<const char *, const char *> PySwaps[] = {
      {" and ", " or "}, {" or ", " and "}};
  size_t Best = llvm::StringRef::npos;
  std::pair<const char *, const char *> Pick;
  auto Consider = [&](std::pair<const char *, const char *> S) {
    size_t At = Line.find(S.first);
    if (At < Best) {
      Best = At;
      Pick = S;
    }
  };
  for (const auto &S : Swaps)
    Consider(S);
  if (Python)
    for (const auto &S : PySwaps)
      Consider(S);
  if (Best == llvm::StringRef::npos)
    return std::nullopt;
  return (Line.take_front(Best) + Pick.second +
          Line.drop_front(Best + strlen(Pick.first)))
      .str();
}

std::optional<std::string> changeConstant(llvm::StringRef Line) {
  for (size_t I = 0; I < Line.size(); ++I) {
    if (!llvm::isDigit(Line[I]))
      continue;
    if (I > 0 && (isIdentChar(Line[I - 1]) || Line[I - 1] == '.')) {
      while (I < Line.size() && isIdentChar(Line[I]))
        ++I;
      continue;
    }
    size_t End = I;
    while (End < Line.size() && llvm::isDigit(Line[End]))
      ++End;
    if (End < Line.size() && (isIdentChar(Line[End]) || Line[End] == '.')) {
      I = End;
      continue;
    }
    unsigned long long N = 0;
    if (Line.slice(I, End).getAsInteger(10, N) || End - I > 9) {
      I = End;
      continue;
    }
    return (Line.take_front(I) + llvm::Twine(N + 1) + Line.drop_front(End))
        .str();
  }
  return std::nullopt;
}

std::optional<std::string> removeStatement(llvm::StringRef Line, bool Python) {
  llvm::StringRef Body = Line.ltrim(" \t");
  llvm::StringRef Indent = Line.take_front(Line.size() - Body.size());
  if (Python) {
    llvm::Regex Assign("^[A-Za-z_][A-Za-z0-9_.]*(\\[[^]]*\\])?[ \t]*"
                       "([-+*/%|&^]|//)?=[^=]");
    llvm::Regex Call("^[A-Za-z_][A-Za-z0-9_.]*\\(.*\\)[ \t]*$");
    if (Assign.match(Body) || Call.match(Body))
      return (Indent + "pass").str();
    return std::nullopt;
  }
  Body = Body.rtrim(" \t");
  if (!Body.ends_with(";"))
    return std::nullopt;
  llvm::Regex Assign("^[A-Za-z_][A-Za-z0-9_.>-]*(\\[[^]]*\\])?[ \t]*"
                     "([-+*/%|&^]|<<|>>)?=[^=]");
  llvm::Regex Step("^(\\+\\+|--)?[A-Za-z_][A-Za-z0-9_]*(\\+\\+|--)?;$");
  llvm::Regex Call("^[A-Za-z_][A-Za-z0-9_:.>-]*\\(.*\\);$");
  for (llvm::StringRef Keyword : {"return", "break", "continue", "case",
                                  "default", "goto", "throw", "delete"})
    if (Body.starts_with(Keyword) &&
        (Body.size() == Keyword.size() || !isIdentChar(Body[Keyword.size()])))
      return std::nullopt;
  if (Assign.match(Body) ||
      (Step.match(Body) && (Body.contains("++") || Body.contains("--"))) ||
      Call.match(Body))
    return Indent.str();
  return std::nullopt;
}

} // namespace

std::optional<std::string> mutateLine(llvm::StringRef Line, MutationOperator Op,
                                      bool Python) {
  llvm::StringRef T = Line.trim();
  if (T.empty() || T.starts_with("//") || T.starts_with("/*") ||
      T.starts_with("*") || T.starts_with("#") || Line.contains('"') ||
      Line.contains('\'') || Line.contains("//") || Line.contains("/*"))
    return std::nullopt;
  if (Python && Line.contains('#'))
    return std::nullopt;
  switch (Op) {
  case MutationOperator::NegateCondition:
    return negate(Line, Python);
  case MutationOperator::SwapOperator:
    return swapOperator(Line, Python);
  case MutationOperator::ChangeConstant:
    return changeConstant(Line);
  case MutationOperator::RemoveStatement:
    return removeStatement(Line, Python);
  }
  return std::nullopt;
}

std::optional<Mutation> mutateElement(llvm::StringRef Text, const Element &E,
                                      unsigned FirstOp) {
  bool Python = llvm::StringRef(E.File).ends_with(".py");
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  unsigned Begin = Python ? (E.BodyLine ? E.BodyLine : E.BeginLine + 1)
                          : E.BeginLine + (E.EndLine > E.BeginLine ? 1 : 0);
  for (unsigned K = 0; K != 4; ++K) {
    auto Op = static_cast<MutationOperator>((FirstOp + K) % 4);
    for (unsigned L = Begin; L <= E.EndLine && L <= Lines.size(); ++L) {
      llvm::StringRef Line = Lines[L - 1].rtrim('\r');
      // A one-line C++ function: only what follows its opening brace.
      size_t Skip = 0;
      if (!Python && L == E.BeginLine) {
        Skip = Line.find('{');
        if (Skip == llvm::StringRef::npos)
          continue;
        ++Skip;
      }
      auto After = mutateLine(Line.drop_front(Skip), Op, Python);
      // Removing the whole body of a one-line function leaves nothing to
      // compile against its return type: skip.
      if (!After || (Skip && Op == MutationOperator::RemoveStatement))
        continue;
      Mutation M;
      M.File = E.File;
      M.Line = L;
      M.Op = Op;
      M.Before = Line.str();
      M.After = (Line.take_front(Skip) + *After).str();
      M.Function = E.Display;
      return M;
    }
  }
  return std::nullopt;
}

std::string applyMutation(llvm::StringRef Text, const Mutation &M) {
  std::string Out;
  unsigned Line = 1;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    llvm::StringRef Full =
        End == llvm::StringRef::npos ? Text : Text.take_front(End + 1);
    if (Line == M.Line) {
      llvm::StringRef Eol = Full.drop_front(Full.rtrim("\r\n").size());
      Out += M.After;
      Out += Eol.str();
    } else {
      Out += Full.str();
    }
    Text = Text.drop_front(Full.size());
    ++Line;
  }
  return Out;
}

std::vector<size_t> spread(size_t Total, size_t N) {
  std::vector<size_t> Out;
  if (N >= Total) {
    for (size_t I = 0; I != Total; ++I)
      Out.push_back(I);
    return Out;
  }
  for (size_t I = 0; I != N; ++I)
    Out.push_back(I * Total / N);
  return Out;
}

unsigned MutantsReport::built() const {
  unsigned N = 0;
  for (const MutantResult &M : Mutants)
    N += M.Built;
  return N;
}

unsigned MutantsReport::killed() const {
  unsigned N = 0;
  for (const MutantResult &M : Mutants)
    N += M.killed();
  return N;
}

unsigned MutantsReport::captured() const {
  unsigned N = 0;
  for (const MutantResult &M : Mutants)
    N += M.captured();
  return N;
}

namespace {

/// "Mutants at abc123def456 changed since 0123456789ab in files matching
/// `src/*` or `tests/*`."
void writeMutantsScope(const MutantsReport &R, llvm::raw_ostream &OS) {
  OS << "Mutants at " << shortId(R.Commit);
  if (!R.From.empty())
    OS << " changed since " << shortId(R.From);
  for (size_t I = 0; I < R.MutatePatterns.size(); ++I)
    OS << (I ? " or `" : " in files matching `") << R.MutatePatterns[I] << "`";
  OS << ".\n\n";
}

} // namespace

void writeMutantsJson(const MutantsReport &R, llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", 1);
    J.attribute("commit", R.Commit);
    J.attribute("from", R.From);
    J.attributeArray("mutate", [&] {
      for (const std::string &Glob : R.MutatePatterns)
        J.value(Glob);
    });
    J.attribute("build", R.Build);
    J.attribute("seconds", std::round(R.Seconds * 1000) / 1000);
    J.attributeArray("mutants", [&] {
      for (const MutantResult &M : R.Mutants)
        J.object([&] {
          J.attribute("file", M.Mut.File);
          J.attribute("line", M.Mut.Line);
          J.attribute("function", M.Mut.Function);
          J.attribute("operator", operatorName(M.Mut.Op));
          J.attribute("before", M.Mut.Before);
          J.attribute("after", M.Mut.After);
          J.attribute("built", M.Built);
          J.attribute("killed", M.killed());
          J.attribute("captured", M.captured());
          J.attribute("selected", M.Selected);
          J.attribute("selected_all", M.SelectedAll);
          J.attributeArray("failing", [&] {
            for (const std::string &T : M.Failing)
              J.value(T);
          });
          J.attributeArray("missed", [&] {
            for (const std::string &T : M.Missed)
              J.value(T);
          });
        });
    });
    J.attributeObject("total", [&] {
      J.attribute("mutants", static_cast<int64_t>(R.Mutants.size()));
      J.attribute("built", R.built());
      J.attribute("killed", R.killed());
      J.attribute("captured", R.captured());
    });
  });
  OS << "\n";
}

void writeMutants(const MutantsReport &R, bool Json, llvm::raw_ostream &OS) {
  if (Json)
    writeMutantsJson(R, OS);
  else
    writeMutantsMarkdown(R, OS);
  OS.flush();
}

void writeMutantsMarkdown(const MutantsReport &R, llvm::raw_ostream &OS) {
  writeMutantsScope(R, OS);
  OS << "| mutant | operator | function | killed by | selected | captured "
        "|\n|---|---|---|--:|--:|:-:|\n";
  for (const MutantResult &M : R.Mutants) {
    OS << "| " << M.Mut.File << ":" << M.Mut.Line << " | "
       << operatorName(M.Mut.Op) << " | `" << M.Mut.Function << "` | ";
    if (!M.Built)
      OS << "not built | - | - |\n";
    else
      OS << M.Failing.size() << " | " << M.Selected
         << (M.SelectedAll ? " (all)" : "") << " | "
         << (!M.killed()    ? "-"
             : M.captured() ? "yes"
                            : "**no**")
         << " |\n";
  }
  OS << "\n"
     << R.Mutants.size() << " mutants, " << R.built() << " built, "
     << R.killed() << " killed, " << R.captured() << " killed and captured.\n";
  for (const MutantResult &M : R.Mutants)
    for (const std::string &T : M.Missed)
      OS << "- missed `" << T << "` for " << M.Mut.File << ":" << M.Mut.Line
         << " (" << operatorName(M.Mut.Op) << ")\n";
}

std::string mutantsSummary(const MutantsReport &R) {
  unsigned NotBuilt = R.Mutants.size() - R.built();
  std::optional<double> Share;
  if (R.killed())
    Share = double(R.captured()) / R.killed();
  return llvm::formatv("{0} mutant{1}{2} in {3:f1}s: {4} killed, {5} killed "
                       "and captured ({6})",
                       R.Mutants.size(), pluralS(R.Mutants.size()),
                       NotBuilt
                           ? llvm::formatv(" ({0} not built)", NotBuilt).str()
                           : std::string(),
                       R.Seconds, R.killed(), R.captured(), percent(Share))
      .str();
}

} // namespace eval
} // namespace tia
