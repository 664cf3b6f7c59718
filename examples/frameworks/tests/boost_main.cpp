// Boost.Test's main, compiled once for every Boost.Test binary of the
// example (the shared library's main, as BOOST_TEST_DYN_LINK asks).
#define BOOST_TEST_MODULE ops
#include <boost/test/unit_test.hpp>
