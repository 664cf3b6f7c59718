#include "ops/ops.h"
#include <cstdlib>
#include <doctest/doctest.h>

TEST_CASE("passes") { CHECK(ops::add(1, 1) == 2); }

TEST_CASE("fails") {
  int Sum = ops::add(1, 1);
  CHECK(Sum == 3);
}

TEST_CASE("crashes, loudly") {
  ops::negate(1);
  std::abort();
}

TEST_CASE("passes after") { CHECK(ops::subtract(1, 1) == 0); }
