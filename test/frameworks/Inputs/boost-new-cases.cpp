
// Cases boost-select.test adds: a namespace of the user's is no suite.
namespace not_a_suite {
BOOST_AUTO_TEST_SUITE(new_suite)
BOOST_DATA_TEST_CASE(new_data, boost::unit_test::data::make({3}), X) {
  BOOST_TEST(X == 3);
}
BOOST_AUTO_TEST_SUITE(new_inner)
BOOST_AUTO_TEST_CASE(new_case) { BOOST_TEST(ops::negate(2) == -2); }
BOOST_AUTO_TEST_SUITE_END()
BOOST_AUTO_TEST_SUITE_END()
} // namespace not_a_suite
BOOST_FIXTURE_TEST_CASE(new_fixture, Numbers) { BOOST_TEST(Two == 2); }
BOOST_AUTO_TEST_CASE_TEMPLATE(new_typed, T, Types) {}
BOOST_AUTO_TEST_CASE(new_disabled, *boost::unit_test::disabled()) {}
