#include "ops/ops.h"
#include <doctest/doctest.h>

TEST_CASE("adds") { CHECK(ops::add(2, 3) == 5); }

TEST_CASE("subtracts") { CHECK(ops::subtract(5, 3) == 2); }

TEST_CASE("odd: name, with [brackets] and \\ backslash") {
  CHECK(ops::multiply(2, 3) == 6);
}

TEST_SUITE("negation") {
  TEST_CASE("negating twice") {
    SUBCASE("a number") { CHECK(ops::negate(ops::negate(4)) == 4); }
  }
}

struct Numbers {
  int Two = ops::add(1, 1);
};
TEST_CASE_FIXTURE(Numbers, "fixture multiplies") {
  CHECK(ops::multiply(Two, 2) == 4);
}

TEST_CASE_TEMPLATE("typed adds", T, int, long) {
  CHECK(ops::add(T(1), T(1)) == 2);
}

TEST_CASE("skipped" * doctest::skip()) { CHECK(ops::negate(1) == -1); }
