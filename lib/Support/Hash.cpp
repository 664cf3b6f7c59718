//===- Hash.cpp -----------------------------------------------------------===//

#include "tia/Support/Hash.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/xxhash.h"

namespace tia {

std::string gitBlobHash(llvm::StringRef Content) {
  llvm::SHA1 H;
  std::string Header = "blob " + std::to_string(Content.size());
  H.update(llvm::StringRef(Header.data(), Header.size() + 1)); // with the NUL
  H.update(Content);
  auto Digest = H.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest.data(), Digest.size()),
                     /*LowerCase=*/true);
}

std::string executableDigest() {
  // Linux finds the program through /proc/self/exe, without argv[0].
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  auto Buf = llvm::MemoryBuffer::getFile(Self, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (Self.empty() || !Buf)
    return "";
  return llvm::utohexstr(llvm::xxh3_64bits((*Buf)->getBuffer()),
                         /*LowerCase=*/true, /*Width=*/16);
}

void TokenHasher::add(llvm::StringRef Token) {
  uint64_t T = llvm::xxh3_64bits(Token);
  // Order matters: mix the running state with the token's hash.
  State = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
              reinterpret_cast<const uint8_t *>(&State), sizeof(State))) ^
          (T + 0x9e3779b97f4a7c15ULL + (State << 6) + (State >> 2));
  ++Count;
}

std::string TokenHasher::hex() const {
  if (Count == 0)
    return "0000000000000000";
  return llvm::utohexstr(State, /*LowerCase=*/true, /*Width=*/16);
}

} // namespace tia
