//===- IdListTest.cpp - sorted ids as delta-coded varints -----------------===//

#include "IdList.h"
#include "gtest/gtest.h"
#include <cstdint>

using namespace tia;

namespace {

using Ids = std::vector<int64_t>;

TEST(IdListTest, RoundTrips) {
  for (const Ids &List :
       {Ids{}, Ids{0}, Ids{1, 2, 3}, Ids{5, 200, 201, 70000, 1ll << 40},
        Ids{0, INT64_MAX - 1}, Ids{int64_t(UINT32_MAX)}}) {
    auto Back = store::decodeIdList(store::encodeIdList(List));
    ASSERT_TRUE(Back.has_value());
    EXPECT_EQ(*Back, List);
  }
}

TEST(IdListTest, DenseIdsTakeAByteEach) {
  Ids List;
  for (int64_t I = 1000; I < 2000; I += 3)
    List.push_back(I);
  // The count (2 bytes), the first id (2) and a byte per gap.
  EXPECT_EQ(store::encodeIdList(List).size(), 2 + 2 + List.size() - 1);
}

TEST(IdListTest, ThirtyTwoBitListsRoundTripAndKeepTheirBounds) {
  std::vector<uint32_t> List{4096, 4100, 8191};
  std::string Bytes = store::encodeIdList(List);
  auto Back = store::decodeIdList32(Bytes, 4096, 8192);
  ASSERT_TRUE(Back.has_value());
  EXPECT_EQ(*Back, List);
  // Outside the block it claims to be.
  EXPECT_FALSE(store::decodeIdList32(Bytes, 0, 4096).has_value());
  EXPECT_FALSE(store::decodeIdList32(Bytes, 8192, 12288).has_value());
  // Beyond 32 bits.
  EXPECT_FALSE(
      store::decodeIdList32(store::encodeIdList(Ids{int64_t(UINT32_MAX) + 1}))
          .has_value());
}

TEST(IdListTest, DamageIsRefused) {
  std::string Bytes = store::encodeIdList(Ids{3, 300, 30000});
  ASSERT_TRUE(store::decodeIdList(Bytes).has_value());
  EXPECT_FALSE(store::decodeIdList(Bytes + "x").has_value()); // trailing
  EXPECT_FALSE(store::decodeIdList(Bytes.substr(0, Bytes.size() - 1))
                   .has_value());                    // cut short
  EXPECT_FALSE(store::decodeIdList("").has_value()); // no count
  EXPECT_FALSE(store::decodeIdList(store::damagedIdList()).has_value());
  // A count far beyond the bytes: refused before anything is reserved.
  EXPECT_FALSE(store::decodeIdList("\xff\xff\xff\xff\x0f\x01").has_value());
  // An overlong varint (a trailing zero byte) and one past 63 bits.
  EXPECT_FALSE(
      store::decodeIdList(llvm::StringRef("\x01\x81\x00", 3)).has_value());
  EXPECT_FALSE(store::decodeIdList("\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff"
                                   "\x01")
                   .has_value());
  // Ids must not leave the bounds asked for.
  EXPECT_FALSE(store::decodeIdList(Bytes, 4).has_value());
  EXPECT_FALSE(store::decodeIdList(Bytes, 0, 30000).has_value());
}

} // namespace
