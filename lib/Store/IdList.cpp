//===- IdList.cpp - sorted ids as delta-coded varints ---------------------===//

#include "IdList.h"
#include <cassert>

namespace tia {
namespace store {

namespace {

void appendVarint(std::string &Out, uint64_t Value) {
  while (Value >= 0x80) {
    Out += static_cast<char>((Value & 0x7f) | 0x80);
    Value >>= 7;
  }
  Out += static_cast<char>(Value);
}

/// Reads one varint at \p At; false when the bytes end inside it, or it is
/// longer than a 63-bit value needs or has a redundant trailing zero byte.
bool readVarint(llvm::StringRef Bytes, size_t &At, uint64_t &Value) {
  Value = 0;
  for (unsigned Shift = 0; Shift < 63; Shift += 7) {
    if (At == Bytes.size())
      return false;
    uint8_t Byte = static_cast<uint8_t>(Bytes[At++]);
    Value |= uint64_t(Byte & 0x7f) << Shift;
    if (!(Byte & 0x80))
      return Byte != 0 || Shift == 0;
  }
  return false;
}

template <typename Id> std::string encode(llvm::ArrayRef<Id> Ids) {
  std::string Out;
  Out.reserve(Ids.size() + 4);
  appendVarint(Out, Ids.size());
  int64_t Previous = -1;
  for (Id Value : Ids) {
    assert(int64_t(Value) > Previous && "ids must be increasing");
    // Previous + 1 >= 0: the gap is taken without signed overflow.
    appendVarint(Out, uint64_t(int64_t(Value)) - uint64_t(Previous + 1));
    Previous = int64_t(Value);
  }
  return Out;
}

template <typename Id>
std::optional<std::vector<Id>> decode(llvm::StringRef Bytes, int64_t Low,
                                      int64_t High) {
  size_t At = 0;
  uint64_t Count;
  // Every id takes at least one byte: a count beyond the bytes left is
  // damage, not a reason to reserve gigabytes.
  if (!readVarint(Bytes, At, Count) || Count > Bytes.size() - At)
    return std::nullopt;
  std::vector<Id> Out;
  Out.reserve(Count);
  int64_t Previous = -1;
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Gap;
    // The next id, Previous + 1 + Gap, must fit: Gap <= INT64_MAX - 1 -
    // Previous, which itself cannot overflow since Previous >= -1.
    if (!readVarint(Bytes, At, Gap) || Gap > uint64_t(INT64_MAX - 1 - Previous))
      return std::nullopt;
    int64_t Value = Previous + 1 + int64_t(Gap);
    if (Value < Low || Value >= High)
      return std::nullopt;
    Out.push_back(static_cast<Id>(Value));
    Previous = Value;
  }
  if (At != Bytes.size())
    return std::nullopt;
  return Out;
}

} // namespace

std::string encodeIdList(llvm::ArrayRef<int64_t> Ids) { return encode(Ids); }
std::string encodeIdList(llvm::ArrayRef<uint32_t> Ids) { return encode(Ids); }

std::optional<std::vector<int64_t>> decodeIdList(llvm::StringRef Bytes,
                                                 int64_t Low, int64_t High) {
  return decode<int64_t>(Bytes, Low, High);
}

std::optional<std::vector<uint32_t>> decodeIdList32(llvm::StringRef Bytes,
                                                    int64_t Low, int64_t High) {
  return decode<uint32_t>(Bytes, Low, std::min(High, int64_t(UINT32_MAX) + 1));
}

llvm::StringRef damagedIdList() {
  // A count of one and no id after it.
  return llvm::StringRef("\x01", 1);
}

} // namespace store
} // namespace tia
