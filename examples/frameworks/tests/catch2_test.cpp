#include "ops/ops.h"
#include <catch2/catch.hpp>

TEST_CASE("adds", "[arith]") { REQUIRE(ops::add(2, 3) == 5); }

TEST_CASE("subtracts", "[arith]") { REQUIRE(ops::subtract(5, 3) == 2); }

TEST_CASE("odd: name, with [brackets] and \\ backslash", "[odd]") {
  REQUIRE(ops::multiply(2, 3) == 6);
}

SCENARIO("negating twice") {
  GIVEN("a number") {
    THEN("it comes back") { REQUIRE(ops::negate(ops::negate(4)) == 4); }
  }
}

struct Numbers {
  int Two = ops::add(1, 1);
};
TEST_CASE_METHOD(Numbers, "fixture multiplies") {
  REQUIRE(ops::multiply(Two, 2) == 4);
}

TEMPLATE_TEST_CASE("typed adds", "[typed]", int, long) {
  REQUIRE(ops::add(TestType(1), TestType(1)) == 2);
}

TEST_CASE("hidden", "[.]") { REQUIRE(ops::negate(1) == -1); }
