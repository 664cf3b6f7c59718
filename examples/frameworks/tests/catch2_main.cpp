// Catch2's main, compiled once for every Catch2 binary of the fixture.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
