//===- Quote.cpp - paths in text and JSON output --------------------------===//

#include "tia/Support/Quote.h"
#include "llvm/Support/ConvertUTF.h"

namespace tia {

namespace {

/// The length of the valid UTF-8 sequence at the start of \p Text, or 0.
size_t validSequence(llvm::StringRef Text) {
  unsigned Length = llvm::getNumBytesForUTF8(Text[0]);
  if (Length > Text.size())
    return 0;
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.data());
  return llvm::isLegalUTF8Sequence(Begin, Begin + Length) ? Length : 0;
}

bool isControl(unsigned char C) { return C < 0x20 || C == 0x7f; }

} // namespace

bool needsQuoting(llvm::StringRef Text) {
  for (size_t I = 0; I < Text.size();) {
    unsigned char C = Text[I];
    if (isControl(C) || C == '"' || C == '\\')
      return true;
    if (C < 0x80) {
      ++I;
      continue;
    }
    size_t N = validSequence(Text.substr(I));
    if (!N)
      return true;
    I += N;
  }
  return false;
}

std::string quotePath(llvm::StringRef Text) {
  if (!needsQuoting(Text))
    return Text.str();
  std::string Out = "\"";
  auto Octal = [&](unsigned char C) {
    Out += '\\';
    Out += static_cast<char>('0' + (C >> 6));
    Out += static_cast<char>('0' + ((C >> 3) & 7));
    Out += static_cast<char>('0' + (C & 7));
  };
  for (size_t I = 0; I < Text.size();) {
    unsigned char C = Text[I];
    const char *Escape = nullptr;
    switch (C) {
    case '\a': Escape = "\\a"; break;
    case '\b': Escape = "\\b"; break;
    case '\t': Escape = "\\t"; break;
    case '\n': Escape = "\\n"; break;
    case '\v': Escape = "\\v"; break;
    case '\f': Escape = "\\f"; break;
    case '\r': Escape = "\\r"; break;
    case '"': Escape = "\\\""; break;
    case '\\': Escape = "\\\\"; break;
    default: break;
    }
    if (Escape) {
      Out += Escape;
      ++I;
    } else if (isControl(C)) {
      Octal(C);
      ++I;
    } else if (C < 0x80) {
      Out += static_cast<char>(C);
      ++I;
    } else if (size_t N = validSequence(Text.substr(I))) {
      Out.append(Text.data() + I, N);
      I += N;
    } else {
      Octal(C);
      ++I;
    }
  }
  return Out + "\"";
}

std::string jsonPath(llvm::StringRef Text) {
  size_t Invalid = 0;
  for (size_t I = 0; I < Text.size();) {
    if (static_cast<unsigned char>(Text[I]) < 0x80) {
      ++I;
      continue;
    }
    size_t N = validSequence(Text.substr(I));
    if (!N) {
      ++Invalid;
      break;
    }
    I += N;
  }
  if (Invalid || Text.starts_with("\""))
    return quotePath(Text);
  return Text.str();
}

std::string shellQuoted(llvm::StringRef Arg) {
  if (!Arg.empty() && Arg.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
                          "WXYZ0123456789-_./=:,+@%^") == llvm::StringRef::npos)
    return Arg.str();
  std::string Out = "'";
  for (char C : Arg)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

} // namespace tia
