#include "ops/ops.h"
#include <boost/test/unit_test.hpp>
#include <cstdlib>

// A failed BOOST_WARN is a warning, not a failure.
BOOST_AUTO_TEST_CASE(passes) {
  BOOST_WARN(ops::add(1, 1) == 3);
  BOOST_TEST(ops::add(1, 1) == 2);
}

BOOST_AUTO_TEST_CASE(fails) {
  int Sum = ops::add(1, 1);
  BOOST_TEST(Sum == 3);
}

// Boost.Test catches the signal and goes on with the next case.
BOOST_AUTO_TEST_CASE(crashes) {
  ops::negate(1);
  std::abort();
}

BOOST_AUTO_TEST_CASE(passes_after) { BOOST_TEST(ops::subtract(1, 1) == 0); }
