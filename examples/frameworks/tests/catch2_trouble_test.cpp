#include "ops/ops.h"
#include <catch2/catch.hpp>
#include <cstdlib>

TEST_CASE("passes") { REQUIRE(ops::add(1, 1) == 2); }

TEST_CASE("fails") {
  int Sum = ops::add(1, 1);
  REQUIRE(Sum == 3);
}

TEST_CASE("crashes, loudly") {
  ops::negate(1);
  std::abort();
}

TEST_CASE("passes after") { REQUIRE(ops::subtract(1, 1) == 0); }
