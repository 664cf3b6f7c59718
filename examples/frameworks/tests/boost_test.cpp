#include "ops/ops.h"
#include <boost/mpl/list.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <utility>

BOOST_AUTO_TEST_CASE(adds) { BOOST_TEST(ops::add(2, 3) == 5); }

BOOST_AUTO_TEST_CASE(subtracts) { BOOST_TEST(ops::subtract(5, 3) == 2); }

BOOST_AUTO_TEST_SUITE(negation)

BOOST_AUTO_TEST_CASE(negating_twice) {
  BOOST_TEST(ops::negate(ops::negate(4)) == 4);
}

BOOST_DATA_TEST_CASE(negates, boost::unit_test::data::make({1, 2}), X) {
  BOOST_TEST(ops::negate(X) == -X);
}

BOOST_AUTO_TEST_SUITE_END()

struct Numbers {
  int Two = ops::add(1, 1);
};
BOOST_FIXTURE_TEST_CASE(fixture_multiplies, Numbers) {
  BOOST_TEST(ops::multiply(Two, 2) == 4);
}

// Boost names the instances "typed_adds<int>" and, for a pair, replaces the
// characters its filters read: "typed_adds<std__pair<int_ long>>".
using Types = boost::mpl::list<int, std::pair<int, long>>;
BOOST_AUTO_TEST_CASE_TEMPLATE(typed_adds, T, Types) {
  BOOST_TEST(ops::add(1, 1) == 2);
}

BOOST_AUTO_TEST_CASE(skipped, *boost::unit_test::disabled()) {
  BOOST_TEST(ops::negate(1) == -1);
}
