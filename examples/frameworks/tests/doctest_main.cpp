// doctest's main, compiled once for every doctest binary of the fixture.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
